"""The roadmap of the field: loading, validating and measuring progress.

The roadmap is content (content/roadmap.yaml); each node's state is user data kept in
the database. Loading validates the file and names the file and line of every
problem, so a broken edit gives a message instead of an empty tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

STATES = ("pending", "learning", "done", "skipped")
_ID_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")


class RoadmapError(Exception):
    """The roadmap file cannot be used; the message names file and line."""


@dataclass
class RoadmapNode:
    id: str
    title_en: str
    title_zh: str
    summary_en: str
    summary_zh: str
    note: str | None = None
    tags: list[str] = field(default_factory=list)
    children: list[RoadmapNode] = field(default_factory=list)
    parent: RoadmapNode | None = field(default=None, repr=False)
    depth: int = 0
    line: int = 0

    def title(self, lang: str) -> str:
        return self.title_zh if lang.startswith("zh") and self.title_zh else self.title_en

    def summary(self, lang: str) -> str:
        return self.summary_zh if lang.startswith("zh") and self.summary_zh else self.summary_en

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass
class Roadmap:
    areas: list[RoadmapNode]
    nodes: dict[str, RoadmapNode]

    def walk(self):
        for area in self.areas:
            yield from area.walk()

    def subtree_ids(self, node_id: str) -> list[str]:
        node = self.nodes.get(node_id)
        return [n.id for n in node.walk()] if node else []

    def progress(self, node_id: str, states: dict[str, str]) -> tuple[int, int]:
        """(done + skipped, total) over a node's subtree, the node itself included."""
        ids = self.subtree_ids(node_id)
        finished = sum(1 for i in ids if states.get(i, "pending") in ("done", "skipped"))
        return finished, len(ids)

    def overall_progress(self, states: dict[str, str]) -> tuple[int, int]:
        ids = list(self.nodes)
        finished = sum(1 for i in ids if states.get(i, "pending") in ("done", "skipped"))
        return finished, len(ids)


class _LineLoader(yaml.SafeLoader):
    """A safe loader that remembers the line each mapping starts on."""


def _construct_mapping(loader, node):
    mapping = loader.construct_mapping(node, deep=True)
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _bilingual(raw: dict, key: str, where: str) -> tuple[str, str]:
    value = raw.get(key)
    if not isinstance(value, dict):
        raise RoadmapError(f"{where}: '{key}' must be a mapping with 'en' and 'zh'")
    en, zh = value.get("en"), value.get("zh")
    if not isinstance(en, str) or not en.strip() or not isinstance(zh, str) or not zh.strip():
        raise RoadmapError(f"{where}: '{key}' needs non-empty 'en' and 'zh' text")
    return en.strip(), zh.strip()


def _build(raw, parent: RoadmapNode | None, path: Path, nodes: dict[str, RoadmapNode]) -> RoadmapNode:
    line = raw.get("__line__", 0) if isinstance(raw, dict) else 0
    where = f"{path}:{line}"
    if not isinstance(raw, dict):
        raise RoadmapError(f"{where}: a node must be a mapping")
    node_id = raw.get("id")
    if not isinstance(node_id, str) or not _ID_RE.match(node_id):
        raise RoadmapError(f"{where}: node id {node_id!r} must be lowercase letters, digits, '.' and '-'")
    if parent is not None and not node_id.startswith(parent.id + "."):
        raise RoadmapError(f"{where}: node id '{node_id}' must start with its parent's id '{parent.id}.'")
    if node_id in nodes:
        raise RoadmapError(f"{where}: duplicate node id '{node_id}' (first at line {nodes[node_id].line})")
    title_en, title_zh = _bilingual(raw, "title", where)
    summary_en, summary_zh = _bilingual(raw, "summary", where)
    tags = raw.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise RoadmapError(f"{where}: 'tags' must be a list of strings")
    note = raw.get("note")
    if note is not None and not isinstance(note, str):
        raise RoadmapError(f"{where}: 'note' must be a note name")
    node = RoadmapNode(
        id=node_id,
        title_en=title_en,
        title_zh=title_zh,
        summary_en=summary_en,
        summary_zh=summary_zh,
        note=note,
        tags=[t.lower() for t in tags],
        parent=parent,
        depth=0 if parent is None else parent.depth + 1,
        line=line,
    )
    nodes[node_id] = node
    children = raw.get("children") or []
    if not isinstance(children, list):
        raise RoadmapError(f"{where}: 'children' must be a list")
    node.children = [_build(child, node, path, nodes) for child in children]
    return node


def load_roadmap(path: Path) -> Roadmap:
    """Load and validate a roadmap file; raise RoadmapError naming file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise RoadmapError(f"{path}: roadmap file is missing") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise RoadmapError(f"{path}: cannot read roadmap file ({exc})") from exc
    try:
        data = yaml.load(text, Loader=_LineLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise RoadmapError(f"{path}{line}: invalid YAML: {problem}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("areas"), list):
        raise RoadmapError(f"{path}:1: expected a mapping with an 'areas' list")
    nodes: dict[str, RoadmapNode] = {}
    areas = [_build(raw, None, path, nodes) for raw in data["areas"]]
    return Roadmap(areas=areas, nodes=nodes)


def due_cards_by_node(roadmap: Roadmap, due_cards: list[tuple[int, str | None, str]]) -> dict[str, int]:
    """Due cards under each node: cards naming a node of its subtree, or carrying one of
    the subtree's `tags`. `due_cards` is (card id, node id, space-separated tags); each
    card counts once per node however many ways it matches.
    """
    by_node: dict[str, set[int]] = {}
    by_tag: dict[str, set[int]] = {}
    for card_id, node_id, tags in due_cards:
        by_node.setdefault(node_id or "", set()).add(card_id)
        for tag in (tags or "").lower().split():
            by_tag.setdefault(tag, set()).add(card_id)
    counts: dict[str, int] = {}

    def visit(node: RoadmapNode) -> set[int]:
        ids = set(by_node.get(node.id, ()))
        for tag in node.tags:
            ids |= by_tag.get(tag, set())
        for child in node.children:
            ids |= visit(child)
        counts[node.id] = len(ids)
        return ids

    for area in roadmap.areas:
        visit(area)
    return counts


def node_due_counts(col, now=None) -> dict[str, int]:
    """Per-node due counts (subtree and tags included) for the collection's roadmap."""
    from sqlalchemy import select

    from studio.core.models import Card

    roadmap = col.roadmap
    if roadmap is None:
        return {}
    cutoff = col.end_of_today(now)
    with col.db.session() as s:
        rows = s.execute(select(Card.id, Card.node_id, Card.tags).where(
            Card.retired.is_(False), Card.suspended.is_(False),
            Card.last_review.is_not(None), Card.due < cutoff)).all()
    return due_cards_by_node(roadmap, [tuple(r) for r in rows])
