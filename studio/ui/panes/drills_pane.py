"""The Drills pane: write a kernel under a countdown, run it, watch its timing plotted live.

Runs go through the drill engine's child process (studio.drills.runner) on a thread of
their own, so the window never waits on a kernel; events arrive one by one over a
queued signal. Drafts are autosaved per drill and language in the data folder and
restored after a restart or crash. Every run is recorded as an attempt with its code.
"""

from __future__ import annotations

import queue
import re
import time
from pathlib import Path

from PySide6.QtCore import Qt, QThread, QTimer, Signal
from PySide6.QtGui import QIcon, QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStyle,
    QTabWidget,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio import paths
from studio.ui.code_editor import CodeEditor
from studio.ui.context import AppContext
from studio.ui.local_browser import LocalTextBrowser, open_web_link
from studio.ui.theme import qcolor, set_role

WARN_AT_S = 5 * 60
# Tracebacks say `File "path", line N`; the engine's case messages say `(name.py, line N)`.
_LINE_RE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)|\((?P<name>[^(),]+\.(?:py|cu|cuh)), line (?P<line2>\d+)\)')


def drafts_dir() -> Path:
    path = paths.data_dir() / "drafts"
    path.mkdir(parents=True, exist_ok=True)
    return path


def draft_path(drill_id: str, lang: str) -> Path:
    from studio.drills.languages import LANGUAGES

    suffix = LANGUAGES[lang].suffix if lang in LANGUAGES else ".py"
    return drafts_dir() / f"{file_safe(drill_id)}.{lang}{suffix}"


def file_safe(drill_id: str) -> str:
    """A pack's drill id (<pack>/<drill>) as one file name."""
    return drill_id.replace("/", "--")


class LanguageProbe(QThread):
    """Asks the drill device (this machine's drill Python, or the SSH host's) what it can
    build and run (languages.probe), off the GUI thread."""

    found = Signal(dict)

    def __init__(self, settings, parent=None):
        super().__init__(parent)
        self.settings = settings

    def run(self) -> None:
        from studio.drills.targets import language_facts

        self.found.emit(language_facts(self.settings))


class DrillRunThread(QThread):
    """Runs one request through the engine and forwards every event to the GUI thread.

    Events wait in a thread-safe queue; the signal only says "more arrived" (passing
    Python objects through queued signals corrupted reference counts in PySide6 6.12).
    """

    arrived = Signal()

    def __init__(self, runner, request, parent=None):
        super().__init__(parent)
        self.runner, self.request = runner, request
        self.queue: queue.SimpleQueue = queue.SimpleQueue()

    def run(self) -> None:
        for event in self.runner.events(self.request):
            self.queue.put(event)
            self.arrived.emit()

    def take(self) -> list:
        events = []
        while True:
            try:
                events.append(self.queue.get_nowait())
            except queue.Empty:
                return events

    def stop(self) -> None:
        self.runner.stop()


def _load_catalog(_col):
    from studio.core.drill_attempts import summaries
    from studio.drills.catalog import load_catalog, load_my_drills
    from studio.drills.packs import PackError, pack_drills

    try:
        from_packs = pack_drills(problems=True)
    except PackError:
        from_packs = []     # a damaged pack list hides the packs, never the catalogue
    return load_catalog() + load_my_drills() + from_packs, summaries(_col)


class DrillsPane(QWidget):
    pane_id = "drills"
    run_finished = Signal(object)  # RunResult, after the attempt is stored

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.drills: list = []
        self.summaries: dict = {}
        self.drill = None
        self.lang = "triton"
        self.thread: DrillRunThread | None = None
        self.result_pending = False
        self.run_file: Path | None = None
        self.result = None
        self.countdown_left = 0
        self.countdown_started: float | None = None
        self.warned = False
        self.time_to_pass: float | None = None
        self.attempts: list = []
        self.levels = {"easy": self.tr("easy"), "medium": self.tr("medium"), "hard": self.tr("hard")}
        self._build()
        ctx.bus.open_drill.connect(self.select_drill)
        ctx.bus.drill_device.connect(self._device_known)
        self._device_known(ctx.drill_device)
        self.refresh()

    # --- layout ------------------------------------------------------------------------
    def _build(self) -> None:
        self.banner = QLabel()
        self.list = QListWidget()
        # Long titles wrap onto a second line instead of being cut off (the list is narrow so
        # the statement and the editor get the room); the full title is also the tooltip.
        self.list.setWordWrap(True)
        self.list.setTextElideMode(Qt.ElideNone)
        self.list.setResizeMode(QListWidget.Adjust)
        self.list.currentRowChanged.connect(self._selected)
        self.statement = LocalTextBrowser()
        self.statement.anchorClicked.connect(open_web_link)
        self.statement.theme_changed.connect(self.show_statement)
        self.editor = CodeEditor()
        self.editor.textChanged.connect(self._schedule_autosave)
        self.autosave = QTimer(self, singleShot=True, interval=800)
        self.autosave.timeout.connect(self.save_draft)
        from studio.drills.languages import LANGUAGES

        self.lang_box = QComboBox()
        self.lang_box.setSizeAdjustPolicy(QComboBox.AdjustToContents)   # "CUDA C++ (unavailable)" fits
        for lang in LANGUAGES.values():
            self.lang_box.addItem(lang.label, lang.name)
        self.lang_box.currentIndexChanged.connect(self._lang_changed)
        self.lang_note = QLabel()
        self.lang_note.setWordWrap(True)
        self.lang_note.hide()
        self.language_facts: dict | None = None
        self.language_probe: LanguageProbe | None = None
        self.run_button = QPushButton(self.tr("Run tests (Ctrl+Enter)"))
        self.run_button.clicked.connect(lambda: self.start_run(bench=False))
        self.bench_button = QPushButton(self.tr("Benchmark"))
        self.bench_button.clicked.connect(lambda: self.start_run(bench=True))
        self.compile_box = QCheckBox(self.tr("+ torch.compile"))
        self.compile_box.setToolTip(self.tr("Benchmark also times torch.compile of the torch baseline, drawn as "
                                            "a second line (compiled once per shape, outside the timing)"))
        self.compile_box.setChecked(bool(self.ctx.settings.get("drills_compile_baseline") or False))
        self.compile_box.toggled.connect(lambda on: self.ctx.settings.set("drills_compile_baseline", bool(on)))
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.clicked.connect(self.stop_run)
        self.stop_button.setEnabled(False)
        # Reset / Open / Save as in one menu button: three buttons made the editor's toolbar
        # ~650 px wide, which left the statement a 260 px column at 1280 x 800.
        self.code_menu = QMenu(self)
        self.code_menu.addAction(self.tr("Reset to starter"), self.reset_to_starter)
        self.code_menu.addAction(self.tr("Open…"), self.open_file)
        self.code_menu.addAction(self.tr("Save as…"), self.save_file)
        code_button = QToolButton()
        code_button.setText(self.tr("Code"))
        code_button.setToolTip(self.tr("Reset to the starter, open a file, or save your code as a file"))
        code_button.setMenu(self.code_menu)
        code_button.setPopupMode(QToolButton.InstantPopup)
        code_button.setToolButtonStyle(Qt.ToolButtonTextOnly)
        self.code_button = code_button
        self.minutes = QSpinBox()
        self.minutes.setRange(1, 180)
        self.minutes.setSuffix(self.tr(" min"))
        self.clock = QLabel("--:--")
        self.clock.setStyleSheet("font-size: 18px; font-weight: 600; min-width: 70px;")
        self.clock_button = QPushButton(self.tr("Start timer"))
        self.clock_button.clicked.connect(self.toggle_countdown)
        self.ticker = QTimer(self, interval=1000)
        self.ticker.timeout.connect(self._tick)
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        # A parallelism drill (kernels/<id>/drill.yaml `distributed:`) runs on N ranks.
        self.ranks_label = QLabel(self.tr("Ranks"))
        self.world_size = QSpinBox()
        self.world_size.setRange(2, 8)
        self.world_size.setToolTip(self.tr("How many processes run your function through torch.distributed "
                                           "(gloo on the CPU; NCCL when there is a GPU per rank)"))
        tools = QHBoxLayout()
        for w in (self.lang_box, self.ranks_label, self.world_size, code_button):
            tools.addWidget(w)
        self.ranks_label.hide()
        self.world_size.hide()
        tools.addStretch(1)
        for w in (self.minutes, self.clock_button, self.clock):
            tools.addWidget(w)
        runs = QHBoxLayout()
        for w in (self.run_button, self.bench_button, self.compile_box, self.stop_button):
            runs.addWidget(w)
        runs.addWidget(self.progress, 1)
        editor_box = QWidget()
        ev = QVBoxLayout(editor_box)
        ev.setContentsMargins(0, 0, 0, 0)
        ev.addLayout(tools)
        ev.addWidget(self.lang_note)
        ev.addWidget(self.editor, 1)
        ev.addLayout(runs)
        self.results = QTableWidget(0, 4)
        self.results.setHorizontalHeaderLabels([self.tr("Case"), self.tr("Status"), self.tr("Max error"),
                                                self.tr("Message")])
        self.results.horizontalHeader().setSectionResizeMode(3, QHeaderView.Stretch)
        self.results.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.results.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.results.cellClicked.connect(self._result_clicked)
        self.console = QPlainTextEdit()
        self.console.setReadOnly(True)
        self.console.setMaximumBlockCount(20000)
        from studio.ui.drill_plot import DrillPlot

        self.plot = DrillPlot()
        from studio.drills.ncu import unavailable_reason

        self.plot.profile_check = unavailable_reason   # "Profile this point" says why not, when not
        self.plot.profile_requested.connect(self.profile_point)
        self.history = QTableWidget(0, 5)
        self.history.setHorizontalHeaderLabels([self.tr("When"), self.tr("Mode"), self.tr("Result"),
                                                self.tr("Best"), self.tr("Time to pass")])
        self.history.horizontalHeader().setSectionResizeMode(0, QHeaderView.Stretch)
        self.history.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.history.setSelectionBehavior(QAbstractItemView.SelectRows)
        reopen = QPushButton(self.tr("Open this attempt's code"))
        reopen.clicked.connect(self.reopen_attempt)
        overlay = QPushButton(self.tr("Overlay on plot"))
        overlay.clicked.connect(self.overlay_attempt)
        compare = QPushButton(self.tr("Compare two selected"))
        compare.clicked.connect(self.compare_attempts)
        self.best_label = QLabel()
        hist_box = QWidget()
        hv = QVBoxLayout(hist_box)
        hrow = QHBoxLayout()
        for w in (reopen, overlay, compare):
            hrow.addWidget(w)
        hrow.addStretch(1)
        hrow.addWidget(self.best_label)
        hv.addLayout(hrow)
        hv.addWidget(self.history)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.results, self.tr("Results"))
        self.tabs.addTab(self.console, self.tr("Console"))
        self.tabs.addTab(self.plot, self.tr("Plot"))
        self.tabs.addTab(hist_box, self.tr("History"))
        right = QSplitter(Qt.Vertical)
        right.addWidget(editor_box)
        right.addWidget(self.tabs)
        right.setSizes([480, 300])
        middle = QSplitter()
        middle.addWidget(self.statement)
        middle.addWidget(right)
        middle.setSizes([440, 600])  # the statement gets room now that the roadmap tree is Notes' own
        middle.setStretchFactor(1, 1)
        outer = QSplitter()
        outer.addWidget(self.list)
        outer.addWidget(middle)
        outer.setSizes([230, 1040])
        outer.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.banner)
        layout.addWidget(outer, 1)
        for key in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(key), self, lambda: self.start_run(bench=False),
                      context=Qt.WidgetWithChildrenShortcut)

    # --- catalogue -----------------------------------------------------------------------
    def refresh(self) -> None:
        self.ctx.tasks.run(_load_catalog, self._loaded, self._failed)

    def _failed(self, exc: Exception) -> None:
        self.statement.setHtml("<p>" + self.tr("Drills could not be loaded:") + f" {exc}</p>")

    def _loaded(self, result) -> None:
        drills, self.summaries = result
        current = self.drill.id if self.drill else None
        self.drills = list(drills)
        self.list.blockSignals(True)
        self.list.clear()
        section = None
        for drill in self.drills:
            pack = getattr(drill, "pack", None)
            here = ("pack", pack) if pack else ("mine", None) if getattr(drill, "personal", False) else None
            if here != section and here is not None:
                header = QListWidgetItem(self.tr("My drills") if here[0] == "mine"
                                         else self.tr("Pack: %1").replace("%1", pack))
                header.setFlags(Qt.NoItemFlags)
                font = header.font()
                font.setBold(True)
                header.setFont(font)
                self.list.addItem(header)
            section = here
            if getattr(drill, "error", None):
                text = f"{drill.id}\n" + self.tr("broken: %1").replace("%1", drill.error)
            else:
                summary = self.summaries.get(drill.id)
                mark = "✓ " if summary and summary.solved else ""
                best = ""
                if summary and summary.best_gbps:
                    unit = "TFLOP/s" if drill.metric == "tflops" else "GB/s"
                    best = self.tr(" · best %1").replace("%1", f"{summary.best_gbps:.0f} {unit}")
                level = self.levels.get(drill.difficulty, drill.difficulty)
                group = drill.tags[1] if drill.pack_problem and len(drill.tags) > 1 else ""
                gpus = int((drill.pack_problem or {}).get("gpus") or 1)
                facts = [f for f in (group if group != drill.difficulty else "", level,
                                     self.tr("%1 GPUs").replace("%1", str(gpus)) if gpus > 1 else "",
                                     self.tr("%1 min").replace("%1", str(drill.time_limit_min))) if f]
                text = f"{mark}{drill.title_for(self.ctx.content_lang)}\n" + " · ".join(facts) + best
            item = QListWidgetItem(text)
            item.setData(Qt.UserRole, drill.id)
            item.setToolTip(text)
            self.list.addItem(item)
            if drill.id == current:
                self.list.setCurrentItem(item)  # keep the open drill without reloading it
        self.list.blockSignals(False)
        if current is None and self.drills:
            pending = getattr(self, "pending_drill", None)
            self.pending_drill = None
            self.select_drill(pending if any(d.id == pending for d in self.drills) else self.drills[0].id)

    # --- problem sets kept elsewhere (studio.drills.packs) -----------------------------------
    def add_pack(self, folder: Path) -> str:
        """Add a pack; says in a message box what was found (or why not). Returns the message."""
        from studio.drills import packs

        try:
            pack = packs.add_pack(folder)
        except packs.PackError as exc:
            message = str(exc)
            QMessageBox.warning(self, self.tr("Open problem set"), message)
            return message
        broken = sum(not p.ok for p in pack.problems)
        if pack.layout == "drills":
            message = (self.tr("Added \"%1\": %2 drills, listed under \"Pack: %1\". The folder is read where it is: "
                               "changes there show the next time the list is read.")
                       .replace("%1", pack.name).replace("%2", str(len(pack.problems) - broken)))
        else:
            message = (self.tr("Added \"%1\" (%2): %3 problems, listed under \"Pack: %1\". They are checked with "
                               "the problem's own tests and checker, and timed over its own benchmark inputs against its reference.")
                       .replace("%1", pack.name).replace("%2", packs.LAYOUT_LABELS[pack.layout])
                       .replace("%3", str(len(pack.problems))))
        if broken:
            message += " " + self.tr("%1 could not be read: `studio-drill packs show %2` says why.") \
                .replace("%1", str(broken)).replace("%2", pack.name)
        QMessageBox.information(self, self.tr("Open problem set"), message)
        self.refresh()
        return message

    def select_drill(self, drill_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.UserRole) == drill_id:
                if self.list.currentRow() != row:
                    self.list.setCurrentRow(row)
                elif self.drill is None or self.drill.id != drill_id:
                    self._selected(row)
                return
        self.pending_drill = drill_id  # asked for before the catalogue arrived (Today's suggestion)

    def _selected(self, row: int) -> None:
        item = self.list.item(row) if row >= 0 else None
        drill_id = item.data(Qt.UserRole) if item is not None else None
        drill = next((d for d in self.drills if d.id == drill_id), None)
        if drill is None:  # the "My drills" heading, or nothing
            return
        self.save_draft()
        self.drill = drill
        self.show_statement()
        self.minutes.setValue(max(1, int(self.drill.time_limit_min or 30)))
        dist = getattr(self.drill, "distributed", None)
        self.ranks_label.setVisible(bool(dist))
        self.world_size.setVisible(bool(dist))
        if dist:
            self.world_size.setRange(*dist["world_sizes"])
            self.world_size.setValue(dist["default_world_size"])
            if self.lang != "torch":   # written with torch.distributed: its only starter is PyTorch
                self.lang_box.setCurrentIndex(self.lang_box.findData("torch"))
        self._reset_countdown()
        self._load_code()
        self.results.setRowCount(0)
        self.plot.reset(self.drill.metric)
        self.refresh_history()

    def show_statement(self) -> None:
        """The open drill's statement in the UI language (statement.zh.md under Chinese),
        English where the drill has no translation."""
        if self.drill is None:
            return
        from studio.core.markdown_render import render_markdown

        text = self.drill.statement_for(self.ctx.content_lang) or self.drill.error or ""
        # Statements are wrapped at ~95 columns in their source: standard Markdown line breaks.
        self.statement.setHtml(render_markdown(text, dark=self.statement.dark, hard_breaks=False).html)

    # --- code, drafts, files ---------------------------------------------------------------
    def _starter(self) -> Path | None:
        if self.drill is None:
            return None
        return {"triton": self.drill.starter_triton, "torch": self.drill.starter_torch,
                "cuda": self.drill.starter_cuda}.get(self.lang)

    def _starter_text(self) -> str:
        starter = self._starter()
        if starter is not None and starter.is_file():
            return starter.read_text(encoding="utf-8")
        if self.lang == "cuda" and self.drill is not None and self.drill.entry and not self.drill.pack_problem:
            from studio.drills.languages.cuda import starter_from_signature

            return starter_from_signature(self.drill.entry, self.drill.signature)
        return ""

    def _load_code(self) -> None:
        draft = draft_path(self.drill.id, self.lang)
        text = draft.read_text(encoding="utf-8") if draft.is_file() else self._starter_text()
        self.editor.blockSignals(True)
        self.editor.setPlainText(text)
        self.editor.blockSignals(False)

    def _lang_changed(self) -> None:
        from studio.drills.languages import LANGUAGES

        self.save_draft()
        self.lang = self.lang_box.currentData()
        self.editor.set_language(LANGUAGES[self.lang].lexer)
        if self.drill is not None:
            self._load_code()
        self._show_language_note()

    # --- can this language run here? ------------------------------------------------------
    def _show_language_note(self) -> None:
        if self.lang != "cuda":
            self.lang_note.hide()
            return
        if self.language_facts is None:
            self._note(self.tr("Checking whether CUDA C++ can be built and run here…"), "info")
            if self.language_probe is None:
                self.language_probe = LanguageProbe(self.ctx.settings, self)
                self.language_probe.found.connect(self._languages_known)
                self.language_probe.start()
            return
        from studio.drills.languages.cuda import availability

        ready = availability(self.language_facts)
        if ready.ok:
            facts = self.language_facts
            self._note(self.tr("CUDA C++ on %1 (nvcc %2). The first build of new code takes a while; running the "
                               "same code again loads it from the build cache.")
                       .replace("%1", str(facts.get("gpu"))).replace("%2", str(facts.get("nvcc"))), "ok")
        else:
            self._note(self.tr("CUDA C++ is unavailable: %1. You can still write and save CUDA code here.")
                       .replace("%1", ready.message()), "warn")

    def _languages_known(self, facts: dict) -> None:
        self.language_facts = facts
        self.language_probe = None
        index = self.lang_box.findData("cuda")
        from studio.drills.languages.cuda import availability

        ready = availability(facts)
        # The label keeps its width (the toolbar is tight); a warning icon and the tooltip say why.
        self.lang_box.setItemIcon(index, QIcon() if ready.ok else self.style().standardIcon(QStyle.SP_MessageBoxWarning))
        self.lang_box.setItemData(index, "" if ready.ok else self.tr("Unavailable: %1").replace("%1", ready.message()),
                                  Qt.ToolTipRole)
        self.lang_box.setMinimumWidth(self.lang_box.sizeHint().width())   # room for the icon
        self._show_language_note()

    def _note(self, text: str, tone: str) -> None:
        from studio.ui.theme import set_role

        self.lang_note.setText(text)
        set_role(self.lang_note, "tone", tone)  # ok | warn | info, coloured by the theme's style sheet
        self.lang_note.show()

    def _schedule_autosave(self) -> None:
        self.autosave.start()

    def save_draft(self) -> None:
        """Keep the editor's text for this drill and language (restored after a restart)."""
        self.autosave.stop()
        if self.drill is None:
            return
        path = draft_path(self.drill.id, self.lang)
        text = self.editor.toPlainText()
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)

    def reset_to_starter(self) -> None:
        text = self._starter_text()
        if not text:
            return
        if QMessageBox.question(self, self.tr("Reset to starter"),
                                self.tr("Replace your code with the starter? Your draft is overwritten.")) \
                != QMessageBox.Yes:
            return
        self.editor.setPlainText(text)
        self.save_draft()

    def _file_filter(self) -> str:
        from studio.drills.languages import LANGUAGES

        return LANGUAGES[self.lang].file_filter

    def open_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open solution"), "", self._file_filter())
        if path:
            try:
                self.editor.setPlainText(Path(path).read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError) as exc:
                QMessageBox.warning(self, self.tr("Open solution"), str(exc))

    def save_file(self) -> None:
        if self.drill is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save solution"), f"{self.drill.id}{self._run_suffix()}",
                                              self._file_filter())
        if path:
            Path(path).write_text(self.editor.toPlainText(), encoding="utf-8")

    # --- countdown ------------------------------------------------------------------------
    def _reset_countdown(self) -> None:
        self.ticker.stop()
        self.countdown_left = self.minutes.value() * 60
        self.countdown_started = None
        self.warned = False
        self.time_to_pass = None
        self.clock_button.setText(self.tr("Start timer"))
        self._show_clock()

    def toggle_countdown(self) -> None:
        if self.ticker.isActive():
            self.ticker.stop()
            self.clock_button.setText(self.tr("Resume timer"))
            return
        if self.countdown_started is None:
            self.countdown_left = self.minutes.value() * 60
            self.countdown_started = time.monotonic()
        self.ticker.start()
        self.clock_button.setText(self.tr("Pause timer"))
        self._show_clock()

    def _tick(self) -> None:
        self.countdown_left -= 1
        if self.countdown_left == WARN_AT_S and not self.warned:
            self.warned = True
            self.ctx.bus.status_message.emit(self.tr("5 minutes left on the drill timer."))
        self._show_clock()

    def elapsed_s(self) -> float:
        return self.minutes.value() * 60 - self.countdown_left

    def _show_clock(self) -> None:
        left = self.countdown_left
        sign = "+" if left < 0 else ""
        left = abs(left)
        self.clock.setText(f"{sign}{left // 60:02d}:{left % 60:02d}")
        from studio.ui.theme import color as theme_color

        color = theme_color("danger") if self.countdown_left <= WARN_AT_S and self.countdown_started is not None else ""
        self.clock.setStyleSheet(f"font-size: 18px; font-weight: 600; min-width: 70px; color: {color or 'palette(text)'};")

    # --- running ---------------------------------------------------------------------------
    def _device_known(self, name: str) -> None:
        if getattr(self, "language_probe", 1) is None:   # the device may have changed (File → Drill device…)
            self.language_facts = None
            self._show_language_note()
        if name:
            self.banner.setText(self.tr("Drill device: %1").replace("%1", name))
            set_role(self.banner, "tone", "ok")
        else:
            self.banner.setText(self.tr("CPU interpreter — timing off (no GPU found; correctness checks run "
                                        "under Triton's interpreter)"))
            set_role(self.banner, "tone", "warn")

    def _run_suffix(self) -> str:
        """.cu for CUDA C++ (or .py when the CUDA code is Python calling load_inline), else .py."""
        if self.lang != "cuda":
            return ".py"
        from studio.drills.languages.cuda import is_cuda_source

        return ".py" if is_cuda_source("solution.py", self.editor.toPlainText()) else ".cu"

    def is_running(self) -> bool:
        """A run is in progress until its Finished event has been applied."""
        return self.thread is not None and self.result_pending

    def start_run(self, bench: bool = False, timeout_s: float | None = None) -> None:
        if self.drill is None or self.is_running():
            return
        from studio.drills.runner import DrillRunner, RunRequest

        self.save_draft()
        self.run_file = drafts_dir() / f"run_{file_safe(self.drill.id)}{self._run_suffix()}"
        self.run_file.write_text(self.editor.toPlainText(), encoding="utf-8")
        self.run_code = self.editor.toPlainText()
        from studio.drills.targets import target_from_settings

        runner = DrillRunner(target=target_from_settings(self.ctx.settings))   # this machine or an SSH host
        request = RunRequest(drill=self.drill.id, solution=self.run_file, bench=bench, lang=self.lang,
                             timeout_s=timeout_s,
                             world_size=self.world_size.value() if getattr(self.drill, "distributed", None) else None,
                             compile_baseline=bench and self.compile_box.isChecked())
        self.result = None
        self.result_pending = True
        self.results.setRowCount(0)
        self.console.clear()
        if bench:
            self.plot.reset(self.drill.metric, self.plot.peak)
        self.progress.setRange(0, 0)
        self.progress.setFormat(self.tr("starting…"))
        self.run_button.setEnabled(False)
        self.bench_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.thread = DrillRunThread(runner, request, self)
        self.thread.arrived.connect(self._drain_events)
        self.thread.start()

    def _drain_events(self) -> None:
        if self.thread is not None:
            for event in self.thread.take():
                self.on_event(event)

    def stop_run(self) -> None:
        if self.thread is not None:
            self.thread.stop()

    def on_event(self, event) -> None:
        """Apply one engine event to the pane (also fed synthetic events by tests)."""
        kind = event.kind
        if kind == "started":
            self.progress.setFormat(f"{event.mode} · {event.device}")
            if getattr(event, "world_size", None):
                self.banner.setText(self.tr("Parallelism drill: %1").replace("%1", event.device))
            elif event.mode == "interpreter":
                self.banner.setText(self.tr("CPU interpreter — timing off (%1)").replace("%1", event.device))
        elif kind == "build":
            text = (self.tr("CUDA build loaded from the cache in %1 s") if event.cached
                    else self.tr("CUDA build took %1 s")).replace("%1", f"{event.seconds:.1f}")
            self.progress.setFormat(text)   # the console has the judge's own line, and any warnings
        elif kind == "case_started":
            self.progress.setRange(0, max(1, event.total))
            self.progress.setValue(event.index)
            self.progress.setFormat(f"{event.name} ({event.index + 1}/{event.total})")
        elif kind == "case_result":
            r = event.result
            self._add_result(r.name + (" (recheck)" if r.phase == "recheck" else ""),
                             self.tr("passed") if r.passed else self.tr("FAILED"),
                             "" if r.max_abs_err is None else f"{r.max_abs_err:.3g}", r.error or "", r.passed)
            if not r.passed:   # a parallelism drill: one row per rank, which one was wrong and where
                for entry in getattr(r, "ranks", None) or []:
                    err = entry.get("max_abs_err")
                    self._add_result("    " + self.tr("rank %1").replace("%1", str(entry.get("rank"))),
                                     self.tr("passed") if entry.get("passed") else self.tr("FAILED"),
                                     "" if err is None else f"{err:.3g}", entry.get("error") or "",
                                     bool(entry.get("passed")))
        elif kind == "bench_info":
            self.plot.set_peak(event.copy_gbps)
            if getattr(self.drill, "distributed", None):
                self.plot.set_title(self.tr("Bus bandwidth (busbw, GB/s) against the library collective"))
                if event.available and event.note:
                    self.console.appendPlainText(event.note)
            if not event.available and event.note:
                self.console.appendPlainText(event.note)
        elif kind == "bench_point":
            self.plot.add_point(event.point)
            self.tabs.setCurrentWidget(self.plot)
        elif kind == "flag":
            self._add_result(self.tr("honesty check"), event.flag.name, "", event.flag.detail, not event.flag.blocking)
        elif kind == "console":
            self.console.moveCursor(QTextCursor.End)
            self.console.insertPlainText(event.text)
        elif kind == "log":
            self.console.appendPlainText(f"[{event.level}] {event.message}")
        elif kind == "error":
            err = event.error
            line = err.line if err.line else self._line_from(err.traceback or err.message)
            self._add_result(err.kind, self.tr("ERROR"), "", err.message, False, line)
            if err.traceback:
                self.console.appendPlainText(err.traceback)
        elif kind == "finished":
            self._finished(event.result)

    def _line_from(self, text: str) -> int | None:
        if not text or self.run_file is None:
            return None
        lines = []
        for m in _LINE_RE.finditer(text):
            name = Path(m.group("file")).name if m.group("file") else m.group("name")
            if name == self.run_file.name:
                lines.append(int(m.group("line") or m.group("line2")))
        return lines[-1] if lines else None

    def _add_result(self, case: str, status: str, err: str, message: str, ok: bool, line: int | None = None) -> None:
        row = self.results.rowCount()
        self.results.insertRow(row)
        if line is None:
            line = self._line_from(message)
        for col, text in enumerate((case, status, err, message)):
            item = QTableWidgetItem(text)
            item.setData(Qt.UserRole, line)
            if col == 1:
                item.setForeground(qcolor("success" if ok else "danger"))
            if line and col == 3:
                item.setToolTip(self.tr("Click to jump to line %1").replace("%1", str(line)))
            self.results.setItem(row, col, item)

    def _result_clicked(self, row: int, _col: int) -> None:
        line = self.results.item(row, 0).data(Qt.UserRole)
        if line:
            self.editor.go_to_line(int(line))

    def _finished(self, result) -> None:
        self.result = result
        self.result_pending = False
        self.run_button.setEnabled(True)
        self.bench_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(1)
        self.progress.setFormat(self.tr("%1 in %2 s").replace("%1", result.status)
                                .replace("%2", f"{result.duration_s:.1f}"))
        if result.console.stdout_dropped_bytes or result.console.stderr_dropped_bytes:
            self.console.appendPlainText(self.tr("[output cut: %1 bytes not shown]")
                                         .replace("%1", str(result.console.stdout_dropped_bytes
                                                            + result.console.stderr_dropped_bytes)))
        if result.passed and self.time_to_pass is None and self.countdown_started is not None:
            self.time_to_pass = self.elapsed_s()
        over = self.countdown_started is not None and self.countdown_left < 0
        data, code, lang, ttp = result.to_dict(), self.run_code, self.lang, self.time_to_pass
        from studio.core.drill_attempts import record_attempt

        def stored(_attempt_id):
            self.last_attempt_id = _attempt_id
            self.refresh_history()
            self.refresh()
            self.run_finished.emit(result)
            self.ctx.bus.data_changed.emit("drills")

        self.ctx.tasks.run(lambda col: record_attempt(col, data, code, lang, ttp, over), stored)

    def profile_point(self, point) -> None:
        """Profile a plotted point of the last run's code with Nsight Compute, in a dialog; the
        profile is kept with that run's attempt."""
        if self.drill is None or self.run_file is None:
            return
        from studio.drills.profiler import drill_request
        from studio.ui.profile_view import ProfileDialog

        try:
            request = drill_request(self.drill.id, self.run_file, list(point.size), point.dtype,
                                    python=self.ctx.settings.get("drill_python") or None)
        except Exception as exc:  # noqa: BLE001 - an unknown drill or a pack problem: said, not raised
            self.ctx.bus.status_message.emit(str(exc))
            return
        self.profile_dialog = ProfileDialog(self.ctx, request, "drill", self.run_code or "",
                                            getattr(self, "last_attempt_id", None), parent=self)
        self.profile_dialog.show()
        self.profile_dialog.start()

    # --- history ---------------------------------------------------------------------------
    def refresh_history(self) -> None:
        if self.drill is None:
            return
        from studio.core.drill_attempts import list_attempts, personal_best

        drill_id = self.drill.id
        self.ctx.tasks.run(lambda col: (list_attempts(col, drill_id), personal_best(col, drill_id)),
                           self._history_loaded)

    def _history_loaded(self, result) -> None:
        self.attempts, best = result
        self.history.setRowCount(len(self.attempts))
        unit = "TFLOP/s" if self.drill is not None and self.drill.metric == "tflops" else "GB/s"
        for row, a in enumerate(self.attempts):
            cells = (a.started_at.strftime("%Y-%m-%d %H:%M:%S"), a.mode,
                     self.tr("passed") if a.passed else self.tr("failed"),
                     f"{a.best_gbps:.0f} {unit}" if a.best_gbps else "—",
                     f"{a.time_to_pass_s / 60:.1f} min" if a.time_to_pass_s else "—")
            for col, text in enumerate(cells):
                self.history.setItem(row, col, QTableWidgetItem(text))
        if best is not None:
            self.best_label.setText(self.tr("Personal best: %1").replace("%1", f"{best.best_gbps:.0f} {unit}"))
            self.plot.set_overlay(self._points_of(best), self.tr("personal best"))
        else:
            self.best_label.setText("")

    @staticmethod
    def _points_of(attempt) -> list:
        import json

        from studio.drills.result import BenchPoint

        data = json.loads(attempt.result_json or "{}")
        fields = BenchPoint.__dataclass_fields__
        return [BenchPoint(**{k: v for k, v in p.items() if k in fields})
                for p in ((data.get("bench") or {}).get("points") or [])]

    def _selected_attempts(self) -> list:
        rows = sorted({i.row() for i in self.history.selectedIndexes()})
        return [self.attempts[r] for r in rows if r < len(self.attempts)]

    def reopen_attempt(self) -> None:
        chosen = self._selected_attempts()
        if chosen:
            self.editor.setPlainText(chosen[0].code)

    def overlay_attempt(self) -> None:
        chosen = self._selected_attempts()
        if chosen:
            self.plot.set_overlay(self._points_of(chosen[0]), chosen[0].started_at.strftime("%m-%d %H:%M"))
            self.tabs.setCurrentWidget(self.plot)

    def compare_attempts(self) -> None:
        chosen = self._selected_attempts()
        if len(chosen) < 2:
            self.ctx.bus.status_message.emit(self.tr("Select two attempts to compare."))
            return
        first, second = chosen[0], chosen[1]
        self.plot.reset(self.drill.metric if self.drill else "gbps", self.plot.peak)
        for point in self._points_of(first):
            self.plot.add_point(point)
        self.plot.set_overlay(self._points_of(second), second.started_at.strftime("%m-%d %H:%M"))
        self.tabs.setCurrentWidget(self.plot)

    def shutdown(self) -> None:
        """Stop a run and keep the draft (the window is closing)."""
        self.save_draft()
        if self.is_running():
            self.thread.stop()
            self.thread.wait(5000)
