"""Notes built against html.parser's quadratic scans: refused or formatted quickly, never hung.

Python-Markdown's HTML extractor and the renderer's SafeHtml pass both run CPython's
html.parser over the whole note (CPython gh-135462: quadratic on some unclosed
constructs). Two such inputs got past the limits of issue #16's first round and were
found while auditing it (Python 3.11.7, Python-Markdown 3.11, 2-core machine):
- a '>' inside a quoted attribute value does not end a tag, so `<a b=">x" ` repeated is
  one unfinished tag from every '<' to the end of the note; the old estimate saw a '>'
  three characters on. 40 KB took 17 s to render (quadratic: a 1 MB note, hours).
  The quote may also sit in a bare value or a name (`<a b=x"y c=">x" `: 9 s for 40 KB),
  which is why the estimate now runs the parser's own start-tag pattern.
- "<!--" never closed, inside a raw HTML block, passes Python-Markdown untouched and made
  SafeHtml search the rest of the note once per comment: 96 KB took 6 to 11 s, 960 KB 325 s.
Each bound below is far under what the old code took on the same input.
"""

from __future__ import annotations

import time

import pytest

from studio.core.markdown_render import MAX_PARSE_WORK, render_markdown
from studio.core.markdown_shape import measure_shape
from studio.core.safe_html import SafeHtml, unclosed_comments_as_text

QUOTED = {
    "double-quoted gt": '<a b=">x" ',  # old: 40 KB in 17 s
    "single-quoted gt": "<a b='>x' ",  # old: 16 s
    "quote in a bare value": '<a b=x"y c=">x" ',  # old: 9 s; a quote-pairing estimate misses it
    "quote in an attribute name": '<a b"=">x" ',  # old: 10 s
    "quote in the tag name": '<a"b c=">x" ',  # old: 8 s
    "across lines and paragraphs": '<a\nb=">x"\n\n',  # old: 14 s
    "image with a quoted gt": '<img src=">"',  # old: 7.5 s
}


def _timed(text: str):
    start = time.perf_counter()
    rendered = render_markdown(text)
    return rendered, time.perf_counter() - start


@pytest.mark.parametrize("name", QUOTED)
def test_tags_with_a_quoted_gt_are_plain_text_quickly(name):
    text = QUOTED[name] * (40_000 // len(QUOTED[name]))
    rendered, took = _timed(text)
    assert "would take too long to format" in rendered.notice
    assert took < 3  # the old renderer: 8 to 17 s on these 40 KB


@pytest.mark.parametrize("name", ["double-quoted gt", "quote in a bare value"])
def test_a_large_note_of_them_is_refused_in_bounded_time(name):
    text = QUOTED[name] * (400_000 // len(QUOTED[name]))  # old: about half an hour
    rendered, took = _timed(text)
    assert rendered.notice and took < 6  # the measure stops at its budget


def test_inside_code_spans_and_lists_too():
    for wrap in ("`{}`", "- {}", "> {}", "| a |\n|---|\n| {} |"):
        rendered, took = _timed(wrap.format('<a b=">" <' * 4000))
        assert rendered.notice and took < 3, wrap


def test_ordinary_quoted_attributes_cost_nothing_more():
    text = ('Use <a href="https://example.com/?a=1&b=2" title="a > b">this</a>, it\'s "quoted". '
            '<img src="fig.png" alt=\'a > b\'> <span style="color: red">x</span>\n\n') * 5000
    # 600 KB of dense HTML, a '>' quoted in every other tag: far inside the limit
    assert measure_shape(text, MAX_PARSE_WORK).work < MAX_PARSE_WORK / 5
    rendered, took = _timed(text[:200_000])
    assert rendered.notice == "" and "title=" in rendered.html


def test_a_few_hundred_quoted_tags_are_still_formatted():
    text = "intro\n\n" + '<a b=">x" ' * 300  # the parser needs well under a second for this
    rendered, took = _timed(text)
    assert rendered.notice == "" and took < 3


@pytest.mark.parametrize("count, bound", [(16_000, 2.5), (160_000, 20)])
def test_unclosed_comments_in_a_raw_block_render_in_linear_time(count, bound):
    text = "<div>\n" + "<!--x>" * count + "\n</div>"
    rendered, took = _timed(text)
    assert took < bound  # old: 6.4 s and 325 s (new: 0.4 s and 5 s)
    assert "&lt;!--x&gt;" in rendered.html  # shown as text, as html.parser showed it


def test_closed_comments_are_still_dropped_and_unclosed_ones_shown():
    assert SafeHtml(None).rebuild("<p>a<!-- c -->b</p><!-- open") == "<p>ab</p>&lt;!-- open"
    assert SafeHtml(None).rebuild("<!-- a -- >x") == "x"
    assert unclosed_comments_as_text("<!-->") == "&lt;!-->"  # its own '-->' starts too early
    assert unclosed_comments_as_text("<!-- a --><!-- b") == "<!-- a -->&lt;!-- b"
    assert unclosed_comments_as_text("no comments") == "no comments"


def test_safe_html_on_unclosed_comments_alone_is_linear():
    start = time.perf_counter()
    SafeHtml(None).rebuild("<!--x>" * 100_000)
    assert time.perf_counter() - start < 3  # old: minutes
