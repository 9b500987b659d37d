"""Cards beyond review: the browser's search language, user cards, bulk edits.

Search syntax (Anki-like; terms are ANDed, a leading '-' negates a term):
    free text        words or "quoted phrases" in either language (FTS, LIKE under 3 chars)
    tag:NAME         cards carrying the tag
    node:ID          cards on a roadmap node or anywhere below it
    deck:NAME        cards from a shipped deck
    is:due           reviewed before and due by the end of today
    is:new           never reviewed
    is:suspended     suspended cards
    is:flagged       cards with any flag
    prop:r<0.8       retrievability now; also prop:s (stability, days), prop:d (difficulty),
                     prop:lapses, prop:reps; operators < <= > >= =
Retrievability is computed in SQL with the FSRS forgetting curve, so a search over tens
of thousands of cards stays fast.
"""

from __future__ import annotations

import re
import shlex
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from fsrs import Scheduler
from sqlalchemy import text

from studio.core.collection import Collection, utcnow
from studio.core.models import Card
from studio.core.search import like_pattern

_DECAY = -Scheduler().parameters[20]
_FACTOR = 0.9 ** (1 / _DECAY) - 1
COLUMNS = ("question", "node", "tags", "due", "interval", "stability", "difficulty",
           "retrievability", "lapses", "reviews")
_ORDER_SQL = {
    "question": "c.q_en", "node": "c.node_id", "tags": "c.tags", "due": "c.due",
    "interval": "ivl", "stability": "c.stability", "difficulty": "c.difficulty",
    "retrievability": "r", "lapses": "c.lapses", "reviews": "c.reps",
}
_PROP_SQL = {"r": "r", "s": "c.stability", "d": "c.difficulty", "lapses": "c.lapses", "reps": "c.reps"}
_PROP_RE = re.compile(r"^(r|s|d|lapses|reps)(<=|>=|<|>|=)(-?\d+(?:\.\d+)?)$")


class SearchSyntaxError(ValueError):
    """A search the browser cannot run; the message says which term and why."""


@dataclass
class BrowserRow:
    id: int
    key: str
    question: str
    question_zh: str
    node: str
    tags: str
    due: datetime | None
    interval_days: float | None
    stability: float | None
    difficulty: float | None
    retrievability: float | None
    lapses: int
    reviews: int
    suspended: bool
    flag: int
    is_new: bool


def retrievability_sql(now_param: str = ":now") -> str:
    elapsed = f"max(0, CAST(julianday({now_param}) - julianday(c.last_review) AS INTEGER))"
    return (f"CASE WHEN c.last_review IS NULL OR c.stability IS NULL THEN NULL "
            f"ELSE pow(1 + {_FACTOR!r} * {elapsed} / c.stability, {_DECAY!r}) END")


def compile_query(query: str, now: datetime, cutoff: datetime) -> tuple[str, dict]:
    """Turn a browser search into a SQL WHERE clause and its parameters."""
    clauses, params, words = _compile(query, now, cutoff)
    for n, (match, negate) in enumerate(words):
        p = f"w{n}"
        params[p] = match
        # `+c.id`: test membership while scanning the covering browse index in display
        # order, instead of one rowid lookup into the wide cards table per match and a sort.
        clause = f"+c.id IN (SELECT rowid FROM cards_fts WHERE cards_fts MATCH :{p})"
        clauses.append(f"NOT {clause}" if negate else clause)
    return " AND ".join(clauses), params


def _compile(query: str, now: datetime, cutoff: datetime) -> tuple[list[str], dict, list[tuple[str, bool]]]:
    """(SQL clauses, their parameters, the full-text words apart: (FTS5 phrase, negated))."""
    try:
        terms = shlex.split(query)
    except ValueError as exc:
        raise SearchSyntaxError(f"unbalanced quotes in search: {exc}") from exc
    clauses, params, words = ["c.retired = 0"], {"now": now, "cutoff": cutoff}, []
    for n, term in enumerate(terms):
        negate = term.startswith("-") and len(term) > 1
        if negate:
            term = term[1:]
        key, sep, value = term.partition(":")
        p = f"p{n}"
        if sep and key == "tag":
            params[p] = value.lower()
            clause = f"instr(' ' || c.tags || ' ', ' ' || :{p} || ' ') > 0"
        elif sep and key == "node":
            params[p], params[p + "s"] = value, value + ".%"
            clause = f"(c.node_id = :{p} OR c.node_id LIKE :{p}s)"
        elif sep and key == "deck":
            params[p] = value
            clause = f"c.deck = :{p}"
        elif sep and key == "is":
            clause = {
                "due": "(c.last_review IS NOT NULL AND c.due < :cutoff)",
                "new": "c.last_review IS NULL",
                "suspended": "c.suspended = 1",
                "flagged": "c.flag > 0",
                "review": "(c.last_review IS NOT NULL AND c.fsrs_state = 2)",
                "learn": "(c.last_review IS NOT NULL AND c.fsrs_state != 2)",
            }.get(value)
            if clause is None:
                raise SearchSyntaxError(f"unknown search 'is:{value}' (use due, new, suspended, flagged, review, learn)")
        elif sep and key == "prop":
            m = _PROP_RE.match(value)
            if not m:
                raise SearchSyntaxError(f"cannot read 'prop:{value}' (example: prop:r<0.8, prop:lapses>=3)")
            params[p] = float(m.group(3))
            clause = f"({_PROP_SQL[m.group(1)]} {m.group(2)} :{p})"
        else:
            word = term
            if len(word) >= 3:       # the trigram index: a phrase of the word's trigrams
                words.append(('"' + word.replace('"', '""') + '"', negate))
                continue
            else:
                params[p] = like_pattern(word)
                clause = ("(" + " OR ".join(f"c.{f} LIKE :{p} ESCAPE '\\'" for f in
                                            ("q_en", "a_en", "q_zh", "a_zh", "tags")) + ")")
        clauses.append(f"NOT {clause}" if negate else clause)
    return clauses, params, words


_IVL_SQL = "CASE WHEN c.last_review IS NULL THEN NULL ELSE julianday(c.due) - julianday(c.last_review) END"


def search_ids(col: Collection, query: str = "", order: str = "due", descending: bool = False,
               now: datetime | None = None) -> list[int]:
    """Ids of the cards matching a browser search, in display order (as Anki's browser does).

    Only ids: the covering index ix_cards_browse answers it without reading card text;
    the browser then fetches the rows it shows with `rows_for_ids`.
    """
    now = now or utcnow()
    cutoff = col.end_of_today(now.replace(tzinfo=timezone.utc))
    clauses, params, words = _compile(query, now, cutoff)
    if order not in _ORDER_SQL:
        raise SearchSyntaxError(f"cannot sort by {order!r}")
    with col.db.engine.connect() as conn:
        db = conn.connection.driver_connection
        if not words:
            return _ordered_ids(db, clauses, params, order, descending)
        # Free text: each word's cards from the trigram index as an array, then the display
        # order filtered by them. SQLite's own `id IN (subquery)` builds a b-tree of the
        # matches first: 4 of the 10 ms that "softmax" (13k of 20k cards) took.
        import numpy as np

        wanted = unwanted = None
        for match, negate in words:
            ids = _fts_ids(db, match)
            if negate:
                unwanted = ids if unwanted is None else np.union1d(unwanted, ids)
            else:
                wanted = ids if wanted is None else np.intersect1d(wanted, ids, assume_unique=True)
        if wanted is not None and unwanted is not None:
            wanted = np.setdiff1d(wanted, unwanted, assume_unique=True)
        if wanted is not None and len(wanted) <= _FEW_MATCHES:   # a rare word: SQLite sorts the few
            if not len(wanted):
                return []
            listed = clauses + [f"c.id IN ({','.join(map(str, wanted.tolist()))})"]
            return _ordered_ids(db, listed, params, order, descending)
    # A common word: the display order of the cards the other terms select, filtered here.
    # It is kept until the next commit (the browser's searches, one per pause in typing,
    # mostly differ in their words) unless it depends on the clock (retrievability).
    sql, raw = _ordered_sql(clauses, params, order, descending)

    def compute():
        with col.db.engine.connect() as conn:
            return _ordered_array(conn.connection.driver_connection, clauses, params, order, descending)

    if "now" in raw:
        everything = compute()
    elif order == "due" and not descending and clauses == ["c.retired = 0"]:
        # Words only, in the default order: the order of every live card, kept across
        # commits by moving only the cards the change log names (an answer moves one).
        def read():
            with col.db.engine.connect() as conn:
                return _read_live_order(conn.connection.driver_connection)

        def patch(kept):
            with col.db.engine.connect() as conn:
                return _patch_live_order(conn.connection.driver_connection, kept)

        live = col.db.kept().get(("browse-order", "live-due"), read, patch)
        everything = live.ids if live is not None else compute()
    else:
        everything = col.db.kept().get(("browse-order", sql, tuple(sorted(raw.items()))), compute)
    if wanted is None:
        return everything[~np.isin(everything, unwanted, assume_unique=True)].tolist()
    return everything[np.isin(everything, wanted, assume_unique=True)].tolist()


_FEW_MATCHES = 2000


def _fts_ids(db, match: str):
    """The ids of the cards (retired ones too) whose text holds an FTS5 phrase: a sorted
    int64 array, read as one string (per-row fetching of 13k ids cost 2 ms)."""
    import numpy as np

    joined = db.execute("SELECT group_concat(rowid) FROM cards_fts WHERE cards_fts MATCH ?", (match,)).fetchone()[0]
    ids = _int_array(joined)
    if len(ids) > 1 and not bool((ids[1:] > ids[:-1]).all()):   # FTS5 gives rowids ascending
        ids = np.unique(ids)
    return ids


def _int_array(joined: str | None):
    """The integers of a `group_concat` string as an int64 array."""
    import numpy as np

    if not joined:
        return np.empty(0, dtype=np.int64)
    ids = np.fromstring(joined, dtype=np.int64, sep=",")
    if len(ids) != joined.count(",") + 1:      # never seen; parse it the slow way rather than lose ids
        ids = np.array([int(v) for v in joined.split(",")], dtype=np.int64)
    return ids


def _ordered_ids(db, clauses: list[str], params: dict, order: str, descending: bool) -> list[int]:
    """Ids of the cards matching SQL clauses, in display order, on a sqlite3 connection."""
    return _ordered_array(db, clauses, params, order, descending).tolist()


def _ordered_array(db, clauses: list[str], params: dict, order: str, descending: bool):
    """`_ordered_ids` as an int64 array: the due order read as one string where it can be,
    else row by row."""
    import numpy as np

    sql, raw = _ordered_sql(clauses, params, order, descending)
    ids = _due_order(db, clauses, raw, descending) if order == "due" else None
    if ids is None:
        listed = _fetch_ids(db, sql, raw)
        ids = np.fromiter(listed, dtype=np.int64, count=len(listed))
    return ids


# Due dates as SQLAlchemy stores them: 'YYYY-MM-DD HH:MM:SS.ffffff', 26 characters (the
# column is NOT NULL: a new card is due when it is made).
_DUE_WIDTH = 26


@dataclass
class LiveOrder:
    """The ids of every live card in due order, their due keys ('YYYY-MM-DD HH:MM:SS.ffffff,'
    as bytes), and the newest change-log entry (seq, nonce) at the moment they were read."""

    ids: Any
    keys: Any
    seq: int | None
    nonce: int | None


MAX_PATCH = 512     # more changes than this since the kept order: read it again


class _ReadSnapshot:
    """One read transaction on a sqlite3 connection (unless one is open already), so that
    what is read inside sees one state of the database."""

    def __init__(self, db):
        self.db = db
        self.began = False

    def __enter__(self):
        if not self.db.in_transaction:
            self.db.execute("BEGIN")
            self.began = True
        return self.db

    def __exit__(self, *exc):
        if self.began and self.db.in_transaction:
            self.db.execute("COMMIT")


def _read_live_order(db) -> LiveOrder | None:
    """The due order of all live cards, with where the change log stood, from one snapshot;
    None when it cannot be read as one string (`_due_order`)."""
    import sqlite3

    with _ReadSnapshot(db):
        try:
            last = db.execute("SELECT seq, nonce FROM card_changes ORDER BY seq DESC LIMIT 1").fetchone()
        except sqlite3.OperationalError:        # no change log (a file from before revision 0005)
            last = None
        read = _due_order(db, ["c.retired = 0"], {}, False, with_keys=True)
    if read is None:
        return None
    ids, keys = read
    return LiveOrder(ids, keys, *(last or (None, None)))


def _patch_live_order(db, kept: LiveOrder | None) -> LiveOrder | None:
    """`kept` brought up to date by the cards logged since it was read: each is taken out
    and, if still live, put back where its due date now sorts it. None (read it all again)
    when the log does not hold the entry `kept` was read at with the same nonce (the log
    was cut, or this is another file, such as a restored backup), when more than MAX_PATCH
    cards moved, or when a due is not a stored date."""
    import sqlite3

    import numpy as np

    if kept is None or kept.seq is None:
        return None
    with _ReadSnapshot(db):
        try:
            log = db.execute("SELECT seq, card_id, nonce FROM card_changes WHERE seq >= ? ORDER BY seq LIMIT ?",
                             (kept.seq, MAX_PATCH + 2)).fetchall()
        except sqlite3.OperationalError:
            return None
        if not log or log[0][0] != kept.seq or log[0][2] != kept.nonce or len(log) > MAX_PATCH + 1:
            return None
        moved = sorted({card for _, card, _ in log[1:]})
        now_live = db.execute(f"SELECT id, due FROM cards WHERE retired = 0 AND id IN ({','.join(map(str, moved))})"
                              ).fetchall() if moved else []
    seq, nonce = log[-1][0], log[-1][2]
    ids, keys = kept.ids, kept.keys
    if moved:
        stay = ~np.isin(ids, np.asarray(moved, dtype=np.int64))
        ids, keys = ids[stay], keys[stay]
    if now_live:
        if not all(isinstance(due, str) and len(due) == _DUE_WIDTH and due.isascii() for _, due in now_live):
            return None
        add_ids = np.array([card for card, _ in now_live], dtype=np.int64)
        add_keys = np.array([(due + ",").encode("ascii") for _, due in now_live], dtype=keys.dtype)
        first = np.lexsort((add_ids, add_keys))
        add_ids, add_keys = add_ids[first], add_keys[first]
        lo = np.searchsorted(keys, add_keys, "left")
        hi = np.searchsorted(keys, add_keys, "right")
        at = [int(a) + int(np.searchsorted(ids[a:b], card)) for a, b, card in zip(lo, hi, add_ids)]
        ids, keys = np.insert(ids, at, add_ids), np.insert(keys, at, add_keys)
    return LiveOrder(ids, keys, seq, nonce)


def _due_order(db, clauses: list[str], raw: dict, descending: bool, with_keys: bool = False):
    """The ids matching SQL clauses in due order as an int64 array, read as two strings, or
    None when that cannot be shown to be SQLite's order (the caller then fetches rows).

    Fetching 20,000 one-id rows through the sqlite3 module costs ~6 ms; `group_concat` over
    the ordered rows ~2. SQLite documents the order in which an aggregate sees a subquery's
    rows only from 3.44 (`group_concat(x ORDER BY y)`), so each id comes with its due date
    from the same row (two aggregates of one query see the rows in the same order) and the
    order is checked here: ids strictly increasing by (due, id) is the one sorted order of
    that set, whatever order SQLite fed them in."""
    import numpy as np

    where = " AND ".join(clauses)
    if re.search(r"\b(r|ivl)\b", where):               # computed columns: `_ordered_sql`'s way
        return None
    direction = "DESC" if descending else "ASC"
    sql = (f"SELECT group_concat(id), group_concat(k) FROM (SELECT c.id AS id, c.due AS k "
           f"FROM cards c WHERE {where} ORDER BY c.due {direction} NULLS LAST, c.id)")
    joined_ids, joined_keys = db.execute(sql, raw).fetchone()
    ids = _int_array(joined_ids)
    if not len(ids):
        return (ids, np.empty(0, dtype=f"S{_DUE_WIDTH + 1}")) if with_keys else ids
    try:
        keys = joined_keys.encode("ascii")
    except (AttributeError, UnicodeEncodeError):       # a due that is not a stored date
        return None
    width = _DUE_WIDTH + 1
    if len(keys) != width * len(ids) - 1 or keys.count(b",") != len(ids) - 1:
        return None                                    # some due is not 26 characters (or none)
    keys = np.frombuffer(keys + b",", dtype=f"S{width}")
    if not due_order_holds(ids, keys, descending):
        return None
    return (ids, keys) if with_keys else ids


def due_order_holds(ids, keys, descending: bool) -> bool:
    """Whether ids (with their due keys) are strictly ordered by (due, id), due descending or
    not, id always ascending: the browser's due order."""
    later = keys[1:] < keys[:-1] if descending else keys[1:] > keys[:-1]
    return bool((later | ((keys[1:] == keys[:-1]) & (ids[1:] > ids[:-1]))).all())


def _fetch_ids(db, sql: str, raw: dict) -> list[int]:
    """The first column of every row, straight from the sqlite3 cursor."""
    return [row[0] for row in db.execute(sql, raw).fetchall()]


def _ordered_sql(clauses: list[str], params: dict, order: str, descending: bool) -> tuple[str, dict]:
    """The statement for `_ordered_ids` and the parameters it uses, as sqlite3 takes them."""
    where = " AND ".join(clauses)
    # Computed columns only when the search or the sort uses them: evaluating the forgetting
    # curve for every card costs more than the index scan itself.
    columns = ["c.id"]
    if order == "interval":
        columns.append(f"{_IVL_SQL} AS ivl")
    if order == "retrievability" or re.search(r"\br\b", where):
        columns.append(f"{retrievability_sql()} AS r")
    sql = (f"SELECT {', '.join(columns)} FROM cards c WHERE {where} "
           f"ORDER BY {_ORDER_SQL[order]} {'DESC' if descending else 'ASC'} NULLS LAST, c.id")
    # Straight to the sqlite3 cursor: a common word matches most cards, and SQLAlchemy's
    # per-row processing of 13,000 ids took longer than SQLite's search (bench/trainer_scale.py).
    raw = {k: _sql_value(v) for k, v in params.items() if re.search(rf":{k}\b", sql)}
    return sql, raw


def _sql_value(value):
    """A parameter as SQLAlchemy stores it in SQLite (DateTime: 'YYYY-MM-DD HH:MM:SS.ffffff')."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")
    return value


def rows_for_ids(col: Collection, ids: list[int], now: datetime | None = None) -> list[BrowserRow]:
    """The browser's columns for the given cards, in the given order."""
    if not ids:
        return []
    now = now or utcnow()
    marks = ",".join(str(int(i)) for i in ids)
    sql = (f"SELECT c.id, c.key, c.q_en, c.q_zh, c.node_id, c.tags, c.due, {_IVL_SQL}, "
           f"c.stability, c.difficulty, {retrievability_sql()} AS r, c.lapses, c.reps, c.suspended, c.flag, "
           f"c.last_review IS NULL FROM cards c WHERE c.id IN ({marks})")
    with col.db.engine.connect() as conn:
        found = {r[0]: r for r in conn.execute(text(sql), {"now": now})}
    return [
        BrowserRow(r[0], r[1], r[2], r[3] or "", r[4] or "", r[5] or "",
                   datetime.fromisoformat(r[6]) if isinstance(r[6], str) else r[6],
                   r[7], r[8], r[9], r[10], r[11], r[12], bool(r[13]), r[14], bool(r[15]))
        for r in (found[i] for i in ids if i in found)
    ]


def browse(col: Collection, query: str = "", order: str = "due", descending: bool = False,
           limit: int | None = None, now: datetime | None = None) -> list[BrowserRow]:
    """Cards matching a browser search with the browser's columns (the first `limit`)."""
    now = now or utcnow()
    ids = search_ids(col, query, order, descending, now)
    return rows_for_ids(col, ids[:limit] if limit else ids, now)


@dataclass
class CardDraft:
    q_en: str = ""
    a_en: str = ""
    q_zh: str = ""
    a_zh: str = ""
    node_id: str | None = None
    tags: list[str] | None = None
    kind: str = "qa"


def _validate(draft: CardDraft) -> None:
    if not (draft.q_en.strip() or draft.q_zh.strip()):
        raise ValueError("A card needs a question in at least one language.")
    if draft.kind == "qa" and not (draft.a_en.strip() or draft.a_zh.strip()):
        raise ValueError("A question/answer card needs an answer in at least one language.")
    if draft.kind == "cloze" and "{{c" not in draft.q_en + draft.q_zh:
        raise ValueError("A cloze card needs at least one {{c1::...}} deletion.")


def create_card(col: Collection, draft: CardDraft, source: str = "user", origin: str = "") -> list[int]:
    """Create a user card (one per cloze ordinal); returns the new card ids."""
    from studio.core.decks import cloze_ordinals

    _validate(draft)
    now = utcnow()
    base = f"{source}:{uuid.uuid4().hex[:12]}"
    ords = [0] if draft.kind != "cloze" else sorted(
        cloze_ordinals(draft.q_en + "\n" + draft.q_zh))
    ids = []
    with col.db.session() as s, s.begin():
        for ordinal in ords:
            card = Card(
                key=base if ordinal == 0 else f"{base}#c{ordinal}", source=source, node_id=draft.node_id,
                tags=" ".join(t.strip().lower() for t in (draft.tags or []) if t.strip()), kind=draft.kind,
                cloze_ord=ordinal, q_en=draft.q_en.strip(), a_en=draft.a_en.strip(), q_zh=draft.q_zh.strip(),
                a_zh=draft.a_zh.strip(), origin=origin, created_at=now, modified_at=now, due=now,
            )
            s.add(card)
            s.flush()
            ids.append(card.id)
    return ids


def update_card(col: Collection, card_id: int, draft: CardDraft) -> None:
    """Edit a card's text, node and tags in place; scheduling is untouched."""
    _validate(draft)
    with col.db.session() as s, s.begin():
        card = s.get(Card, card_id)
        if card is None:
            raise LookupError(f"card {card_id} does not exist")
        card.q_en, card.a_en, card.q_zh, card.a_zh = (draft.q_en.strip(), draft.a_en.strip(),
                                                      draft.q_zh.strip(), draft.a_zh.strip())
        card.node_id = draft.node_id
        if draft.tags is not None:
            card.tags = " ".join(t.strip().lower() for t in draft.tags if t.strip())
        card.modified_at = utcnow()


def set_suspended(col: Collection, card_ids: list[int], suspended: bool) -> None:
    with col.db.session() as s, s.begin():
        for card in s.query(Card).filter(Card.id.in_(card_ids)):
            card.suspended = suspended


def retag(col: Collection, card_ids: list[int], add: list[str] = (), remove: list[str] = ()) -> None:
    add_l = [t.lower() for t in add if t]
    remove_l = {t.lower() for t in remove}
    with col.db.session() as s, s.begin():
        for card in s.query(Card).filter(Card.id.in_(card_ids)):
            tags = [t for t in card.tags.split() if t not in remove_l]
            tags += [t for t in add_l if t not in tags]
            card.tags = " ".join(tags)
            card.modified_at = utcnow()


def delete_cards(col: Collection, card_ids: list[int]) -> int:
    """Delete cards and their history. Shipped cards stay deleted across content updates."""
    with col.db.session() as s, s.begin():
        cards = list(s.query(Card).filter(Card.id.in_(card_ids)))
        shipped = [c.key for c in cards if c.source == "shipped"]
        for card in cards:
            s.delete(card)
    if shipped:
        deleted = set(col.get_setting("content.deleted_keys", []) or [])
        col.set_setting("content.deleted_keys", sorted(deleted | set(shipped)))
    return len(cards)
