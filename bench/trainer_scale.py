"""Trainer at scale: 20,000 cards and 200,000 review logs, ours and Anki's library side by side.

Measures, on the core without painting:
  - grade + next: answer the shown card (one commit) and fetch the next card and the
    queue counts, as the Review pane does between two cards;
  - browser search: typical searches, as the card browser runs them (all matching ids,
    then the first page of 200 rows; further rows load as the table scrolls);
  - peak resident memory of the process.
The same workload runs through Anki's own library (`pip install anki`): FSRS on, its
queue, its answer path, its search. Results go to bench/results/trainer_scale.json.

    python bench/trainer_scale.py [--cards 20000] [--logs 200000] [--answers 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TAGS = ["triton", "cuda", "nccl", "softmax", "matmul", "attention", "serving", "fsdp", "quant", "profiling"]
NODES = ["kernels.triton-model", "kernels.matmul", "gpu.hopper", "dist.fsdp", "serving.batching", "quant.int8"]
WORDS = ["warp", "tile", "softmax", "bandwidth", "latency", "kernel", "shared", "memory", "allreduce", "cache"]
QUERIES = ["", "tag:triton", "is:due", "is:new", "prop:r<0.8", "softmax", "node:kernels is:due", "-tag:cuda tile"]


def _stats(samples_ms: list[float]) -> dict:
    ordered = sorted(samples_ms)
    return {"median_ms": round(statistics.median(ordered), 3),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 3),
            "n": len(ordered)}


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build_ours(n_cards: int, n_logs: int, rng: random.Random):
    """A collection with n_cards cards (a third new) and n_logs log rows, bulk inserted."""
    from sqlalchemy import text

    from studio.core.collection import Collection

    col = Collection.open()
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    cards, logs = [], []
    for i in range(n_cards):
        studied = i % 3 != 0
        last = now - timedelta(days=rng.uniform(1, 120)) if studied else None
        stability = rng.uniform(0.5, 200) if studied else None
        due = last + timedelta(days=stability * rng.uniform(0.5, 1.5)) if studied else now
        words = " ".join(rng.choices(WORDS, k=8))
        cards.append(dict(id=i + 1, key=f"bench:{i}", source="user", tags=" ".join(rng.sample(TAGS, 2)),
                          node_id=rng.choice(NODES), q_en=f"Q{i}: {words}?", a_en=words, q_zh="", a_zh="",
                          fsrs_state=2 if studied else 1, stability=stability,
                          difficulty=rng.uniform(1, 10) if studied else None, due=due, last_review=last,
                          reps=0, created_at=now, modified_at=now))
    studied_ids = [c["id"] for c in cards if c["last_review"] is not None]
    snap = json.dumps({"fsrs_state": 2, "fsrs_step": None, "stability": 10.0, "difficulty": 5.0,
                       "due": now.isoformat(), "last_review": now.isoformat(), "reps": 1, "lapses": 0})
    for j in range(n_logs):
        logs.append(dict(card_id=rng.choice(studied_ids), rating=rng.choice([1, 2, 3, 3, 3, 4]),
                         reviewed_at=now - timedelta(days=rng.uniform(1, 365)), duration_ms=5000,
                         state_before=snap, state_after=2, was_new=False, mode="review"))
    with col.db.engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO cards (id, key, source, deck, node_id, tags, kind, cloze_ord, level, q_en, a_en, q_zh, a_zh, "
            "origin, created_at, modified_at, retired, suspended, flag, fsrs_state, fsrs_step, stability, difficulty, "
            "due, last_review, reps, lapses) VALUES (:id, :key, :source, '', :node_id, :tags, 'qa', 0, 2, :q_en, :a_en, "
            ":q_zh, :a_zh, '', :created_at, :modified_at, 0, 0, 0, :fsrs_state, 0, :stability, :difficulty, :due, "
            ":last_review, :reps, 0)"), cards)
        conn.execute(text(
            "INSERT INTO review_log (card_id, rating, reviewed_at, duration_ms, mode, state_before, state_after, "
            "was_new) VALUES (:card_id, :rating, :reviewed_at, :duration_ms, :mode, :state_before, :state_after, "
            ":was_new)"), logs)
        conn.execute(text("ANALYZE"))
    return col


def bench_ours(n_cards: int, n_logs: int, n_answers: int) -> dict:
    from fsrs import Rating

    from studio.core.cards import rows_for_ids, search_ids
    from studio.core.review import ReviewQueue

    rng = random.Random(7)
    t0 = time.perf_counter()
    col = build_ours(n_cards, n_logs, rng)
    build_s = time.perf_counter() - t0
    queue = ReviewQueue(col)
    queue.set_limits(new_per_day=100000, reviews_per_day=100000)
    card = queue.next_card()
    grade = []
    for n in range(n_answers):
        start = time.perf_counter()
        queue.answer(card.id, rng.choice([Rating.Again, Rating.Good, Rating.Good, Rating.Easy]))
        card = queue.next_card()
        queue.counts()
        grade.append((time.perf_counter() - start) * 1000)
    search = {}
    for q in QUERIES:
        samples = []
        for _ in range(15):
            start = time.perf_counter()
            ids = search_ids(col, q)
            rows = rows_for_ids(col, ids[:200])  # the browser's first page; the rest load on scroll
            samples.append((time.perf_counter() - start) * 1000)
        search[q or "(all)"] = {**_stats(samples), "rows": len(ids), "rows_loaded": len(rows)}
    # The searches above run back to back over unchanged data: from the second one on, the
    # display order of all cards (kept until the next commit) is reused. Here every search
    # follows an answer (a commit), so it computes that order again: the cold figure.
    cold = []
    for _ in range(15):
        queue.answer(card.id, rng.choice([Rating.Again, Rating.Good, Rating.Good, Rating.Easy]))
        card = queue.next_card()
        start = time.perf_counter()
        ids = search_ids(col, "softmax")
        rows_for_ids(col, ids[:200])
        cold.append((time.perf_counter() - start) * 1000)
    search["softmax (right after an answer)"] = {**_stats(cold), "rows": len(ids)}
    col.close()
    all_search = [search[q or "(all)"]["median_ms"] for q in QUERIES]
    return {"build_s": round(build_s, 1), "grade_and_next": _stats(grade), "search": search,
            "search_median_of_medians_ms": round(statistics.median(all_search), 3), "peak_rss_mb": round(_rss_mb(), 1)}


def bench_anki(n_cards: int, n_logs: int, n_answers: int) -> dict:
    try:
        import anki
        from anki.collection import Collection as AnkiCollection
        from anki.scheduler.v3 import CardAnswer
    except ImportError as exc:
        return {"error": f"anki not installed: {exc}"}
    rng = random.Random(7)
    folder = tempfile.mkdtemp(prefix="anki-bench-")
    t0 = time.perf_counter()
    col = AnkiCollection(os.path.join(folder, "collection.anki2"))
    col.set_config("fsrs", True)
    deck_id = col.decks.id("bench")
    model = col.models.by_name("Basic")
    from anki.collection import AddNoteRequest

    requests = []
    for i in range(n_cards):
        note = col.new_note(model)
        words = " ".join(rng.choices(WORDS, k=8))
        note["Front"], note["Back"] = f"Q{i}: {words}?", words
        note.tags = rng.sample(TAGS, 2)
        requests.append(AddNoteRequest(note=note, deck_id=deck_id))
    col.add_notes(requests)
    # put two thirds of the cards in review with FSRS memory state, and add the review history
    card_ids = list(col.find_cards(""))
    today = col.sched.today
    now_ms = int(time.time() * 1000)
    rows, revlog = [], []
    for n, cid in enumerate(card_ids):
        if n % 3 == 0:
            continue
        ivl = rng.randint(1, 200)
        due = today + rng.randint(-ivl // 2, ivl // 2)
        data = json.dumps({"s": float(ivl), "d": rng.uniform(1, 10), "dr": 0.9})
        rows.append((due, ivl, data, cid))
    col.db.executemany("UPDATE cards SET type=2, queue=2, due=?, ivl=?, data=?, reps=1 WHERE id=?", rows)
    studied = [r[3] for r in rows]
    for j in range(n_logs):
        revlog.append((now_ms - 86400_000 - j * 157_000, rng.choice(studied),  # unique ids over ~1 year
                       rng.choice([1, 2, 3, 3, 3, 4]), 10, 5, 2500, 5000, 1))
    col.db.executemany("INSERT INTO revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) "
                       "VALUES (?, ?, -1, ?, ?, ?, ?, ?, ?)", revlog)
    col.decks.select(deck_id)
    conf = col.decks.config_dict_for_deck_id(deck_id)
    conf["new"]["perDay"] = 100000
    conf["rev"]["perDay"] = 100000
    col.decks.update_config(conf)
    col.save() if hasattr(col, "save") else None
    build_s = time.perf_counter() - t0
    grade = []
    for _ in range(n_answers):
        start = time.perf_counter()
        queued = col.sched.get_queued_cards(fetch_limit=1)
        if not queued.cards:
            break
        top = queued.cards[0]
        card = col.get_card(top.card.id)
        card.start_timer()
        answer = col.sched.build_answer(card=card, states=top.states,
                                        rating=rng.choice([CardAnswer.AGAIN, CardAnswer.GOOD, CardAnswer.GOOD, CardAnswer.EASY]))
        col.sched.answer_card(answer)
        col.sched.get_queued_cards(fetch_limit=1)  # the next card and counts, as the reviewer shows them
        grade.append((time.perf_counter() - start) * 1000)
    anki_queries = {"": "deck:*", "tag:triton": "tag:triton", "is:due": "is:due", "is:new": "is:new",
                    "prop:r<0.8": "prop:r<0.8", "softmax": "softmax", "node:kernels is:due": "tag:cuda is:due",
                    "-tag:cuda tile": "-tag:cuda tile"}
    search = {}
    for ours, query in anki_queries.items():
        samples = []
        for _ in range(15):
            start = time.perf_counter()
            ids = col.find_cards(query, order=True)
            samples.append((time.perf_counter() - start) * 1000)
        search[ours or "(all)"] = {**_stats(samples), "rows": len(ids), "anki_query": query}
    cold = []      # as for ours: each search right after a commit (an answer, or a note edit)
    for n in range(15):
        queued = col.sched.get_queued_cards(fetch_limit=1).cards
        if queued:
            card = col.get_card(queued[0].card.id)
            card.start_timer()
            col.sched.answer_card(col.sched.build_answer(card=card, states=queued[0].states, rating=CardAnswer.GOOD))
        else:
            note = col.get_card(card_ids[n]).note()
            note.tags = [*note.tags, "touched"]
            col.update_note(note)
        start = time.perf_counter()
        ids = col.find_cards("softmax", order=True)
        cold.append((time.perf_counter() - start) * 1000)
    search["softmax (right after an answer)"] = {**_stats(cold), "rows": len(ids), "anki_query": "softmax"}
    col.close()
    all_search = [search[ours or "(all)"]["median_ms"] for ours in anki_queries]
    return {"version": anki.version if hasattr(anki, "version") else "", "build_s": round(build_s, 1),
            "grade_and_next": _stats(grade), "search": search,
            "search_median_of_medians_ms": round(statistics.median(all_search), 3),
            "peak_rss_mb": round(_rss_mb(), 1),
            "note": "find_cards returns ids only (Anki's browser loads visible rows lazily); "
                    "ours returns all matching ids and the first 200 rows."}


def _child(which: str, args) -> None:
    os.environ["STUDIO_HOME"] = tempfile.mkdtemp(prefix="studio-bench-")
    fn = bench_ours if which == "ours" else bench_anki
    print(json.dumps(fn(args.cards, args.logs, args.answers)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=20000)
    parser.add_argument("--logs", type=int, default=200000)
    parser.add_argument("--answers", type=int, default=1000)
    parser.add_argument("--child", choices=["ours", "anki"])
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "trainer_scale.json"))
    args = parser.parse_args()
    if args.child:
        _child(args.child, args)
        return 0
    import subprocess

    results = {}
    for which in ("ours", "anki"):  # separate processes, so peak memory is each one's own
        proc = subprocess.run([sys.executable, __file__, "--child", which, "--cards", str(args.cards),
                               "--logs", str(args.logs), "--answers", str(args.answers)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            results[which] = {"error": proc.stderr.strip().splitlines()[-1:]}
            continue
        results[which] = json.loads(proc.stdout.strip().splitlines()[-1])
    report = {
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "python": platform.python_version(),
                    "cpus": os.cpu_count(), "processor": platform.processor() or platform.machine()},
        "workload": {"cards": args.cards, "review_logs": args.logs, "answers": args.answers, "queries": QUERIES},
        "targets": {"grade_and_next_median_ms": 2, "grade_and_next_p99_ms": 16, "search_median_ms": 10,
                    "peak_rss_mb": 300},
        "results": results,
    }
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
