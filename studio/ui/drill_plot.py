"""The drill benchmark plot: throughput (or time) against size, filled in point by point.

Lines: the user's kernel, torch, and a dashed line at the device's measured copy
bandwidth (for memory-bound drills). The time view shows p20-p80 bands. Any earlier
attempt (the personal best by default) can be overlaid.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QMenu, QVBoxLayout, QWidget

from studio.ui.theme import SERIES

SERIES_COLORS = {"you": SERIES[0], "torch": SERIES[1], "overlay": SERIES[2], "peak": SERIES[3]}
EXTRA_COLORS = SERIES[4:]  # further baselines of a bench
REDRAW_MS = 80
MAX_TICKS = 24
SYMBOL_LIMIT = 40  # past this many points the lines carry no markers: 400 markers cost ~60 ms a paint


_DTYPE_SHORT = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64"}


def _short(n: int) -> str:
    """2048 -> 2k, 50257 -> 50k, 1000 -> 1000, 127 -> 127: tick labels that fit side by side."""
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024}k"
    if n < 4096:
        return str(n)
    return f"{round(n / 1000)}k"


def pg_point(pos):
    from PySide6.QtCore import QPoint

    return QPoint(int(pos.x()), int(pos.y()))


def point_label(point) -> str:
    size = "×".join(_short(v) for v in point.size)
    return f"{size}\n{_DTYPE_SHORT.get(point.dtype, point.dtype)}"


def tick_texts(labels: list[str]) -> tuple[list[str], str]:
    """What the size axis writes under each point, and the dtype they share ("" if mixed).

    A point's label is its size and dtype on two lines; written like that twelve labels
    such as 4k×11k×4k over f16 overlapped and lost their second line under the axis. So
    the axis writes one line per point: the size alone when every point has the same dtype
    (that dtype goes into the axis title), else the size and the dtype.
    """
    dtypes = {label.partition("\n")[2] for label in labels}
    if len(dtypes) == 1:
        return [label.partition("\n")[0] for label in labels], dtypes.pop()
    return [label.replace("\n", " ") for label in labels], ""


def _size_axis_class():
    import pyqtgraph as pg
    from PySide6.QtGui import QFontMetricsF

    class SizeAxis(pg.AxisItem):
        """The x axis of sizes: one label per index, as many as fit side by side.

        It measures the labels in its font against the pixels one index takes at the
        current width and zoom, and labels every k-th point so that no two overlap (at most
        MAX_TICKS labels: 100 labels cost 30 ms a paint). Without labels (the roofline) it
        is pyqtgraph's numeric axis.
        """

        GAP_PX = 12

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.texts: list[str] | None = None
            # The first and last labels may run this many pixels past the axis's ends (into
            # the empty corner under the y axis) instead of being dropped.
            self.setStyle(hideOverlappingLabels=48)

        def set_texts(self, texts: list[str] | None) -> None:
            self.texts = texts
            self.picture = None
            self.update()

        def _font(self):
            return self.style.get("tickFont") or self.font()

        def label_step(self, lo: float, hi: float, pixels: float) -> int:
            """Label every k-th index, k the smallest that keeps the labels apart."""
            texts = self.texts or []
            if not texts or pixels <= 0 or hi <= lo:
                return 1
            metrics = QFontMetricsF(self._font())
            first, last = max(0, int(lo)), min(len(texts) - 1, int(hi) + 1)
            widest = max((metrics.horizontalAdvance(t) for t in texts[first:last + 1]), default=0.0)
            per_index = pixels / (hi - lo)
            step = max(1, -(-int(widest + self.GAP_PX) // max(1, int(per_index))))
            visible = last - first + 1
            return max(step, -(-visible // MAX_TICKS))

        def tickValues(self, minVal, maxVal, size):  # noqa: N802 - pyqtgraph's name
            if self.texts is None:
                return super().tickValues(minVal, maxVal, size)
            step = self.label_step(minVal, maxVal, size)
            lo, hi = max(0, int(minVal) - 1), min(len(self.texts) - 1, int(maxVal) + 1)
            return [(step, [float(i) for i in range(lo, hi + 1) if i % step == 0 and minVal <= i <= maxVal])]

        def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph's name
            if self.texts is None:
                return super().tickStrings(values, scale, spacing)
            return [self.texts[int(round(v))] if 0 <= int(round(v)) < len(self.texts) else "" for v in values]

    return SizeAxis


class DrillPlot(QWidget):
    # "Profile this point" chosen in a point's context menu (the BenchPoint); panes that set
    # `profile_check` (a callable: None when ncu can run, else why not) get the menu item.
    profile_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None, symbol_limit: int | None = None):
        super().__init__(parent)
        self.symbol_limit = SYMBOL_LIMIT if symbol_limit is None else symbol_limit
        import pyqtgraph as pg

        self.pg = pg
        self.throughput_metric = "gbps"
        self.points: list = []
        self.overlay: list = []
        self.overlay_name = ""
        self.peak: float | None = None
        self.view = QComboBox()
        self.view.addItem(self.tr("Throughput"), "throughput")
        self.view.addItem(self.tr("Time (µs) with p20–p80"), "time")
        self.view.addItem(self.tr("Roofline"), "roofline")
        self.matmul_peak: float | None = None
        self.view.currentIndexChanged.connect(self.redraw)
        self.note = QLabel()
        self.size_axis = _size_axis_class()(orientation="bottom")
        self.plot = pg.PlotWidget(axisItems={"bottom": self.size_axis})
        self.plot.setBackground(None)
        self.plot.showGrid(x=False, y=True, alpha=0.3)
        self.legend = self.plot.addLegend(offset=(10, 24))
        self.empty_note = self.tr("Run Benchmark on a GPU to plot timings.")
        self._apply_palette()
        top = QHBoxLayout()
        top.addWidget(self.view)
        top.addWidget(self.note, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.plot, 1)
        # Streamed points redraw at most every REDRAW_MS, and by updating the lines in place:
        # a full rebuild per point cost ~150 ms at 100 points (bench/results/bench_ui_jitter.json).
        self._curves: dict = {}
        self._signature = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REDRAW_MS)
        self._timer.timeout.connect(self.redraw)
        self.profile_check = None
        view_box = self.plot.getPlotItem().getViewBox()
        self._stock_menu = view_box.raiseContextMenu
        view_box.raiseContextMenu = self._raise_menu

    # --- "Profile this point" ----------------------------------------------------------------
    def point_at(self, x: float):
        """The user's point drawn at x (an index on the size axis), or None."""
        if self.view.currentData() == "roofline":
            return None
        labels = self._labels()
        index = round(x)
        if abs(x - index) > 0.35 or not 0 <= index < len(labels):
            return None
        return next((p for p in self.points if point_label(p) == labels[index] and p.ms is not None), None)

    def profile_menu(self, point) -> QMenu:
        """The context menu of one point: profile it, or why it cannot be profiled here."""
        menu = QMenu(self)
        size = "×".join(str(v) for v in point.size)
        action = menu.addAction(self.tr("Profile this point (%1 %2) with Nsight Compute")
                                .replace("%1", size).replace("%2", point.dtype))
        action.triggered.connect(lambda: self.profile_requested.emit(point))
        missing = self.profile_check() if self.profile_check else None
        if missing is not None:
            from studio.ui.profile_view import unavailable_text

            action.setEnabled(False)
            reason, todo = unavailable_text(missing)
            for line in (reason, todo):
                menu.addAction(line).setEnabled(False)
        return menu

    def _raise_menu(self, ev) -> None:
        point = None
        if self.profile_check is not None:
            box = self.plot.getPlotItem().getViewBox()
            point = self.point_at(box.mapSceneToView(ev.scenePos()).x())
        if point is None:
            self._stock_menu(ev)
            return
        pos = ev.screenPos()
        self.profile_menu(point).popup(pg_point(pos))

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.type() in (QEvent.PaletteChange, QEvent.StyleChange):
            self._apply_palette()
        super().changeEvent(event)

    def _apply_palette(self) -> None:
        """Legend and title in the theme's colours (a white legend box with the default grey
        labels was unreadable in the dark theme)."""
        palette = self.palette()
        window, text = palette.color(QPalette.Window), palette.color(QPalette.WindowText)
        self.legend.setBrush((window.red(), window.green(), window.blue(), 220))
        self.legend.setPen((text.red(), text.green(), text.blue(), 90))
        self.legend.setLabelTextColor((text.red(), text.green(), text.blue()))
        self.title_color = text.name()
        from studio.ui.theme import style_plot

        style_plot(self.plot, background=False)
        if getattr(self, "title", ""):
            self.set_title(self.title)

    def set_title(self, text: str) -> None:
        """A line above the plot, kept in exported images (the bench names its timing protocol)."""
        self.title = text
        self.plot.setTitle(text or None, color=self.title_color, size="9pt")

    def reset(self, metric: str = "gbps", peak: float | None = None) -> None:
        self.throughput_metric, self.points, self.peak = metric, [], peak
        self.redraw()

    def set_peak(self, peak: float | None, matmul_peak: float | None = None) -> None:
        self.peak = peak
        if matmul_peak is not None:
            self.matmul_peak = matmul_peak
        self.redraw()

    def roofline(self) -> dict:
        """Points as (arithmetic intensity FLOP/byte, TFLOP/s) and the two ceilings' knee.

        Each point's roof is min(bandwidth x intensity, matmul peak): left of the knee the
        kernel is bound by memory, right of it by compute.
        """
        pts = [(p.flops / p.bytes, p.tflops) for p in self.points
               if p.flops and p.bytes and p.tflops]
        knee = self.matmul_peak * 1e12 / (self.peak * 1e9) if self.peak and self.matmul_peak else None
        return {"points": pts, "knee": knee}

    def add_point(self, point) -> None:
        """Add a streamed point; the drawing follows within REDRAW_MS (series() at once)."""
        self.points.append(point)
        if not self._timer.isActive():
            self._timer.start()

    def set_overlay(self, points: list, name: str) -> None:
        self.overlay, self.overlay_name = points, name
        self.redraw()

    # --- drawing ---------------------------------------------------------------------------
    def _labels(self) -> list[str]:
        labels: list[str] = []
        for p in self.points + self.overlay:
            label = point_label(p)
            if label not in labels:
                labels.append(label)
        return labels

    def _value(self, p, torch: bool = False):
        if self.view.currentData() == "time":
            ms = p.ref_ms if torch else p.ms
            return None if ms is None else ms * 1000
        if self.throughput_metric == "tflops":
            if torch:
                return (p.flops / (p.ref_ms * 1e-3) / 1e12) if p.ref_ms and p.flops else None
            return p.tflops
        return p.ref_gbps if torch else p.gbps

    def series(self) -> dict[str, list[tuple[int, float]]]:
        """The data behind each line as (x index, y) pairs; used by drawing and tests."""
        index = {label: i for i, label in enumerate(self._labels())}
        out: dict[str, list[tuple[int, float]]] = {"you": [], "torch": [], "overlay": []}
        for p in self.points:
            for name, torch in (("you", False), ("torch", True)):
                y = self._value(p, torch)
                if y is not None:
                    out[name].append((index[point_label(p)], y))
        for p in self.points:  # further baselines of a bench (torch.compile, the user's own)
            for name, entry in (getattr(p, "baselines", None) or {}).items():
                if name == getattr(p, "baseline", "torch") or not entry.get("ms"):
                    continue
                y = self._baseline_value(p, entry["ms"])
                if y is not None:
                    out.setdefault(f"b:{name}", []).append((index[point_label(p)], y))
        for p in self.overlay:
            y = self._value(p)
            if y is not None:
                out["overlay"].append((index[point_label(p)], y))
        return out

    def _baseline_value(self, p, ms: float):
        if self.view.currentData() == "time":
            return ms * 1000
        if self.throughput_metric == "tflops":
            return p.flops / (ms * 1e-3) / 1e12 if p.flops else None
        return p.bytes / (ms * 1e-3) / 1e9 if p.bytes else None

    def _set_size_ticks(self, labels: list[str]) -> None:
        """The size axis's labels, and the dtype they share as its title."""
        texts, dtype = tick_texts(labels)
        if texts != self.size_axis.texts:
            self.size_axis.set_texts(texts)
        title = self.tr("size (%1)").replace("%1", dtype) if dtype and labels else ""
        if title != getattr(self, "_size_title", None):  # a streamed point changes neither, mostly
            self._size_title = title
            if title:
                self.plot.setLabel("bottom", title)
            else:
                self.plot.getPlotItem().showLabel("bottom", False)

    def _update_in_place(self) -> bool:
        """Move the existing lines to the new data when nothing but the data changed."""
        view = self.view.currentData()
        if view != "throughput":
            return False
        data = self.series()
        keys = tuple(sorted(k for k, v in data.items() if v))
        base = (view, self.throughput_metric, self.peak, self.overlay_name)
        if self._signature is None or self._signature[:4] != base or not set(self._signature[4]) <= set(keys):
            return False
        missing = [k for k in self._order(data) if k in keys and k not in self._curves]
        if missing:  # one new line per redraw: building four at once stalled the loop ~60 ms
            self._add_curve(missing[0], data)
            if len(missing) > 1:
                self._timer.start()
        self._signature = base + (tuple(sorted(self._curves)),)
        if self.points or self.overlay:
            self.note.setText("")
        self._set_size_ticks(self._labels())
        for key, curve in self._curves.items():
            pts = sorted(data.get(key, []))
            if len(pts) > self.symbol_limit and curve.opts.get("symbol") is not None:
                curve.setSymbol(None)
            curve.setData([x for x, _ in pts], [y for _, y in pts])
        return True

    def _order(self, data: dict) -> list[str]:
        return ["you", "torch", *[k for k in data if k.startswith("b:")], "overlay"]

    def _add_curve(self, key: str, data: dict) -> None:
        pg = self.pg
        order = self._order(data)
        first_baseline = next((getattr(p, "baseline", "torch") for p in self.points), "torch")
        names = {"you": self.tr("your kernel"), "torch": first_baseline,
                 "overlay": self.overlay_name or self.tr("earlier attempt")}
        pts = sorted(data[key])
        color = SERIES_COLORS.get(key) or EXTRA_COLORS[order.index(key) % len(EXTRA_COLORS)]
        pen = pg.mkPen(color, width=2, style=pg.QtCore.Qt.DotLine if key == "overlay" else pg.QtCore.Qt.SolidLine)
        self._curves[key] = self.plot.plot([x for x, _ in pts], [y for _, y in pts], pen=pen,
                                           symbol="o" if len(pts) <= self.symbol_limit else None,
                                           symbolSize=6, symbolBrush=color, name=names.get(key, key[2:]))

    def redraw(self) -> None:
        import numpy as np

        self._timer.stop()
        if self._update_in_place():
            return
        pg = self.pg
        self._curves = {}
        self._signature = None
        self.plot.clear()
        self.legend.clear()
        self.plot.setLogMode(x=False, y=False)
        if self.view.currentData() == "roofline":
            self._draw_roofline(np)
            return
        time_view = self.view.currentData() == "time"
        unit = self.tr("µs") if time_view else ("TFLOP/s" if self.throughput_metric == "tflops" else "GB/s")
        self.plot.setLabel("left", unit)
        labels = self._labels()
        self._set_size_ticks(labels)
        data = self.series()
        box = self.plot.getPlotItem().getViewBox()
        box.disableAutoRange()  # one range computation after all the lines, not one per line
        for key in self._order(data):
            if data[key]:
                self._add_curve(key, data)
        box.enableAutoRange()
        if not time_view:
            self._signature = (self.view.currentData(), self.throughput_metric, self.peak, self.overlay_name,
                               tuple(sorted(self._curves)))
        if time_view:
            for p in self.points:
                if p.p20 is not None and p.p80 is not None:
                    x = labels.index(point_label(p))
                    bar = pg.ErrorBarItem(x=np.array([x]), y=np.array([p.ms * 1000]),
                                          top=np.array([(p.p80 - p.ms) * 1000]),
                                          bottom=np.array([(p.ms - p.p20) * 1000]),
                                          beam=0.2, pen=pg.mkPen(SERIES_COLORS["you"]))
                    self.plot.addItem(bar)
        elif self.throughput_metric == "gbps" and self.peak:
            line = pg.InfiniteLine(pos=self.peak, angle=0,
                                   pen=pg.mkPen(SERIES_COLORS["peak"], width=1.5, style=pg.QtCore.Qt.DashLine),
                                   label=self.tr("measured copy bandwidth %1 GB/s").replace("%1", f"{self.peak:.0f}"),
                                   labelOpts={"position": 0.5, "color": SERIES_COLORS["peak"], "anchors": [(0.5, 1), (0.5, 1)]})
            self.plot.addItem(line)
            # Room above the line for its label: the view's range follows the data only, so a
            # kernel at copy bandwidth put the line, and the label above it, at the very top.
            values = [y for series in self.series().values() for _, y in series]
            self.plot.setYRange(0, max(values + [self.peak]) * 1.1)
        self.note.setText("" if self.points or self.overlay else self.empty_note)

    def _draw_roofline(self, np) -> None:
        pg = self.pg
        data = self.roofline()
        self.plot.setLogMode(x=True, y=True)
        self.plot.setLabel("left", "TFLOP/s")
        self.plot.setLabel("bottom", self.tr("arithmetic intensity (FLOP/byte)"))
        self.size_axis.set_texts(None)
        self._size_title = None
        if not data["points"]:
            self.note.setText(self.tr("The roofline needs a flops model (flops() in the bench spec) and timings."))
            return
        xs = [x for x, _ in data["points"]]
        lo, hi = min(xs + [data["knee"] or xs[0]]) / 4, max(xs + [data["knee"] or xs[0]]) * 4
        if self.peak and self.matmul_peak:
            grid = np.logspace(np.log10(lo), np.log10(hi), 64)
            roof = np.minimum(self.peak * 1e9 * grid / 1e12, self.matmul_peak)
            self.plot.plot(grid, roof, pen=pg.mkPen(SERIES_COLORS["peak"], width=1.5, style=pg.QtCore.Qt.DashLine),
                           name=self.tr("roof: %1 GB/s, %2 TFLOP/s").replace("%1", f"{self.peak:.0f}")
                           .replace("%2", f"{self.matmul_peak:.0f}"))
        self.plot.plot(xs, [y for _, y in data["points"]], pen=None, symbol="o", symbolSize=8,
                       symbolBrush=SERIES_COLORS["you"], name=self.tr("your kernel"))
        self.note.setText("")
