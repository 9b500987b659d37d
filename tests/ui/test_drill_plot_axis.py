"""The drill plot's size axis: one line per point, as many labels as fit without overlap."""

from __future__ import annotations

import pytest

from studio.drills.result import BenchPoint

LLM_SHAPES = [(4096, 11008, 4096), (4096, 4096, 4096), (8192, 28672, 8192), (2048, 5632, 2048),
              (1024, 4096, 1024), (16384, 53248, 16384), (4096, 14336, 4096), (5120, 13824, 5120),
              (8192, 8192, 8192), (12288, 49152, 12288), (6144, 24576, 6144), (3072, 8192, 3072)]


def _plot(qtbot, width, dtypes=("float16",)):
    from studio.ui.drill_plot import DrillPlot

    plot = DrillPlot()
    qtbot.addWidget(plot)
    plot.reset("tflops")
    for i, shape in enumerate(LLM_SHAPES):
        plot.add_point(BenchPoint(size=list(shape), dtype=dtypes[i % len(dtypes)], ms=1.0 + i,
                                  flops=2 * shape[0] * shape[1] * shape[2], tflops=100.0 + i))
    plot.redraw()
    plot.resize(width, 320)
    plot.show()
    qtbot.waitExposed(plot)
    # the view fits its range to the points and the axis to the view when the loop runs
    qtbot.waitUntil(lambda: plot.size_axis.range[1] >= len(LLM_SHAPES) - 1
                    and plot.size_axis.geometry().width() > width * 0.6, timeout=5000)
    return plot


def _drawn_labels(plot):
    from PySide6.QtGui import QPainter, QPixmap

    axis = plot.size_axis
    pixmap = QPixmap(plot.size())
    painter = QPainter(pixmap)
    try:
        _, _, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(rect, text) for rect, _, text in texts]


def test_tick_texts_one_line_with_the_shared_dtype_as_title():
    from studio.ui.drill_plot import tick_texts

    assert tick_texts(["4k×11k×4k\nf16", "2k×6k×2k\nf16"]) == (["4k×11k×4k", "2k×6k×2k"], "f16")
    assert tick_texts(["4k\nf16", "4k\nbf16"]) == (["4k f16", "4k bf16"], "")


@pytest.mark.parametrize("width", [420, 520, 900, 1400])
@pytest.mark.parametrize("dtypes", [("float16",), ("float16", "bfloat16")])
def test_size_labels_never_overlap(qtbot, width, dtypes):
    plot = _plot(qtbot, width, dtypes)
    drawn = _drawn_labels(plot)
    assert len(drawn) >= 3, drawn
    rects = sorted((r for r, _ in drawn), key=lambda r: r.left())
    for a, b in zip(rects, rects[1:]):
        assert a.right() <= b.left(), f"labels overlap at width {width}: {[t for _, t in drawn]}"
    texts = [t for _, t in drawn]
    assert all("\n" not in t for t in texts)
    assert texts[0] == ("4k×11k×4k" if len(dtypes) == 1 else "4k×11k×4k f16"), "the first point keeps its label"


def test_wide_plot_labels_every_point(qtbot):
    plot = _plot(qtbot, 2400)
    assert len(_drawn_labels(plot)) == len(LLM_SHAPES)


def test_title_names_the_shared_dtype_and_roofline_goes_back_to_numbers(qtbot):
    plot = _plot(qtbot, 900)
    assert plot.plot.getPlotItem().getAxis("bottom").labelText == "size (f16)"
    plot.view.setCurrentIndex(plot.view.findData("roofline"))
    assert plot.size_axis.texts is None
    plot.view.setCurrentIndex(plot.view.findData("throughput"))
    assert plot.size_axis.texts[0] == "4k×11k×4k"
    assert plot.plot.getPlotItem().getAxis("bottom").labelText == "size (f16)"
