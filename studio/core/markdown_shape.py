"""How deep a Markdown text nests and how much rescanning parsing it costs, in linear time.

Python-Markdown rescans some inputs once per character of others: the text after every
'[' for its ']', after every "](" for its ')', after every tag-like '<' for a '>' (in
html.parser, which also reads past a '>' inside a quoted attribute value, and to the end
of the note for a quote never closed), a block once per heading or rule that splits it,
and the rest of the note after an unclosed code fence. Deep lists and quotes exhaust its recursion. The
renderer measures all this here, before parsing, and shows a note beyond its limits
as plain text; the measure over-counts rather than under-counts.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass


@dataclass
class Shape:
    depth: int = 0
    depth_line: int = 0  # 1-based line where the depth is reached
    work: int = 0
    work_line: int = 0  # the line where the work passed the limit it was measured against
    work_reason: str = ""  # what costs the most, in a few words


_LIST_MARK = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)")
_FENCE_INFO = re.compile(r"\.?[\w#.+-]*")
_SPECIAL = re.compile(r"[\[\]()<>]")
_TAG_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/!?")
# One step of a link's text or parenthesis scan costs about four of the others: it is a
# Python loop, run once per link processor (Python-Markdown 3.11, CPython 3.11).
_LINK_STEP = 4


def _line_prefix(line: str) -> tuple[int, int, int]:
    """(indent columns of the first list marker or text, '>' quote levels, list markers)."""
    i, n, cols, quotes, marks, indent = 0, len(line), 0, 0, 0, -1
    while i < n:
        c = line[i]
        if c == " ":
            cols += 1
        elif c == "\t":
            cols += 4 - cols % 4
        elif c == ">":
            quotes += 1
            cols = 0  # indentation counts again inside the quote
        else:
            m = _LIST_MARK.match(line, i)
            if not m:
                break
            if indent < 0:
                indent = cols
            marks += 1
            cols += m.end() - i
            i = m.end()
            continue
        i += 1
    return (cols if indent < 0 else indent), quotes, marks


def _fenced_lines(lines: list[str]) -> tuple[list[bool], list[int]]:
    """Lines inside fenced code as Python-Markdown finds it, and the unclosed openings.

    An opening is ``` or ~~~ (or longer) at the start of a line with at most a
    language after it; it is closed by the next line holding exactly the same fence.
    An opening never closed stays text (and its search runs to the end of the note).
    """
    closers: dict[str, list[int]] = {}
    for i, line in enumerate(lines):
        bare = line.rstrip(" ")
        if len(bare) >= 3 and bare[0] in "`~" and bare == bare[0] * len(bare):
            closers.setdefault(bare, []).append(i)
    seen = {fence: 0 for fence in closers}  # how far each closer list has been consumed
    fenced = [False] * len(lines)
    unclosed: list[int] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line[:3] in ("```", "~~~"):
            run = len(line) - len(line.lstrip(line[0]))
            fence, info = line[:run], line[run:].strip(" ")
            if _FENCE_INFO.fullmatch(info):
                ends = closers.get(fence, [])
                k = seen.get(fence, 0)
                while k < len(ends) and ends[k] <= i:
                    k += 1
                if fence in seen:
                    seen[fence] = k
                if k < len(ends):
                    for j in range(i, ends[k] + 1):
                        fenced[j] = True
                    i = ends[k] + 1
                    continue
                unclosed.append(i)
        i += 1
    return fenced, unclosed


_START_TAG = re.compile(r"<[a-zA-Z]")
# After the pattern's match, these make html.parser call the tag unfinished (text).
_UNFINISHED = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ=/`")
# One character of that pattern's scan, in the steps the limit counts: the scan runs on
# the slow path of the regex engine (2 s for 10 million characters on the CI machine).
_TAG_STEP = 8


def _start_tag_pattern():
    """The start-tag pattern Python-Markdown's HTML extractor runs (its own copy of html.parser's)."""
    try:
        from markdown.htmlparser import htmlparser
    except ImportError:  # pragma: no cover - another Python-Markdown layout
        import html.parser as htmlparser
    return htmlparser.locatestarttagend_tolerant


def _start_tag_work(text: str, budget: int) -> list[tuple[int, int]]:
    """(position, steps) for the start tags html.parser reads past their next '>': the steps
    of the reading beyond that '>' (the caller counts the rest).

    Its start-tag pattern reads a quoted attribute value to its closing quote, '>'
    included, and goes on reading attributes; a tag it cannot finish is text and the scan
    starts again at the next '<'. So `<a b=">x" ` repeated is scanned to the end of the
    note from every '<' in it (quadratic), though each '<' has a '>' three characters on.
    How far each scan goes is taken from that same pattern, run as the extractor runs it
    (a finished tag is skipped whole), and stops once `budget` steps are counted (each
    character _TAG_STEP steps): finding out costs an eighth of what the limit allows. A
    quoted value never closed makes the pattern read to the end of the text before giving
    up; that is counted too.
    """
    if "<" not in text or ('"' not in text and "'" not in text):
        return []  # without quotes every scan ends at the next '>', which the caller counts
    pattern, n = _start_tag_pattern(), len(text)
    last_quotes = [q for q in (text.rfind('"'), text.rfind("'")) if q >= 0]
    chars = budget // _TAG_STEP  # the most characters this function scans
    out: list[tuple[int, int]] = []
    spent = skip_to = 0
    gt = -1  # the next '>' at or after the current '<'
    for m in _START_TAG.finditer(text):
        i = m.start()
        if i < skip_to:
            continue
        if gt < i:
            gt = text.find(">", i)
            gt = n if gt < 0 else gt
        cap = min(n, i + chars - spent + 2)
        j = pattern.match(text, i, cap).end()
        nxt = text[j:j + 1] if j < cap else ""
        tail = sum(n - q for q in last_quotes if i < q <= j + 1)
        spent += j - i
        if tail or gt < j:  # the caller counts each scan up to its next '>'; this is the rest
            out.append((i, _TAG_STEP * (max(0, j - gt) + tail)))
        if spent > chars:  # no note worth formatting gets here: a 1 MB note is scanned once
            out.append((i, budget + 1))
            break
        if nxt == ">" or (nxt and nxt not in _UNFINISHED and j > i):
            skip_to = j  # a finished (or bogus) tag: the parser goes on after it
    return out


def measure_shape(body: str, work_limit: int) -> Shape:
    """Nesting depth and an estimate of the parser's rescanning work, in one linear pass.

    Depth: '>' prefixes plus list levels, a list item being one level deeper than every
    open item indented less (each distinct indentation counts, so it never under-counts).
    Work, the rescans Python-Markdown and html.parser make, each counted as the distance
    it would scan: every '[' to its ']' (or the end of its paragraph or list item), every
    '(' after ']' to its ')' likewise, every tag-like '<' to the next '>' (or past it, over
    quoted attribute values: _start_tag_work), every line of
    a block once for each heading or rule that splits the block, and every unclosed code
    fence to the end of the note. Fenced code is set aside before all of them.
    """
    shape = Shape()
    lines = body.split("\n")
    fenced, unclosed = _fenced_lines(lines)
    # Start tags read past a quoted '>', over the text with fenced code blanked (same offsets).
    quoted = _start_tag_work("\n".join(" " * len(line) if f else line for line, f in zip(lines, fenced))
                             if any(fenced) else body, work_limit)
    next_quoted = 0
    brackets = parens = tags = blocks = fences = 0
    stack: list[int] = []  # indents of the open list items
    open_sq: list[int] = []  # positions of the '[' not yet closed in this paragraph or item
    open_par: list[tuple[int, bool]] = []  # '(' positions, True for a link's "]("
    pending_lt = pending_sum = 0  # tag-like '<' waiting for a '>': how many, sum of positions
    block_lines = block_splits = 0
    new_block, seg_is_list = True, False
    unclosed_at = set(unclosed)

    def end_segment(at: int) -> None:
        nonlocal brackets, parens
        brackets += sum(at - p for p in open_sq)
        parens += sum(at - p for p, link in open_par if link)
        open_sq.clear()
        open_par.clear()

    pos = 0  # offset of the current line in the body
    for number, line in enumerate(lines, start=1):
        here, pos = pos, pos + len(line) + 1
        if number - 1 in unclosed_at:
            fences += len(body) - here
        stripped = line.strip()
        if fenced[number - 1] or not stripped:
            end_segment(here)
            blocks += block_lines * block_splits
            block_lines = block_splits = 0
            new_block = True
            continue
        indent, quotes, marks = _line_prefix(line)
        rule = not stripped.strip("=-*_ ")
        if rule:
            marks = 0  # "- - - -" is a rule, not four lists
        if marks:
            while stack and stack[-1] >= indent:
                stack.pop()
            stack.append(indent)
            depth = quotes + len(stack) + marks - 1
        else:
            if indent == 0 and quotes == 0 and new_block:
                stack.clear()
            depth = quotes + bisect_left(stack, indent)
        if depth > shape.depth:
            shape.depth, shape.depth_line = depth, number
        heading = line.startswith("#")
        if heading or (marks and (seg_is_list or new_block)):
            end_segment(here)
            seg_is_list = bool(marks)
        elif new_block:
            seg_is_list = False
        block_lines += 1
        block_splits += heading or rule
        for m in _SPECIAL.finditer(line):
            c, at = m.group(), here + m.start()
            if c == "[":
                open_sq.append(at)
            elif c == "]":
                if open_sq:
                    brackets += at - open_sq.pop()
            elif c == "(":
                open_par.append((at, m.start() > 0 and line[m.start() - 1] == "]"))
            elif c == ")":
                if open_par:
                    start, link = open_par.pop()
                    parens += (at - start) if link else 0
            elif c == "<":
                if line[m.start() + 1:m.start() + 2] in _TAG_START:
                    pending_lt += 1
                    pending_sum += at
            elif pending_lt:  # '>'
                tags += pending_lt * at - pending_sum
                pending_lt = pending_sum = 0
        while next_quoted < len(quoted) and quoted[next_quoted][0] < pos:
            tags += quoted[next_quoted][1]
            next_quoted += 1
        if heading:
            end_segment(pos)
        new_block = heading  # the line after a heading starts a block of its own
        if not shape.work_line and _LINK_STEP * (brackets + parens) + tags + blocks + fences // 20 > work_limit:
            shape.work_line = number
    end_segment(len(body))
    blocks += block_lines * block_splits
    tags += sum(extra for _, extra in quoted[next_quoted:])
    tags += pending_lt * len(body) - pending_sum
    parts = [(_LINK_STEP * brackets, "many unclosed or deeply nested “[” brackets"),
             (_LINK_STEP * parens, "many unclosed “(” after links"),
             (tags, "many unclosed “<” tags"),
             (blocks, "many headings or rules with no blank line between them"),
             (fences // 20, "many unclosed code fences")]
    shape.work = sum(cost for cost, _ in parts)
    if shape.work > work_limit:
        shape.work_line = shape.work_line or len(lines)
        shape.work_reason = max(parts)[1]
    return shape
