"""The Today pane, shown on start (Ctrl+0): what to do now, each item one click or key away.

Everything comes from one `studio.core.today.today_view` call on the database worker;
this module only lays it out. Keys: R starts the review, P prepares for the next
interview, D opens the suggested drill. Empty states say what to do instead.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QKeySequence, QPainter, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from studio.ui import theme
from studio.ui.context import AppContext

WATCH = ("reviews", "cards", "interviews", "drills", "progress")


def _load(col, lang: str, drills: list | None):
    """Today's view and the drill catalogue (read once per pane: a second to parse)."""
    from studio.core.today import today_view

    if drills is None:
        from studio.drills.catalog import load_catalog, load_my_drills

        try:
            drills = load_catalog() + load_my_drills()
        except Exception:  # a damaged catalogue hides the suggestion, never the pane
            drills = []
    return today_view(col, drills, lang), drills


class Heatmap(QWidget):
    """The last weeks of reviews per day: one column per week, Monday on top."""

    CELL, GAP = 11, 3

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.days: dict = {}
        self.setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Fixed)

    def set_days(self, days: dict) -> None:
        self.days = dict(days)
        self.updateGeometry()
        self.update()

    def _weeks(self) -> int:
        if not self.days:
            return 12
        first = min(self.days)
        return (max(self.days) - first).days // 7 + 1 + (1 if first.weekday() else 0)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        step = self.CELL + self.GAP
        return QSize(self._weeks() * step, 7 * step)

    def paintEvent(self, _event) -> None:  # noqa: N802 (Qt override)
        if not self.days:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        painter.setPen(Qt.NoPen)
        top = max(self.days.values()) or 1
        first = min(self.days)
        start = first - timedelta(days=first.weekday())
        step = self.CELL + self.GAP
        for day, n in self.days.items():
            level = 0 if n == 0 else min(4, 1 + int(3 * n / top))
            painter.setBrush(theme.qcolor(f"heat_{level}"))
            col, row = (day - start).days // 7, day.weekday()
            painter.drawRoundedRect(QRectF(col * step, row * step, self.CELL, self.CELL), 2, 2)
        painter.end()


def _card(title: str) -> tuple[QFrame, QVBoxLayout]:
    frame = QFrame()
    frame.setProperty("card", True)
    box = QVBoxLayout(frame)
    s = theme.SPACE
    box.setContentsMargins(s["lg"], s["md"], s["lg"], s["lg"])
    box.setSpacing(s["sm"])
    heading = QLabel(title)
    heading.setProperty("role", "subtitle")
    box.addWidget(heading)
    return frame, box


def _clear(layout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        if item.widget() is not None:
            item.widget().deleteLater()
        elif item.layout() is not None:
            _clear(item.layout())


class TodayPane(QWidget):
    pane_id = "today"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.view = None
        self.drills: list | None = None  # the catalogue, read once
        self._loading = False
        s = theme.SPACE
        self.heading = QLabel(self.tr("Today"))
        self.heading.setProperty("role", "title")
        self.date_label = QLabel()
        self.date_label.setProperty("role", "muted")
        # due now
        due_card, due_box = _card(self.tr("Due now"))
        self.due_total = QLabel("–")
        self.due_total.setProperty("role", "display")
        self.due_parts = QLabel()
        self.due_parts.setWordWrap(True)
        self.due_minutes = QLabel()
        self.due_minutes.setProperty("role", "muted")
        self.due_minutes.setWordWrap(True)
        self.review_button = QPushButton(self.tr("Start review (R)"))
        self.review_button.setProperty("primary", True)
        self.review_button.clicked.connect(self.start_review)
        self.ahead_button = QPushButton(self.tr("Study ahead"))
        self.ahead_button.clicked.connect(self.study_ahead)
        # Until the figures come (the window is painted before the database is opened):
        # nothing to start yet.
        self.review_button.setEnabled(False)
        self.ahead_button.setVisible(False)
        due_box.addWidget(self.due_total)
        due_box.addWidget(self.due_parts)
        due_box.addWidget(self.due_minutes)
        due_box.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.review_button)
        row.addWidget(self.ahead_button)
        row.addStretch(1)
        due_box.addLayout(row)
        # streak
        streak_card, streak_box = _card(self.tr("Streak"))
        self.streak_label = QLabel("–")
        self.streak_label.setProperty("role", "display")
        self.streak_note = QLabel()
        self.streak_note.setProperty("role", "muted")
        self.streak_note.setWordWrap(True)
        self.heatmap = Heatmap()
        streak_box.addWidget(self.streak_label)
        streak_box.addWidget(self.streak_note)
        streak_box.addWidget(self.heatmap)
        streak_box.addStretch(1)
        # interviews, drill, roadmap, recent
        iv_card, self.iv_box = _card(self.tr("Upcoming interviews"))
        drill_card, self.drill_box = _card(self.tr("Suggested drill"))
        road_card, self.road_box = _card(self.tr("Roadmap in progress"))
        recent_card, self.recent_box = _card(self.tr("Last attempts and benches"))
        self.iv_list, self.drill_body, self.road_list, self.recent_list = (QVBoxLayout() for _ in range(4))
        for box, body in ((self.iv_box, self.iv_list), (self.drill_box, self.drill_body),
                          (self.road_box, self.road_list), (self.recent_box, self.recent_list)):
            body.setSpacing(s["xs"])
            box.addLayout(body)
            box.addStretch(1)
        grid = QGridLayout()
        grid.setSpacing(s["lg"])
        for n, card in enumerate((due_card, streak_card, iv_card, drill_card, road_card, recent_card)):
            grid.addWidget(card, n // 2, n % 2)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        body = QWidget()
        column = QVBoxLayout(body)
        column.setContentsMargins(s["xl"], s["xl"], s["xl"], s["xl"])
        column.setSpacing(s["lg"])
        top = QHBoxLayout()
        top.addWidget(self.heading)
        top.addSpacing(s["md"])
        top.addWidget(self.date_label, 1, Qt.AlignBottom)
        column.addLayout(top)
        column.addLayout(grid)
        column.addStretch(1)
        body.setMaximumWidth(1200)
        holder = QWidget()
        centre = QHBoxLayout(holder)
        centre.setContentsMargins(0, 0, 0, 0)
        centre.addWidget(body)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.NoFrame)
        scroll.setWidget(holder)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)
        for key, slot in (("R", self.start_review), ("P", self.prepare_next), ("D", self.open_drill)):
            QShortcut(QKeySequence(key), self, slot, context=Qt.WidgetWithChildrenShortcut)
        ctx.bus.data_changed.connect(self._data_changed)
        self.refresh()

    # --- data ------------------------------------------------------------------------------
    def refresh(self) -> None:
        if self._loading:
            self._again = True  # data changed while loading: load once more when this one lands
            return
        self._loading, self._again = True, False
        lang, drills = self.ctx.content_lang, self.drills
        self.ctx.tasks.run(lambda col: _load(col, lang, drills), self._loaded, self._failed)

    def _data_changed(self, what: str) -> None:
        if what == "drills":
            self.drills = None  # a drill saved from the Bench pane joins the catalogue
        if what in WATCH and self.isVisible():
            self.refresh()

    def _failed(self, error: Exception) -> None:
        self._loading = False
        self.due_parts.setText(self.tr("Today's plan could not be loaded: %1").replace("%1", str(error)))

    def _loaded(self, result) -> None:
        view, self.drills = result
        self._loading = False
        if getattr(self, "_again", False):
            self.refresh()
        self.view = view
        now = datetime.now(timezone.utc).replace(tzinfo=None)
        self.date_label.setText(datetime.now().strftime("%Y-%m-%d"))
        self._show_due(view.due, now)
        self._show_streak(view)
        self._show_interviews(view.upcoming, now)
        self._show_drill(view.drill)
        self._show_roadmap(view.in_progress)
        self._show_recent(view.attempts, view.benches)

    def _show_due(self, due, now: datetime) -> None:
        self.due_total.setText(str(due.total))
        self.due_parts.setText(self.tr("New %1 · Learning %2 · Review %3")
                               .replace("%1", str(due.new)).replace("%2", str(due.learning))
                               .replace("%3", str(due.review)))
        if due.total:
            self.due_minutes.setText(self.tr("About %1 min at %2 s a card")
                                     .replace("%1", str(due.minutes)).replace("%2", f"{due.seconds_per_card:.0f}"))
        elif due.next_due is not None:
            self.due_minutes.setText(self.tr("No cards due — next in %1. Study ahead?")
                                     .replace("%1", self.span(due.next_due - now)))
        else:
            self.due_minutes.setText(self.tr("No cards due. Add cards from a note (Notes) or import a deck "
                                             "(File → Import Anki deck…)."))
        self.review_button.setEnabled(due.total > 0)
        self.ahead_button.setVisible(due.total == 0 and due.next_due is not None)

    def _show_streak(self, view) -> None:
        self.streak_label.setText(self.tr("%1 days").replace("%1", str(view.streak)))
        if view.reviews_total == 0:
            self.streak_note.setText(self.tr("Review one card today to start a streak."))
        else:
            self.streak_note.setText(self.tr("%1 reviews in the last 12 weeks")
                                     .replace("%1", str(sum(view.heatmap.values()))))
        self.heatmap.set_days(view.heatmap)

    def span(self, delta: timedelta) -> str:
        """A short countdown: 3 d 4 h, 5 h 10 min, 12 min."""
        minutes = max(0, int(delta.total_seconds() // 60))
        days, hours, mins = minutes // 1440, minutes % 1440 // 60, minutes % 60
        if days:
            return self.tr("%1 d %2 h").replace("%1", str(days)).replace("%2", str(hours))
        if hours:
            return self.tr("%1 h %2 min").replace("%1", str(hours)).replace("%2", str(mins))
        return self.tr("%1 min").replace("%1", str(mins))

    def _show_interviews(self, upcoming: list, now: datetime) -> None:
        _clear(self.iv_list)
        if not upcoming:
            note = QLabel(self.tr("No interviews in the next 30 days — log one in Interviews (Ctrl+N there)."))
            note.setWordWrap(True)
            note.setProperty("role", "muted")
            self.iv_list.addWidget(note)
            self.iv_list.addWidget(self._link(self.tr("Open Interviews"), lambda: self.ctx.bus.open_pane.emit("interviews")))
            return
        for n, item in enumerate(upcoming[:4]):
            local = item.when.replace(tzinfo=timezone.utc).astimezone().strftime("%m-%d %H:%M")
            kind = self.tr("follow-up") if item.kind == "next_step" else ""
            text = " · ".join(x for x in (item.company, item.what, kind) if x)
            line = QLabel(f"<b>{_esc(text)}</b><br>" + _esc(self.tr("%1, in %2").replace("%1", local)
                                                            .replace("%2", self.span(item.countdown(now)))))
            line.setWordWrap(True)
            row = QHBoxLayout()
            row.addWidget(line, 1)
            label = (self.tr("Prepare (P): %1 cards") if n == 0 else self.tr("Prepare: %1 cards")).replace(
                "%1", str(len(item.prep_card_ids)))
            button = QPushButton(label)
            button.setEnabled(bool(item.prep_card_ids))
            button.setToolTip(self.tr("A review session of the cards from what %1 asked before, cards tagged "
                                      "with it, and your weakest topics").replace("%1", item.company))
            button.clicked.connect(lambda _=False, it=item: self.prepare(it))
            row.addWidget(button)
            self.iv_list.addLayout(row)

    def _show_drill(self, drill) -> None:
        _clear(self.drill_body)
        if drill is None:
            note = QLabel(self.tr("No drills are available. Open a problem set from File → Open problem set…"))
            note.setWordWrap(True)
            self.drill_body.addWidget(note)
            return
        reason = {"failed": self.tr("Your last attempt failed: try it again."),
                  "new": self.tr("You have not tried this one yet."),
                  "slow": self.tr("Your best time to pass is the slowest against its limit.")}[drill.reason]
        title = QLabel(f"<b>{_esc(drill.title)}</b>")
        title.setWordWrap(True)
        facts = [reason]
        if drill.time_limit_min:
            facts.append(self.tr("Time limit %1 min").replace("%1", str(drill.time_limit_min)))
        if drill.time_to_pass_s is not None:
            facts.append(self.tr("best time to pass %1 min").replace("%1", f"{drill.time_to_pass_s / 60:.0f}"))
        why = QLabel(" · ".join(facts))
        why.setWordWrap(True)
        why.setProperty("role", "muted")
        button = QPushButton(self.tr("Open drill (D)"))
        button.clicked.connect(self.open_drill)
        row = QHBoxLayout()
        row.addWidget(button)
        row.addStretch(1)
        for w in (title, why):
            self.drill_body.addWidget(w)
        self.drill_body.addLayout(row)

    def _show_roadmap(self, nodes: list) -> None:
        _clear(self.road_list)
        if not nodes:
            note = QLabel(self.tr("No topic is marked in progress. In Notes, right-click a roadmap node and "
                                  "mark it “learning”."))
            note.setWordWrap(True)
            note.setProperty("role", "muted")
            self.road_list.addWidget(note)
            self.road_list.addWidget(self._link(self.tr("Open Notes"), lambda: self.ctx.bus.open_pane.emit("notes")))
            return
        for node_id, title in nodes[:6]:
            self.road_list.addWidget(self._link(title, lambda n=node_id: self.open_node(n)))

    def _show_recent(self, attempts: list, benches: list) -> None:
        _clear(self.recent_list)
        if not attempts and not benches:
            note = QLabel(self.tr("No drill attempts or bench runs yet. Run a drill's tests with Ctrl+Enter."))
            note.setWordWrap(True)
            note.setProperty("role", "muted")
            self.recent_list.addWidget(note)
            return
        for a in attempts:
            mark = "✓" if a["passed"] else "✗"
            when = a["when"].replace(tzinfo=timezone.utc).astimezone().strftime("%m-%d %H:%M")
            self.recent_list.addWidget(self._link(f"{mark} {a['drill_id']} · {when}",
                                                  lambda d=a["drill_id"]: self.ctx.bus.open_drill.emit(d)))
        for b in benches:
            when = b["when"].replace(tzinfo=timezone.utc).astimezone().strftime("%m-%d %H:%M")
            name = b["kernel"].replace("\\", "/").rsplit("/", 1)[-1]
            self.recent_list.addWidget(self._link(self.tr("bench %1:%2 · %3 · %4").replace("%1", name)
                                                  .replace("%2", b["func"]).replace("%3", b["status"])
                                                  .replace("%4", when),
                                                  lambda: self.ctx.bus.open_pane.emit("bench")))

    def _link(self, text: str, slot) -> QPushButton:
        button = QPushButton(text)
        button.setProperty("flat", True)
        button.setCursor(Qt.PointingHandCursor)
        button.clicked.connect(lambda _=False: slot())
        return button

    # --- actions ---------------------------------------------------------------------------
    def start_review(self) -> None:
        from studio.core.review import QueueScope

        self.ctx.bus.review_scope.emit(QueueScope())

    def study_ahead(self) -> None:
        from studio.core.review import QueueScope

        self.ctx.bus.review_scope.emit(QueueScope(ahead=True))

    def prepare(self, item) -> None:
        from studio.core.today import prepare_scope

        if item.prep_card_ids:
            self.ctx.bus.review_scope.emit(prepare_scope(item))

    def prepare_next(self) -> None:
        if self.view is not None and self.view.upcoming:
            self.prepare(self.view.upcoming[0])

    def open_drill(self) -> None:
        if self.view is not None and self.view.drill is not None:
            self.ctx.bus.open_drill.emit(self.view.drill.drill_id)

    def open_node(self, node_id: str) -> None:
        self.ctx.bus.open_pane.emit("notes")
        self.ctx.bus.node_selected.emit(node_id)


def _esc(text: str) -> str:
    import html

    return html.escape(text)
