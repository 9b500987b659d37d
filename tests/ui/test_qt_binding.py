"""The Qt binding must not corrupt reference counts when it calls our slots.

PySide6 6.12.0 decremented the reference count of a Python slot's return value on every
signal delivery and on every paint of a widget with Python overrides; after enough
events None or True reached zero and the interpreter aborted. pyproject.toml excludes it;
this test fails on any binding with the same bug.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    ping = Signal(str)


def test_delivering_signals_keeps_reference_counts(qtbot):
    emitter = _Emitter()
    calls = []

    def slot(text: str) -> None:
        calls.append(text)

    emitter.ping.connect(slot)
    emitter.ping.connect(lambda text: text == "never")  # a slot returning a bool
    before = sys.getrefcount(None), sys.getrefcount(True), sys.getrefcount(False)
    for _ in range(500):
        emitter.ping.emit("x")
    after = sys.getrefcount(None), sys.getrefcount(True), sys.getrefcount(False)
    assert len(calls) == 500
    assert after[0] >= before[0] - 5, f"None lost {before[0] - after[0]} references"
    assert after[1] >= before[1] - 5 and after[2] >= before[2] - 5, "bools lost references"


def test_painting_keeps_reference_counts(qtbot):
    from studio.ui.code_editor import CodeEditor

    editor = CodeEditor()
    qtbot.addWidget(editor)
    editor.setPlainText("def f():\n    return 1\n" * 20)
    editor.show()
    qtbot.waitExposed(editor)
    before = sys.getrefcount(None)
    for _ in range(50):
        editor.repaint()
    assert sys.getrefcount(None) >= before - 5
