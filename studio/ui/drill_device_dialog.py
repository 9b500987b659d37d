"""Drill device: where drills and benches run — this machine, or an SSH host.

Kept in the settings file beside the drill Python: "drill_target" ("local" or "ssh"),
"drill_python" (this machine's Python for drills, empty: the app's own), "drill_ssh_host"
(an alias from ~/.ssh/config or user@host[:port]) and "drill_remote_python" (the Python
there). The app uses the system's OpenSSH client with key or agent login; no password is
asked for or stored. "Test connection" runs the doctor (targets/ssh.py) in a background
thread and shows on one screen what the host has and what is missing.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QThread, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from studio.ui.context import AppContext


def menu_text() -> str:
    """The File menu's entry that opens this dialog (translated here, with the dialog)."""
    return QCoreApplication.translate("DrillDeviceDialog", "Drill device…")


def probe_target(settings) -> tuple[str, str]:
    """(GPU name or '', where) for the status bar: where is '' for this machine, else the host.

    Runs in a background thread: for an SSH host it asks the host's nvidia-smi (one channel
    of the shared connection; nothing is imported or copied)."""
    if (settings.get("drill_target") or "local") != "ssh" or not (settings.get("drill_ssh_host") or "").strip():
        from studio.ui.main_window import drill_device_name

        return drill_device_name(), ""
    from studio.drills.targets import TargetError, target_from_settings

    target = target_from_settings(settings)
    try:
        return target.device_name(), target.label
    except TargetError:
        return "", QCoreApplication.translate("DrillDeviceDialog", "%1, not reachable").replace("%1", target.label)


class _Doctor(QThread):
    done = Signal(object)

    def __init__(self, host: str, python: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host, self.python = host, python

    def run(self) -> None:
        from studio.drills.targets.ssh import Check, DoctorReport, SshTarget

        try:
            self.done.emit(SshTarget(self.host, python=self.python).doctor())
        except Exception as exc:  # noqa: BLE001 - the dialog shows it, the app goes on
            report = DoctorReport(self.host)
            report.checks.append(Check("ssh", False, f"{type(exc).__name__}: {exc}"))
            self.done.emit(report)


class DrillDeviceDialog(QDialog):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.doctor: _Doctor | None = None
        self.setWindowTitle(self.tr("Drill device"))
        settings = ctx.settings
        self.local = QRadioButton(self.tr("This machine"))
        self.remote = QRadioButton(self.tr("An SSH host (e.g. a GPU box at work, in a lab or in the cloud)"))
        group = QButtonGroup(self)
        group.addButton(self.local)
        group.addButton(self.remote)
        self.local_python = QLineEdit(settings.get("drill_python") or "")
        self.local_python.setPlaceholderText(self.tr("empty: the app's own Python"))
        self.host = QLineEdit(settings.get("drill_ssh_host") or "")
        self.host.setPlaceholderText(self.tr("an alias from ~/.ssh/config, or user@host[:port]"))
        self.remote_python = QLineEdit(settings.get("drill_remote_python") or "")
        self.remote_python.setPlaceholderText(self.tr("python3, or a full path such as ~/miniconda3/envs/gpu/bin/python"))
        local_box = QGroupBox()
        local_form = QFormLayout(local_box)
        local_form.addRow(self.tr("Python for drills"), self.local_python)
        remote_box = QGroupBox()
        remote_form = QFormLayout(remote_box)
        remote_form.addRow(self.tr("SSH host"), self.host)
        remote_form.addRow(self.tr("Python there"), self.remote_python)
        self.test_button = QPushButton(self.tr("Test connection"))
        self.test_button.clicked.connect(self.test_connection)
        remote_form.addRow("", self.test_button)
        note = QLabel(self.tr("Uses your system's ssh with your key or ssh-agent; no password is asked for or "
                              "stored. `ssh HOST true` must work in a terminal without a prompt. The drill "
                              "harness is copied once to ~/.cache/ml-infra-studio/remote on the host."))
        note.setWordWrap(True)
        self.report = QTextBrowser()
        self.report.setMinimumHeight(180)
        self.report.setPlaceholderText(self.tr("Test connection checks SSH, the Python there, torch, triton, "
                                               "the GPU and nvcc, and lists what is missing."))
        self.error = QLabel()
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.local)
        layout.addWidget(local_box)
        layout.addWidget(self.remote)
        layout.addWidget(remote_box)
        layout.addWidget(note)
        layout.addWidget(self.report, 1)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        (self.remote if settings.get("drill_target") == "ssh" else self.local).setChecked(True)
        self.local.toggled.connect(self._mode_changed)
        self._mode_changed()
        self.resize(680, 660)

    def _mode_changed(self) -> None:
        remote = self.remote.isChecked()
        self.host.setEnabled(remote)
        self.remote_python.setEnabled(remote)
        self.test_button.setEnabled(remote and self.doctor is None)
        self.local_python.setEnabled(not remote)

    def _host_problem(self) -> str:
        from studio.drills.targets.ssh import check_host

        reason = check_host(self.host.text())
        if not reason:
            return ""
        if not self.host.text().strip():
            return self.tr("Name the SSH host: an alias from ~/.ssh/config or user@host[:port].")
        return self.tr("“%1” is not a host name, an alias or user@host[:port].").replace("%1", self.host.text().strip())

    # ----- the doctor ---------------------------------------------------------------------
    def test_connection(self) -> None:
        problem = self._host_problem()
        if problem:
            self.error.setText(problem)
            return
        self.error.setText("")
        self.report.setPlainText(self.tr("Connecting to %1…").replace("%1", self.host.text().strip()))
        self.doctor = _Doctor(self.host.text().strip(), self.remote_python.text().strip() or "python3", self)
        self.doctor.done.connect(self._tested)
        self.test_button.setEnabled(False)
        self.doctor.start()

    def _tested(self, report) -> None:
        if self.doctor is not None:
            self.doctor.wait()
        self.doctor = None
        self._mode_changed()
        self.report.setHtml(self.report_html(report))

    def report_html(self, report) -> str:
        from html import escape

        names = {"ssh": self.tr("SSH"), "python": self.tr("Python there"), "harness": self.tr("Drill harness copy"),
                 "torch": "torch", "triton": "triton", "gpu": self.tr("GPU"), "nvcc": "nvcc"}
        fixes = {
            "ssh": self.tr("Check the host name and that `ssh HOST true` works in a terminal without a "
                           "password prompt (add your key with ssh-copy-id, or load it into ssh-agent)."),
            "python": self.tr("Set “Python there” to an interpreter that exists on the host, by its full "
                              "path (Python 3.9 or newer)."),
            "harness": self.tr("Free some disk space on the host, or check that its ~/.cache is writable."),
            "torch": self.tr("Install torch into that Python (a CUDA build for a GPU)."),
            "triton": self.tr("Install triton into that Python (it comes with CUDA builds of torch on Linux)."),
            "gpu": self.tr("Without a GPU, drills run there under Triton's interpreter: correctness only, no timing."),
            "nvcc": self.tr("CUDA C++ drills need nvcc: install the CUDA toolkit or set CUDA_HOME."),
        }
        rows = []
        for check in report.checks:
            mark = "✓" if check.ok else "✗"
            state = self.tr("found") if check.ok else self.tr("missing")
            row = (f"<tr><td>{mark}</td><td><b>{escape(names.get(check.name, check.name))}</b></td>"
                   f"<td>{escape(state)}</td><td>{escape(check.detail)}</td></tr>")
            if not check.ok:
                row += f"<tr><td></td><td></td><td></td><td><i>{escape(fixes.get(check.name, check.fix))}</i></td></tr>"
            rows.append(row)
        if report.ok:
            verdict = self.tr("%1 is ready for drills.")
        elif report.runnable:
            verdict = self.tr("Drills run on %1, without what is marked missing.")
        else:
            verdict = self.tr("Drills cannot run on %1 yet: see what is missing.")
        head = f"<p><b>{escape(verdict.replace('%1', report.host))}</b></p>"
        return head + "<table cellspacing='4'>" + "".join(rows) + "</table>"

    # ----- saving ---------------------------------------------------------------------------
    def save(self) -> None:
        if self.remote.isChecked():
            problem = self._host_problem()
            if problem:
                self.error.setText(problem)
                return
        settings = self.ctx.settings
        settings.set("drill_target", "ssh" if self.remote.isChecked() else "local")
        settings.set("drill_python", self.local_python.text().strip())
        settings.set("drill_ssh_host", self.host.text().strip())
        settings.set("drill_remote_python", self.remote_python.text().strip())
        if settings.save_problem:
            self.error.setText(settings.save_problem)
            return
        self.accept()

    def done(self, result: int) -> None:
        if self.doctor is not None:       # never destroy a running thread
            self.doctor.done.disconnect()
            self.doctor.wait()
            self.doctor = None
        super().done(result)
