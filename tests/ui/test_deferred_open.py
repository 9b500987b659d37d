"""The window is painted before the database is opened (#27: first paint within 0.5 s).

SQLAlchemy and the models cost ~300 ms of imports; `run_gui` and `studio smoke` build and
paint the window first (Today shows "–"), then open the collection and hand it to the
worker, where the tasks asked for meanwhile have waited.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading

from PySide6.QtWidgets import QMessageBox

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_first_paint_needs_no_database_modules(studio_home):
    """In a fresh process: the window is built and painted with SQLAlchemy not imported;
    after the open, Today shows the collection's figures."""
    code = textwrap.dedent("""
        import os, sys
        from studio.ui.application import _boot_window, _paint_now, open_after_paint, _drain
        studio = _boot_window(language="en")
        _paint_now(studio)
        before = sorted(m for m in ("sqlalchemy", "studio.core.db", "studio.core.models", "fsrs") if m in sys.modules)
        today = studio.window.pane("today")
        shown_before = today.due_total.text()
        enabled_before = today.review_button.isEnabled()
        assert open_after_paint(studio, interactive=False)
        _drain(studio)
        print("BEFORE", before, repr(shown_before), enabled_before)
        print("AFTER", "sqlalchemy" in sys.modules, repr(today.due_total.text()))
        studio.shutdown()
        sys.stdout.flush()
        os._exit(0)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr
    before = next(line for line in out.stdout.splitlines() if line.startswith("BEFORE"))
    after = next(line for line in out.stdout.splitlines() if line.startswith("AFTER"))
    assert before == "BEFORE [] '–' False", out.stdout
    assert after.startswith("AFTER True ") and "'–'" not in after, out.stdout


def test_tasks_asked_for_before_the_open_run_after_it(qapp, collection):
    from studio.ui.tasks import TaskRunner

    tasks = TaskRunner(None)
    ran: list = []
    tasks.run(lambda col: ran.append(col) or "first", ran.append)
    waiter = threading.Thread(target=lambda: ran.append(("call", tasks.call(lambda col: col is collection))))
    waiter.start()
    tasks.wait_idle()                       # before the open: returns at once, nothing has run
    assert ran == [] and not tasks.attached
    tasks.attach(collection)
    waiter.join(timeout=10)
    tasks.wait_idle()
    qapp.processEvents()
    assert ran[0] is collection and ("call", True) in ran and "first" in ran
    tasks.shutdown()


def test_closing_before_the_database_was_opened_ends_cleanly(qapp):
    from studio.ui.tasks import TaskRunner

    tasks = TaskRunner(None)
    done = tasks.run(lambda col: col.stats())          # would fail on None: it must never run
    tasks.shutdown()                                    # returns: the waiting task is let go
    assert done.result(timeout=5) is None and tasks.collection is None


def test_a_damaged_database_is_reported_over_the_painted_window(studio_home, monkeypatch, qapp):
    """The recovery dialog now comes after the first paint, over the window, in the user's
    language; quitting from it leaves the file as it was."""
    from studio import paths
    from studio.core.settings import Settings
    from studio.ui import i18n
    from studio.ui.application import StudioApp, open_after_paint
    from tests.ui.test_bad_input import _damaged_collection_in_chinese

    before = _damaged_collection_in_chinese()
    seen: dict = {}
    monkeypatch.setattr(QMessageBox, "exec", lambda box: seen.update(text=box.text()) or 0)
    studio = StudioApp(None, Settings())
    try:
        studio.window.show()
        assert not open_after_paint(studio, interactive=True)       # closed without choosing: quit
        assert studio.window.isVisible() and not studio.tasks.attached
    finally:
        studio.window.close()
        studio.shutdown()
        i18n.install_translators("en")
    assert seen["text"] == "数据库文件已损坏，或者不是数据库文件。"
    assert paths.database_path().read_bytes() == before


def test_smoke_reports_the_first_paint_and_when_today_is_filled(studio_home):
    out = subprocess.run([sys.executable, "main.py", "smoke"], capture_output=True, text=True, cwd=ROOT,
                         timeout=180, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 0, out.stderr
    first = int(next(line for line in out.stdout.splitlines() if line.startswith("first paint:")).split()[2])
    filled = int(next(line for line in out.stdout.splitlines() if line.startswith("today filled:")).split()[2])
    assert 0 < first <= filled


def test_an_open_that_fails_outright_is_said_and_quits(studio_home, monkeypatch, qapp):
    """Not a damaged file but an error nobody planned for (a data folder that cannot be read):
    the painted window does not wait forever for a collection; the user is told, the app ends."""
    from studio.core.settings import Settings
    from studio.ui import application
    from studio.ui.application import StudioApp

    def refuse(interactive):
        raise PermissionError(13, "Permission denied", str(studio_home))

    monkeypatch.setattr(application, "open_collection_interactive", refuse)
    shown: list = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text: shown.append(text))
    exits: list = []
    studio = StudioApp(None, Settings())
    monkeypatch.setattr(studio.qapp, "exit", exits.append)
    try:
        studio.window.show()
        assert application._open_or_quit(studio) is False
        assert exits == [2] and not studio.window.isVisible()
        assert shown and "cannot be opened" in shown[0] and "Permission denied" in shown[0]
    finally:
        studio.window.close()
        studio.shutdown()
