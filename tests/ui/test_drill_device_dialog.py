"""File → Drill device…: an SSH host tested against a real sshd on 127.0.0.1, saved, and
named in the status bar; bad hosts refused with a message; runners built from the setting."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import close_app, drain
from tests.drills.ssh_server import SshServer, find_sshd


@pytest.fixture(scope="module")
def server():
    if find_sshd() is None:
        pytest.skip("no sshd on this machine: install the openssh-server package to run this test")
    srv = SshServer()
    try:
        srv.start()
    except RuntimeError as exc:
        pytest.skip(f"sshd would not start here: {exc}")
    yield srv
    srv.target().close()
    srv.stop()


@pytest.fixture
def app(studio_app, qtbot, server, monkeypatch):
    from studio.drills.targets import ssh as ssh_target

    monkeypatch.setenv("STUDIO_SSH_CONFIG", str(server.config))
    monkeypatch.setattr(ssh_target, "DEFAULT_ROOT", str(server.folder / "remote"))
    drain(qtbot, studio_app)
    yield studio_app
    from studio.ui.main_window import LIVE_PROBES

    for probe in list(LIVE_PROBES):
        probe.wait(30000)


def test_test_connection_shows_what_the_host_has_and_save_switches_the_target(app, qtbot, server):
    from studio.drills.targets import target_from_settings
    from studio.drills.targets.ssh import SshTarget
    from studio.ui.drill_device_dialog import DrillDeviceDialog

    dialog = DrillDeviceDialog(app.window.ctx, app.window)
    assert dialog.local.isChecked() and not dialog.test_button.isEnabled()
    dialog.remote.setChecked(True)
    dialog.host.setText("studio-test")
    dialog.remote_python.setText(sys.executable)
    dialog.test_connection()
    qtbot.waitUntil(lambda: dialog.doctor is None, timeout=120000)
    text = dialog.report.toPlainText()
    assert "torch" in text and "triton" in text and "nvcc" in text and "SSH" in text
    assert "Drills run on studio-test" in text or "ready for drills" in text
    if "missing" in text:
        assert "Triton's interpreter" in text or "nvcc" in text     # the fix is said in words
    dialog.save()
    settings = app.window.ctx.settings
    assert settings.get("drill_target") == "ssh" and settings.get("drill_ssh_host") == "studio-test"
    target = target_from_settings(settings)
    assert isinstance(target, SshTarget) and target.python == sys.executable
    window = app.window
    window.refresh_drill_device()
    qtbot.waitUntil(lambda: "ssh studio-test" in window.device_label.text(), timeout=60000)
    dialog.deleteLater()


def test_a_bad_host_is_refused_with_a_message_and_nothing_saved(app):
    from studio.ui.drill_device_dialog import DrillDeviceDialog

    dialog = DrillDeviceDialog(app.window.ctx, app.window)
    dialog.remote.setChecked(True)
    dialog.host.setText("-oProxyCommand=evil")
    dialog.save()
    assert "not a host name" in dialog.error.text() and app.window.ctx.settings.get("drill_target") == "local"
    dialog.host.setText("")
    dialog.test_connection()
    assert "Name the SSH host" in dialog.error.text() and dialog.doctor is None
    dialog.local.setChecked(True)
    dialog.local_python.setText("")
    dialog.save()
    assert app.window.ctx.settings.get("drill_target") == "local"
    dialog.deleteLater()


def test_an_unreachable_host_is_named_in_the_status_bar(app, qtbot):
    from studio.drills.targets.local import LocalTarget
    from studio.drills.targets import target_from_settings

    settings = app.window.ctx.settings
    assert isinstance(target_from_settings(settings), LocalTarget)
    settings.set("drill_target", "ssh")
    settings.set("drill_ssh_host", "127.0.0.1:1")
    app.window.refresh_drill_device()
    qtbot.waitUntil(lambda: "not reachable" in app.window.device_label.text(), timeout=60000)
    assert app.window.ctx.drill_device == ""
