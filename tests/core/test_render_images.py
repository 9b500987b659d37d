"""Remote images never reach the widgets, however they are written; local and data: ones do.

The check parses the renderer's output with a real HTML parser and looks at every
attribute that can make Qt (or a browser) fetch something.
"""

from __future__ import annotations

import base64
from html.parser import HTMLParser

import pytest

from studio.core.markdown_render import render_markdown
from studio.core.safe_html import image_source_kind

PNG = "data:image/png;base64," + base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 16).decode()
FETCHING = {"src", "srcset", "href", "xlink:href", "background", "poster", "data", "style", "action",
            "formaction", "ping", "lowsrc", "dynsrc", "codebase", "cite", "longdesc", "usemap"}

REMOTE_FORMS = {
    "double quotes": '<img src="http://evil.example/1.png">',
    "single quotes": "<img src='http://evil.example/2.png'>",
    "unquoted": "<img src=http://evil.example/3.png>",
    "entity-encoded": '<img src="&#104;ttp://evil.example/4.png">',
    "hex entity, no semicolon": '<img src="&#x68ttp://evil.example/5.png">',
    "mixed case": '<IMG SRC="HtTpS://evil.example/6.png">',
    "protocol-relative": '<img src="//evil.example/7.png">',
    "tab inside the scheme": '<img src="ht&#9;tp://evil.example/8.png">',
    "leading space": '<img src=" http://evil.example/9.png">',
    "srcset only": '<img srcset="http://evil.example/10.png 2x, http://evil.example/11.png 3x">',
    "srcset beside a local src": '<img src="local.png" srcset="http://evil.example/12.png 2x">',
    "<image src>": '<image src="http://evil.example/13.png">',
    "<image href>": '<image href="http://evil.example/14.png">',
    "svg image href": '<svg><image href="http://evil.example/15.png"/></svg>',
    "svg image xlink:href": '<svg><image xlink:href="http://evil.example/16.png"/></svg>',
    "svg use": '<svg><use href="http://evil.example/17.svg#a"/></svg>',
    "css url in style": '<div style="background-image: url(http://evil.example/18.png)">字</div>',
    "css url quoted": "<p style=\"background: url('http://evil.example/19.png')\">字</p>",
    "css escape": '<span style="background: u\\72l(http://evil.example/20.png)">字</span>',
    "style element": "<style>@import url(http://evil.example/21.css); p {background: url(http://evil.example/22.png)}</style>",
    "link stylesheet": '<link rel="stylesheet" href="http://evil.example/23.css">',
    "table background": '<table background="http://evil.example/24.png"><tr><td>t</td></tr></table>',
    "body background": '<body background="http://evil.example/25.png">b</body>',
    "input image": '<input type="image" src="http://evil.example/26.png">',
    "video poster": '<video poster="http://evil.example/27.png" src="http://evil.example/28.mp4"></video>',
    "picture source": '<picture><source srcset="http://evil.example/29.png"><img src="http://evil.example/30.png"></picture>',
    "object data": '<object data="http://evil.example/31.svg"></object>',
    "iframe": '<iframe src="http://evil.example/32.html"></iframe>',
    "embed": '<embed src="http://evil.example/33.swf">',
    "base href": '<base href="http://evil.example/"><img src="34.png">',
    "meta refresh": '<meta http-equiv="refresh" content="0; url=http://evil.example/35">',
    "windows share": '<img src="\\\\evil.example\\share\\36.png">',
    "file url with a host": '<img src="file://evil.example/share/37.png">',
    "markdown image": "![图](http://evil.example/38.png)",
    "markdown reference image": "![图][r]\n\n[r]: https://evil.example/39.png",
    "markdown image, angle brackets": "![图](<HTTP://evil.example/40.png>)",
}


class _Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.elements: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, {k: v or "" for k, v in attrs}))

    handle_startendtag = handle_starttag


def _elements(out: str) -> list[tuple[str, dict[str, str]]]:
    parser = _Elements()
    parser.feed(out)
    parser.close()
    return parser.elements


def _fetching_attributes(out: str) -> list[tuple[str, str, str]]:
    """Every attribute that could fetch something, except a link's href (clicked, not loaded)."""
    return [(tag, k, v) for tag, attrs in _elements(out) for k, v in attrs.items()
            if k in FETCHING and not (tag == "a" and k == "href")]


@pytest.mark.parametrize("form", REMOTE_FORMS)
def test_remote_image_forms_are_neutralised(form):
    out = render_markdown(REMOTE_FORMS[form]).html
    for tag, name, value in _fetching_attributes(out):
        assert "http" not in value.lower() and "//" not in value and "\\\\" not in value, (tag, name, value)
        assert tag not in ("image", "link", "base", "meta", "style")
    assert "evil.example" not in "".join(v for _, a in _elements(out) for k, v in a.items() if k != "href")
    assert "<style" not in out.lower() and "@import" not in out and "url(" not in out


SHOWN_AS_LINKS = ["double quotes", "single quotes", "unquoted", "entity-encoded", "hex entity, no semicolon",
                  "mixed case", "protocol-relative", "tab inside the scheme", "leading space", "srcset only",
                  "<image src>", "<image href>", "svg image href", "svg image xlink:href", "picture source",
                  "markdown image", "markdown reference image", "markdown image, angle brackets"]


@pytest.mark.parametrize("form", SHOWN_AS_LINKS)
def test_a_remote_image_becomes_a_link_the_user_can_click(form):
    out = render_markdown(REMOTE_FORMS[form]).html
    links = [a["href"] for tag, a in _elements(out) if tag == "a"]
    assert "[remote image: evil.example" in out and "<img" not in out
    assert links and all(link.lower().startswith(("http://", "https://")) for link in links)


def test_other_remote_sources_are_named_not_linked():
    for form in ("windows share", "file url with a host"):
        out = render_markdown(REMOTE_FORMS[form]).html
        assert "[image not loaded:" in out and "<a " not in out and "<img" not in out


def test_local_and_data_images_are_kept(tmp_path):
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "图.png").write_bytes(b"\x89PNG\r\n")
    text = (f'![本地](img/图.png) <img src="{PNG}" alt="内嵌" width="20"> '
            '<img src="img/图.png" srcset="http://evil.example/x.png 2x" style="width: 40px">')
    images = [a for tag, a in _elements(render_markdown(text, base_dir=tmp_path).html) if tag == "img"]
    local = (tmp_path / "img" / "图.png").as_posix()
    assert images == [{"src": local, "alt": "本地"}, {"src": PNG, "alt": "内嵌", "width": "20"},
                      {"src": local, "style": "width: 40px"}]


def test_non_image_data_and_svg_data_are_not_loaded():
    out = render_markdown('<img src="data:text/html;base64,PHNjcmlwdD4=" alt="x"> '
                          '<img src="data:image/svg+xml,%3Csvg%3E" alt="矢量">').html
    assert "<img" not in out and "[image not loaded: x]" in out and "[image not loaded: 矢量]" in out


def test_styles_that_cannot_fetch_are_kept():
    out = render_markdown('<span style="color: rgb(200, 0, 0); font-weight: bold">红</span> '
                          '<span style="background: URL (x.png)">a</span> <span style="color:red/**/">b</span>').html
    assert '<span style="color: rgb(200, 0, 0); font-weight: bold">红</span>' in out
    assert "<span>a</span>" in out and "<span>b</span>" in out


def test_links_stay_clickable_and_code_keeps_its_styles():
    out = render_markdown("[网页](https://example.com/a?b=1&c=2) [[笔记]]\n\n```python\nx = '<img src=http://e/x>'\n```\n").html
    assert '<a href="https://example.com/a?b=1&amp;c=2">网页</a>' in out
    assert '<a href="note:笔记">笔记</a>' in out
    assert 'style="color' in out and "&lt;img src=http://e/x&gt;" in out


@pytest.mark.parametrize("src, kind", [
    ("img/a.png", "local"), ("/abs/a.png", "local"), ("C:/notes/a.png", "local"), ("file:///tmp/a.png", "local"),
    ("file://localhost/tmp/a.png", "local"), (PNG, "data"), (" HTTP://x/a.png", "web"), ("//x/a.png", "web"),
    ("\\\\x\\s\\a.png", "other"), ("file://x/s/a.png", "other"), ("ftp://x/a.png", "other"),
    ("javascript:alert(1)", "other"), ("data:image/svg+xml,<svg/>", "other"), ('"http://x/a.png', "other"),
    ("%68ttp://x/a.png", "other"),
])
def test_image_source_kinds(src, kind):
    assert image_source_kind(src) == kind
