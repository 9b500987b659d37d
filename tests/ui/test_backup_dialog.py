"""File → Database → Restore from backup…: listing with counts, restoring while the app runs."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from studio import paths
from studio.core.backups import make_backup
from studio.core.cards import CardDraft, create_card
from tests.conftest import close_app, drain
from tests.core.test_data_safety import damage, first_leaf


def test_restore_from_the_dialog_brings_back_the_older_backup(studio_app, qtbot, monkeypatch):
    from studio.ui.backup_dialog import BackupDialog

    col = studio_app.tasks.collection
    base = col.counts()["cards"]
    older = studio_app.tasks.call(lambda c: make_backup(c.db.path, paths.backups_dir(), reason="manual"))
    studio_app.tasks.call(lambda c: [create_card(c, CardDraft(q_en=f"new {i}?", a_en="A")) for i in range(7)])
    newer = studio_app.tasks.call(lambda c: make_backup(c.db.path, paths.backups_dir(), reason="manual"))
    assert newer.cards == older.cards + 7
    changed = []
    studio_app.bus.data_changed.connect(changed.append)
    dialog = BackupDialog(studio_app.window.ctx, studio_app.window)
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 2, timeout=5000)
    assert dialog.table.item(0, 2).text() == str(newer.cards)
    assert dialog.table.item(1, 5).text() == "ok"
    dialog.table.selectRow(1)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    dialog.restore_button.click()
    qtbot.waitUntil(lambda: "Restored" in dialog.status.text(), timeout=10000)
    drain(qtbot, studio_app)
    assert studio_app.tasks.collection.counts()["cards"] == base
    assert {"cards", "reviews", "interviews"} <= set(changed)
    assert list(paths.data_dir().glob("studio.sqlite3.before-restore-*"))
    dialog.deleteLater()
    close_app(studio_app)


def test_a_damaged_backup_is_listed_as_such_and_cannot_be_restored(studio_app, qtbot):
    from studio.ui.backup_dialog import BackupDialog

    made = studio_app.tasks.call(lambda c: make_backup(c.db.path, paths.backups_dir(), reason="manual"))
    made.path.with_name(made.path.name + ".json").unlink()  # as an older version left it
    damage(made.path, first_leaf(made.path, "cards"))
    dialog = BackupDialog(studio_app.window.ctx, studio_app.window)
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1, timeout=10000)
    dialog.table.selectRow(0)
    assert dialog.table.item(0, 5).text() == "damaged"
    assert not dialog.restore_button.isEnabled()
    dialog.deleteLater()
    close_app(studio_app)


def test_in_chinese_a_copy_without_a_collection_is_named_and_the_good_one_is_preselected(studio_app, qtbot):
    import json
    from datetime import datetime, timedelta

    from PySide6.QtWidgets import QDialogButtonBox

    from studio.ui import i18n
    from studio.ui.backup_dialog import BackupDialog

    good = studio_app.tasks.call(lambda c: make_backup(c.db.path, paths.backups_dir(), reason="manual"))
    stamp = (datetime.now() + timedelta(minutes=1)).strftime("%Y%m%d-%H%M%S-%f")
    empty = paths.backups_dir() / f"studio-{stamp}-manual.sqlite3"  # what a 0-byte database once gave
    empty.write_bytes(b"")
    empty.with_name(empty.name + ".json").write_text(json.dumps({"verified": True, "cards": -1, "reviews": -1}))
    i18n.install_translators("zh_CN")
    try:
        dialog = BackupDialog(studio_app.window.ctx, studio_app.window)
        qtbot.waitUntil(lambda: dialog.table.rowCount() == 2, timeout=10000)
        assert [dialog.table.item(r, 5).text() for r in (0, 1)] == ["不含收藏库", "正常"]
        assert dialog.selected().id == good.id and dialog.restore_button.isEnabled()
        close = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Close)
        assert close.text() == "关闭"  # Qt's own strings are translated too
    finally:
        i18n.install_translators("en")
    dialog.deleteLater()
    close_app(studio_app)
