"""The user's note folders: encodings, indexing, re-indexing, links and back-links."""

from __future__ import annotations

import pytest

from studio.core.notes import (
    NoteDecodeError,
    NoteFolderError,
    backlinks,
    decode_note,
    list_folders,
    load_note_file,
    register_folder,
    reindex_file,
    remove_folder,
    resolve_link,
    scan_folder,
)
from studio.core.search import search_notes


def _make(root):
    root.mkdir()
    (root / "sub").mkdir()
    (root / ".obsidian").mkdir()
    (root / "utf8.md").write_text("# 注意力机制\n\n见 [[显存管理]] 与 [[GBK 笔记|旧笔记]]。\n", encoding="utf-8")
    (root / "bom.md").write_bytes("\ufeff---\ntitle: 带BOM的笔记\ntags: [a]\n---\n正文 [[注意力机制#小节]]\n".encode("utf-8"))
    (root / "sub" / "GBK 笔记.md").write_bytes("# 国标编码\n\n[回到](../utf8.md)\n".encode("gb18030"))
    (root / "sub" / "显存管理.md").write_text("no heading here\n", encoding="utf-8")
    (root / "binary.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR" * 20)
    (root / ".obsidian" / "hidden.md").write_text("# hidden", encoding="utf-8")
    (root / "image.png").write_bytes(b"\x89PNG")


def test_decode_accepts_utf8_bom_and_gb18030_and_rejects_binary():
    assert decode_note("显存".encode("utf-8")) == "显存"
    assert decode_note("\ufeff显存".encode("utf-8")) == "显存"
    assert decode_note("显存".encode("gb18030")) == "显存"
    with pytest.raises(NoteDecodeError):
        decode_note(b"\x00\x01\x02binary")
    with pytest.raises(NoteDecodeError):  # not UTF-8, and control bytes in any single-byte reading
        decode_note(b"\xff\x01\x02\x03\xfe" * 10)


def test_a_latin1_note_reads_as_latin1_not_as_chinese():
    text = "Café au lait, naïve Müller: über die Straße.\n" * 3
    assert decode_note(text.encode("latin-1")) == text


def test_scan_indexes_decodable_files_and_reports_the_rest(collection, tmp_path):
    root = tmp_path / "my notes"
    _make(root)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    folder_id = register_folder(collection, root)
    progress = []
    report = scan_folder(collection, folder_id, lambda done, total: progress.append((done, total)))
    assert report.indexed == 4
    assert [p for p, _ in report.skipped] == [str(root / "binary.md")]
    assert "binary" in report.skipped[0][1]
    assert progress[-1] == (5, 5)
    titles = {n.title for n in list_folders(collection)[0].notes}
    assert titles == {"注意力机制", "带BOM的笔记", "国标编码", "显存管理"}
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before  # nothing written
    again = scan_folder(collection, folder_id)
    assert again.indexed == 0 and again.unchanged == 4


def test_register_twice_returns_same_folder_and_missing_folder_is_an_error(collection, tmp_path):
    root = tmp_path / "n"
    root.mkdir()
    assert register_folder(collection, root) == register_folder(collection, str(root))
    with pytest.raises(NoteFolderError):
        register_folder(collection, tmp_path / "nope")


def test_edit_on_disk_is_picked_up_by_reindex(collection, tmp_path):
    root = tmp_path / "n"
    _make(root)
    scan_folder(collection, register_folder(collection, root))
    assert search_notes(collection, "量化误差") == []
    (root / "utf8.md").write_text("# 注意力机制\n\n新增：量化误差分析。\n", encoding="utf-8")
    assert reindex_file(collection, root / "utf8.md") == ""
    assert [h.title for h in search_notes(collection, "量化误差")] == ["注意力机制"]
    (root / "utf8.md").unlink()
    assert reindex_file(collection, root / "utf8.md") == "file removed"
    assert search_notes(collection, "注意力") == [] or all(h.path != str(root / "utf8.md")
                                                           for h in search_notes(collection, "注意力"))


def test_removing_a_folder_forgets_its_notes_but_keeps_files(collection, tmp_path):
    root = tmp_path / "n"
    _make(root)
    folder_id = register_folder(collection, root)
    scan_folder(collection, folder_id)
    remove_folder(collection, folder_id)
    assert list_folders(collection) == [] and search_notes(collection, "国标编码") == []
    assert (root / "utf8.md").exists()


def test_wiki_links_resolve_by_title_filename_and_relative_path(synced_collection, tmp_path):
    root = tmp_path / "n"
    _make(root)
    scan_folder(synced_collection, register_folder(synced_collection, root))
    assert resolve_link(synced_collection, "显存管理").path == str(root / "sub" / "显存管理.md")
    assert resolve_link(synced_collection, "带BOM的笔记").path == str(root / "bom.md")
    assert resolve_link(synced_collection, "GBK 笔记").path == str(root / "sub" / "GBK 笔记.md")
    assert resolve_link(synced_collection, "../utf8.md", str(root / "sub" / "GBK 笔记.md")).path == str(root / "utf8.md")
    shipped = resolve_link(synced_collection, "pytorch.amp", lang="zh")
    assert shipped.source == "shipped" and shipped.path.endswith("pytorch.amp.zh.md")
    assert resolve_link(synced_collection, "no such note") is None


def test_backlinks_list_notes_that_link_here(collection, tmp_path):
    root = tmp_path / "n"
    _make(root)
    scan_folder(collection, register_folder(collection, root))
    assert [r.title for r in backlinks(collection, str(root / "utf8.md"))] == ["国标编码", "带BOM的笔记"]
    assert [r.title for r in backlinks(collection, str(root / "sub" / "显存管理.md"))] == ["注意力机制"]


def test_load_note_reports_binary_and_renders_text(collection, tmp_path):
    root = tmp_path / "n"
    _make(root)
    scan_folder(collection, register_folder(collection, root))
    bad = load_note_file(collection, str(root / "binary.md"))
    assert bad.rendered is None and "binary" in bad.error
    good = load_note_file(collection, str(root / "sub" / "GBK 笔记.md"))
    assert good.title == "国标编码" and "国标编码</h1>" in good.rendered.html
    assert [r.title for r in good.backlinks] == ["注意力机制"]


def test_ten_megabyte_note_loads_in_part(collection, tmp_path):
    big = tmp_path / "big.md"
    big.write_text(("## 小节\n\n" + "显存 " * 2000 + "\n\n") * 1000, encoding="utf-8")
    assert big.stat().st_size > 10_000_000
    loaded = load_note_file(collection, str(big))
    assert loaded.rendered is not None and "very large" in loaded.rendered.problems[0]


def test_front_matter_aliases_and_deep_nesting_are_refused_not_expanded():
    import time

    from studio.core.frontmatter import split_front_matter

    bomb = "---\na: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(7)) + "tags: *h\n---\nbody\n"
    started = time.monotonic()
    fm, body = split_front_matter(bomb)
    assert time.monotonic() - started < 2 and "aliases" in fm.error and fm.tags == [] and body == "body\n"
    deep = "---\nx: " + "[" * 3000 + "]" * 3000 + "\n---\nbody\n"
    fm, body = split_front_matter(deep)
    assert fm.error and body == "body\n"
