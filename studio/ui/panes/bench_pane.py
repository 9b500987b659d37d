"""The Bench pane: check and time the user's own kernel across a sweep, with history.

Open any Python file, pick the function, and run it against its bench spec
(`<file>.bench.py`, written from a form here or by hand). The run goes through the drill
engine in a child process (studio.drills.bench_cli builds the request), so a kernel that
hangs or crashes ends its run, never the app. Points stream into the table and the plot
(µs, GB/s or TFLOP/s against each baseline) as they land; each run is kept in the history,
any earlier run can be overlaid or compared point by point, and the plot, a CSV and a
Markdown table can be exported. Without a GPU the interpreter checks correctness only.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

# Imported with the pane, not on the first Run: a first import on the GUI thread mid-run
# stalled the event loop ~80 ms (bench/bench_ui_jitter.py). None of these imports torch.
import studio.core.bench_runs  # noqa: F401
import studio.drills.bench_cli  # noqa: F401
import studio.drills.bench_export  # noqa: F401
import studio.drills.bench_spec_writer  # noqa: F401
import studio.drills.runner  # noqa: F401
from studio.ui.context import AppContext
from studio.ui.drill_plot import DrillPlot
from studio.ui.panes.drills_pane import DrillRunThread

COLUMNS = 9  # size, dtype, check, max err, µs, GB/s, TFLOP/s, % peak, vs earlier run
VS_COLUMN = 8


def _size_text(size) -> str:
    return "x".join(str(v) for v in size)


class SpecDialog(QDialog):
    """The form for the common case of 1-4 tensor inputs; writes an ordinary spec file."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Write a bench spec"))
        self.sizes = QLineEdit("4096x1024, 4096x4096, 8192x8192")
        self.dtypes = {name: QCheckBox(name) for name in ("float32", "float16", "bfloat16")}
        self.dtypes["float16"].setChecked(True)
        self.dtypes["float32"].setChecked(True)
        dtype_row = QHBoxLayout()
        for box in self.dtypes.values():
            dtype_row.addWidget(box)
        self.count = QSpinBox()
        self.count.setRange(1, 4)
        self.shapes = [QLineEdit(text) for text in ("size", "size", "(size[-1],)", "(size[-1],)")]
        self.reference = QLineEdit("torch.softmax(a, -1)")
        self.compile = QCheckBox(self.tr("also time torch.compile of the reference"))
        self.compile.setChecked(True)
        self.error = QLabel()
        self.error.setWordWrap(True)
        form = QFormLayout(self)
        form.addRow(self.tr("Sizes"), self.sizes)
        form.addRow(self.tr("Dtypes"), dtype_row)
        form.addRow(self.tr("Tensor inputs"), self.count)
        for name, edit in zip("abcd", self.shapes):
            form.addRow(self.tr("Shape of %1").replace("%1", name), edit)
        form.addRow(self.tr("Reference (of a, b, c, d)"), self.reference)
        form.addRow("", self.compile)
        form.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.count.valueChanged.connect(self._count_changed)
        self._count_changed(1)
        self.text = ""

    def _count_changed(self, count: int) -> None:
        for i, edit in enumerate(self.shapes):
            edit.setEnabled(i < count)

    def form(self):
        from studio.drills.bench_spec_writer import SpecForm, parse_sizes

        return SpecForm(sizes=parse_sizes(self.sizes.text()),
                        dtypes=[n for n, box in self.dtypes.items() if box.isChecked()],
                        shapes=[e.text().strip() for e in self.shapes[: self.count.value()]],
                        reference=self.reference.text().strip(), compile_baseline=self.compile.isChecked())

    def _accept(self) -> None:
        from studio.drills.bench_spec_writer import FormError, write_spec

        try:
            self.text = write_spec(self.form())
        except FormError as exc:
            self.error.setText(str(exc))
            return
        self.accept()


class SaveDrillDialog(QDialog):
    """Title, time limit, difficulty and statement for a personal drill made from this bench."""

    def __init__(self, func: str, parent=None):
        super().__init__(parent)
        from PySide6.QtWidgets import QPlainTextEdit

        self.setWindowTitle(self.tr("Save as a drill"))
        self.title = QLineEdit(func.replace("_", " ").capitalize())
        self.minutes = QSpinBox()
        self.minutes.setRange(1, 240)
        self.minutes.setValue(30)
        self.difficulty = QComboBox()
        for key, label in (("easy", self.tr("easy")), ("medium", self.tr("medium")), ("hard", self.tr("hard"))):
            self.difficulty.addItem(label, key)
        self.difficulty.setCurrentIndex(1)
        self.statement = QPlainTextEdit()
        self.statement.setPlaceholderText(self.tr("What the kernel must do, as you would state it in an interview."))
        form = QFormLayout(self)
        form.addRow(self.tr("Title"), self.title)
        form.addRow(self.tr("Time limit (min)"), self.minutes)
        form.addRow(self.tr("Difficulty"), self.difficulty)
        form.addRow(self.tr("Statement"), self.statement)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


class BenchPane(QWidget):
    pane_id = "bench"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.kernel: Path | None = None
        self.thread: DrillRunThread | None = None
        self.result_pending = False
        self.doc: dict | None = None
        self.compare: dict | None = None
        self.runs: list = []
        self.rows: dict[tuple, int] = {}
        self.kernel_used: Path | None = None
        self.func_used: str | None = None
        self.spec_used: Path | None = None
        self._build()
        self._show_empty_state()

    # --- layout ----------------------------------------------------------------------------
    def _build(self) -> None:
        self.kernel_edit = QLineEdit()
        self.kernel_edit.setReadOnly(True)
        self.kernel_edit.setPlaceholderText(self.tr("Open a Python file that holds your kernel…"))
        open_button = QPushButton(self.tr("Open kernel…"))
        open_button.clicked.connect(self.choose_kernel)
        self.func = QComboBox()
        self.func.setMinimumWidth(160)
        self.func.currentIndexChanged.connect(self._func_changed)
        self.spec_label = QLabel()
        self.write_spec_button = QPushButton(self.tr("Write spec…"))
        self.write_spec_button.clicked.connect(self.write_spec)
        self.protocol = QComboBox()
        for key, label in (("engine", self.tr("engine (L2 flushed, interleaved)")),
                           ("do_bench", self.tr("triton do_bench")), ("cudagraph", self.tr("CUDA graph replay"))):
            self.protocol.addItem(label, key)
        self.compile_box = QCheckBox(self.tr("+ torch.compile"))
        self.compile_box.setToolTip(self.tr("Also time torch.compile of the spec's reference as a baseline"))
        self.run_button = QPushButton(self.tr("Run"))
        self.run_button.clicked.connect(self.start_run)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop_run)
        self.drill_button = QPushButton(self.tr("Save as drill…"))
        self.drill_button.setToolTip(self.tr("Make this kernel and its spec a personal drill, listed under My drills"))
        self.drill_button.clicked.connect(self.save_as_drill)
        top = QHBoxLayout()
        top.addWidget(open_button)
        top.addWidget(self.kernel_edit, 1)
        top.addWidget(QLabel(self.tr("Function")))
        top.addWidget(self.func)
        second = QHBoxLayout()
        second.addWidget(self.spec_label, 1)
        second.addWidget(self.write_spec_button)
        second.addWidget(self.drill_button)
        second.addWidget(QLabel(self.tr("Timing")))
        second.addWidget(self.protocol)
        second.addWidget(self.compile_box)
        second.addWidget(self.run_button)
        second.addWidget(self.stop_button)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.empty = QLabel()
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignCenter)
        # Markers only up to 12 points: a sweep streams up to ~100, and markers doubled the cost
        # of building and painting the lines (bench/results/bench_ui_jitter.json).
        self.plot = DrillPlot(symbol_limit=12)
        self.plot.empty_note = self.tr("Timings plot here as they land (on a GPU; without one, each size is "
                                       "checked for correctness only).")
        from studio.drills.ncu import unavailable_reason

        self.plot.profile_check = unavailable_reason   # "Profile this point" says why not, when not
        self.plot.profile_requested.connect(self.profile_point)
        self.table = QTableWidget(0, COLUMNS)
        self.table.setHorizontalHeaderLabels([self.tr("Size"), self.tr("Dtype"), self.tr("Check"), self.tr("Max err"),
                                              self.tr("µs"), self.tr("GB/s"), "TFLOP/s", self.tr("% peak"),
                                              self.tr("vs run")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        # Sized to the contents once per batch of events, not per cell (ResizeToContents re-measures
        # every row on every insert: ~1 ms per row at 100 rows).
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.Interactive)
        split = QSplitter()
        split.addWidget(self.plot)
        split.addWidget(self.table)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setSizes([560, 520])
        self.history = QComboBox()
        self.history.setMinimumWidth(320)
        overlay = QPushButton(self.tr("Overlay"))
        overlay.clicked.connect(self.overlay_run)
        compare = QPushButton(self.tr("Compare"))
        compare.clicked.connect(self.compare_run)
        self.export_buttons = []
        bottom = QHBoxLayout()
        bottom.addWidget(QLabel(self.tr("Earlier runs")))
        bottom.addWidget(self.history, 1)
        bottom.addWidget(overlay)
        bottom.addWidget(compare)
        for label, slot in ((self.tr("Export PNG…"), self.export_png), (self.tr("Export CSV…"), self.export_csv),
                            (self.tr("Copy Markdown table"), self.copy_markdown)):
            button = QPushButton(label)
            button.clicked.connect(slot)
            bottom.addWidget(button)
            self.export_buttons.append(button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(second)
        layout.addWidget(self.status)
        layout.addWidget(self.empty, 1)
        layout.addWidget(split, 6)
        layout.addLayout(bottom)
        self.split = split

    def _show_empty_state(self) -> None:
        have = self.kernel is not None
        self.empty.setVisible(not have)
        self.split.setVisible(have)
        self.empty.setText(self.tr(
            "Bench your own kernel: open the Python file that holds it, pick the function, and write a "
            "bench spec (sizes, dtypes, inputs and the reference) from the form. Every size is checked "
            "against the reference, then timed beside torch and torch.compile on the GPU; each run is "
            "kept so you can compare today's change with yesterday's."))
        self._update_buttons()

    def _update_buttons(self) -> None:
        running = self.is_running()
        ready = self.kernel is not None and self.func.currentText() != "" and self.spec_path() is not None \
            and self.spec_path().is_file()
        self.run_button.setEnabled(ready and not running)
        self.stop_button.setEnabled(running)
        self.write_spec_button.setEnabled(self.kernel is not None)
        self.drill_button.setEnabled(ready)
        for button in self.export_buttons:
            button.setEnabled(self.doc is not None)

    def refresh(self) -> None:
        self._update_buttons()

    # --- the kernel and its spec -------------------------------------------------------------
    def choose_kernel(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open kernel"), str(Path.home()),
                                              self.tr("Kernels (*.py *.cu)"))
        if path:
            self.open_kernel(Path(path))

    def open_kernel(self, path: Path) -> None:
        from studio.drills.bench_spec_writer import functions_in

        path = Path(path).resolve()
        try:
            source = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            self.status.setText(self.tr("Cannot read %1: %2").replace("%1", str(path)).replace("%2", str(exc)))
            return
        self.kernel = path
        self.kernel_edit.setText(str(path))
        names = functions_in(source, path)
        self.func.blockSignals(True)
        self.func.clear()
        self.func.addItems(names)
        self.func.blockSignals(False)
        self.status.setText("" if names else self.tr("No top-level function found in this file (a syntax error?)."))
        self._func_changed()
        self._show_empty_state()

    def spec_path(self) -> Path | None:
        if self.kernel is None:
            return None
        from studio.drills.bench_cli import default_spec

        return default_spec(self.kernel)

    def _func_changed(self, *_args) -> None:
        spec = self.spec_path()
        if spec is not None:
            where = spec.name if spec.is_file() else self.tr("%1 (not written yet)").replace("%1", spec.name)
            self.spec_label.setText(self.tr("Spec: %1").replace("%1", where))
        self.refresh_history()
        self._update_buttons()

    def write_spec(self) -> None:
        spec = self.spec_path()
        if spec is None:
            return
        dialog = SpecDialog(self)
        if dialog.exec() != QDialog.Accepted:
            return
        self.save_spec(spec, dialog.text)

    def save_spec(self, spec: Path, text: str) -> bool:
        if spec.exists() and QMessageBox.question(
                self, self.tr("Write spec"), self.tr("%1 exists. Replace it?").replace("%1", spec.name)) != QMessageBox.Yes:
            return False
        try:
            spec.write_text(text, encoding="utf-8")
        except OSError as exc:
            self.status.setText(self.tr("Cannot write %1: %2").replace("%1", str(spec)).replace("%2", str(exc)))
            return False
        self._func_changed()
        return True

    def save_as_drill(self) -> None:
        dialog = SaveDrillDialog(self.func.currentText(), self)
        if dialog.exec() != QDialog.Accepted:
            return
        self.make_drill(dialog.title.text().strip() or self.func.currentText(), dialog.statement.toPlainText(),
                        dialog.minutes.value(), dialog.difficulty.currentData())

    def make_drill(self, title: str, statement: str, minutes: int, difficulty: str):
        from studio.drills.catalog import DrillError
        from studio.drills.my_drills import save_as_drill

        try:
            drill = save_as_drill(self.kernel, self.func.currentText(), self.spec_path(), title, statement,
                                  minutes, difficulty)
        except (DrillError, OSError, SyntaxError) as exc:
            self.status.setText(self.tr("Not saved as a drill: %1").replace("%1", str(exc)))
            return None
        self.status.setText(self.tr("Saved as the drill “%1”, under My drills in the Drills pane.").replace("%1", drill.title))
        self.ctx.bus.data_changed.emit("drills")
        return drill

    # --- running -------------------------------------------------------------------------------
    def is_running(self) -> bool:
        return self.thread is not None and self.result_pending

    def start_run(self) -> None:
        if self.is_running() or self.kernel is None or not self.func.currentText():
            return
        from studio.drills.bench_cli import bench_request
        from studio.drills.runner import DrillRunner

        self.protocol_used = self.protocol.currentData()
        self.func_used, self.spec_used, self.kernel_used = self.func.currentText(), self.spec_path(), self.kernel
        request = bench_request(self.kernel, self.func_used, self.spec_used, interpret=not self.ctx.drill_device,
                                protocol=self.protocol_used, compile_baseline=self.compile_box.isChecked())
        self.table.setRowCount(0)
        self.rows.clear()
        self.doc, self.compare = None, None
        self.plot.reset("gbps", None)
        self.plot.set_overlay([], "")
        self.plot.set_title(self.tr("Timing protocol: %1").replace("%1", self.protocol.currentText()))
        self.result_pending = True
        self.status.setText(self.tr("Starting…"))
        from studio.drills.targets import target_from_settings

        runner = DrillRunner(target=target_from_settings(self.ctx.settings))   # this machine or an SSH host
        self.thread = DrillRunThread(runner, request, self)
        self.thread.arrived.connect(self._drain_events)
        self.thread.start()
        self._update_buttons()

    def _drain_events(self) -> None:
        if self.thread is not None:
            events = self.thread.take()
            for event in events:
                self.on_event(event)
            if events and self.table.rowCount() <= 12:  # wide enough once the first rows are in
                self.table.resizeColumnsToContents()

    def stop_run(self) -> None:
        if self.thread is not None:
            self.thread.stop()

    def _row(self, size, dtype: str) -> int:
        key = (tuple(size), dtype)
        if key not in self.rows:
            row = self.table.rowCount()
            self.table.insertRow(row)
            self.rows[key] = row
            self._set(row, 0, _size_text(size))
            self._set(row, 1, dtype)
        return self.rows[key]

    def _set(self, row: int, col: int, text: str, tip: str = "") -> None:
        item = QTableWidgetItem(text)
        if tip:
            item.setToolTip(tip)
        if col >= 3:
            item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
        self.table.setItem(row, col, item)

    def on_event(self, event) -> None:
        """Apply one engine event (also fed synthetic events by tests)."""
        kind = event.kind
        if kind == "started":
            self.status.setText(f"{event.mode} · {event.device}")
        elif kind == "case_result":
            r = event.result
            if r.phase != "check":
                return
            row = self._row(r.shape, r.dtype)
            self._set(row, 2, self.tr("ok") if r.passed else self.tr("FAILED"), r.error or "")
            self._set(row, 3, "" if r.max_abs_err is None else f"{r.max_abs_err:.2g}", r.error or "")
        elif kind == "bench_info":
            self.plot.set_peak(event.copy_gbps, event.matmul_tflops)
            if event.note:
                self.status.setText(event.note)
        elif kind == "bench_point":
            p = event.point
            row = self._row(p.size, p.dtype)
            tip = p.error or p.note or ""
            self._set(row, 4, f"{p.ms * 1e3:.1f}" if p.ms else (p.error or ""), tip)
            self._set(row, 5, f"{p.gbps:.0f}" if p.gbps else "", tip)
            peak = p.pct_of_tflops_peak if p.pct_of_tflops_peak and (p.pct_of_tflops_peak or 0) > (p.pct_of_peak or 0) else p.pct_of_peak
            self._set(row, 6, f"{p.tflops:.1f}" if p.tflops else "", tip)
            self._set(row, 7, f"{peak:.0f}%" if peak else "", tip)
            self.plot.add_point(p)
        elif kind == "error":
            err = event.error
            where = f" ({err.file}:{err.line})" if err.file and err.line else ""
            self.status.setText(self.tr("Error: %1").replace("%1", err.message + where))
        elif kind == "finished":
            self._finished(event.result)

    def _finished(self, result) -> None:
        self.result_pending = False
        good = sum(1 for c in result.cases if c.phase == "check" and c.passed)
        total = sum(1 for c in result.cases if c.phase == "check")
        text = self.tr("%1: %2 of %3 sizes correct in %4 s").replace("%1", self.status_word(result.status)).replace(
            "%2", str(good)).replace("%3", str(total)).replace("%4", f"{result.duration_s:.1f}")
        if result.error is not None:
            where = f" ({result.error.file}:{result.error.line})" if result.error.file and result.error.line else ""
            text += " — " + result.error.message + where
        else:
            failed = next((c for c in result.cases if c.phase == "check" and not c.passed), None)
            if failed is not None:  # the reason, not only a tooltip on the FAILED cell
                text += " — " + self.tr("first failure, %1 %2: %3").replace("%1", _size_text(failed.shape)).replace(
                    "%2", failed.dtype).replace("%3", failed.error or "")
        self.status.setText(text)
        kernel, func, spec, protocol = self.kernel_used, self.func_used, self.spec_used, self.protocol_used

        def store(col):
            # The run's document and its history row are made on the database worker: turning a
            # 100-point result into JSON took ~100 ms, too long for the GUI thread.
            from studio.core.bench_runs import record_run
            from studio.drills.bench_cli import summary

            doc = summary(result, spec, protocol)
            doc["run_id"] = record_run(col, doc, kernel, func, spec)
            return doc

        self.ctx.tasks.run(store, self._stored)
        self._update_buttons()

    def profile_point(self, point) -> None:
        """Profile a plotted point of the last run's kernel with Nsight Compute, in a dialog; the
        profile is kept with that bench run."""
        if self.kernel_used is None or self.spec_used is None or not self.func_used:
            return
        from studio.drills.profiler import bench_request as profile_request
        from studio.ui.profile_view import ProfileDialog

        try:
            request = profile_request(self.kernel_used, self.func_used, self.spec_used, list(point.size),
                                      point.dtype, python=self.ctx.settings.get("drill_python") or None)
            code = Path(self.kernel_used).read_text(encoding="utf-8", errors="replace")
        except Exception as exc:  # noqa: BLE001 - a file gone since the run: said, not raised
            self.ctx.bus.status_message.emit(str(exc))
            return
        self.profile_dialog = ProfileDialog(self.ctx, request, "bench", code,
                                            bench_run_id=(self.doc or {}).get("run_id"), parent=self)
        self.profile_dialog.show()
        self.profile_dialog.start()

    def status_word(self, status: str) -> str:
        words = {"passed": self.tr("passed"), "failed": self.tr("failed"), "timeout": self.tr("timed out"),
                 "crash": self.tr("crashed"), "cuda_error": self.tr("CUDA error"),
                 "memory_limit": self.tr("over the memory limit"), "stopped": self.tr("stopped"),
                 "bad_drill": self.tr("bad spec"), "missing_entry": self.tr("function not found"),
                 "syntax_error": self.tr("syntax error"), "import_error": self.tr("import error")}
        return words.get(status, status)

    def _stored(self, doc: dict) -> None:
        self.doc = doc
        self.table.resizeColumnsToContents()
        self.refresh_history()
        self._update_buttons()

    # --- history -------------------------------------------------------------------------------
    def refresh_history(self) -> None:
        if self.kernel is None:
            return
        from studio.core.bench_runs import list_runs

        kernel, func = self.kernel, self.func.currentText() or None
        self.ctx.tasks.run(lambda col: list_runs(col, kernel, func), self._history_loaded)

    def _history_loaded(self, runs: list) -> None:
        from studio.core.bench_runs import describe_run

        self.runs = runs
        self.history.clear()
        for run in runs:
            self.history.addItem(describe_run(run), run.id)

    def _chosen_run(self):
        index = self.history.currentIndex()
        return self.runs[index] if 0 <= index < len(self.runs) else None

    def overlay_run(self) -> None:
        from studio.core.bench_runs import run_points
        from studio.drills.result import BenchPoint

        run = self._chosen_run()
        if run is None:
            return
        points = [BenchPoint(size=list(p["size"]), dtype=p["dtype"], ms=p.get("ms"), gbps=p.get("gbps"),
                             tflops=p.get("tflops"), p20=p.get("p20"), p80=p.get("p80"))
                  for p in run_points(run) if p.get("ms")]
        self.plot.set_overlay(points, f"#{run.id} ({run.protocol})")

    def compare_run(self) -> None:
        from dataclasses import asdict

        from studio.core.bench_runs import compare_points, run_points

        run = self._chosen_run()
        if run is None or self.doc is None:
            self.status.setText(self.tr("Run the bench, then pick an earlier run to compare with."))
            return
        changes = compare_points(run_points(run), self.doc["points"])
        self.compare = {"run_id": run.id, "points": [{**asdict(c), "verdict": c.verdict} for c in changes]}
        words = {"faster": self.tr("faster"), "slower": self.tr("slower"), "same": self.tr("within noise")}
        self.table.setHorizontalHeaderItem(VS_COLUMN, QTableWidgetItem(self.tr("vs #%1").replace("%1", str(run.id))))
        for c in changes:
            row = self._row(c.size, c.dtype)
            self._set(row, VS_COLUMN, f"{c.speedup:.2f}x {words[c.verdict]}")
        if not changes:
            self.status.setText(self.tr("No point was timed in both runs."))

    # --- exports -------------------------------------------------------------------------------
    def export_png(self, path: str | None = None) -> None:
        path = path or QFileDialog.getSaveFileName(self, self.tr("Export plot"), "bench.png", "PNG (*.png)")[0]
        if path:
            import pyqtgraph.exporters

            exporter = pyqtgraph.exporters.ImageExporter(self.plot.plot.getPlotItem())
            exporter.parameters()["width"] = 1200
            if not exporter.export(path):   # QImage.save's answer
                self.status.setText(self.tr("Cannot write %1").replace("%1", path))

    def export_csv(self, path: str | None = None) -> None:
        from studio.drills.bench_export import to_csv

        if self.doc is None:
            return
        path = path or QFileDialog.getSaveFileName(self, self.tr("Export CSV"), "bench.csv", "CSV (*.csv)")[0]
        if path:
            try:
                Path(path).write_text(to_csv(self.doc), encoding="utf-8")
            except OSError as exc:
                self.status.setText(self.tr("Cannot write %1: %2").replace("%1", path).replace("%2", str(exc)))

    def markdown(self) -> str:
        from studio.drills.bench_export import to_markdown

        return to_markdown(self.doc, self.compare) if self.doc else ""

    def copy_markdown(self) -> None:
        from PySide6.QtWidgets import QApplication

        if self.doc is not None:
            QApplication.clipboard().setText(self.markdown())
            self.ctx.bus.status_message.emit(self.tr("Markdown table copied"))

    def shutdown(self) -> None:
        if self.thread is not None:
            self.thread.stop()
            self.thread.wait(5000)
