"""Exporting cards for Anki and spreadsheets: CSV with Anki's header lines, or an .apkg.

The cards to export are chosen with the browser's search language (studio.core.cards).
CSV carries text, tags and a guid column (the card's key) so importing it again updates
in place. The .apkg is a schema-11 Anki collection (collection.anki2) with one note type,
"ML Infra Studio" (Front, Back, Front (zh), Back (zh)) plus a Cloze type, and the review
history as Anki's revlog, so Anki (or this app) can import it with the history kept.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import tempfile
import time
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import select

from studio.core.cards import browse
from studio.core.collection import Collection
from studio.core.importers.anki import OWN_FIELDS, text_to_html
from studio.core.models import Card, ReviewLog, ReviewUndo

FORMATS = ("csv", "apkg")
BASIC_MID = 1700000000001
CLOZE_MID = 1700000000002
DECK_ID = 1


@dataclass
class ExportResult:
    cards: int
    notes: int
    reviews: int
    path: Path


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

_CSS = ".card { font-family: sans-serif; font-size: 18px; text-align: left; }"


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
        "latexPost": "\\end{document}", "latexsvg": False, "req": [[0, "any", [0, 2]]] if not cloze else [[0, "any", [0]]],
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


def export_cards_apkg(col: Collection, out: Path, query: str = "") -> ExportResult:
    cards, reviews = _select_cards(col, query)
    now = int(time.time())
    crt = int(datetime(2020, 1, 1, tzinfo=timezone.utc).timestamp())
    deck_names = sorted({c.deck for c in cards if c.deck})
    decks = {str(DECK_ID): _deck(DECK_ID, "Default", now)}
    deck_ids = {name: 1700000001000 + i for i, name in enumerate(deck_names)}
    for name, did in deck_ids.items():
        decks[str(did)] = _deck(did, name, now)
    models = {
        str(BASIC_MID): _model(BASIC_MID, "ML Infra Studio", list(OWN_FIELDS),
                               "{{Front}}{{#Front (zh)}}<br>{{Front (zh)}}{{/Front (zh)}}",
                               "{{FrontSide}}<hr id=answer>{{Back}}{{#Back (zh)}}<br>{{Back (zh)}}{{/Back (zh)}}",
                               False, now),
        str(CLOZE_MID): _model(CLOZE_MID, "ML Infra Studio Cloze", ["Text", "Back Extra"],
                               "{{cloze:Text}}", "{{cloze:Text}}<br>{{Back Extra}}", True, now),
    }
    conf = {"nextPos": len(cards) + 1, "estTimes": True, "activeDecks": [1], "sortType": "noteFld", "timeLim": 0,
            "sortBackwards": False, "addToCur": True, "curDeck": 1, "newSpread": 0, "dueCounts": True,
            "curModel": str(BASIC_MID), "collapseTime": 1200}
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
                    if cloze:
                        values = [card.q_en or card.q_zh, card.a_en or card.a_zh]
                    else:
                        values = [card.q_en, card.a_en, card.q_zh, card.a_zh]
                    flds = "\x1f".join(text_to_html(v) for v in values)
                    sort_field = (card.q_en or card.q_zh)
                    db.execute("INSERT INTO notes VALUES (?,?,?,?,?,?,?,?,?,0,'')",
                               (nid, guid, CLOZE_MID if cloze else BASIC_MID, now, -1,
                                f" {card.tags} " if card.tags else "", flds, sort_field, _checksum(sort_field)))
                ctype, queue, due, ivl, factor = _card_sched(card, crt)
                if card.suspended:
                    queue = -1
                data = json.dumps({"s": card.stability, "d": card.difficulty}) if card.stability else ""
                cid = card.id + 2_000_000_000_000
                db.execute("INSERT INTO cards VALUES (?,?,?,?,?,-1,?,?,?,?,?,?,?,0,0,0,0,?)",
                           (cid, note_ids[guid], deck_ids.get(card.deck, DECK_ID),
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
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.write(db_path, "collection.anki2")
            zf.writestr("media", "{}")
    return ExportResult(len(cards), len(note_ids), review_count, Path(out))


def export_cards(col: Collection, fmt: str, out: Path, query: str = "") -> ExportResult:
    """Export the cards a browser search finds, as csv or apkg."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}")
    return (export_cards_csv if fmt == "csv" else export_cards_apkg)(col, Path(out), query)


__all__ = ["export_cards", "export_cards_csv", "export_cards_apkg", "ExportResult", "FORMATS"]
