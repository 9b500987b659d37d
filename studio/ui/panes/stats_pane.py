"""The Stats pane: Anki-style review statistics drawn with pyqtgraph.

Everything comes from one `studio.core.stats.overview` call on the database worker: a
year calendar heatmap, reviews per day, the due forecast, true retention (young and
mature), answer-button counts, mastery per roadmap area and the streak. pyqtgraph is
imported only here, when the pane is first opened, to keep start-up fast.
"""

from __future__ import annotations

from datetime import timedelta

from PySide6.QtWidgets import QGridLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from studio.ui import theme
from studio.ui.context import AppContext


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


class StatsPane(QWidget):
    pane_id = "stats"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        import pyqtgraph as pg

        self.ctx = ctx
        self.overview = None
        self.labels: dict[str, QLabel] = {}
        grid = QGridLayout()
        names = {"cards": self.tr("Cards"), "due": self.tr("Due today"), "reviews": self.tr("Reviews"),
                 "streak": self.tr("Streak (days)"), "young": self.tr("True retention, young"),
                 "mature": self.tr("True retention, mature"), "notes": self.tr("Notes"),
                 "interviews": self.tr("Interviews"), "drill_attempts": self.tr("Drill attempts")}
        for n, (key, name) in enumerate(names.items()):
            value = QLabel("–")
            value.setStyleSheet("font-size: 20px; font-weight: 600;")
            grid.addWidget(QLabel(name), 0, n)
            grid.addWidget(value, 1, n)
            self.labels[key] = value
        self.plots = {
            "calendar": self._plot(pg, self.tr("Reviews in the last year")),
            "per_day": self._plot(pg, self.tr("Reviews per day (last 30 days)")),
            "forecast": self._plot(pg, self.tr("Due forecast (next 30 days)")),
            "buttons": self._plot(pg, self.tr("Answer buttons, 30 days (learning | review)")),
            "mastery": self._plot(pg, self.tr("Mastery by area (recall above 90%)")),
        }
        self.plots["calendar"].setMinimumHeight(200)
        self.plots["calendar"].invertY(True)
        self.plots["mastery"].setMinimumHeight(340)
        body = QWidget()
        charts = QGridLayout(body)
        charts.addWidget(self.plots["calendar"], 0, 0, 1, 2)
        charts.addWidget(self.plots["per_day"], 1, 0)
        charts.addWidget(self.plots["forecast"], 1, 1)
        charts.addWidget(self.plots["buttons"], 2, 0)
        charts.addWidget(self.plots["mastery"], 2, 1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(scroll, 1)
        ctx.bus.data_changed.connect(lambda _what: self.refresh())
        self.refresh()

    @staticmethod
    def _plot(pg, title: str):
        plot = pg.PlotWidget(title=title)
        plot.setBackground(None)
        plot.showGrid(y=True, alpha=0.3)
        plot.setMinimumHeight(240)
        plot.setMenuEnabled(False)
        return plot

    def refresh(self) -> None:
        from studio.core.stats import overview

        self.ctx.tasks.run(lambda col: overview(col), self._loaded)

    def _loaded(self, view) -> None:
        self.overview = view
        for plot in self.plots.values():  # the theme may have changed since the last refresh
            theme.style_plot(plot, background=False)
        for key in ("cards", "due", "reviews", "notes", "interviews", "drill_attempts"):
            self.labels[key].setText(str(view.counts.get(key, 0)))
        self.labels["streak"].setText(str(view.streak))
        self.labels["young"].setText(_percent(view.retention.young))
        self.labels["mature"].setText(_percent(view.retention.mature))
        self._calendar(view.per_day)
        days = list(view.per_day.items())[-30:]
        self._bars("per_day", list(range(-len(days) + 1, 1)), [n for _, n in days])
        self._bars("forecast", list(range(len(view.forecast))), list(view.forecast.values()))
        self._buttons(view.buttons)
        self._mastery(view.mastery)

    def _bars(self, key: str, xs: list, ys: list, brush: str | None = None) -> None:
        import pyqtgraph as pg

        plot = self.plots[key]
        plot.clear()
        plot.addItem(pg.BarGraphItem(x=xs, height=ys, width=0.8, brush=brush or theme.color("accent")))
        plot.setYRange(0, max([1, *ys]) * 1.1, padding=0)  # counts: never a negative axis

    def _calendar(self, per_day: dict) -> None:
        """A GitHub-style year: one column per week, Monday on top."""
        import numpy as np
        import pyqtgraph as pg

        days = list(per_day)
        first = days[0] - timedelta(days=days[0].weekday())
        weeks = (days[-1] - first).days // 7 + 1
        grid = np.full((weeks, 7), np.nan)
        for day, n in per_day.items():
            grid[(day - first).days // 7, day.weekday()] = n
        top = max(1.0, float(np.nanmax(grid)))
        plot = self.plots["calendar"]
        plot.clear()
        cmap = pg.ColorMap([0.0, 0.001, 1.0], [theme.qcolor("heat_0"), theme.qcolor("heat_1"), theme.qcolor("heat_4")])
        image = pg.ImageItem(np.nan_to_num(grid, nan=0.0) / top)
        image.setLookupTable(cmap.getLookupTable(0.0, 1.0, 256))
        image.setLevels([0, 1])
        plot.addItem(image)
        axis = plot.getAxis("left")
        names = [self.tr("Mon"), "", self.tr("Wed"), "", self.tr("Fri"), "", ""]
        axis.setTicks([[(i + 0.5, name) for i, name in enumerate(names)]])
        months = [((d - first).days // 7 + 0.5, d.strftime("%b")) for d in days if d.day == 1]
        plot.getAxis("bottom").setTicks([months])
        plot.showGrid(x=False, y=False)
        plot.setAspectLocked(True)

    def _buttons(self, buttons: dict) -> None:
        import pyqtgraph as pg

        plot = self.plots["buttons"]
        plot.clear()
        colours = theme.GRADES
        for group, offset in (("learning", 0), ("review", 5)):
            for grade, count in buttons[group].items():
                plot.addItem(pg.BarGraphItem(x=[offset + grade], height=[count], width=0.8, brush=colours[grade]))
        names = {1: self.tr("Again"), 2: self.tr("Hard"), 3: self.tr("Good"), 4: self.tr("Easy")}
        ticks = [(offset + g, names[g]) for offset in (0, 5) for g in range(1, 5)]
        plot.getAxis("bottom").setTicks([ticks])
        top = max([1, *buttons["learning"].values(), *buttons["review"].values()])
        plot.setYRange(0, top * 1.1, padding=0)

    def _mastery(self, mastery: dict) -> None:
        import pyqtgraph as pg

        plot = self.plots["mastery"]
        plot.clear()
        areas = list(mastery)
        shares = [(m / t * 100) if t else 0.0 for m, t in mastery.values()]
        ys = list(range(len(areas)))
        plot.addItem(pg.BarGraphItem(x0=[0] * len(ys), y=ys, height=0.7, width=shares, brush=theme.color("accent")))
        plot.getAxis("left").setTicks([[(y, f"{a} ({mastery[a][0]}/{mastery[a][1]})") for y, a in zip(ys, areas)]])
        plot.setXRange(0, 100)
        plot.invertY(True)
