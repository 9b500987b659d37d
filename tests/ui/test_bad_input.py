"""Bad input at start-up: damaged databases and missing content give messages, not crashes."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from tests.conftest import close_app, drain


def test_missing_content_is_reported_in_the_panes(studio_home, tmp_path, monkeypatch, qtbot):
    from studio.core.collection import Collection
    from studio.core.settings import Settings
    from studio.ui.application import StudioApp

    empty = tmp_path / "empty-content"
    empty.mkdir()
    monkeypatch.setenv("STUDIO_CONTENT", str(empty))
    app = StudioApp(Collection.open(), Settings(), language="en", theme_name="light")
    drain(qtbot, app)
    assert app.window.roadmap.error.isVisibleTo(app.window)
    assert "roadmap file is missing" in app.window.roadmap.error.text()
    for pane in ("notes", "review", "interviews", "drills", "stats"):
        app.window.show_pane(pane)
        drain(qtbot, app)
    assert "Nothing is due" in app.window.panes["review"].browser.toPlainText()
    close_app(app)


def test_corrupt_database_offers_a_fresh_one_and_keeps_the_file(studio_home, monkeypatch):
    from studio import paths
    from studio.ui.application import ensure_qapp, open_collection_interactive

    ensure_qapp()
    db = paths.database_path()
    db.write_bytes(b"not sqlite" * 500)
    original = db.read_bytes()

    def click_fresh(box):
        box.setProperty("shown_text", box.text())
        for button in box.buttons():
            if box.buttonRole(button) == QMessageBox.AcceptRole:
                box.setProperty("clicked", True)
                monkeypatch.setattr(box, "clickedButton", lambda b=button: b)
        return 0

    monkeypatch.setattr(QMessageBox, "exec", click_fresh)
    col = open_collection_interactive(interactive=True)
    assert col is not None
    kept = list(paths.data_dir().glob("studio.sqlite3.damaged-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == original
    assert col.counts()["cards"] == 0
    col.close()


def test_quit_leaves_a_corrupt_database_untouched(studio_home, monkeypatch):
    from studio import paths
    from studio.ui.application import ensure_qapp, open_collection_interactive

    ensure_qapp()
    db = paths.database_path()
    db.write_bytes(b"not sqlite" * 500)
    monkeypatch.setattr(QMessageBox, "exec", lambda box: 0)  # closed without choosing
    assert open_collection_interactive(interactive=True) is None
    assert db.read_bytes() == b"not sqlite" * 500
    assert not list(paths.data_dir().glob("*.damaged-*"))
