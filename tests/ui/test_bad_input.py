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
    app.window.show_pane("notes")           # the roadmap tree is Notes' side panel
    drain(qtbot, app)
    assert app.window.roadmap.error.isVisibleTo(app.window)
    assert "roadmap file is missing" in app.window.roadmap.error.text()
    for pane in ("notes", "review", "interviews", "drills", "stats"):
        app.window.show_pane(pane)
        drain(qtbot, app)
    assert "Nothing is due" in app.window.panes["review"].browser.toPlainText()
    close_app(app)


def _choose(monkeypatch, label_part: str, seen: dict):
    """Make QMessageBox.exec pick the button whose text contains `label_part`."""
    def pick(box):
        seen["text"] = box.text()
        seen["buttons"] = [b.text() for b in box.buttons() if box.buttonRole(b) != QMessageBox.RejectRole]
        chosen = next(b for b in box.buttons() if label_part in b.text())
        monkeypatch.setattr(box, "clickedButton", lambda b=chosen: b)
        return 0

    monkeypatch.setattr(QMessageBox, "exec", pick)


def _damaged_collection_with_backup(cards: int = 30):
    """A collection with `cards` cards, a verified backup of it, then page-level damage."""
    from studio import paths
    from studio.core.backups import make_backup
    from studio.core.cards import CardDraft, create_card
    from studio.core.collection import Collection
    from studio.core.dbstate import DbState
    from tests.core.test_data_safety import damage, first_leaf, next_day

    col = Collection.open()
    for i in range(cards):
        create_card(col, CardDraft(q_en=f"Q{i}?", a_en="A" * 400))
    col.close()
    good = make_backup(paths.database_path(), paths.backups_dir())
    col = Collection.open()
    for i in range(5):
        create_card(col, CardDraft(q_en=f"after backup {i}?", a_en="A"))
    col.close()
    db = paths.database_path()
    damage(db, first_leaf(db, "cards"))
    next_day(db)
    assert DbState.load(db).exists
    return good


def _damaged_collection_in_chinese() -> bytes:
    """A damaged collection of 10 cards with a backup, the language set to zh_CN; returns the
    damaged file's bytes (what must be left untouched)."""
    from studio import paths
    from studio.core.settings import Settings

    _damaged_collection_with_backup(cards=10)
    settings = Settings()
    settings.set("language", "zh_CN")
    settings.save()
    return paths.database_path().read_bytes()


def test_damaged_database_offers_restore_first_and_restores(studio_home, monkeypatch):
    from studio import paths
    from studio.ui.application import ensure_qapp, open_collection_interactive

    ensure_qapp()
    good = _damaged_collection_with_backup()
    damaged = paths.database_path().read_bytes()
    seen: dict = {}
    _choose(monkeypatch, "Restore", seen)
    monkeypatch.setattr("studio.ui.application._inform", lambda *a: None)
    col = open_collection_interactive(interactive=True)
    assert "damaged" in seen["text"]
    assert seen["buttons"][0].startswith("Restore the backup of") and f"{good.cards} cards" in seen["buttons"][0]
    assert [b.split(" ")[0] for b in seen["buttons"]] == ["Restore", "Salvage", "Open"]
    assert col is not None and not col.read_only
    assert col.counts()["cards"] == 30
    kept = list(paths.data_dir().glob("studio.sqlite3.before-restore-*"))
    assert [k.read_bytes() for k in kept if not k.name.endswith(("-wal", "-shm"))] == [damaged]
    col.close()


def test_the_recovery_dialog_at_start_up_speaks_the_users_language(studio_home, monkeypatch):
    """The dialog comes before the window is built: its translators must already be installed."""
    from studio import paths
    from studio.ui import i18n
    from studio.ui.application import _boot, ensure_qapp

    ensure_qapp()
    before = _damaged_collection_in_chinese()
    seen: dict = {}
    monkeypatch.setattr(QMessageBox, "exec", lambda box: seen.update(
        text=box.text(), buttons=[b.text() for b in box.buttons()]) or 0)
    try:
        assert _boot(interactive=True) is None  # closed without choosing: quit
    finally:
        i18n.install_translators("en")
    assert seen["text"] == "数据库文件已损坏，或者不是数据库文件。"
    assert seen["buttons"][0].startswith("恢复") and "以只读方式打开" in seen["buttons"]
    assert paths.database_path().read_bytes() == before


def test_a_backup_that_fails_its_check_at_restore_offers_the_choices_again(studio_home, monkeypatch):
    """The newest backup went bad on disk after it was made: the restore refuses it, says so,
    and the dialog comes back offering the next good one (it used to quit the app)."""
    import time

    from studio import paths
    from studio.core.backups import make_backup
    from studio.ui.application import ensure_qapp, open_collection_interactive
    from tests.core.test_data_safety import damage, first_leaf

    ensure_qapp()
    older = _damaged_collection_with_backup(cards=30)
    db = paths.database_path()
    damaged_db = db.read_bytes()
    db.write_bytes(paths.backups_dir().joinpath(older.path.name).read_bytes())  # whole again, briefly
    time.sleep(0.01)
    newer = make_backup(db, paths.backups_dir(), reason="manual")
    damage(newer.path, first_leaf(newer.path, "cards"))  # a bad sector in the backup itself
    db.write_bytes(damaged_db)
    offered, critical = [], []

    def pick(box):
        offered.append([b.text() for b in box.buttons()])
        chosen = next(b for b in box.buttons() if b.text().startswith("Restore"))
        monkeypatch.setattr(box, "clickedButton", lambda b=chosen: b)
        return 0

    monkeypatch.setattr(QMessageBox, "exec", pick)
    monkeypatch.setattr(QMessageBox, "critical", lambda *a: critical.append(a[2]))
    monkeypatch.setattr("studio.ui.application._inform", lambda *a: None)
    col = open_collection_interactive(interactive=True)
    assert len(offered) == 2 and len(critical) == 1 and "failed its integrity check" in critical[0]
    from studio.core.backups import list_backups

    assert {b.id: b.damaged for b in list_backups(paths.backups_dir())} == {newer.id: True, older.id: False}
    assert col is not None and not col.read_only and col.counts()["cards"] == 30
    col.close()


def test_damaged_database_can_be_salvaged(studio_home, monkeypatch):
    from studio import paths
    from studio.ui.application import ensure_qapp, open_collection_interactive

    ensure_qapp()
    _damaged_collection_with_backup(cards=300)
    _choose(monkeypatch, "Salvage", {})
    shown = []
    monkeypatch.setattr("studio.ui.application._inform", lambda text, detail="": shown.append(detail))
    col = open_collection_interactive(interactive=True)
    assert col is not None
    assert 0 < col.counts()["cards"] < 305  # the damaged leaf's rows are gone, the rest came back
    assert "Could not read:" in shown[0] and "cards: rows" in shown[0]
    assert list(paths.data_dir().glob("studio.sqlite3.damaged-*"))
    col.close()


def test_damaged_database_opens_read_only_with_a_banner_and_refuses_writes(studio_home, monkeypatch, qtbot):
    from studio import paths
    from studio.core.settings import Settings
    from studio.ui.application import StudioApp, ensure_qapp, open_collection_interactive

    ensure_qapp()
    _damaged_collection_with_backup(cards=30)
    before = paths.database_path().read_bytes()
    _choose(monkeypatch, "read-only", {})
    col = open_collection_interactive(interactive=True)
    assert col is not None and col.read_only
    app = StudioApp(col, Settings(), language="en", theme_name="light")
    assert app.window.banner.isVisibleTo(app.window) and "Read-only" in app.window.banner.text()
    errors = []
    app.tasks.failed.connect(errors.append)
    app.tasks.run(lambda c: c.set_node_state("gpu-basics", "learning"))
    # (Today, the first pane, reads the damaged file too and may report that damage first.)
    qtbot.waitUntil(lambda: any(e.startswith("The database cannot be written") for e in errors), timeout=5000)
    close_app(app)
    assert paths.database_path().read_bytes() == before


def test_vanished_database_is_not_replaced_by_an_empty_one(studio_home, monkeypatch):
    from studio import paths
    from studio.ui.application import ensure_qapp, open_collection_interactive

    ensure_qapp()
    _damaged_collection_with_backup(cards=10)
    paths.database_path().write_bytes(b"")  # what a sync tool or a full disk leaves
    seen: dict = {}
    monkeypatch.setattr(QMessageBox, "exec", lambda box: seen.setdefault("buttons", [b.text() for b in box.buttons()]) and 0)
    assert open_collection_interactive(interactive=True) is None
    assert seen["buttons"][0].startswith("Restore the backup of")
    assert "Start a new, empty collection" in seen["buttons"]
    assert not any(b.startswith("Salvage") for b in seen["buttons"])
    assert paths.database_path().stat().st_size == 0


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


def test_damage_met_while_working_makes_the_next_open_check(studio_app, qtbot):
    import sqlite3

    from studio.core.dbstate import DbState

    db = studio_app.tasks.collection.db.path
    assert DbState.load(db).last_check  # checked on this open
    errors = []
    studio_app.tasks.failed.connect(errors.append)

    def hits_damage(_col):
        raise sqlite3.DatabaseError("database disk image is malformed")

    studio_app.tasks.run(hits_damage)
    qtbot.waitUntil(lambda: bool(errors), timeout=5000)
    assert errors[0].startswith("The database reported damage")
    assert DbState.load(db).last_check == ""
    qtbot.waitUntil(lambda: studio_app.window.banner.isVisibleTo(studio_app.window), timeout=5000)
    assert "Restart the app" in studio_app.window.banner.text()  # stays on screen, not a status-bar moment
    close_app(studio_app)
