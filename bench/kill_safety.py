"""Kill-safety benchmark: SIGKILL the app mid-write, again and again, and count what was lost.

    python bench/kill_safety.py --kills 100 --out bench/results/kill_safety.json

Issue #15 asks that killing the app at any moment loses at most the one operation in flight
and never damages the database. A child process (this file, `--child WORKLOAD`) opens the
collection as the app does (`Collection.open()` under $STUDIO_HOME) and runs one workload in
a loop: reviews (answer, sometimes undo), imports (a generated notes file with Q&A cards and
an interview table, or an Anki CSV file; new content each time), interview edits (create,
update, delete, with questions), drill attempt recording, or a mix of all four. After each
commit it prints one flushed line naming what it committed ("review 812", "import 17",
"interview-edit 5 3", "attempt 9"): a line the parent read is an acknowledged operation.

The parent kills the child with SIGKILL after a random delay (seeded), many times over the
same database per workload, and after each kill:

1. opens the file with plain sqlite3: `PRAGMA integrity_check` must say ok and foreign keys
   must hold, else the database counts as damaged;
2. lists every operation the database shows as committed and checks each is whole: a card's
   state agrees with its review log, an import's cards, note and interview are all there or
   none is (and the cards it updates carry its version), an interview's questions match its
   version, an attempt has all its benchmark points;
3. compares with the acknowledged lines: every acknowledged operation is there, and at most
   one more (the one in flight when the kill landed);
4. reopens it with `Collection.open()`, as the app would after a crash.

tests/core/test_crash_safety.py imports this file by path and runs the same logic with a few
kills per workload, plus the checker against databases damaged or made inconsistent on purpose.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

WORKLOADS = ("review", "import", "interview", "attempt", "mixed")
MIXED_WEIGHTS = {"review": 5, "interview": 2, "attempt": 2, "import": 1}
BATCH_CARDS = 4  # new cards per import
SHARED_CARDS = 3  # cards every import of a format updates in place (to its version)
IMPORT_QUESTIONS = 3  # questions of the interview row in a notes import
REVIEW_CARDS = 3000  # answered cards leave today's queue: enough for thousands of answers
OWN_INTERVIEW = "kill-bench v"  # notes_md prefix of the interviews the interview workload edits

_NOTES_BATCH = re.compile(r"^第(\d+)批第(\d+)题")
_CSV_BATCH = re.compile(r"^Batch (\d+) card (\d+):")
_NOTES_SHARED = re.compile(r"^共享第(\d+)题")
_CSV_SHARED = re.compile(r"^Shared card (\d+):")
_VERSION = re.compile(r"(?:版本|version) (\d+)")
_IMPORT_COMPANY = re.compile(r"^KB(\d+) 科技$")


def batch_format(batch: int) -> str:
    """Even batches are notes imports, odd ones Anki CSV imports."""
    return "notes" if batch % 2 == 0 else "csv"


# ----- the child: one workload in a loop, one line per commit ------------------------------

def notes_files(folder: Path, batch: int) -> list[Path]:
    """A notes import: a new file of cards and an interview row, and the shared file at this version."""
    day = datetime(2025, 1, 1) + timedelta(days=batch % 360)
    cards = "\n".join(
        f"{j + 1}. **Q{j + 1}：第{batch}批第{j + 1}题：进程被 SIGKILL 时，已提交的事务为什么还在？**\n"
        f"   **答：** 第{batch}批答案{j + 1}：提交时记录已写进 WAL 文件，内核的页缓存在进程死后仍会写回磁盘。\n"
        for j in range(BATCH_CARDS))
    asked = "；".join(f"问了第{q + 1}个问题" for q in range(IMPORT_QUESTIONS))
    batch_file = folder / f"batch-{batch:05d}.md"
    batch_file.write_text(
        f"---\ntitle: 第 {batch} 批笔记\ntags: [kill-bench]\n---\n# 第 {batch} 批：崩溃安全\n\n{cards}\n"
        f"## 面试记录\n\n| 日期 | 公司 | 记录 | 结果 |\n| --- | --- | --- | --- |\n"
        f"| {day:%Y-%m-%d} 10:00 | KB{batch} 科技 | {asked} | 等结果 |\n", encoding="utf-8")
    shared = folder / "shared.md"
    shared.write_text("# 共享题\n\n" + "\n".join(
        f"**共享第{j + 1}题：WAL 检查点做什么？**\n**答：** 版本 {batch}：把 WAL 里的页写回主文件。\n"
        for j in range(SHARED_CARDS)), encoding="utf-8")
    return [batch_file, shared]


def csv_file(folder: Path, batch: int) -> Path:
    """A CSV import: new cards plus the shared rows at this version, in one Anki-style file."""
    rows = [f"Batch {batch} card {j + 1}: what does fsync promise?,answer {j + 1} of batch {batch}"
            for j in range(BATCH_CARDS)]
    rows += [f"Shared card {j + 1}: what is a checkpoint?,version {batch}: WAL pages copied back"
             for j in range(SHARED_CARDS)]
    path = folder / f"batch-{batch:05d}.csv"
    path.write_text("#separator:Comma\n#html:false\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


class Child:
    """State of one child run; each op commits one operation and acknowledges it."""

    def __init__(self, col, folder: Path, rng: random.Random, out=sys.stdout):
        from studio.core.review import ReviewQueue

        self.col = col
        self.folder = folder
        self.rng = rng
        self.out = out
        self.queue = ReviewQueue(col)
        snap = inspect_db(col.db.path, integrity=False)
        self.next_batch = max((t[1] for t in snap.tokens if t[0] == "import"), default=-1) + 1
        self.interviews = dict(snap.interview_versions)  # live own interviews: id -> version
        self.attempts = 0

    def ack(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def review(self) -> None:
        from fsrs import Rating
        from sqlalchemy import func, select

        from studio.core.models import ReviewLog

        card = self.queue.next_card()
        if card is None:
            raise RuntimeError("the review workload ran out of cards")
        self.queue.answer(card.id, self.rng.choice([Rating.Again, Rating.Hard, Rating.Good, Rating.Easy]))
        with self.col.db.session() as s:
            log_id = s.scalar(select(func.max(ReviewLog.id)).where(ReviewLog.card_id == card.id))
        self.ack(f"review {log_id}")
        if self.rng.random() < 0.15:
            self.queue.undo()
            self.ack(f"undo {log_id}")

    def import_(self) -> None:
        batch = self.next_batch
        if batch_format(batch) == "notes":
            from studio.core.importers.notes_import import import_notes

            summary = import_notes(self.col, notes_files(self.folder, batch))
        else:
            from studio.core.importers.anki import apply_cards
            from studio.core.importers.csv_cards import plan_csv

            summary = apply_cards(self.col, plan_csv(csv_file(self.folder, batch)))
        if summary.problems or summary.cards < BATCH_CARDS:  # the generated files did not read as meant
            raise RuntimeError(f"import {batch} added {summary.cards} cards: {summary.problems}")
        self.next_batch += 1
        self.ack(f"import {batch}")

    def interview(self) -> None:
        from studio.core.interviews import delete_interview, save_interview

        roll = self.rng.random()
        if len(self.interviews) < 3 or roll < 0.25:
            new_id = save_interview(self.col, interview_draft(0))
            self.interviews[new_id] = 0
            self.ack(f"interview-create {new_id}")
        elif roll < 0.85:
            iv_id = self.rng.choice(sorted(self.interviews))
            version = self.interviews[iv_id] + 1
            save_interview(self.col, interview_draft(version), iv_id)
            self.interviews[iv_id] = version
            self.ack(f"interview-edit {iv_id} {version}")
        else:
            iv_id = self.rng.choice(sorted(self.interviews))
            delete_interview(self.col, iv_id)
            del self.interviews[iv_id]
            self.ack(f"interview-delete {iv_id}")

    def attempt(self) -> None:
        from studio.core.drill_attempts import record_attempt

        self.attempts += 1
        points = [{"size": [1024 << k], "dtype": "float32", "ms": round(self.rng.uniform(0.01, 2), 4),
                   "gbps": round(self.rng.uniform(50, 3000), 1), "passed": True}
                  for k in range(self.rng.randint(1, 6))]
        passed = self.rng.random() < 0.7
        result = {"drill": self.rng.choice(["softmax", "vector_add", "rmsnorm"]),
                  "status": "passed" if passed else "failed", "mode": "interpreter",
                  "device": "cpu (kill-safety bench)", "bench": {"points": points}}
        attempt_id = record_attempt(self.col, result, f"# kill-safety attempt {self.attempts}\n")
        self.ack(f"attempt {attempt_id}")

    def step(self, workload: str) -> None:
        if workload == "mixed":
            workload = self.rng.choices(list(MIXED_WEIGHTS), weights=list(MIXED_WEIGHTS.values()))[0]
        {"review": self.review, "import": self.import_, "interview": self.interview,
         "attempt": self.attempt}[workload]()


def interview_draft(version: int):
    """An interview at `version`: its round, notes and questions all say which version it is."""
    from zoneinfo import ZoneInfo

    from studio.core.interviews import InterviewDraft, QuestionDraft

    starts = datetime(2025, 5, 19, 20, 0, tzinfo=ZoneInfo("Asia/Shanghai")) + timedelta(days=version)
    questions = [QuestionDraft(text=f"v{version} 问题 {j + 1}：手写 softmax 并说明数值稳定性", rating=j % 5 + 1)
                 for j in range(version % 4 + 1)]
    return InterviewDraft(starts_at=starts, company="杀进程测试公司", round=f"v{version}", result="waiting",
                          notes_md=f"{OWN_INTERVIEW}{version}\n\n第 {version} 版面试笔记", questions=questions)


def child_main(workload: str, folder: Path, seed: int, child_class=Child) -> None:
    """Open the collection as the app does and run `workload` until killed."""
    from studio.core.collection import Collection

    print("opening", flush=True)
    col = Collection.open()
    child = child_class(col, folder, random.Random(seed))
    child.ack("ready")
    while True:
        child.step(workload)


# ----- the checker: what a database shows as committed, and whether each piece is whole -----

@dataclass
class Snapshot:
    """What one look at the database file found."""

    damaged: str = ""  # why the file is damaged (integrity check, foreign keys, unreadable)
    tokens: set[tuple] = field(default_factory=set)  # every committed operation, as ack lines parse
    problems: list[str] = field(default_factory=list)  # operations found half-written
    interview_versions: dict[int, int] = field(default_factory=dict)  # live own interviews


def parse_ack(line: str) -> tuple:
    """'interview-edit 5 3' -> ('interview-edit', 5, 3)."""
    kind, *numbers = line.split()
    return (kind, *map(int, numbers))


def inspect_db(path: Path, integrity: bool = True) -> Snapshot:
    """Check a database file with plain sqlite3 and list the operations committed in it.

    `integrity=False` only lists (the child uses it to learn where the last run stopped)."""
    snap = Snapshot()
    try:
        conn = sqlite3.connect(path, timeout=30)
    except sqlite3.Error as exc:
        snap.damaged = f"{path}: cannot open: {exc}"
        return snap
    try:
        verdict = [row[0] for row in conn.execute("PRAGMA integrity_check")] if integrity else ["ok"]
        if verdict != ["ok"]:
            snap.damaged = f"{path}: integrity_check: " + "; ".join(verdict[:5])
            return snap
        broken = conn.execute("PRAGMA foreign_key_check").fetchall() if integrity else []
        if broken:
            snap.damaged = f"{path}: {len(broken)} rows break foreign keys, first {broken[0]}"
            return snap
        _reviews(conn, snap)
        _imports(conn, snap)
        _interviews(conn, snap)
        _attempts(conn, snap)
    except sqlite3.DatabaseError as exc:
        snap.damaged = f"{path}: {exc}"
    finally:
        conn.close()
    return snap


def _reviews(conn: sqlite3.Connection, snap: Snapshot) -> None:
    """Each answer is one commit of a log row and the card's new state; undo restores it."""
    snap.tokens |= {("review", i) for (i,) in conn.execute("SELECT id FROM review_log")}
    snap.tokens |= {("undo", i) for (i,) in conn.execute("SELECT review_id FROM review_undos")}
    active = "SELECT * FROM review_log WHERE id NOT IN (SELECT review_id FROM review_undos)"
    for card_id, reps, logs in conn.execute(
            f"SELECT c.id, c.reps, count(r.id) FROM cards c LEFT JOIN ({active}) r ON r.card_id = c.id "
            "GROUP BY c.id HAVING c.reps != count(r.id)"):
        snap.problems.append(f"card {card_id}: reps is {reps} but it has {logs} review log rows")
    for card_id, state, stability, last, log_id, log_state, log_stability, log_at in conn.execute(
            f"SELECT c.id, c.fsrs_state, c.stability, c.last_review, r.id, r.state_after, r.stability_after, "
            f"r.reviewed_at FROM cards c JOIN ({active}) r ON r.card_id = c.id "
            f"WHERE r.id = (SELECT max(id) FROM ({active}) WHERE card_id = c.id)"):
        if (state, stability, last) != (log_state, log_stability, log_at):
            snap.problems.append(f"card {card_id}: state {state}/{stability}/{last} but its last answer "
                                 f"(review {log_id}) left {log_state}/{log_stability}/{log_at}")
    for (card_id,) in conn.execute("SELECT id FROM cards WHERE reps = 0 AND last_review IS NOT NULL"):
        snap.problems.append(f"card {card_id}: never answered but has a last review time")


def _imports(conn: sqlite3.Connection, snap: Snapshot) -> None:
    """An import is one transaction: its cards, note and interview, and the shared cards' version."""
    batches: dict[int, set[int]] = {}
    shared: dict[str, list[int | None]] = {"notes": [], "csv": []}
    for q_en, a_en, q_zh, a_zh in conn.execute("SELECT q_en, a_en, q_zh, a_zh FROM cards WHERE source = 'imported'"):
        question, answer = q_zh or q_en, a_zh or a_en
        for pattern, fmt in ((_NOTES_BATCH, "notes"), (_CSV_BATCH, "csv")):
            m = pattern.match(question)
            if m:
                batch = int(m.group(1))
                if batch_format(batch) != fmt:
                    snap.problems.append(f"import {batch}: a {fmt} card in a batch of the other format")
                batches.setdefault(batch, set()).add(int(m.group(2)))
        for pattern, fmt in ((_NOTES_SHARED, "notes"), (_CSV_SHARED, "csv")):
            if pattern.match(question):
                version = _VERSION.search(answer)
                shared[fmt].append(int(version.group(1)) if version else None)
    notes = {row[0] for row in conn.execute("SELECT path FROM notes WHERE source = 'imported'")}
    note_batches = {int(m.group(1)) for p in notes if (m := re.search(r"batch-(\d+)\.md$", p))}
    interviews: dict[int, int] = {}
    for company, questions in conn.execute(
            "SELECT i.company, (SELECT count(*) FROM interview_questions q WHERE q.interview_id = i.id) "
            "FROM interviews i WHERE i.source LIKE 'import:%'"):
        m = _IMPORT_COMPANY.match(company)
        if m:
            interviews[int(m.group(1))] = questions
    for batch in sorted(set(batches) | note_batches | set(interviews)):
        snap.tokens.add(("import", batch))
        missing = []
        if batches.get(batch, set()) != set(range(1, BATCH_CARDS + 1)):
            missing.append(f"{len(batches.get(batch, ()))} of its {BATCH_CARDS} cards")
        if batch_format(batch) == "notes":
            if batch not in note_batches:
                missing.append("no note")
            if interviews.get(batch) != IMPORT_QUESTIONS:
                missing.append("no interview" if batch not in interviews
                               else f"an interview with {interviews[batch]} of {IMPORT_QUESTIONS} questions")
        elif batch in note_batches or batch in interviews:
            missing.append("a note or interview in a CSV import")
        if missing:
            snap.problems.append(f"import {batch} is half there: " + ", ".join(missing))
    for fmt, versions in shared.items():
        latest = max((b for b in batches if batch_format(b) == fmt), default=None)
        if latest is None and not versions:
            continue
        if len(versions) != SHARED_CARDS or set(versions) != {latest}:
            snap.problems.append(f"the {fmt} imports' shared cards are at versions {sorted(versions, key=str)}, "
                                 f"but the latest {fmt} import is {latest}: an import was applied in part")


def _interviews(conn: sqlite3.Connection, snap: Snapshot) -> None:
    """Creating or saving an interview writes the row and all its questions at one version."""
    rows = conn.execute("SELECT id, notes_md, round, deleted_at FROM interviews WHERE notes_md LIKE ?",
                        (OWN_INTERVIEW + "%",)).fetchall()
    for iv_id, notes_md, round_, deleted_at in rows:
        version = int(re.match(re.escape(OWN_INTERVIEW) + r"(\d+)", notes_md).group(1))
        snap.tokens.add(("interview-create", iv_id))
        snap.tokens |= {("interview-edit", iv_id, v) for v in range(1, version + 1)}
        if deleted_at is not None:
            snap.tokens.add(("interview-delete", iv_id))
        else:
            snap.interview_versions[iv_id] = version
        texts = [t for (t,) in conn.execute(
            "SELECT text FROM interview_questions WHERE interview_id = ? ORDER BY ord", (iv_id,))]
        expected = [f"v{version} 问题 {j + 1}" for j in range(version % 4 + 1)]
        if round_ != f"v{version}" or [t.split("：")[0] for t in texts] != expected:
            snap.problems.append(f"interview {iv_id} is at version {version} but its round is {round_!r} "
                                 f"and its questions are {[t.split('：')[0] for t in texts]}")


def _attempts(conn: sqlite3.Connection, snap: Snapshot) -> None:
    """A drill attempt and all its benchmark points are one commit."""
    for attempt_id, result_json, points in conn.execute(
            "SELECT a.id, a.result_json, (SELECT count(*) FROM bench_points p WHERE p.attempt_id = a.id) "
            "FROM drill_attempts a"):
        snap.tokens.add(("attempt", attempt_id))
        expected = len((json.loads(result_json or "{}").get("bench") or {}).get("points") or [])
        if points != expected:
            snap.problems.append(f"attempt {attempt_id} has {points} of its {expected} benchmark points")


# ----- the parent: kill, check, count -----------------------------------------------------

@dataclass
class Verdict:
    """One kill, compared with the acknowledged lines."""

    acknowledged_lost: list[tuple]  # acknowledged, yet not in the database
    unacknowledged: list[tuple]  # committed, never acknowledged: the operation in flight
    vanished: list[tuple]  # committed before this run, gone after it

    def problems(self) -> list[str]:
        out = []
        if self.acknowledged_lost:
            out.append(f"{len(self.acknowledged_lost)} acknowledged operations lost: {self.acknowledged_lost[:5]}")
        if len(self.unacknowledged) > 1:
            out.append(f"{len(self.unacknowledged)} operations beyond the acknowledged ones (at most 1 may be "
                       f"in flight): {self.unacknowledged[:5]}")
        if self.vanished:
            out.append(f"{len(self.vanished)} operations committed earlier are gone: {self.vanished[:5]}")
        return out


def compare(before: set[tuple], after: set[tuple], acked: set[tuple]) -> Verdict:
    return Verdict(acknowledged_lost=sorted(acked - after), unacknowledged=sorted(after - before - acked),
                   vanished=sorted(before - after))


@dataclass
class WorkloadResult:
    workload: str
    kills: int = 0
    kills_during_startup: int = 0  # killed while the child was still opening the collection
    acknowledged: dict[str, int] = field(default_factory=dict)  # per operation kind
    acknowledged_lost: int = 0
    in_flight_landed: int = 0  # kills whose operation in flight committed without its ack line
    in_flight_lost: int = 0  # kills whose operation in flight did not commit (or fell between two)
    most_unacknowledged_per_kill: int = 0
    damaged: int = 0
    reopen_failures: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def acknowledged_total(self) -> int:
        return sum(self.acknowledged.values())

    @property
    def passed(self) -> bool:
        return (self.kills > 0 and not self.problems and self.damaged == 0 and self.acknowledged_lost == 0
                and self.reopen_failures == 0 and self.most_unacknowledged_per_kill <= 1)

    def to_json(self) -> dict:
        return {**asdict(self), "acknowledged_total": self.acknowledged_total, "passed": self.passed}


@contextmanager
def studio_home(home: Path):
    """Point $STUDIO_HOME at `home` for the parent's own opens, then put it back."""
    old = os.environ.get("STUDIO_HOME")
    os.environ["STUDIO_HOME"] = str(home)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("STUDIO_HOME", None)
        else:
            os.environ["STUDIO_HOME"] = old


def prepare(home: Path, workload: str) -> None:
    """A fresh collection; reviews need cards (and limits high enough never to end the session)."""
    from sqlalchemy import insert

    from studio.core.collection import Collection
    from studio.core.models import Card
    from studio.core.review import ReviewQueue

    with studio_home(home):
        col = Collection.open()
        try:
            if workload in ("review", "mixed"):
                now = datetime.now(timezone.utc).replace(tzinfo=None)
                with col.db.session() as s, s.begin():
                    s.execute(insert(Card), [
                        dict(key=f"user:kill-{i:04d}", source="user", created_at=now, modified_at=now, due=now,
                             q_en=f"Question {i}: what does WAL stand for?", a_en="Write-ahead log.")
                        for i in range(REVIEW_CARDS)])
                ReviewQueue(col).set_limits(new_per_day=100_000, reviews_per_day=100_000)
        finally:
            col.close()


def reopen(home: Path) -> str:
    """Open the collection as the app does after a crash; the error message, or ''."""
    from studio.core.collection import Collection

    with studio_home(home):
        try:
            Collection.open().close()
        except Exception as exc:  # any failure to reopen is what this bench counts
            return f"{type(exc).__name__}: {exc}"
    return ""


def child_command(workload: str, folder: Path, seed: int) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--child", workload, "--folder", str(folder),
            "--seed", str(seed)]


@dataclass
class Run:
    acked: list[str]
    ready: bool
    exited_early: str  # why the child stopped before the kill, or ''


def kill_once(cmd: list[str], env: dict, delay: float, after: str = "ready", timeout: float = 60) -> Run:
    """Start the child and kill it with SIGKILL `delay` seconds after it printed `after`.

    `after` is "ready" (the collection is open: the kill lands in the workload) or "opening"
    (the kill may land inside Collection.open(), as when the app is killed while starting).
    """
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    lines: list[str] = []
    seen = {"opening": threading.Event(), "ready": threading.Event()}

    def read() -> None:
        for raw in child.stdout:
            if not raw.endswith(b"\n"):
                break  # a line cut by the kill was never acknowledged
            lines.append(raw.decode().strip())
            if lines[-1] in seen:
                seen[lines[-1]].set()

    errors: list[bytes] = []
    readers = [threading.Thread(target=read, daemon=True),
               threading.Thread(target=lambda: errors.append(child.stderr.read()), daemon=True)]
    for reader in readers:
        reader.start()
    deadline = time.monotonic() + timeout
    while not seen[after].wait(0.05) and child.poll() is None and time.monotonic() < deadline:
        pass
    time.sleep(delay)
    exited = child.poll()
    child.send_signal(signal.SIGKILL)
    child.wait()
    for reader in readers:
        reader.join()
    child.stdout.close()
    child.stderr.close()
    why = ""
    if exited is not None:
        tail = b"".join(errors).decode(errors="replace").strip().splitlines()[-3:]
        why = f"the child exited by itself with code {exited}: {' | '.join(tail)}"
    elif not seen[after].is_set():
        why = f"the child did not print {after!r} within {timeout:.0f} s"
    return Run([l for l in lines if l not in seen], seen["ready"].is_set(), why)


def run_workload(workload: str, kills: int, work: Path, seed: int, max_delay: float = 1.5,
                 startup_kills: float = 0.1, command=child_command, stop_on_problem: bool = False,
                 log=None) -> WorkloadResult:
    """Kill a child running `workload` `kills` times over one database; check after each kill."""
    started = time.monotonic()
    result = WorkloadResult(workload)
    home, folder = work / "home", work / "notes"
    folder.mkdir(parents=True, exist_ok=True)
    prepare(home, workload)
    db_path = home / "studio.sqlite3"
    env = {**os.environ, "STUDIO_HOME": str(home), "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    rng = random.Random(f"{seed}:{workload}")
    before = inspect_db(db_path)
    for n in range(kills):
        early = rng.random() < startup_kills
        delay = rng.uniform(0, 0.1) if early else rng.uniform(0, max_delay)
        run = kill_once(command(workload, folder, rng.randrange(1 << 30)), env, delay,
                        after="opening" if early else "ready")
        result.kills += 1
        result.kills_during_startup += not run.ready
        acked = {parse_ack(line) for line in run.acked}
        for token in acked:
            result.acknowledged[token[0]] = result.acknowledged.get(token[0], 0) + 1
        problems = [run.exited_early] if run.exited_early else []
        after = inspect_db(db_path)
        if after.damaged:
            result.damaged += 1
            result.problems.append(f"kill {n + 1}: damaged: {after.damaged}")
            break
        verdict = compare(before.tokens, after.tokens, acked)
        result.acknowledged_lost += len(verdict.acknowledged_lost) + len(verdict.vanished)
        result.most_unacknowledged_per_kill = max(result.most_unacknowledged_per_kill, len(verdict.unacknowledged))
        if run.ready:
            result.in_flight_landed += min(1, len(verdict.unacknowledged))
            result.in_flight_lost += not verdict.unacknowledged
        problems += verdict.problems() + after.problems
        failure = reopen(home)
        if failure:
            result.reopen_failures += 1
            problems.append(f"Collection.open() after the kill failed: {failure}")
        result.problems += [f"kill {n + 1}: {p}" for p in problems]
        if log:
            log(f"{workload} kill {n + 1}/{kills}: {len(acked)} acknowledged, "
                f"{len(verdict.unacknowledged)} in flight landed{', PROBLEMS' if problems else ''}")
        if problems and stop_on_problem:
            break
        before = after
    result.seconds = round(time.monotonic() - started, 1)
    return result


def spread(kills: int, workloads=WORKLOADS) -> dict[str, int]:
    """`kills` shared out over the workloads as evenly as possible."""
    base, extra = divmod(kills, len(workloads))
    return {w: base + (i < extra) for i, w in enumerate(workloads)}


def machine() -> dict:
    return {"cpus": os.cpu_count(), "uname": " ".join(filter(None, platform.uname())),
            "python": platform.python_version(), "sqlite": sqlite3.sqlite_version}


def table(results: list[WorkloadResult]) -> str:
    head = ("workload", "kills", "at startup", "acknowledged", "acked lost", "in flight landed",
            "in flight lost", "damaged", "reopen failed", "problems")
    rows = [(r.workload, r.kills, r.kills_during_startup, r.acknowledged_total, r.acknowledged_lost,
             r.in_flight_landed, r.in_flight_lost, r.damaged, r.reopen_failures, len(r.problems))
            for r in results]
    total = ("all", *(sum(r[i] for r in rows) for i in range(1, len(head))))
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in rows + [total]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=100, help="kills in all, spread over the workloads")
    parser.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated, default all")
    parser.add_argument("--seed", type=int, default=15, help="seeds the kill delays and the children")
    parser.add_argument("--max-delay", type=float, default=1.5, help="longest wait before a kill, seconds")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    parser.add_argument("--child", choices=[w for w in WORKLOADS], help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child_main(args.child, args.folder, args.seed)
        return 0
    workloads = [w.strip() for w in args.workloads.split(",") if w.strip()]
    unknown = [w for w in workloads if w not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workload {unknown[0]!r}; expected some of {', '.join(WORKLOADS)}")
    results = []
    with tempfile.TemporaryDirectory(prefix="kill-safety-") as tmp:
        for workload, kills in spread(args.kills, workloads).items():
            results.append(run_workload(workload, kills, Path(tmp) / workload, args.seed, args.max_delay,
                                        log=lambda msg: print(msg, file=sys.stderr, flush=True)))
    print(table(results))
    for r in results:
        for problem in r.problems[:20]:
            print(f"{r.workload}: {problem}")
    passed = all(r.passed for r in results)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({
            "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "command": "python bench/kill_safety.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            "machine": machine(), "seed": args.seed, "max_delay_s": args.max_delay, "passed": passed,
            "workloads": {r.workload: r.to_json() for r in results},
        }, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
