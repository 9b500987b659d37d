"""Fuzzing the renderer with Markdown- and HTML-shaped noise: never an exception, never slow,
never an image or resource from outside in its output."""

from __future__ import annotations

import re
from datetime import timedelta
from html.parser import HTMLParser

from hypothesis import example, given, settings
from hypothesis import strategies as st

from studio.core.markdown_render import render_markdown

TOKENS = ["\n", "\n\n", " ", "    ", "\t", "# ", "#", "> ", "- ", "* ", "1. ", "---", "===", "```", "```python\n",
          "~~~", "`", "**", "_", "[", "]", "(", ")", "[[", "]]", "|", "#", "!", "![a](", "<", ">", "/", "=", '"',
          "'", "&", "&#104;", ";", ":", "http://x.example/i.png", "//x.example", "data:image/png;base64,AA",
          "<img src=", "<image href=", "<a href=", "<div>", "</div>", "<table><tr><td>", "<style>", "url(",
          "<!--", "-->", "[^1]", "[^1]: ", "- [ ] ", "- [x] ", "a", "中文", "\\", "{{c1::", "}}", "\ufeff", "\r"]


def _fetches_from_outside(value: str) -> bool:
    """Would a browser showing a local note fetch `value` from another host? Resolved as the
    URL standard reads an attribute (leading/trailing C0 and spaces stripped, tabs and
    newlines removed, a backslash read as a slash) against a file: base: a fragment ('# //x.example') or a relative path
    ('a //x.example') stays on this machine, '//x.example' and 'http://…' do not."""
    from urllib.parse import urljoin, urlsplit

    cleaned = re.sub(r"[\t\n\r]", "", value).strip("".join(map(chr, range(0x21)))).replace("\\", "/")
    target = urlsplit(urljoin("file:///notes/note.md", cleaned))
    return target.scheme not in ("file", "data", "") or target.netloc not in ("", "localhost")


class _Check(HTMLParser):
    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if tag == "a" or name not in ("src", "srcset", "href", "xlink:href", "background", "style", "poster"):
                continue
            value = value or ""
            if name in ("style", "srcset"):   # no parse of their own here: the host may not appear at all
                assert "x.example" not in value, (tag, name, value)
            elif "x.example" in value:
                assert not _fetches_from_outside(value), (tag, name, value)

    handle_startendtag = handle_starttag


DEEP_LIST = "\n".join("    " * level + "- x" for level in range(600))


@settings(max_examples=300, deadline=timedelta(seconds=2))
@given(st.lists(st.sampled_from(TOKENS) | st.text(max_size=4), max_size=80).map("".join), st.booleans())
@example(text=DEEP_LIST, dark=False)  # the old renderer recursed out on it
@example(text="<img src='http://x.example/i.png'> <IMG SRC=http://x.example/j.png>", dark=True)  # and loaded these
@example(text="![a](# //x.example)", dark=False)  # a fragment: fetches nothing (found by this fuzzer)
def test_fuzz_render(text, dark):
    rendered = render_markdown(text, dark=dark, copy_label="Copy")
    checker = _Check()
    checker.feed(rendered.html)
    checker.close()
    assert isinstance(rendered.problems, list) and all(isinstance(p, str) for p in rendered.problems)
