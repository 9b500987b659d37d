"""Full-text search over notes and cards.

FTS5 with the trigram tokenizer finds Chinese as well as English substrings; queries
of fewer than three characters (common in Chinese: 算子, 显存) fall back to LIKE on
the base tables. User text is always quoted, so FTS syntax in a query is just text.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from sqlalchemy import text

from studio.core.collection import Collection


@dataclass
class SearchHit:
    kind: str  # note | card
    id: int
    title: str
    snippet: str
    node_id: str | None
    path: str = ""
    score: float = 0.0
    highlighted: str = ""  # the snippet as HTML, matches in <b>


_MARK_OPEN, _MARK_CLOSE = "\x02", "\x03"


def _marked_to_html(snippet: str) -> str:
    """FTS snippet with control-character markers -> escaped HTML with <b> around matches."""
    return html.escape(snippet).replace(_MARK_OPEN, "<b>").replace(_MARK_CLOSE, "</b>")


def highlight(text_: str, query: str) -> str:
    """Escape `text_` and bold every case-insensitive occurrence of `query`."""
    if not query:
        return html.escape(text_)
    parts = re.split("(" + re.escape(query) + ")", text_, flags=re.I)
    return "".join(f"<b>{html.escape(p)}</b>" if i % 2 else html.escape(p) for i, p in enumerate(parts))


def _one_line(snippet: str) -> str:
    return " ".join(snippet.split())


def _fts_quote(query: str) -> str:
    return '"' + query.replace('"', '""') + '"'


def like_pattern(query: str) -> str:
    """A LIKE pattern matching `query` literally (use with ESCAPE '\\')."""
    return "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def search_notes(col: Collection, query: str, limit: int = 50) -> list[SearchHit]:
    query = query.strip()
    if not query:
        return []
    with col.db.engine.connect() as conn:
        if len(query) >= 3:
            rows = conn.execute(text(
                "SELECT n.id, n.title, snippet(notes_fts, 1, char(2), char(3), '…', 16), n.node_id, n.path, "
                "bm25(notes_fts, 10.0, 1.0, 5.0) AS score FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid "
                "WHERE notes_fts MATCH :q ORDER BY score LIMIT :lim"), {"q": _fts_quote(query), "lim": limit})
        else:
            rows = conn.execute(text(
                "SELECT id, title, substr(body, max(1, instr(lower(body), lower(:raw)) - 30), 80), node_id, path, "
                "CASE WHEN title LIKE :p ESCAPE '\\' THEN 0 ELSE 1 END AS score FROM notes "
                "WHERE title LIKE :p ESCAPE '\\' OR body LIKE :p ESCAPE '\\' ORDER BY score, title LIMIT :lim"),
                {"p": like_pattern(query), "raw": query, "lim": limit})
        hits = []
        for r in rows:
            raw = _one_line(r[2] or "")
            marked = _marked_to_html(raw) if _MARK_OPEN in raw else highlight(raw, query)
            plain = raw.replace(_MARK_OPEN, "").replace(_MARK_CLOSE, "")
            hits.append(SearchHit("note", r[0], r[1], plain, r[3], r[4], float(r[5]), marked))
        return hits


def search_cards(col: Collection, query: str, limit: int = 50) -> list[SearchHit]:
    query = query.strip()
    if not query:
        return []
    with col.db.engine.connect() as conn:
        if len(query) >= 3:
            rows = conn.execute(text(
                "SELECT c.id, c.q_en, c.q_zh, c.node_id, bm25(cards_fts, 5.0, 1.0, 5.0, 1.0, 3.0) AS score "
                "FROM cards_fts JOIN cards c ON c.id = cards_fts.rowid "
                "WHERE cards_fts MATCH :q AND c.retired = 0 ORDER BY score LIMIT :lim"),
                {"q": _fts_quote(query), "lim": limit})
        else:
            rows = conn.execute(text(
                "SELECT id, q_en, q_zh, node_id, 0 FROM cards WHERE retired = 0 AND ("
                "q_en LIKE :p ESCAPE '\\' OR a_en LIKE :p ESCAPE '\\' OR q_zh LIKE :p ESCAPE '\\' "
                "OR a_zh LIKE :p ESCAPE '\\' OR tags LIKE :p ESCAPE '\\') ORDER BY id LIMIT :lim"),
                {"p": like_pattern(query), "lim": limit})
        hits = []
        for r in rows:
            q_en, q_zh = r[1] or "", r[2] or ""
            shown = q_zh if query.lower() in q_zh.lower() else q_en
            hits.append(SearchHit("card", r[0], q_en, q_zh, r[3], score=float(r[4]),
                                  highlighted=highlight(_one_line(shown), query)))
        return hits


def search_all(col: Collection, query: str, limit: int = 50) -> list[SearchHit]:
    """Notes first (their snippets carry context), then cards, each in rank order."""
    return search_notes(col, query, limit) + search_cards(col, query, limit)
