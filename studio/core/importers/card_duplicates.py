"""The same question twice in one Anki/CSV import, or already in the collection.

A duplicate is listed and decided by one policy (DUPLICATE_CHOICES): keep_both (default,
nothing lost), keep_newest (the later note by Anki's modification time, else file order; over
a card already in the collection, the imported text replaces its text and its scheduling is
kept), skip (the first one stays). Decisions are recorded in the card's origin JSON the way
the notes importer records them: "import_key" is the imported key whose text a card carries
when that is not its own key, "settled" maps keys a decision left out to "digest/policy". So
importing the same deck again is a re-import, not a new duplicate, until a text changes or
another policy than keep_both and the recorded one is chosen.

What a policy acts on depends on the policy (a card an earlier "skip" left out is decided
again by keep_newest, not by keep_both or skip), so the preview lists the duplicates of each
policy (`duplicates_by_policy`): the one chosen shows exactly what applying it will change,
and a duplicate that reopens an earlier decision names the cards it left out (`reopened`).
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy import or_, select

from studio.core.models import Card

if TYPE_CHECKING:
    from studio.core.importers.anki import ImportedCard

DUPLICATE_CHOICES = ("keep_both", "keep_newest", "skip")


def same_question(text: str) -> str:
    """What counts as the same question: width-folded, case-folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


def digest(question: str, answer: str) -> str:
    """What a left-out card's text was, so a changed text is asked about again."""
    return hashlib.sha1(f"{question}\n{answer}".encode()).hexdigest()[:12]


def card_origin(card: Card) -> dict:
    """A card's origin JSON as a dict ({} when it is empty or not a JSON object)."""
    try:
        value = json.loads(card.origin) if card.origin else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


@dataclass
class ExistingCard:
    """A card already in the collection (not shipped) that an imported card duplicates."""

    id: int
    key: str
    question: str


@dataclass
class CardDuplicate:
    """One question found more than once: among the imported cards and/or in the collection."""

    question: str
    cards: list[ImportedCard]  # in file order
    existing: ExistingCard | None = None
    reopened: list[ImportedCard] = field(default_factory=list)  # left out by an earlier decision, decided again

    def newest(self) -> ImportedCard:
        """The later note by Anki's modification time when every one has it, else in file order."""
        if all(c.modified is not None for c in self.cards):
            return max(reversed(self.cards), key=lambda c: c.modified)  # ties: the later one
        return self.cards[-1]

    def outcome(self, policy: str | None) -> str:
        if policy is None:
            return "--duplicates keep-both (the default), keep-newest or skip decides"
        if policy == "keep_both":
            return "kept both" if len(self.cards) + bool(self.existing) == 2 else "kept all"
        if policy == "skip":
            return ("skipped; the collection's card stays" if self.existing
                    else f"kept {self.cards[0].where}, skipped the rest")
        if self.existing:
            return f"{self.newest().where} replaced the text of card #{self.existing.id} (its scheduling kept)"
        return f"kept the newest, {self.newest().where}"

    def describe(self, policy: str | None) -> str:
        where = ", ".join(c.where for c in self.cards)
        if self.existing:
            where += f" and card #{self.existing.id} in the collection"
        again = (f" (an earlier import left out {', '.join(c.where for c in self.reopened)}; decided again)"
                 if self.reopened else "")
        return f"{self.question[:80]!r} at {where}: {self.outcome(policy)}{again}"

    def to_json(self, policy: str) -> dict:
        return {"question": self.question, "where": [c.where for c in self.cards],
                "existing": {"id": self.existing.id, "key": self.existing.key} if self.existing else None,
                "action": policy, "outcome": self.outcome(policy)}


def _identity(card: ImportedCard, question: str) -> tuple[str, str, int]:
    return same_question(question), card.kind, card.cloze_ord


class KnownCards:
    """The collection's cards as one import sees them: by key, by carried key, by settled key."""

    def __init__(self, s=None, items: list[ImportedCard] = ()) -> None:
        self.by_key: dict[str, Card] = {}
        self.by_writer: dict[str, Card] = {}
        self.by_settled: dict[str, tuple[Card, str]] = {}
        if s is None:
            return
        keys = sorted({c.key for c in items} | {c.alt_key for c in items if c.alt_key})
        for i in range(0, len(keys), 500):
            self.by_key.update({c.key: c for c in s.scalars(select(Card).where(Card.key.in_(keys[i:i + 500])))})
        wanted = set(keys)
        marked = s.scalars(select(Card).where(Card.source != "shipped", or_(
            Card.origin.like('%"import_key"%'), Card.origin.like('%"settled"%'))))
        for card in marked:
            origin = card_origin(card)
            if origin.get("import_key") in wanted:
                self.by_writer.setdefault(origin["import_key"], card)
            settled = origin.get("settled")
            for key, record in (settled.items() if isinstance(settled, dict) else ()):
                if key in wanted:
                    self.by_settled.setdefault(key, (card, str(record)))

    def home(self, item: ImportedCard) -> Card | None:
        """The card this imported card updates: its own (by guid or key), or the one it took over."""
        keys = [k for k in (item.alt_key, item.key) if k]
        for key in keys:
            if key in self.by_writer:
                return self.by_writer[key]
        for key in keys:
            if key in self.by_key:
                return self.by_key[key]
        return None

    def earlier(self, item: ImportedCard) -> str | None:
        """The policy an earlier import left this card out by, if its text is unchanged since."""
        entry = self.by_settled.get(item.key)
        if entry is None or self.home(item) is not None:
            return None
        recorded, _, decided = entry[1].partition("/")
        return decided if recorded == digest(item.question, item.answer) else None

    def settled(self, item: ImportedCard, policy: str) -> bool:
        """Left out by an earlier decision, unchanged since, and not reopened by another policy."""
        decided = self.earlier(item)
        return decided is not None and policy in ("keep_both", decided)


def find_card_duplicates(items: list[ImportedCard], known: KnownCards, s=None,
                         policy: str = "keep_both") -> list[CardDuplicate]:
    """Questions found twice among `items`, or (with a session `s`) in `items` and the collection
    (shipped and retired cards aside). A question whose cards all already have a card from an
    earlier import of this deck (or were left out by an earlier decision) is a re-import, not a
    duplicate."""
    groups: dict[tuple, list[ImportedCard]] = {}
    for item in items:
        if not known.settled(item, policy):
            groups.setdefault(_identity(item, item.question), []).append(item)
    in_collection: dict[tuple, ExistingCard] = {}
    if s is not None:
        homes = {card.id for members in groups.values() for c in members if (card := known.home(c)) is not None}
        rows = s.execute(select(Card.id, Card.key, Card.q_en, Card.q_zh, Card.kind, Card.cloze_ord)
                         .where(Card.source != "shipped", Card.retired.is_(False)).order_by(Card.id))
        for card_id, key, q_en, q_zh, kind, cloze_ord in rows:
            if card_id in homes:
                continue
            for question in (q_en, q_zh):
                ident = (same_question(question or ""), kind, cloze_ord)
                if question and ident in groups and ident not in in_collection:
                    in_collection[ident] = ExistingCard(card_id, key, question)
    out = []
    for ident, members in groups.items():
        existing = in_collection.get(ident)
        if len(members) + bool(existing) < 2 or all(known.home(m) is not None for m in members):
            continue
        out.append(CardDuplicate(members[0].question, members, existing,
                                 [m for m in members if known.earlier(m) is not None]))
    return out


def duplicates_by_policy(items: list[ImportedCard], known: KnownCards, s=None) -> dict[str, list[CardDuplicate]]:
    """What each policy would decide: the preview shows the chosen one's list."""
    return {policy: find_card_duplicates(items, known, s, policy) for policy in DUPLICATE_CHOICES}


__all__ = ["DUPLICATE_CHOICES", "CardDuplicate", "ExistingCard", "KnownCards", "find_card_duplicates",
           "duplicates_by_policy",
           "same_question", "card_origin", "digest"]
