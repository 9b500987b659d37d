"""Full-text search: Chinese 2- and 3-character queries, English words, ranking, snippets."""

from __future__ import annotations

from studio.core.notes import register_folder, scan_folder
from studio.core.search import highlight, search_all, search_cards, search_notes


def _folder(tmp_path):
    root = tmp_path / "notes"
    root.mkdir()
    (root / "显存.md").write_text(
        "---\ntitle: 显存管理笔记\n---\n# 显存\n\n缓存分配器会把释放的块留在池中，碎片化会导致 OOM。\n", encoding="utf-8")
    (root / "roofline.md").write_text(
        "# Roofline model\n\nArithmetic intensity decides whether a kernel is memory bound.\n", encoding="utf-8")
    (root / "算子.md").write_text("# 算子融合\n\n把多个算子融合成一个 kernel 以减少访存。\n", encoding="utf-8")
    return root


def _indexed(collection, tmp_path):
    scan_folder(collection, register_folder(collection, _folder(tmp_path)))
    return collection


def test_chinese_two_character_query_uses_like_fallback(collection, tmp_path):
    _indexed(collection, tmp_path)
    hits = search_notes(collection, "碎片")
    assert [h.title for h in hits] == ["显存管理笔记"]
    assert "<b>碎片</b>" in hits[0].highlighted


def test_chinese_three_character_query_uses_fts(collection, tmp_path):
    _indexed(collection, tmp_path)
    hits = search_notes(collection, "分配器")
    assert [h.title for h in hits] == ["显存管理笔记"]
    assert "<b>" in hits[0].highlighted and "分配器" in hits[0].snippet


def test_english_word_and_case(collection, tmp_path):
    _indexed(collection, tmp_path)
    hits = search_notes(collection, "intensity")
    assert [h.title for h in hits] == ["Roofline model"]
    assert search_notes(collection, "ROOFLINE")[0].title == "Roofline model"


def test_title_matches_rank_first(collection, tmp_path):
    _indexed(collection, tmp_path)
    root = tmp_path / "notes"
    (root / "more.md").write_text("# 杂记\n\n提到算子融合一次。\n", encoding="utf-8")
    scan_folder(collection, 1)
    hits = search_notes(collection, "算子融合")
    assert hits[0].title == "算子融合" and len(hits) == 2


def test_fts_syntax_in_a_query_is_plain_text(collection, tmp_path):
    _indexed(collection, tmp_path)
    assert search_notes(collection, 'kernel" OR "x') == []
    assert search_notes(collection, "a*") == []


def test_cards_found_in_both_languages(synced_collection):
    english = search_cards(synced_collection, "autocast")
    assert english and all("autocast" in (h.title + h.snippet).lower() or h.highlighted for h in english)
    chinese = search_cards(synced_collection, "显存")
    assert chinese and any("<b>显存</b>" in h.highlighted for h in chinese)
    assert search_all(synced_collection, "显存")


def test_highlight_escapes_html():
    assert highlight("a <b> 显存 显存", "显存") == "a &lt;b&gt; <b>显存</b> <b>显存</b>"
