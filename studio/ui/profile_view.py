"""The profile of one benchmark point: the verdict on top, then the solution's and the torch
baseline's kernels side by side, metric by metric, each explained (hover a metric) in the
UI language and linked to its roadmap node; with the previous profile of the same point,
what changed.

ProfileDialog runs studio.drills.profiler on a worker thread (ncu runs in child processes;
this process imports no torch), stores the result with the attempt or bench run, and shows
it. Unavailable (no ncu, no GPU, no permission) is shown as what to do, never as an error.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QCoreApplication, QThread, Signal
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QHeaderView, QLabel, QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout,
    QWidget,
)

from studio.drills import ncu
from studio.drills.profiler import TABLE_KEYS, Profile, format_value


def unavailable_text(missing: ncu.Unavailable) -> tuple[str, str]:
    """(why, what to do) in the UI language."""
    if missing.kind == "no_ncu":
        return (QCoreApplication.translate("ProfileView", "Nsight Compute (ncu) is not installed or not on PATH."),
                QCoreApplication.translate("ProfileView", "Install the CUDA toolkit or Nsight Compute and put ncu on PATH (or set STUDIO_NCU)."))
    if missing.kind == "no_gpu":
        return (QCoreApplication.translate("ProfileView", "No NVIDIA GPU is available to profile on."),
                QCoreApplication.translate("ProfileView", "Profiling reads the GPU's hardware counters: use a machine with an NVIDIA GPU."))
    if missing.kind == "no_permission":
        return (QCoreApplication.translate("ProfileView", "This user may not read the GPU's performance counters (ERR_NVGPUCTRPERM)."),
                QCoreApplication.translate("ProfileView", "Run as root, or set the nvidia module option NVreg_RestrictProfilingToAdminUsers=0 and reboot."))
    return missing.reason, missing.todo


def _zh(lang: str) -> bool:
    return str(lang).lower().startswith("zh")


def verdict_lines(profile: Profile, side: str = "solution", lang: str = "en") -> list[str]:
    """The verdict of a side in the UI language: the bound, then what holds it back."""
    v = profile.verdict(side)
    main = ncu.main_kernel(profile.side(side).kernels)
    if v is None or main is None:
        return [QCoreApplication.translate("ProfileView", "No kernel was profiled.")]
    mem = max((x for x in (main.get("dram_pct"), main.get("memory_pct")) if x is not None), default=None)
    sm = main.get("sm_pct")
    pct = (lambda x: "—" if x is None else f"{x:.0f}%")
    lines = [{
        "memory-bound": QCoreApplication.translate("ProfileView", "Memory-bound: memory at %1 of peak. Only moving fewer bytes makes it faster."),
        "compute-bound": QCoreApplication.translate("ProfileView", "Compute-bound: SM pipelines at %2 of peak. Fewer or cheaper instructions make it faster."),
        "latency-bound": QCoreApplication.translate("ProfileView", "Latency-bound: neither memory (%1) nor compute (%2) is near its peak; the warps wait."),
        "unknown": QCoreApplication.translate("ProfileView", "No throughput metrics were collected for this kernel."),
    }[v.bound].replace("%1", pct(mem)).replace("%2", pct(sm))]
    theoretical, achieved = main.get("occupancy_theoretical_pct"), main.get("occupancy_achieved_pct")
    if v.bound == "latency-bound" and v.limiter and theoretical is not None and theoretical < 50:
        limiter = {"registers": QCoreApplication.translate("ProfileView", "registers per thread"), "shared_mem": QCoreApplication.translate("ProfileView", "shared memory per block"),
                   "warps": QCoreApplication.translate("ProfileView", "block size"), "blocks": QCoreApplication.translate("ProfileView", "blocks per SM")}[v.limiter]
        lines.append(QCoreApplication.translate("ProfileView", "Occupancy: theoretical %1, capped by %2.").replace("%1", pct(theoretical))
                     .replace("%2", limiter))
    if v.bound == "latency-bound" and achieved is not None and theoretical and achieved < 0.7 * theoretical:
        lines.append(QCoreApplication.translate("ProfileView", "Achieved occupancy %1 is well below the theoretical %2.").replace("%1", pct(achieved))
                     .replace("%2", pct(theoretical)))
    if v.top_stalls:
        zh = _zh(lang)
        words = [f"{ncu.STALLS.get(r, (r, r))[1 if zh else 0]} {share:.0f}%" for r, share in v.top_stalls]
        lines.append(QCoreApplication.translate("ProfileView", "Top warp stalls: %1").replace("%1", ", ".join(words)))
    moved = (main.get("dram_read_bytes") or 0) + (main.get("dram_write_bytes") or 0)
    if profile.bytes_model and moved and len(profile.side(side).kernels) == 1:
        ratio = moved / profile.bytes_model
        if ratio >= ncu.EXTRA_TRAFFIC_RATIO:
            lines.append(QCoreApplication.translate("ProfileView", "DRAM traffic is %1× the bytes model: something is read or written more than once.")
                         .replace("%1", f"{ratio:.2f}"))
    use = main.get("sector_use_pct")
    if use is not None and use < ncu.LOW_SECTOR_USE_PCT:
        lines.append(QCoreApplication.translate("ProfileView", "Loads use %1 of each 32-byte sector: the access is strided or scattered (uncoalesced).")
                     .replace("%1", pct(use)))
    return lines


class ProfileView(QWidget):
    def __init__(self, parent: QWidget | None = None, lang: str = "en"):
        super().__init__(parent)
        self.lang = lang
        self.title = QLabel()
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels([self.tr("Metric"), self.tr("Your kernel"), self.tr("torch baseline"),
                                              self.tr("Previous profile")])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.kernels = QLabel()
        self.kernels.setWordWrap(True)
        layout = QVBoxLayout(self)
        for widget in (self.title, self.verdict, self.table, self.kernels):
            layout.addWidget(widget)

    def set_profile(self, profile: Profile, previous: dict | None = None) -> None:
        self.profile = profile
        size = "×".join(map(str, profile.size))
        self.title.setText(self.tr("%1 at %2 %3 on %4").replace("%1", profile.subject).replace("%2", size)
                           .replace("%3", profile.dtype).replace("%4", profile.device or "?"))
        if profile.status == "unavailable" and profile.unavailable is not None:
            self.verdict.setText("\n".join(unavailable_text(profile.unavailable)))
            self.table.setRowCount(0)
            return
        lines = verdict_lines(profile, lang=self.lang) if profile.solution.kernels else []
        errors = [e for e in (profile.error, profile.solution.error, profile.baseline.error) if e]
        if profile.check and profile.check.get("passed") is False:
            errors.append(self.tr("Note: the solution's output differs from the reference at this point."))
        self.verdict.setText("\n".join(lines + errors))
        before = Profile.from_dict(previous) if previous else None
        mains = [ncu.main_kernel(profile.solution.kernels), ncu.main_kernel(profile.baseline.kernels),
                 ncu.main_kernel(before.solution.kernels) if before else None]
        self.table.setColumnHidden(3, before is None)
        self.table.setRowCount(len(TABLE_KEYS))
        zh = _zh(self.lang)
        for row, key in enumerate(TABLE_KEYS):
            info = ncu.SECTORS_PER_REQUEST if key == "sectors_per_request" else ncu.METRIC_BY_KEY[key]
            name = QTableWidgetItem(info.label_zh if zh else info.label_en)
            name.setToolTip((info.explain_zh if zh else info.explain_en) + "\n\n"
                            + self.tr("Roadmap: %1").replace("%1", info.node))
            name.setData(256, info.node)
            self.table.setItem(row, 0, name)
            for col, kernel in enumerate(mains, start=1):
                value = kernel.get(key) if kernel is not None else None
                self.table.setItem(row, col, QTableWidgetItem(format_value(key, value) if kernel else "—"))
        parts = []
        for side, label in (("solution", self.tr("Your kernel")), ("baseline", self.tr("torch baseline"))):
            names = ", ".join(f"{k.name[:60]} ({format_value('duration_ns', k.get('duration_ns'))})"
                              for k in profile.side(side).kernels)
            parts.append(f"{label}: {names or '—'}")
        self.kernels.setText("\n".join(parts))


class ProfileThread(QThread):
    """Runs one profile; the result waits on the thread object (not passed through a signal)."""

    done = Signal()

    def __init__(self, profiler, request, parent=None):
        super().__init__(parent)
        self.profiler, self.request = profiler, request
        self.result: Profile | None = None
        self.failure: str | None = None

    def run(self) -> None:
        try:
            self.result = self.profiler.profile(self.request)
        except Exception as exc:  # noqa: BLE001 - shown in the dialog, never raised into Qt
            self.failure = f"{type(exc).__name__}: {exc}"
        self.done.emit()


class ProfileDialog(QDialog):
    """Profiles one point, stores it, and shows it (with the previous profile of the point)."""

    def __init__(self, ctx, request, source: str, code: str = "", attempt_id: int | None = None,
                 bench_run_id: int | None = None, parent: QWidget | None = None, profiler=None):
        super().__init__(parent)
        from studio.drills.profiler import Profiler

        self.ctx, self.request, self.source, self.code = ctx, request, source, code
        self.attempt_id, self.bench_run_id = attempt_id, bench_run_id
        self.setWindowTitle(self.tr("Profile: %1").replace("%1", request.subject))
        self.status = QLabel(self.tr("Profiling under Nsight Compute: the solution, then the torch baseline "
                                     "(each kernel is replayed many times; this takes a minute)…"))
        self.status.setWordWrap(True)
        self.view = ProfileView(self, lang=str(getattr(ctx, "language", "en")))
        self.stop_button = QPushButton(self.tr("Stop"))
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.addButton(self.stop_button, QDialogButtonBox.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(self.view, 1)
        layout.addWidget(buttons)
        self.resize(900, 620)
        self.profiler = profiler or Profiler()
        self.stop_button.clicked.connect(self.profiler.stop)
        self.thread = ProfileThread(self.profiler, request, self)
        self.thread.done.connect(self._done)
        self.stored_id: int | None = None
        self.finished_event = threading.Event()

    def start(self) -> None:
        self.thread.start()

    def reject(self) -> None:
        self.profiler.stop()
        self.thread.wait(10_000)
        super().reject()

    def _done(self) -> None:
        self.stop_button.setEnabled(False)
        profile = self.thread.result
        if profile is None:
            self.status.setText(self.tr("The profile failed: %1").replace("%1", self.thread.failure or "?"))
            self.finished_event.set()
            return
        self.status.setText({"ok": self.tr("Profiled. Hover a metric for what it means and what moves it."),
                             "unavailable": self.tr("Profiling is unavailable here."),
                             "failed": self.tr("The profile failed.")}.get(profile.status, profile.status))
        self.view.set_profile(profile)
        if profile.status == "unavailable":
            self.finished_event.set()
            return
        data, source, code = profile.to_dict(), self.source, self.code
        attempt_id, run_id = self.attempt_id, self.bench_run_id

        def store(col):
            from studio.core.kernel_profiles import get_profile, previous, profile_data, record_profile

            pid = record_profile(col, data, source, code, attempt_id, run_id)
            before = previous(col, get_profile(col, pid))
            return pid, profile_data(before) if before is not None else None

        def stored(result):
            self.stored_id, before = result
            if before:
                self.view.set_profile(profile, before)
            self.finished_event.set()

        self.ctx.tasks.run(store, stored, lambda exc: self.finished_event.set())
