"""The Stats pane: collection counts and reviews per day (pyqtgraph)."""

from __future__ import annotations

from datetime import timedelta

from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from studio.ui.context import AppContext


def _stats(col):
    from sqlalchemy import func, select

    from studio.core.collection import utcnow
    from studio.core.models import ReviewLog, ReviewUndo

    since = utcnow() - timedelta(days=30)
    with col.db.session() as s:
        day = func.date(ReviewLog.reviewed_at)
        rows = s.execute(
            select(day, func.count()).where(ReviewLog.reviewed_at >= since,
                                            ReviewLog.id.not_in(select(ReviewUndo.review_id)))
            .group_by(day)).all()
    return col.counts(), {d: n for d, n in rows}


class StatsPane(QWidget):
    pane_id = "stats"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        import pyqtgraph as pg

        self.ctx = ctx
        self.labels: dict[str, QLabel] = {}
        grid = QGridLayout()
        names = {"cards": self.tr("Cards"), "due": self.tr("Due today"), "reviews": self.tr("Reviews"),
                 "notes": self.tr("Notes"), "interviews": self.tr("Interviews"),
                 "drill_attempts": self.tr("Drill attempts")}
        for n, (key, name) in enumerate(names.items()):
            value = QLabel("–")
            value.setStyleSheet("font-size: 20px; font-weight: 600;")
            grid.addWidget(QLabel(name), 0, n)
            grid.addWidget(value, 1, n)
            self.labels[key] = value
        self.plot = pg.PlotWidget(title=self.tr("Reviews per day (last 30 days)"))
        self.plot.setBackground(None)
        self.plot.showGrid(y=True, alpha=0.3)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(self.plot, 1)
        ctx.bus.data_changed.connect(lambda _what: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        self.ctx.tasks.run(_stats, self._loaded)

    def _loaded(self, result) -> None:
        import pyqtgraph as pg

        from studio.core.collection import utcnow

        counts, per_day = result
        for key, label in self.labels.items():
            label.setText(str(counts.get(key, 0)))
        today = utcnow().date()
        xs = list(range(-29, 1))
        ys = [per_day.get((today + timedelta(days=x)).isoformat(), 0) for x in xs]
        self.plot.clear()
        self.plot.addItem(pg.BarGraphItem(x=xs, height=ys, width=0.8, brush="#3574f0"))
