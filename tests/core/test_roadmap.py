"""Roadmap loading, validation messages with file and line, and progress arithmetic."""

from __future__ import annotations

import textwrap

import pytest

from studio import paths
from studio.core.roadmap import RoadmapError, load_roadmap

GOOD = textwrap.dedent("""\
    version: 1
    areas:
      - id: a
        title: {en: Area A, zh: 领域甲}
        summary: {en: First area., zh: 第一个领域。}
        children:
          - id: a.x
            title: {en: X, zh: 甲}
            summary: {en: x node., zh: 甲节点。}
            note: a.x
            tags: [Triton]
            children:
              - id: a.x.deep
                title: {en: Deep, zh: 深}
                summary: {en: deep node., zh: 深节点。}
          - id: a.y
            title: {en: Y, zh: 乙}
            summary: {en: y node., zh: 乙节点。}
      - id: b
        title: {en: Area B, zh: 领域乙}
        summary: {en: Second., zh: 第二个。}
""")


def _write(tmp_path, text):
    path = tmp_path / "roadmap.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_loads_tree_with_both_languages(tmp_path):
    rm = load_roadmap(_write(tmp_path, GOOD))
    assert [a.id for a in rm.areas] == ["a", "b"]
    assert rm.nodes["a.x"].title("zh_CN") == "甲" and rm.nodes["a.x"].title("en") == "X"
    assert rm.nodes["a.x"].tags == ["triton"]
    assert rm.subtree_ids("a") == ["a", "a.x", "a.x.deep", "a.y"]


def test_progress_counts_done_and_skipped_over_subtree(tmp_path):
    rm = load_roadmap(_write(tmp_path, GOOD))
    states = {"a.x": "done", "a.x.deep": "skipped", "a.y": "learning"}
    assert rm.progress("a", states) == (2, 4)
    assert rm.progress("a.x", states) == (2, 2)
    assert rm.progress("b", states) == (0, 1)
    assert rm.overall_progress(states) == (2, 5)


@pytest.mark.parametrize("broken, line, words", [
    (GOOD.replace("id: a.y", "id: b.y"), 16, "must start with its parent"),
    (GOOD.replace("{en: Y, zh: 乙}", "{en: Y}"), 16, "'title' needs non-empty 'en' and 'zh'"),
    (GOOD.replace("id: a.y", "id: a.x"), 16, "duplicate node id"),
    (GOOD.replace("title: {en: Deep, zh: 深}", "title: {en: Deep, zh: [深"), 14, "invalid YAML"),
])
def test_errors_name_file_and_line(tmp_path, broken, line, words):
    path = _write(tmp_path, broken)
    with pytest.raises(RoadmapError) as info:
        load_roadmap(path)
    message = str(info.value)
    assert words in message
    assert f"{path}:{line}" in message or f"{path}:{line + 1}" in message


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(RoadmapError, match="missing"):
        load_roadmap(tmp_path / "nope.yaml")


def test_shipped_roadmap_is_valid_and_big_enough():
    rm = load_roadmap(paths.content_dir() / "roadmap.yaml")
    assert len(rm.areas) >= 10
    assert len(rm.nodes) >= 100
