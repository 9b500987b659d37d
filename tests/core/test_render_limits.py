"""Hostile notes: over a limit a note is shown as plain text with a notice, never a crash.

The time bounds are generous (CI has two slow cores); each one is a small fraction of
what the old renderer took on the same input (it recursed out on the deep list and
took minutes on the bracket runs).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from studio.core.frontmatter import split_front_matter
from studio.core.markdown_render import (
    MAX_FORMATTED_BYTES,
    MAX_NESTING,
    MAX_PARSE_WORK,
    MAX_TABLE_NESTING,
    render_markdown,
)
from studio.core.markdown_shape import measure_shape

CONTENT = Path(__file__).resolve().parents[2] / "content"


def _nested_list(depth: int, extra: str = "") -> str:
    return "\n".join("    " * level + f"- 第 {level} 层{extra}" for level in range(depth)) + "\n"


def _structure(body: str):
    return measure_shape(body, MAX_PARSE_WORK)


def _timed(text: str):
    start = time.perf_counter()
    rendered = render_markdown(text)
    return rendered, time.perf_counter() - start


def _plain_shows_everything(rendered, text: str) -> None:
    assert "<pre" in rendered.html and rendered.html.index(rendered.notice[:20]) < rendered.html.index("<pre")
    assert "<ul>" not in rendered.html and "<b>" not in rendered.html  # escaped, not formatted
    first, last = text.strip().splitlines()[0], text.strip().splitlines()[-1]
    for line in (first, last):
        assert line.strip().replace("<", "&lt;").replace(">", "&gt;") in rendered.html


def test_list_nested_600_deep_is_plain_text_with_a_notice():
    text = _nested_list(600, " <b>")
    rendered, took = _timed(text)
    assert rendered.notice == (f"This note is nested 600 levels deep at line 600, over the limit of {MAX_NESTING} "
                               "for formatted display; shown as plain text.")
    _plain_shows_everything(rendered, text)
    assert rendered.headings == [] and rendered.code_blocks == []
    assert took < 5


def test_quotes_and_markers_count_as_nesting():
    assert "nested 600 levels" in render_markdown("> " * 600 + "引用").notice
    assert "nested 60 levels" in render_markdown("- > " * 30 + "x").notice
    assert render_markdown("> " * 5 + "引用\n\n- a\n    - b\n        - c\n").notice == ""


def test_html_nested_past_the_limit_is_plain_text():
    rendered = render_markdown("<div>" * 600 + "深")
    assert rendered.notice.startswith("This note is nested 600 levels deep, over the limit")
    rendered = render_markdown("<table><tr><td>" * (MAX_TABLE_NESTING + 1) + "x")
    assert rendered.notice == (f"This note has tables nested {MAX_TABLE_NESTING + 1} deep, over the limit of "
                               f"{MAX_TABLE_NESTING} for formatted display; shown as plain text.")
    assert render_markdown("<table><tr><td>" * MAX_TABLE_NESTING + "x").notice == ""


def test_note_just_inside_the_nesting_limit_is_formatted():
    rendered, took = _timed(_nested_list(MAX_NESTING))
    assert rendered.notice == "" and rendered.html.count("<ul>") == MAX_NESTING
    assert took < 10


def test_note_over_the_size_limit_is_plain_text_with_its_size():
    line = "显存带宽" * 100 + " <script>x</script> ![远](http://example.com/a.png)\n"
    text = "# 大笔记\n" + line * (12_500_000 // len(line.encode())) + "最后一行\n"
    rendered, took = _timed(text)
    size = len(text.encode()) / 1e6
    assert rendered.notice == (f"This note is {size:.1f} MB, over the 1 MB limit for formatted display; "
                               "shown as plain text.")
    _plain_shows_everything(rendered, text)
    assert "<script>" not in rendered.html and "<img" not in rendered.html
    assert took < 10


def test_size_just_over_the_limit_never_reads_as_equal_to_it():
    rendered = render_markdown("a" * (MAX_FORMATTED_BYTES + 1))
    assert rendered.notice.startswith(f"This note is {MAX_FORMATTED_BYTES + 1:,} bytes, over the 1 MB limit")


SECTION = """## 第{i}节 显存与带宽

这一节讨论 **显存带宽** 与 `算术强度`，参见 [[dist.ddp]] 与 [文档](https://example.com/{i})。
Roofline: attainable = min(peak, bw * intensity)，区间 [0, n) 上逐块计算。

- 合并访存 coalescing
    - 每个 warp 32 线程
- 共享内存 bank conflict

> 先测量，再优化。

| 名称 | 值 |
|:-:|--:|
| HBM | 3.35 TB/s |

```python
def kernel_{i}(x):
    return x * 2
```

"""


def test_note_just_under_the_size_limit_renders_formatted():
    parts, size, i = [], 0, 0
    while size + len(SECTION.format(i=i).encode()) < MAX_FORMATTED_BYTES:
        parts.append(SECTION.format(i=i))
        size += len(parts[-1].encode())
        i += 1
    rendered, took = _timed("".join(parts))
    assert rendered.notice == ""
    assert len(rendered.headings) == i and len(rendered.code_blocks) == i
    assert took < 60  # about 6 s on the 2-core CI machine


HOSTILE = {
    "unclosed brackets": "[" * 6000,
    "wiki openings": "[[a" * 3000,
    "link parentheses": "[a](" * 4000,
    "unclosed tags": "<a " * 8000,
    "quoted tags": '<a title="' * 3000 + ">",
    "packed headings": "# a\n" * 20000,
    "packed rules": "---\na\n" * 10000,
    "footnote openings": "[^a" * 4000,
}


@pytest.mark.parametrize("name", HOSTILE)
def test_inputs_the_parser_rescans_are_plain_text_quickly(name):
    rendered, took = _timed(HOSTILE[name])
    assert rendered.notice.startswith("This note has many ") and "would take too long to format" in rendered.notice
    assert took < 3  # the old renderer: 10 s to minutes each


def test_work_just_under_the_limit_renders_formatted_in_bounded_time():
    text = "[" * 2000  # about 80% of the work limit: the costliest input still formatted
    assert 0.5 * MAX_PARSE_WORK < _structure(text).work < MAX_PARSE_WORK
    rendered, took = _timed(text)
    assert rendered.notice == "" and rendered.html.startswith("<p>[[")
    assert took < 20  # about 1.3 s here


def test_real_notes_are_far_inside_every_limit():
    notes = sorted(CONTENT.glob("**/*.md"))
    assert len(notes) > 50
    for path in notes:
        body = split_front_matter(path.read_text(encoding="utf-8"))[1]
        shape = _structure(body)
        assert shape.depth < 10 and shape.work < MAX_PARSE_WORK / 100, path
        assert len(body.encode()) < MAX_FORMATTED_BYTES / 5, path


def test_fences_hide_their_content_from_the_scan_only_when_closed():
    inside = "```python\n" + "[" * 5000 + "\n```\n"
    assert _structure(inside).work == 0 and render_markdown(inside).notice == ""
    # an indented or never-closed fence is text to Python-Markdown, so it is counted
    assert _structure("  ```\n" + "[" * 5000 + "\n  ```\n").work > MAX_PARSE_WORK
    assert _structure("````\n```\n" + "[" * 5000 + "\n").work > MAX_PARSE_WORK


def test_unclosed_inline_tags_are_allowed_far_more_levels():
    assert render_markdown("<font color=red>红" * 100 + "\n\n<div>" * 30 + "x").notice == ""
    assert "nested 1500 levels deep, over the limit of 1000" in render_markdown("<span>字" * 1500).notice


def test_plain_text_of_a_huge_note_is_capped_and_says_so():
    text = "开头\n" + "x" * 6_000_000 + "\n结尾"
    rendered = render_markdown(text)
    assert rendered.notice.endswith("shown as plain text (its first 5,000,000 characters).")
    assert "开头" in rendered.html and "结尾" not in rendered.html


@pytest.mark.parametrize("limit", [1000, 100_000])
def test_front_matter_nested_thousands_deep_is_reported_and_the_body_still_renders(limit):
    # the depth is counted, not left to the recursion limit (another test or library may raise it)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        rendered = render_markdown("---\ntags: " + "[" * 5000 + "]" * 5000 + "\n---\n# 标题\n")
    finally:
        sys.setrecursionlimit(old)
    assert rendered.notice == ""
    assert rendered.problems == ["front matter is nested too deeply"]
    assert "<h1" in rendered.html and "标题" in rendered.html


def test_a_recursion_the_scan_missed_still_gives_plain_text(monkeypatch):
    import studio.core.markdown_render as mr

    def too_deep(*args, **kwargs):
        raise RecursionError

    monkeypatch.setattr(mr.markdown.Markdown, "convert", too_deep)
    rendered = render_markdown("- a\n")
    assert rendered.notice == "This note is nested too deeply to format; shown as plain text."
