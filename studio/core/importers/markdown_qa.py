"""Finding question/answer cards in Markdown notes as people actually write them.

Shapes recognised (each card keeps the line it came from):
- a bold question line, then an answer marker: `**Q1: …？**` followed by `**答：** …`,
  `**A:** …` or `Answer: …`; the answer runs until the next question or heading;
- `Question::Answer` one-liners and `Question:::Answer` (two-way: also reversed);
- multi-line cards: question lines, a line holding only `?`, answer lines, ended by a
  blank line;
- headings phrased as questions (ending in ? or ？, or starting with what/why/how/为什么/
  什么/如何/怎么), whose section is the answer;
- `Q:` / `A:` line pairs (also `问：` / `答：`).
Fenced code blocks stay inside answers and are never read as markers.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from studio.core.decks import fence_mask

_BOLD_Q = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*\s*(?:Q\d*\s*[:：.]\s*)?(?P<q>.+?)\s*\*\*\s*$")
_ANSWER_MARK = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*\s*(?:答|A|Answer|回答)\s*[:：]\s*\*\*|\*\*\s*(?:答|A|Answer|回答)\s*\*\*\s*[:：]|"
    r"(?:答|A|Answer|回答)\s*[:：])\s*(?P<rest>.*)$", re.I)
_QA_LINE_Q = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*)?(?:Q|Question|问)(?:\*\*)?\s*[:：](?:\*\*)?\s*(?P<q>.+)$", re.I)
_HEADING = re.compile(r"^(#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_QUESTION_WORDS = re.compile(r"^(what|why|how|when|which|explain|compare|为什么|什么|如何|怎么|怎样|为何|哪些|是否)", re.I)


@dataclass
class ExtractedCard:
    question: str
    answer: str
    line: int  # 1-based line of the question in the source
    shape: str  # bold | inline | inline-reversed | multiline | heading | qa-pair

    def stable_key(self, source: str) -> str:
        """Same question in the same file -> same key, so re-import updates in place."""
        norm = re.sub(r"\s+", " ", self.question).strip().lower()
        digest = hashlib.sha1(f"{source}\n{self.shape}\n{norm}".encode()).hexdigest()[:16]
        return f"import:{digest}"


def _dedent_block(lines: list[str], first_is_inline: bool = False) -> str:
    """Join lines, removing their common indentation (the first line may be marker-inline)."""
    head, rest = (lines[:1], lines[1:]) if first_is_inline else ([], lines)
    indents = [len(l) - len(l.lstrip()) for l in rest if l.strip()]
    cut = min(indents) if indents else 0
    body = [l[cut:] if len(l) - len(l.lstrip()) >= cut else l.lstrip() for l in rest]
    return "\n".join([h.strip() for h in head] + body).strip()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _is_question_heading(title: str) -> bool:
    plain = title.strip().strip("*").strip()
    return plain.endswith(("?", "？")) or bool(_QUESTION_WORDS.match(plain))


def extract_cards(text: str) -> list[ExtractedCard]:
    """All cards found in one Markdown text, in file order."""
    lines = text.split("\n")
    fenced = fence_mask(lines)
    cards: list[ExtractedCard] = []
    used: set[int] = set()
    n = len(lines)

    def is_boundary(i: int) -> bool:
        if fenced[i]:
            return False
        line = lines[i]
        return bool(_HEADING.match(line) or (_BOLD_Q.match(line) and not _ANSWER_MARK.match(line))
                    or _QA_LINE_Q.match(line))

    def looks_like_card(i: int) -> bool:
        line = lines[i]
        return "::" in line or (i + 1 < n and lines[i + 1].strip() == "?")

    def answer_end(start: int, marker_indent: int, stop_at_blank: bool) -> int:
        """First line after an answer that began at `start`."""
        k = start
        while k < n and not is_boundary(k):
            if not fenced[k] and not lines[k].strip():
                nxt = k + 1
                while nxt < n and not lines[nxt].strip():
                    nxt += 1
                if stop_at_blank or nxt >= n:
                    return k
                if marker_indent > 0 and _indent(lines[nxt]) < marker_indent:
                    return k
                if marker_indent == 0 and not fenced[nxt] and looks_like_card(nxt):
                    return k
            k += 1
        return k

    i = 0
    while i < n:
        line = lines[i]
        if fenced[i]:
            i += 1
            continue
        # 1. bold question + answer marker
        bold = _BOLD_Q.match(line)
        if bold and not _ANSWER_MARK.match(line):
            j = i + 1
            while j < n and not lines[j].strip():
                j += 1
            mark = _ANSWER_MARK.match(lines[j]) if j < n and not fenced[j] else None
            if mark:
                k = answer_end(j + 1, _indent(lines[j]), stop_at_blank=False)
                answer = _dedent_block([mark.group("rest")] + lines[j + 1:k], first_is_inline=True)
                if answer:
                    cards.append(ExtractedCard(bold.group("q").strip(), answer, i + 1, "bold"))
                    used.update(range(i, k))
                i = k
                continue
        # 2. Q: / A: pairs
        qa = _QA_LINE_Q.match(line)
        if qa:
            j = i + 1
            question = [qa.group("q")]
            while j < n and lines[j].strip() and not _ANSWER_MARK.match(lines[j]) and not is_boundary(j):
                question.append(lines[j].strip())
                j += 1
            if j < n and _ANSWER_MARK.match(lines[j]) and not fenced[j]:
                k = answer_end(j + 1, _indent(lines[j]), stop_at_blank=True)
                answer = _dedent_block([_ANSWER_MARK.match(lines[j]).group("rest")] + lines[j + 1:k],
                                       first_is_inline=True)
                if answer:
                    cards.append(ExtractedCard(" ".join(question).strip(), answer, i + 1, "qa-pair"))
                    used.update(range(i, k))
                i = k
                continue
        # 3. inline Q::A and Q:::A
        if ":::" in line or "::" in line:
            stripped = re.sub(r"^\s*[-*+]\s+", "", line)
            if ":::" in stripped:
                q, _, a = stripped.partition(":::")
                if q.strip() and a.strip():
                    cards.append(ExtractedCard(q.strip(), a.strip(), i + 1, "inline"))
                    cards.append(ExtractedCard(a.strip(), q.strip(), i + 1, "inline-reversed"))
                    used.add(i)
                    i += 1
                    continue
            elif "::" in stripped and not re.search(r"\w::\w+\(", stripped) and "{{c" not in stripped:
                q, _, a = stripped.partition("::")
                if q.strip() and a.strip() and not q.strip().startswith(("http", "`")):
                    cards.append(ExtractedCard(q.strip(), a.strip(), i + 1, "inline"))
                    used.add(i)
                    i += 1
                    continue
        # 4. multi-line: question lines, '?' line, answer lines, blank line
        if line.strip() == "?" and i > 0 and lines[i - 1].strip():
            start = i - 1
            while start - 1 >= 0 and lines[start - 1].strip() and not fenced[start - 1] and start - 1 not in used:
                start -= 1
            k = i + 1
            while k < n and (lines[k].strip() or fenced[k]):
                k += 1
            question, answer = _dedent_block(lines[start:i]), _dedent_block(lines[i + 1:k])
            if question and answer and not any(x in used for x in range(start, i)):
                cards.append(ExtractedCard(question, answer, start + 1, "multiline"))
                used.update(range(start, k))
            i = k
            continue
        i += 1
    # 5. headings phrased as questions (not already inside another card)
    for i, line in enumerate(lines):
        if fenced[i] or i in used:
            continue
        m = _HEADING.match(line)
        if not m or not _is_question_heading(m.group("title")):
            continue
        level = len(m.group(1))
        k = i + 1
        while k < n and k not in used:
            h = _HEADING.match(lines[k]) if not fenced[k] else None
            if h and len(h.group(1)) <= level:
                break
            k += 1
        answer = _dedent_block(lines[i + 1:k])
        if answer:
            cards.append(ExtractedCard(m.group("title").strip().strip("*").strip(), answer, i + 1, "heading"))
    cards.sort(key=lambda c: (c.line, c.shape))
    return cards
