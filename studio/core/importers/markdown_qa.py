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

Notes may be hostile, so every pattern here runs in linear time: the bold question and
the heading are matched by their ends in plain code, not by a lazy group followed by
optional trailing runs (which rescanned a long run of spaces or '#' at every step), and
runs of blank lines are skipped through a precomputed table.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from studio.core.decks import fence_mask

# A bold question's opening; its end and the optional "Q1:" are handled in _bold_question.
_BOLD_OPEN = re.compile(r"\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*")
_Q_NUMBER = re.compile(r"Q\d*\s*[:：.]\s*")
_ANSWER_MARK = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*\s*(?:答|A|Answer|回答)\s*[:：]\s*\*\*|\*\*\s*(?:答|A|Answer|回答)\s*\*\*\s*[:：]|"
    r"(?:答|A|Answer|回答)\s*[:：])\s*(?P<rest>.*)$", re.I)
_QA_LINE_Q = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*)?(?:Q|Question|问)(?:\*\*)?\s*[:：](?:\*\*)?\s*(?P<q>.+)$", re.I)
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


def _bold_question(line: str) -> str | None:
    r"""The question of a `**…**` line (a list marker and "Q1:" allowed), else None.

    Same lines and questions as `^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*\s*(?:Q\d*\s*[:：.]\s*)?(.+?)\s*\*\*\s*$`,
    which took quadratic time on a long run of spaces inside the bold text.
    """
    m = _BOLD_OPEN.match(line)
    if not m:
        return None
    body = line[m.end():].rstrip()
    if len(body) < 3 or not body.endswith("**"):
        return None
    inner = body[:-2]
    text = inner.lstrip()
    number = _Q_NUMBER.match(text)
    if number and text[number.end():].strip():
        return text[number.end():]
    return inner


def _heading(line: str) -> tuple[int, str] | None:
    r"""(level, title) of an ATX heading line, closing '#'s dropped, else None.

    Same as `^(#{1,6})\s+(.+?)\s*#*\s*$`, which took quadratic time on a title
    followed by a long run of '#'.
    """
    level = len(line) - len(line.lstrip("#"))
    if not 1 <= level <= 6 or level == len(line) or not line[level].isspace():
        return None
    after = line[level:]
    rest = after.lstrip()
    if not rest:  # only whitespace after the '#'s: a blank title, as the pattern had it
        return (level, after[-1]) if len(after) >= 2 else None
    kept = rest.rstrip().rstrip("#").rstrip()  # the title ends before a trailing " ## "
    return level, rest[:max(len(kept), 1)]


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
    next_text = [n] * (n + 1)  # next_text[i]: the first line at or after i that is not blank
    for i in range(n - 1, -1, -1):
        next_text[i] = i if lines[i].strip() else next_text[i + 1]

    def is_boundary(i: int) -> bool:
        if fenced[i]:
            return False
        line = lines[i]
        return bool(_heading(line) or (_bold_question(line) is not None and not _ANSWER_MARK.match(line))
                    or _QA_LINE_Q.match(line))

    def looks_like_card(i: int) -> bool:
        line = lines[i]
        return "::" in line or (i + 1 < n and lines[i + 1].strip() == "?")

    def answer_end(start: int, marker_indent: int, stop_at_blank: bool) -> int:
        """First line after an answer that began at `start`."""
        k = start
        while k < n and not is_boundary(k):
            if not fenced[k] and not lines[k].strip():
                nxt = next_text[k + 1]
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
        bold = _bold_question(line)
        if bold is not None and not _ANSWER_MARK.match(line):
            j = i + 1
            while j < n and not lines[j].strip():
                j += 1
            mark = _ANSWER_MARK.match(lines[j]) if j < n and not fenced[j] else None
            if mark:
                k = answer_end(j + 1, _indent(lines[j]), stop_at_blank=False)
                answer = _dedent_block([mark.group("rest")] + lines[j + 1:k], first_is_inline=True)
                if answer:
                    cards.append(ExtractedCard(bold.strip(), answer, i + 1, "bold"))
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
        m = _heading(line)
        if not m or not _is_question_heading(m[1]):
            continue
        level, title = m
        k = i + 1
        while k < n and k not in used:
            h = _heading(lines[k]) if not fenced[k] else None
            if h and h[0] <= level:
                break
            k += 1
        answer = _dedent_block(lines[i + 1:k])
        if answer:
            cards.append(ExtractedCard(title.strip().strip("*").strip(), answer, i + 1, "heading"))
    cards.sort(key=lambda c: (c.line, c.shape))
    return cards
