"""The drill code editor's keys: indentation, comments, find, zoom, go to line, highlighting."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from studio.ui.code_editor import CodeEditor


def _editor(qtbot, text=""):
    editor = CodeEditor()
    qtbot.addWidget(editor)
    editor.setPlainText(text)
    editor.show()
    return editor


def test_tab_inserts_four_spaces_and_enter_keeps_indent(qtbot):
    editor = _editor(qtbot)
    editor.setFocus()
    qtbot.keyClicks(editor, "def f(x):")
    qtbot.keyClick(editor, Qt.Key_Return)
    qtbot.keyClicks(editor, "y = x")
    qtbot.keyClick(editor, Qt.Key_Return)
    qtbot.keyClick(editor, Qt.Key_Tab)
    qtbot.keyClicks(editor, "z")
    assert editor.toPlainText() == "def f(x):\n    y = x\n        z"


def test_shift_tab_dedents_selection(qtbot):
    editor = _editor(qtbot, "        a\n        b")
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key_Backtab)
    assert editor.toPlainText() == "    a\n    b"


def test_ctrl_slash_toggles_comments(qtbot):
    editor = _editor(qtbot, "x = 1\n    y = 2")
    editor.selectAll()
    editor.toggle_comment()
    assert editor.toPlainText() == "# x = 1\n#     y = 2"
    editor.selectAll()
    editor.toggle_comment()
    assert editor.toPlainText() == "x = 1\n    y = 2"


def test_find_wraps_around(qtbot):
    editor = _editor(qtbot, "tl.load\nx\ntl.load")
    cursor = editor.textCursor()
    cursor.movePosition(QTextCursor.End)
    editor.setTextCursor(cursor)
    editor.open_find()
    editor.find_box.setText("tl.load")
    assert editor.find_next()
    assert editor.textCursor().blockNumber() == 0


def test_zoom_and_go_to_line(qtbot):
    editor = _editor(qtbot, "\n".join(f"line{i}" for i in range(100)))
    size = editor.font().pointSize()
    editor.zoom(2)
    assert editor.font().pointSize() == size + 2
    editor.go_to_line(42)
    assert editor.textCursor().blockNumber() == 41


def test_keywords_and_strings_are_coloured(qtbot):
    editor = _editor(qtbot, 'def f():\n    """doc\n    more"""\n    return 1')
    qtbot.wait(10)
    layout = editor.document().findBlockByNumber(0).layout()
    formats = layout.formats()
    assert any(f.start == 0 and f.length == 3 and f.format.fontWeight() > 50 for f in formats)
    inside = editor.document().findBlockByNumber(2).layout().formats()
    assert inside, "a docstring continued on the next line is still highlighted"


def _colour_at(editor, block: int, column: int):
    for f in editor.document().findBlockByNumber(block).layout().formats():
        if f.start <= column < f.start + f.length:
            return f.format.foreground().color().name()
    return None


def test_cuda_highlighting_keywords_comments_and_block_comments(qtbot):
    source = ("__global__ void k(float* y) {  // one thread\n"
              "  /* a comment\n"
              "     still the comment */ int i = threadIdx.x;\n"
              "  y[i] = 1.0f;\n"
              "}\n")
    editor = _editor(qtbot, source)
    editor.set_language("cuda")
    qtbot.waitUntil(lambda: editor.document().findBlockByNumber(0).layout().formats() != [], timeout=3000)
    comment = _colour_at(editor, 0, source.index("//"))
    assert comment is not None
    assert _colour_at(editor, 1, 4) == comment, "a block comment's first line"
    assert _colour_at(editor, 2, 6) == comment, "a block comment carried to the next line"
    assert _colour_at(editor, 2, len("     still the comment */ ") + 1) != comment, "code after the comment closes"
    assert _colour_at(editor, 0, 0) not in (None, comment), "__global__ is a keyword"
    # Comment toggling and indentation speak C in a .cu file.
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key_Slash, Qt.ControlModifier)
    assert editor.toPlainText().splitlines()[0].startswith("// __global__")
    editor.set_language("python")
    assert editor.highlighter.language == "python"
