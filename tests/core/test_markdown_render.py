"""Markdown rendering: every feature a note uses comes out as HTML QTextBrowser draws."""

from __future__ import annotations

from studio.core.frontmatter import split_front_matter
from studio.core.markdown_render import render_markdown

HEXO = """---
title: 显存优化笔记
date: 2025-03-01 09:30:00
updated: 2025-03-04 21:00:00
categories:
  - [推理, 显存]
tags:
  - CUDA
  - 算子
---
# 显存管理 概览

正文。
"""

OBSIDIAN = """---
dateCreated: 2024-11-02
dateModified: 2024-11-05
tags: [gpu, "#kernels"]
---
Body text.
"""


def test_code_is_highlighted_inside_a_one_cell_table():
    out = render_markdown("```python\ndef f(x):\n    return x < 1\n```\n").html
    assert '<table width="100%"' in out and "bgcolor=" in out
    assert 'style="color' in out  # Pygments inline styles, no CSS classes
    assert "&lt;</span>" in out and "codehilite" not in out


def test_code_block_copy_link_keeps_the_source():
    rendered = render_markdown("```cpp\nint a = b < c;\n```\n", copy_label="Copy")
    assert rendered.code_blocks == ["int a = b < c;"]
    assert '<a href="copy:0">Copy</a>' in rendered.html


def test_table_alignment_uses_align_attribute():
    out = render_markdown("| 名称 | 值 |\n|:-:|--:|\n| 显存 | 80 |\n").html
    assert '<th align="center">名称</th>' in out
    assert '<td align="right">80</td>' in out
    assert "text-align" not in out


def test_lists_quotes_and_task_boxes():
    out = render_markdown("- [ ] 待办\n- [x] 完成\n\n1. one\n2. two\n\n> 引用\n").html
    assert "<li>☐ 待办</li>" in out and "<li>☑ 完成</li>" in out
    assert "<ol>" in out and "<blockquote>" in out and "引用" in out


def test_footnotes_render_with_back_references():
    out = render_markdown("见脚注[^a]。\n\n[^a]: 说明文字。\n").html
    assert 'href="#fn:a"' in out and "说明文字" in out and 'class="footnote"' in out


def test_chinese_headings_get_anchors_and_outline():
    rendered = render_markdown("# 第一章 概述\n\n## 共享内存 bank 冲突\n\ntext\n")
    assert rendered.headings == [(1, "第一章 概述", "第一章-概述"), (2, "共享内存 bank 冲突", "共享内存-bank-冲突")]
    assert '<a name="第一章-概述"></a>' in rendered.html


def test_wiki_links_become_note_links():
    out = render_markdown("[[显存管理]] [[Flash Attention|FA]] [[Roofline#算术 强度]]").html
    assert '<a href="note:显存管理">显存管理</a>' in out
    assert '<a href="note:Flash Attention">FA</a>' in out
    assert '<a href="note:Roofline#算术-强度">Roofline#算术 强度</a>' in out


def test_relative_markdown_links_are_kept_for_the_viewer():
    out = render_markdown("[next](sub/其他笔记.md)").html
    assert 'href="sub/其他笔记.md"' in out


def test_images_local_kept_missing_and_remote_are_placeholders(tmp_path):
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "a.png").write_bytes(b"\x89PNG\r\n")
    text = "![有](img/a.png) ![缺](img/none.png) ![远](https://example.com/x.png)"
    out = render_markdown(text, base_dir=tmp_path).html
    assert (tmp_path / "img" / "a.png").as_posix() in out
    assert "[image not found: 缺]" in out
    assert '<a href="https://example.com/x.png">[remote image: example.com — 远]</a>' in out
    assert "<img" not in out.split("a.png")[1]  # the remote one is a link, not an image


def test_raw_html_remote_image_is_a_link_not_an_image():
    out = render_markdown('<img src="http://tracker.example/p.gif" alt="t">').html
    assert "<img" not in out and '<a href="http://tracker.example/p.gif">[remote image: tracker.example' in out


def test_hexo_front_matter_with_nested_categories():
    front, body = split_front_matter(HEXO)
    assert front.title == "显存优化笔记"
    assert front.created == "2025-03-01 09:30" and front.updated == "2025-03-04 21:00"
    assert front.categories == ["推理", "显存"] and front.tags == ["CUDA", "算子"]
    assert body.startswith("# 显存管理")


def test_obsidian_front_matter():
    front, _ = split_front_matter(OBSIDIAN)
    assert front.created == "2024-11-02" and front.updated == "2024-11-05"
    assert front.tags == ["gpu", "kernels"]


def test_invalid_front_matter_is_reported_and_body_still_renders():
    rendered = render_markdown("---\ntitle: [unclosed\n---\n# 标题\n")
    assert rendered.problems and "front matter is not valid YAML" in rendered.problems[0]
    assert "标题</h1>" in rendered.html


def test_unclosed_code_fence_renders_best_effort():
    rendered = render_markdown("# 标题\n\n```python\nx = 1\n")
    assert any("code fence is not closed" in p for p in rendered.problems)
    assert "bgcolor=" in rendered.html and "标题</h1>" in rendered.html


def test_tilde_fence_inside_backticks_is_not_reported():
    rendered = render_markdown("```\n~~~\n```\n")
    assert rendered.problems == []


def test_large_note_renders():
    text = "\n".join(f"## 小节 {i}\n\n正文 `code` {i}\n\n```python\nx = {i}\n```\n" for i in range(800))
    rendered = render_markdown(text)
    assert len(rendered.headings) == 800 and len(rendered.code_blocks) == 800


def test_wiki_links_to_roadmap_nodes_read_as_their_titles():
    from studio.core.markdown_render import render_markdown

    out = render_markdown("See [[dist.ddp]], [[dist.ddp|the DDP note]] and [[dist.ddp#Bucketing]].",
                          titles={"dist.ddp": "DDP 与梯度分桶"}).html
    assert '<a href="note:dist.ddp">DDP 与梯度分桶</a>' in out
    assert '<a href="note:dist.ddp">the DDP note</a>' in out
    assert "DDP 与梯度分桶#Bucketing" in out


def test_statements_wrap_their_source_lines_and_join_cjk_wraps_without_a_space():
    """Notes keep the line breaks a user typed; drill statements (hard_breaks=False) are wrapped
    source, so a newline is a space, and none between two CJK characters. Code keeps its lines."""
    text = ("Write softmax(x) for a\nmatrix x.\n\n返回一个形状和 dtype 都与输入\n相同的新张量，"
            "可以写成 Triton\nkernel。\n\n```\na = 1\nb = 2\n```\n")
    note = render_markdown(text).html
    assert "for a<br />" in note or "for a<br>" in note
    html = render_markdown(text, hard_breaks=False).html
    assert "<br" not in html.split("<pre")[0]
    assert "for a\nmatrix" in html or "for a matrix" in html
    assert "都与输入相同的新张量" in html
    assert "Triton\nkernel" in html              # between two Latin words the wrap stays a space
    assert "a = 1" in html and "b = 2" in html
