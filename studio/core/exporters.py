"""Exporting cards for Anki and spreadsheets: CSV with Anki's header lines, or an .apkg.

The cards to export are chosen with the browser's search language (studio.core.cards).
CSV carries text, tags and a guid column (the card's key) so importing it again updates
in place. The .apkg is a schema-11 Anki collection (collection.anki2) with one note type,
"ML Infra Studio" (Front, Back: rendered HTML in the chosen language(s); Studio source: the
Markdown, shown by no template) plus a Cloze type, a deck per roadmap area, the roadmap node
as a tag, images as media, and the review history as Anki's revlog, so Anki (or this app)
can import it with the history kept. Note GUIDs are our card keys: exporting again updates
the notes in Anki instead of adding copies.
"""

from __future__ import annotations

import csv
import html
import io
import json
import sqlite3
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import select

from studio.core.anki_render import CARD_CSS, LANGUAGES, Media, render_bilingual
from studio.core.cards import browse
from studio.core.collection import Collection
from studio.core.importers.anki import OWN_FIELDS, SOURCE_FIELD  # SOURCE_FIELD: the Markdown, as JSON
from studio.core.models import Card, ReviewLog, ReviewUndo

FORMATS = ("csv", "apkg")
# Note types with rendered fields (before: 1700000000001/2 with Markdown in four text fields).
BASIC_MID = 1700000000011
CLOZE_MID = 1700000000012
DECK_ID = 1
ROOT_DECK = "ML Infra Studio"


@dataclass
class ExportResult:
    cards: int
    notes: int
    reviews: int
    path: Path
    media: int = 0
    problems: list[str] = field(default_factory=list)


def _guid(card: Card) -> str:
    """The key without the "anki:" prefix, so an Anki deck goes back to Anki with its guids."""
    base = card.key.split("#c")[0] if card.kind == "cloze" else card.key
    return base[5:] if base.startswith("anki:") else base


def _select_cards(col: Collection, query: str) -> tuple[list[Card], dict[int, list[ReviewLog]]]:
    ids = [row.id for row in browse(col, query or "", order="due")]
    cards: list[Card] = []
    reviews: dict[int, list[ReviewLog]] = {}
    with col.db.session() as s:
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            cards.extend(s.scalars(select(Card).where(Card.id.in_(chunk))))
            undone = select(ReviewUndo.review_id)
            for log in s.scalars(select(ReviewLog).where(ReviewLog.card_id.in_(chunk), ReviewLog.id.not_in(undone),
                                                         ReviewLog.mode == "review").order_by(ReviewLog.reviewed_at)):
                reviews.setdefault(log.card_id, []).append(log)
    cards.sort(key=lambda c: c.id)
    return cards, reviews


def export_cards_csv(col: Collection, out: Path, query: str = "") -> ExportResult:
    cards, _ = _select_cards(col, query)
    buf = io.StringIO()
    buf.write("#separator:Comma\n#html:false\n#guid column:1\n#tags column:6\n")
    buf.write("#columns:" + ",".join(("GUID",) + OWN_FIELDS + ("Tags",)) + "\n")
    writer = csv.writer(buf, lineterminator="\n")
    seen_notes: set[str] = set()
    for card in cards:
        guid = _guid(card)
        if guid in seen_notes:  # a cloze note is one row, whatever its number of deletions
            continue
        seen_notes.add(guid)
        writer.writerow([guid, card.q_en, card.a_en, card.q_zh, card.a_zh, card.tags])
    Path(out).write_text(buf.getvalue(), encoding="utf-8", newline="")
    return ExportResult(len(cards), len(seen_notes), 0, Path(out))


# --- .apkg -------------------------------------------------------------------------------
_SCHEMA = """
CREATE TABLE col (id integer primary key, crt integer not null, mod integer not null, scm integer not null,
  ver integer not null, dty integer not null, usn integer not null, ls integer not null, conf text not null,
  models text not null, decks text not null, dconf text not null, tags text not null);
CREATE TABLE notes (id integer primary key, guid text not null, mid integer not null, mod integer not null,
  usn integer not null, tags text not null, flds text not null, sfld integer not null, csum integer not null,
  flags integer not null, data text not null);
CREATE TABLE cards (id integer primary key, nid integer not null, did integer not null, ord integer not null,
  mod integer not null, usn integer not null, type integer not null, queue integer not null, due integer not null,
  ivl integer not null, factor integer not null, reps integer not null, lapses integer not null,
  left integer not null, odue integer not null, odid integer not null, flags integer not null, data text not null);
CREATE TABLE revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null,
  ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null,
  type integer not null);
CREATE TABLE graves (usn integer not null, oid integer not null, type integer not null);
CREATE INDEX ix_notes_usn on notes (usn);
CREATE INDEX ix_cards_usn on cards (usn);
CREATE INDEX ix_revlog_usn on revlog (usn);
CREATE INDEX ix_cards_nid on cards (nid);
CREATE INDEX ix_cards_sched on cards (did, queue, due);
CREATE INDEX ix_revlog_cid on revlog (cid);
CREATE INDEX ix_notes_csum on notes (csum);
"""

_CSS = CARD_CSS


def _field(name: str, ord_: int) -> dict:
    return {"name": name, "ord": ord_, "sticky": False, "rtl": False, "font": "Arial", "size": 18, "media": []}


def _model(mid: int, name: str, fields: list[str], qfmt: str, afmt: str, cloze: bool, now: int) -> dict:
    return {
        "id": mid, "name": name, "type": 1 if cloze else 0, "mod": now, "usn": -1, "sortf": 0, "did": DECK_ID,
        "tmpls": [{"name": "Cloze" if cloze else "Card 1", "ord": 0, "qfmt": qfmt, "afmt": afmt,
                   "bqfmt": "", "bafmt": "", "did": None, "bfont": "", "bsize": 0}],
        "flds": [_field(f, i) for i, f in enumerate(fields)], "css": _CSS,
        "latexPre": "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage{amssymb,amsmath}\n"
                    "\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n\\begin{document}\n",
        "latexPost": "\\end{document}", "latexsvg": False, "req": [[0, "any", [0]]],
        "tags": [], "vers": [],
    }


def _deck(did: int, name: str, now: int) -> dict:
    return {"id": did, "name": name, "mod": now, "usn": -1, "lrnToday": [0, 0], "revToday": [0, 0],
            "newToday": [0, 0], "timeToday": [0, 0], "collapsed": False, "browserCollapsed": False, "desc": "",
            "dyn": 0, "conf": 1, "extendNew": 0, "extendRev": 0}


_DCONF = {"1": {"id": 1, "name": "Default", "mod": 0, "usn": 0, "maxTaken": 60, "autoplay": True, "timer": 0,
                "replayq": True, "dyn": False,
                "new": {"bury": False, "delays": [1.0, 10.0], "initialFactor": 2500, "ints": [1, 4, 0], "order": 1,
                        "perDay": 20},
                "lapse": {"delays": [10.0], "leechAction": 1, "leechFails": 8, "minInt": 1, "mult": 0.0},
                "rev": {"bury": False, "ease4": 1.3, "ivlFct": 1.0, "maxIvl": 36500, "perDay": 200, "hardFactor": 1.2}}}


def _checksum(text: str) -> int:
    import hashlib

    return int(hashlib.sha1(text.encode()).hexdigest()[:8], 16)


def _card_sched(card: Card, crt: int) -> tuple[int, int, int, int, int]:
    """Anki (type, queue, due, ivl, factor) for a card's current state."""
    if card.last_review is None:
        return 0, 0, card.id, 0, 0
    due_s = int(card.due.replace(tzinfo=timezone.utc).timestamp())
    factor = int(round(1300 + (10 - (card.difficulty or 5)) * 170))
    if card.fsrs_state == 2:
        ivl = max(1, round((card.due - card.last_review).total_seconds() / 86400))
        return 2, 2, max(0, (due_s - crt) // 86400), ivl, factor
    return (3 if card.lapses else 1), 1, due_s, 0, factor


def _area_deck(col: Collection, card: Card, language: str) -> str:
    """A deck per roadmap area ("ML Infra Studio::<area title>"); a card on no node keeps its deck."""
    roadmap = col.roadmap
    if card.node_id:
        node = roadmap.nodes.get(card.node_id) if roadmap else None
        if node is not None:
            while node.parent is not None:
                node = node.parent
            title = node.title("zh" if language == "zh" else "en") or node.id
        else:
            title = card.node_id.split(".")[0]
        return f"{ROOT_DECK}::{title.replace('::', ':')}"
    return card.deck or ROOT_DECK


def _anki_tags(card: Card) -> str:
    """The card's tags plus its roadmap node as a hierarchical tag (roadmap::area::node)."""
    tags = [t for t in card.tags.split() if t]
    if card.node_id:
        tags.append("roadmap::" + card.node_id.replace(".", "::"))
    return f" {' '.join(dict.fromkeys(tags))} " if tags else ""


def _stable_id(text: str, base: int) -> int:
    import hashlib

    return base + int(hashlib.sha1(text.encode()).hexdigest()[:12], 16) % 1_000_000_000


def _base_dir(col: Collection, card: Card) -> Path | None:
    """Where a card's relative image paths point: its deck folder (shipped) or its source file's folder."""
    if card.source == "shipped":
        return col.content_dir / "decks"
    try:
        origin = json.loads(card.origin or "{}")
    except ValueError:
        return None
    source = origin.get("file") or origin.get("path") if isinstance(origin, dict) else None
    return Path(source).parent if isinstance(source, str) and source else None


def export_cards_apkg(col: Collection, out: Path, query: str = "", language: str = "both") -> ExportResult:
    """An .apkg with every card's Markdown rendered to HTML in `language` (en, zh or both).

    Notes carry the Markdown itself in a field no template shows ("Studio source"), so the
    deck comes back to this app word for word; their GUIDs are our card keys, so exporting
    again updates the notes already in Anki instead of adding copies.
    """
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    cards, reviews = _select_cards(col, query)
    now = int(time.time())
    crt = int(datetime(2020, 1, 1, tzinfo=timezone.utc).timestamp())
    decks = {str(DECK_ID): _deck(DECK_ID, "Default", now)}
    deck_of = {card.id: _area_deck(col, card, language) for card in cards}
    deck_ids = {name: _stable_id(name, 1_600_000_000_000) for name in sorted(set(deck_of.values()))}
    for name, did in deck_ids.items():
        decks[str(did)] = _deck(did, name, now)
    models = {
        str(BASIC_MID): _model(BASIC_MID, "ML Infra Studio", ["Front", "Back", SOURCE_FIELD],
                               "{{Front}}", "{{FrontSide}}<hr id=answer>{{Back}}", False, now),
        str(CLOZE_MID): _model(CLOZE_MID, "ML Infra Studio Cloze", ["Text", "Back Extra", SOURCE_FIELD],
                               "{{cloze:Text}}", "{{cloze:Text}}{{#Back Extra}}<hr>{{Back Extra}}{{/Back Extra}}",
                               True, now),
    }
    conf = {"nextPos": len(cards) + 1, "estTimes": True, "activeDecks": [1], "sortType": "noteFld", "timeLim": 0,
            "sortBackwards": False, "addToCur": True, "curDeck": 1, "newSpread": 0, "dueCounts": True,
            "curModel": str(BASIC_MID), "collapseTime": 1200,
            "schedVer": 2}  # without it Anki reads learning answers as the old 3-button scale (Good -> Easy)
    media = Media()
    with tempfile.TemporaryDirectory(prefix="studio-export-") as tmp:
        db_path = Path(tmp) / "collection.anki2"
        db = sqlite3.connect(db_path)
        try:
            db.executescript(_SCHEMA)
            db.execute("INSERT INTO col VALUES (1,?,?,?,11,0,0,0,?,?,?,?,?)",
                       (crt, now * 1000, now * 1000, json.dumps(conf), json.dumps(models), json.dumps(decks),
                        json.dumps(_DCONF), "{}"))
            note_ids: dict[str, int] = {}
            review_count = 0
            used_rev_ids: set[int] = set()
            for card in cards:
                guid = _guid(card)
                cloze = card.kind == "cloze"
                if guid not in note_ids:
                    nid = card.id + 1_000_000_000_000
                    note_ids[guid] = nid
                    where, base = f"card {card.key}", _base_dir(col, card)
                    front = render_bilingual(card.q_en, card.q_zh, language, media, base, where)
                    back = render_bilingual(card.a_en, card.a_zh, language, media, base, where)
                    source = html.escape(json.dumps({"v": 1, "q_en": card.q_en, "a_en": card.a_en, "q_zh": card.q_zh,
                                                     "a_zh": card.a_zh, "tags": card.tags,
                                                     "node": card.node_id or ""}, ensure_ascii=False), quote=False)
                    sort_field = (card.q_en or card.q_zh)
                    db.execute("INSERT INTO notes VALUES (?,?,?,?,?,?,?,?,?,0,'')",
                               (nid, guid, CLOZE_MID if cloze else BASIC_MID, now, -1, _anki_tags(card),
                                "\x1f".join((front, back, source)), sort_field, _checksum(sort_field)))
                ctype, queue, due, ivl, factor = _card_sched(card, crt)
                if card.suspended:
                    queue = -1
                data = json.dumps({"s": card.stability, "d": card.difficulty}) if card.stability else ""
                cid = card.id + 2_000_000_000_000
                db.execute("INSERT INTO cards VALUES (?,?,?,?,?,-1,?,?,?,?,?,?,?,0,0,0,0,?)",
                           (cid, note_ids[guid], deck_ids[deck_of[card.id]],
                            max(0, card.cloze_ord - 1) if cloze else 0, now, ctype, queue, due, ivl, factor,
                            card.reps, card.lapses, data))
                for log in reviews.get(card.id, []):
                    rid = int(log.reviewed_at.replace(tzinfo=timezone.utc).timestamp() * 1000)
                    while rid in used_rev_ids:
                        rid += 1
                    used_rev_ids.add(rid)
                    rtype = 0 if log.was_new or json.loads(log.state_before or "{}").get("fsrs_state") == 1 else 1
                    db.execute("INSERT INTO revlog VALUES (?,?,-1,?,?,?,?,?,?)",
                               (rid, cid, log.rating, 0, 0, 0, log.duration_ms or 0, rtype))
                    review_count += 1
            db.commit()
        finally:
            db.close()
        names = sorted(media.files)
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.write(db_path, "collection.anki2")
            zf.writestr("media", json.dumps({str(i): name for i, name in enumerate(names)}))
            for i, name in enumerate(names):
                zf.writestr(str(i), media.files[name])
    return ExportResult(len(cards), len(note_ids), review_count, Path(out), len(names), media.problems)


def export_cards(col: Collection, fmt: str, out: Path, query: str = "", language: str = "both") -> ExportResult:
    """Export the cards a browser search finds, as csv (Markdown as written) or apkg (rendered)."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}")
    if fmt == "csv":
        return export_cards_csv(col, Path(out), query)
    return export_cards_apkg(col, Path(out), query, language)


__all__ = ["export_cards", "export_cards_csv", "export_cards_apkg", "ExportResult", "FORMATS", "LANGUAGES",
           "SOURCE_FIELD"]
