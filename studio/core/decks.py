"""Shipped decks: Markdown files of bilingual cards with stable ids.

The format is documented in content/README.md. Parsing is fence-aware (a `##` line
inside a code block is code, not a card) and collects every problem with file and line
instead of stopping at the first, so one bad card never hides a whole deck.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from studio.core.frontmatter import split_front_matter

_CLOZE_OPEN = re.compile(r"\{\{c([0-9]{1,3})::")


def iter_clozes(text: str):
    r"""(start, end, number, answer, hint or None) of each "{{cN::answer[::hint]}}", in one pass.

    The same reading as the pattern r"{{c(\d+)::(.*?)(?:::(.*?))?}}" (the answer ends at the
    first "::" or "}}", the hint at the next "}}"), without its backtracking: that pattern
    took 28 s on 6 KB of "{{c1::" with no "}}" (issue #16). Numbers have at most 3 digits.
    """
    pos = 0
    while m := _CLOZE_OPEN.search(text, pos):
        body = m.end()
        close = text.find("}}", body)
        if close < 0:
            return  # no later deletion can be closed either
        sep = text.find("::", body, close)
        if sep >= 0:
            close = text.find("}}", sep + 2)
            answer, hint = text[body:sep], text[sep + 2:close]
        else:
            answer, hint = text[body:close], None
        yield m.start(), close + 2, int(m.group(1)), answer, hint
        pos = close + 2


def cloze_ordinals(text: str) -> set[int]:
    return {n for _, _, n, _, _ in iter_clozes(text)}
_SECTION_KEYS = {"q": "q_en", "a": "a_en", "问": "q_zh", "答": "a_zh"}
_FENCE_RE = re.compile(r"^\s*(```|~~~)")


@dataclass
class DeckCard:
    """A card as written in a deck file (a cloze card may yield several review cards)."""

    id: str
    deck: str
    topic: str
    node: str
    tags: list[str]
    level: int
    kind: str
    q_en: str = ""
    a_en: str = ""
    q_zh: str = ""
    a_zh: str = ""
    path: Path | None = None
    line: int = 0

    def review_keys(self) -> list[tuple[str, int]]:
        """(card key, cloze ordinal) of each review card this deck card produces."""
        if self.kind != "cloze":
            return [(self.id, 0)]
        ords = sorted(cloze_ordinals(self.q_en + "\n" + self.q_zh))
        return [(f"{self.id}#c{n}", n) for n in ords]


@dataclass
class Deck:
    name: str
    topic: str
    title_en: str
    title_zh: str
    path: Path
    cards: list[DeckCard] = field(default_factory=list)


@dataclass
class DeckProblem:
    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def fence_mask(lines: list[str]) -> list[bool]:
    """For each line, whether it sits inside (or opens/closes) a fenced code block."""
    inside, marks, fence = False, [], ""
    for line in lines:
        m = _FENCE_RE.match(line)
        if m and (not inside or m.group(1) == fence):
            marks.append(True)
            inside = not inside
            fence = m.group(1) if inside else ""
        else:
            marks.append(inside)
    return marks


def parse_deck(path: Path) -> tuple[Deck | None, list[DeckProblem]]:
    problems: list[DeckProblem] = []
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [DeckProblem(path, 0, f"cannot read deck: {exc}")]
    fm, body = split_front_matter(text)
    if fm.error:
        return None, [DeckProblem(path, 1, fm.error)]
    offset = text[: len(text) - len(body)].count("\n")
    name = str(fm.raw.get("deck") or path.stem)
    title = fm.raw.get("title") if isinstance(fm.raw.get("title"), dict) else {}
    deck = Deck(
        name=name,
        topic=str(fm.raw.get("topic") or name),
        title_en=str(title.get("en") or name),
        title_zh=str(title.get("zh") or title.get("en") or name),
        path=path,
    )
    lines = body.split("\n")
    fenced = fence_mask(lines)
    starts = [i for i, line in enumerate(lines) if not fenced[i] and line.startswith("## ")]
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        card = _parse_card(lines[start:end], fenced[start:end], deck, path, offset + start + 1, problems)
        if card is not None:
            deck.cards.append(card)
    return deck, problems


def _parse_card(lines, fenced, deck: Deck, path: Path, line_no: int, problems) -> DeckCard | None:
    card_id = lines[0][3:].strip()
    meta: dict[str, str] = {}
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for i, line in enumerate(lines[1:], start=1):
        if not fenced[i] and line.startswith("### "):
            key = line[4:].strip().lower()
            if key not in _SECTION_KEYS:
                problems.append(DeckProblem(path, line_no + i, f"unknown section '{line[4:].strip()}' in {card_id}"))
                current = None
                continue
            current = _SECTION_KEYS[key]
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
        elif line.strip() and ":" in line:
            k, v = line.split(":", 1)
            meta[k.strip().lower()] = v.strip()
    fields = {k: "\n".join(v).strip() for k, v in sections.items()}
    kind = meta.get("kind", "qa")
    try:
        level = int(meta.get("difficulty", "2"))
    except ValueError:
        level = 0
    card = DeckCard(
        id=card_id,
        deck=deck.name,
        topic=deck.topic,
        node=meta.get("node", ""),
        tags=[t.strip().lower() for t in meta.get("tags", "").split(",") if t.strip()],
        level=level,
        kind=kind,
        path=path,
        line=line_no,
        **fields,
    )
    errors = []
    if not re.match(r"^[a-z0-9-]+/[a-z0-9][a-z0-9._-]*$", card_id):
        errors.append(f"card id '{card_id}' must look like 'deck/slug'")
    if not card.node:
        errors.append(f"{card_id}: missing 'node'")
    if level not in (1, 2, 3):
        errors.append(f"{card_id}: difficulty must be 1, 2 or 3")
    if kind not in ("qa", "cloze"):
        errors.append(f"{card_id}: kind must be 'qa' or 'cloze'")
    if not card.q_en or not card.q_zh:
        errors.append(f"{card_id}: needs both '### Q' and '### 问'")
    if kind == "qa" and (not card.a_en or not card.a_zh):
        errors.append(f"{card_id}: needs both '### A' and '### 答'")
    if kind == "cloze" and not card.review_keys():
        errors.append(f"{card_id}: a cloze card needs at least one {{{{c1::...}}}}")
    for message in errors:
        problems.append(DeckProblem(path, line_no, message))
    return None if errors else card


def load_decks(folder: Path) -> tuple[list[Deck], list[DeckProblem]]:
    """Parse every deck in a folder; duplicate ids across decks are problems."""
    decks: list[Deck] = []
    problems: list[DeckProblem] = []
    if not folder.is_dir():
        return [], [DeckProblem(folder, 0, "decks folder is missing")]
    seen: dict[str, DeckCard] = {}
    for path in sorted(folder.glob("*.md")):
        deck, deck_problems = parse_deck(path)
        problems.extend(deck_problems)
        if deck is None:
            continue
        unique = []
        for card in deck.cards:
            if card.id in seen:
                first = seen[card.id]
                problems.append(DeckProblem(path, card.line, f"duplicate card id '{card.id}' (also {first.path}:{first.line})"))
                continue
            seen[card.id] = card
            unique.append(card)
        deck.cards = unique
        decks.append(deck)
    return decks, problems


def render_cloze(text: str, ordinal: int, reveal: bool) -> str:
    """Hide (or mark) the deletions of one cloze ordinal; show the others as plain text."""

    out, pos = [], 0
    for start, end, n, answer, hint in iter_clozes(text):
        out.append(text[pos:start])
        if n != ordinal:
            out.append(answer)
        elif reveal:
            out.append(f"**[{answer}]**")
        else:
            out.append(f"**[{hint or '…'}]**")
        pos = end
    out.append(text[pos:])
    return "".join(out)
