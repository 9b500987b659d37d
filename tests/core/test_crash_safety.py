"""Killing the app mid-session loses at most the answer in flight and never corrupts the database.

A child process reviews as fast as it can, printing each answer's id once `answer()`
has returned (committed). The parent kills it with SIGKILL at random moments, several
times over the same database, then checks SQLite's integrity and that every card's
state agrees with its log rows.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from studio.core.cards import CardDraft, create_card

CHILD = textwrap.dedent("""
    import sys
    from fsrs import Rating
    from studio.core.collection import Collection
    from studio.core.review import ReviewQueue

    col = Collection.open()
    queue = ReviewQueue(col)
    grades = [Rating.Again, Rating.Hard, Rating.Good, Rating.Easy]
    n = 0
    while True:
        card = queue.next_card()
        if card is None:
            break
        queue.answer(card.id, grades[n % 4])
        n += 1
        if n % 7 == 0:
            queue.undo()
        sys.stdout.write(f"{n}\\n")
        sys.stdout.flush()
""")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_kill_mid_session_repeatedly(collection, studio_home):
    for i in range(400):
        create_card(collection, CardDraft(q_en=f"Q{i}?", a_en="A"))
    from studio.core.review import ReviewQueue
    ReviewQueue(collection).set_limits(new_per_day=10000, reviews_per_day=10000)
    collection.close()

    rng = random.Random(1234)
    acknowledged_total = 0
    env = {**os.environ, "STUDIO_HOME": str(studio_home), "PYTHONPATH": str(ROOT)}
    for _ in range(6):
        before = _active_logs(studio_home)
        child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, env=env, cwd=ROOT)
        want = rng.randint(5, 60)
        seen = 0
        deadline = time.monotonic() + 60
        while seen < want and time.monotonic() < deadline:
            line = child.stdout.readline()
            if not line:
                break
            seen = int(line)
        time.sleep(rng.random() * 0.05)  # land somewhere inside a later answer
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        after = _active_logs(studio_home)
        undone = seen // 7
        assert after - before >= seen - undone, "an acknowledged answer was lost"
        acknowledged_total += seen
        _check_consistent(studio_home)
    assert acknowledged_total > 0


def _connect(home: Path):
    from studio.core.collection import Collection

    return Collection.open()


def _active_logs(home: Path) -> int:
    col = _connect(home)
    try:
        with col.db.engine.connect() as conn:
            return conn.execute(text(
                "SELECT count(*) FROM review_log WHERE id NOT IN (SELECT review_id FROM review_undos)")).scalar()
    finally:
        col.close()


def _check_consistent(home: Path) -> None:
    col = _connect(home)
    try:
        with col.db.engine.connect() as conn:
            assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"
            assert conn.execute(text("PRAGMA foreign_key_check")).all() == []
            mismatched = conn.execute(text(
                "SELECT c.id, c.reps, count(r.id) FROM cards c LEFT JOIN review_log r ON r.card_id = c.id "
                "AND r.id NOT IN (SELECT review_id FROM review_undos) GROUP BY c.id HAVING c.reps != count(r.id)"
            )).all()
            assert mismatched == [], "card state and review log disagree"
            orphans = conn.execute(text(
                "SELECT count(*) FROM cards WHERE reps = 0 AND last_review IS NOT NULL")).scalar()
            assert orphans == 0
    finally:
        col.close()
