"""The roadmap tree: states from keys and menu, progress per subtree, due counts, My notes."""

from __future__ import annotations

from datetime import timedelta

from PySide6.QtCore import Qt

from studio.core.roadmap import Roadmap, RoadmapNode, due_cards_by_node
from studio.ui.roadmap_tree import NOTE_ROLE
from tests.conftest import drain


def _node(node_id, children=(), tags=()):
    node = RoadmapNode(node_id, node_id, node_id, "", "", tags=list(tags), children=list(children))
    for child in node.children:
        child.parent = node
    return node


def test_due_counts_include_subtree_and_tag_matched_cards_once():
    leaf_a, leaf_b = _node("a.x"), _node("a.y", tags=["triton"])
    area = _node("a", [leaf_a, leaf_b])
    roadmap = Roadmap([area], {n.id: n for n in area.walk()})
    cards = [(1, "a.x", ""), (2, "other", "triton memory"), (3, "a.y", "triton"), (4, None, "")]
    counts = due_cards_by_node(roadmap, cards)
    assert counts == {"a": 3, "a.x": 1, "a.y": 2}


def test_progress_column_and_keys_persist_state(studio_app, qtbot):
    window = studio_app.window
    tree = window.roadmap
    drain(qtbot, studio_app)
    area = tree.roadmap.areas[0]
    leaves = list(area.walk())
    tree.tree.setCurrentItem(tree.items[leaves[1].id])
    drain(qtbot, studio_app)
    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    tree.tree.setFocus()
    qtbot.waitUntil(tree.tree.hasFocus)
    qtbot.keyClick(tree.tree.viewport(), Qt.Key_3, Qt.AltModifier)
    drain(qtbot, studio_app)
    assert tree.states[leaves[1].id] == "done"
    assert tree.items[leaves[1].id].text(0).startswith("●")
    tree.set_state(leaves[2].id, "skipped")
    drain(qtbot, studio_app)
    expected = round(100 * 2 / len(leaves))
    assert tree.items[area.id].text(1) == f"{expected}%"
    assert studio_app.tasks.call(lambda col: col.node_states()) == {leaves[1].id: "done", leaves[2].id: "skipped"}


def test_due_column_counts_cards_due_today(studio_app, qtbot):
    from studio.core.collection import utcnow
    from studio.core.models import Card

    tree = studio_app.window.roadmap
    drain(qtbot, studio_app)
    node = next(n for n in tree.roadmap.walk() if n.tags and n.parent is not None)

    def make_due(col):
        with col.db.session() as s, s.begin():
            card = s.query(Card).filter(Card.retired.is_(False)).first()
            card.node_id, card.tags = "elsewhere", node.tags[0]
            card.last_review, card.due = utcnow() - timedelta(days=3), utcnow() - timedelta(hours=1)

    studio_app.tasks.call(make_due)
    tree.reload()
    drain(qtbot, studio_app)
    assert tree.items[node.id].text(2) == "1"
    assert tree.items[node.parent.id].text(2) == "1"


def test_filter_hides_non_matching_nodes(studio_app, qtbot):
    tree = studio_app.window.roadmap
    drain(qtbot, studio_app)
    target = next(n for n in tree.roadmap.walk() if n.depth == 2)
    tree.filter.setText(target.title_zh)
    assert not tree.items[target.id].isHidden()
    assert tree.items[target.parent.id].isExpanded()
    hidden = [i for i, item in tree.items.items() if item.isHidden()]
    assert len(hidden) > len(tree.items) // 2


def test_add_notes_folder_lists_my_notes_and_opens_one(studio_app, qtbot, tmp_path):
    root = tmp_path / "我的笔记"
    root.mkdir()
    (root / "kv.md").write_text("# KV cache 笔记\n\n分页注意力。\n", encoding="utf-8")
    (root / "bad.md").write_bytes(b"\x00\x01binary")
    window = studio_app.window
    tree = window.roadmap
    messages = []
    studio_app.bus.status_message.connect(messages.append)
    tree.add_notes_folder(str(root))
    drain(qtbot, studio_app)
    assert tree.notes_root is not None and tree.notes_root.text(0) == "My notes"
    folder_item = tree.notes_root.child(0)
    assert folder_item.text(0) == "我的笔记" and folder_item.childCount() == 1
    note_item = folder_item.child(0)
    assert note_item.text(0) == "KV cache 笔记"
    assert any("bad.md" in m for m in messages)
    tree.tree.setCurrentItem(note_item)
    drain(qtbot, studio_app)
    drain(qtbot, studio_app)
    pane = window.panes["notes"]
    assert "分页注意力" in pane.browser.toPlainText()
    assert note_item.data(0, NOTE_ROLE) == str(root / "kv.md")
    assert (root / "kv.md").read_text(encoding="utf-8") == "# KV cache 笔记\n\n分页注意力。\n"


def test_new_file_in_watched_folder_appears(studio_app, qtbot, tmp_path):
    root = tmp_path / "notes"
    root.mkdir()
    (root / "a.md").write_text("# A\n", encoding="utf-8")
    tree = studio_app.window.roadmap
    tree.add_notes_folder(str(root))
    drain(qtbot, studio_app)
    (root / "b.md").write_text("# B 新笔记\n", encoding="utf-8")
    qtbot.waitUntil(lambda: tree.notes_root is not None and tree.notes_root.child(0).childCount() == 2,
                    timeout=8000)
