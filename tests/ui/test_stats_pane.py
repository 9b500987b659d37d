"""The Stats pane draws the core statistics after some reviews."""

from __future__ import annotations

from fsrs import Rating

from tests.conftest import drain


def test_stats_pane_shows_core_numbers(studio_app, qtbot):
    from studio.core.review import ReviewQueue

    def review(col):
        queue = ReviewQueue(col)
        for _ in range(5):
            queue.answer(queue.next_card().id, Rating.Good)

    studio_app.tasks.call(review)
    pane = studio_app.window.show_pane("stats")
    drain(qtbot, studio_app)
    assert pane.labels["reviews"].text() == "5"
    assert pane.labels["streak"].text() == "1"
    view = pane.overview
    assert sum(view.per_day.values()) == 5 and view.buttons["learning"][3] == 5
    assert len(pane.plots["calendar"].getPlotItem().items) == 1
    assert len(pane.plots["buttons"].getPlotItem().items) == 8
    assert len(pane.plots["mastery"].getPlotItem().items) == 1
