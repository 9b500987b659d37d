"""The database schema: every piece of user state the app keeps.

Content (roadmap, shipped notes and card text) is files; this module holds the state
around it: progress per roadmap node, the notes index, cards and their FSRS scheduling,
the append-only review log, interviews, drill attempts and settings. Shipped cards are
keyed by their stable content id (`Card.key`), so a content update never resets a
user's scheduling.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class NodeProgress(Base):
    """A roadmap node's state, as roadmap.sh: pending, learning, done or skipped."""

    __tablename__ = "node_progress"

    node_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    state: Mapped[str] = mapped_column(String(16), default="pending")
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class NoteFolder(Base):
    """A folder of the user's own Markdown notes, registered with "Add notes folder…"."""

    __tablename__ = "note_folders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(Text, unique=True)
    added_at: Mapped[datetime] = mapped_column(DateTime)


class Note(Base):
    """One indexed Markdown note (shipped, from a user folder, or imported)."""

    __tablename__ = "notes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(Text, unique=True)
    source: Mapped[str] = mapped_column(String(16))  # shipped | folder | imported
    folder_id: Mapped[int | None] = mapped_column(
        ForeignKey("note_folders.id", ondelete="CASCADE"), nullable=True
    )
    title: Mapped[str] = mapped_column(Text, default="")
    node_id: Mapped[str | None] = mapped_column(String(200), nullable=True, index=True)
    lang: Mapped[str | None] = mapped_column(String(8), nullable=True)
    tags: Mapped[str] = mapped_column(Text, default="")
    body: Mapped[str] = mapped_column(Text, default="")
    mtime: Mapped[float] = mapped_column(Float, default=0.0)
    size: Mapped[int] = mapped_column(Integer, default=0)


class Card(Base):
    """A reviewable card with its FSRS state stored as real columns."""

    __tablename__ = "cards"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(300), unique=True)
    source: Mapped[str] = mapped_column(String(16))  # shipped | user | imported | interview
    deck: Mapped[str] = mapped_column(String(100), default="")
    node_id: Mapped[str | None] = mapped_column(String(200), nullable=True, index=True)
    tags: Mapped[str] = mapped_column(Text, default="")
    kind: Mapped[str] = mapped_column(String(8), default="qa")  # qa | cloze
    cloze_ord: Mapped[int] = mapped_column(Integer, default=0)
    level: Mapped[int] = mapped_column(Integer, default=2)  # content difficulty 1..3
    q_en: Mapped[str] = mapped_column(Text, default="")
    a_en: Mapped[str] = mapped_column(Text, default="")
    q_zh: Mapped[str] = mapped_column(Text, default="")
    a_zh: Mapped[str] = mapped_column(Text, default="")
    origin: Mapped[str] = mapped_column(Text, default="")  # JSON: import source / interview link
    created_at: Mapped[datetime] = mapped_column(DateTime)
    modified_at: Mapped[datetime] = mapped_column(DateTime)
    retired: Mapped[bool] = mapped_column(Boolean, default=False)  # gone from content
    suspended: Mapped[bool] = mapped_column(Boolean, default=False)
    buried_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    flag: Mapped[int] = mapped_column(Integer, default=0)
    # FSRS state; a card with no last_review is new.
    fsrs_state: Mapped[int] = mapped_column(Integer, default=1)
    fsrs_step: Mapped[int | None] = mapped_column(Integer, nullable=True, default=0)
    stability: Mapped[float | None] = mapped_column(Float, nullable=True)
    difficulty: Mapped[float | None] = mapped_column(Float, nullable=True)
    due: Mapped[datetime] = mapped_column(DateTime, index=True)
    last_review: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    reps: Mapped[int] = mapped_column(Integer, default=0)
    lapses: Mapped[int] = mapped_column(Integer, default=0)

    reviews: Mapped[list[ReviewLog]] = relationship(back_populates="card")


class ReviewLog(Base):
    """One answer. Append-only: an undo is recorded in `review_undos`, never a delete."""

    __tablename__ = "review_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"), index=True)
    rating: Mapped[int] = mapped_column(Integer)
    reviewed_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    duration_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)
    mode: Mapped[str] = mapped_column(String(16), default="review")  # review | mock
    mock_session_id: Mapped[int | None] = mapped_column(
        ForeignKey("mock_sessions.id", ondelete="SET NULL"), nullable=True
    )
    state_before: Mapped[str] = mapped_column(Text)  # JSON snapshot, for undo
    state_after: Mapped[int] = mapped_column(Integer)
    stability_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    was_new: Mapped[bool] = mapped_column(Boolean, default=False)
    elapsed_days: Mapped[float | None] = mapped_column(Float, nullable=True)

    card: Mapped[Card] = relationship(back_populates="reviews")


class ReviewUndo(Base):
    """Marks a review log row as undone (Ctrl+Z) without deleting it."""

    __tablename__ = "review_undos"

    review_id: Mapped[int] = mapped_column(
        ForeignKey("review_log.id", ondelete="CASCADE"), primary_key=True
    )
    undone_at: Mapped[datetime] = mapped_column(DateTime)


class MockSession(Base):
    """A timed mock interview: the topics asked and its summary."""

    __tablename__ = "mock_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime] = mapped_column(DateTime)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    topics: Mapped[str] = mapped_column(Text, default="")
    question_seconds: Mapped[int] = mapped_column(Integer, default=180)
    summary: Mapped[str] = mapped_column(Text, default="")  # JSON


class Interview(Base):
    """One interview as the user logged it right after it ended."""

    __tablename__ = "interviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    starts_at: Mapped[datetime] = mapped_column(DateTime, index=True)  # UTC
    tz: Mapped[str] = mapped_column(String(64), default="UTC")
    company: Mapped[str] = mapped_column(Text)
    team: Mapped[str] = mapped_column(Text, default="")
    role: Mapped[str] = mapped_column(Text, default="")
    round: Mapped[str] = mapped_column(Text, default="")
    format: Mapped[str] = mapped_column(String(32), default="")
    duration_min: Mapped[int | None] = mapped_column(Integer, nullable=True)
    referral: Mapped[str] = mapped_column(Text, default="")
    felt: Mapped[str] = mapped_column(Text, default="")
    result: Mapped[str] = mapped_column(String(32), default="scheduled")
    next_step: Mapped[str] = mapped_column(Text, default="")
    next_step_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    notes_md: Mapped[str] = mapped_column(Text, default="")
    source: Mapped[str] = mapped_column(Text, default="")  # import key, for idempotent import
    created_at: Mapped[datetime] = mapped_column(DateTime)
    modified_at: Mapped[datetime] = mapped_column(DateTime)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)

    questions: Mapped[list[InterviewQuestion]] = relationship(
        back_populates="interview", cascade="all, delete-orphan", order_by="InterviewQuestion.ord"
    )


class InterviewQuestion(Base):
    """A question or coding task asked in an interview."""

    __tablename__ = "interview_questions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    interview_id: Mapped[int] = mapped_column(
        ForeignKey("interviews.id", ondelete="CASCADE"), index=True
    )
    ord: Mapped[int] = mapped_column(Integer, default=0)
    text: Mapped[str] = mapped_column(Text)
    node_id: Mapped[str | None] = mapped_column(String(200), nullable=True)
    rating: Mapped[int | None] = mapped_column(Integer, nullable=True)  # 1..5
    is_coding: Mapped[bool] = mapped_column(Boolean, default=False)
    drill_id: Mapped[str | None] = mapped_column(String(100), nullable=True)
    card_id: Mapped[int | None] = mapped_column(
        ForeignKey("cards.id", ondelete="SET NULL"), nullable=True
    )

    interview: Mapped[Interview] = relationship(back_populates="questions")


class IntroDraft(Base):
    """A self-introduction draft (several versions per language)."""

    __tablename__ = "intro_drafts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    lang: Mapped[str] = mapped_column(String(8))
    title: Mapped[str] = mapped_column(Text, default="")
    body: Mapped[str] = mapped_column(Text, default="")
    modified_at: Mapped[datetime] = mapped_column(DateTime)


class DrillAttempt(Base):
    """One run of a drill: outcome, the code as it was, and its benchmark."""

    __tablename__ = "drill_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    drill_id: Mapped[str] = mapped_column(String(100), index=True)
    started_at: Mapped[datetime] = mapped_column(DateTime)
    language: Mapped[str] = mapped_column(String(16), default="triton")
    mode: Mapped[str] = mapped_column(String(16))  # gpu | interpreter
    device: Mapped[str] = mapped_column(Text, default="")
    passed: Mapped[bool] = mapped_column(Boolean, default=False)
    best_gbps: Mapped[float | None] = mapped_column(Float, nullable=True)
    time_to_pass_s: Mapped[float | None] = mapped_column(Float, nullable=True)
    over_time: Mapped[bool] = mapped_column(Boolean, default=False)
    code: Mapped[str] = mapped_column(Text, default="")
    result_json: Mapped[str] = mapped_column(Text, default="")

    points: Mapped[list[BenchPoint]] = relationship(
        back_populates="attempt", cascade="all, delete-orphan"
    )


class BenchPoint(Base):
    """One point of a drill attempt's benchmark sweep."""

    __tablename__ = "bench_points"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    attempt_id: Mapped[int] = mapped_column(
        ForeignKey("drill_attempts.id", ondelete="CASCADE"), index=True
    )
    size: Mapped[str] = mapped_column(String(100))
    ms: Mapped[float] = mapped_column(Float)
    p20: Mapped[float | None] = mapped_column(Float, nullable=True)
    p80: Mapped[float | None] = mapped_column(Float, nullable=True)
    ref_ms: Mapped[float | None] = mapped_column(Float, nullable=True)
    gbps: Mapped[float | None] = mapped_column(Float, nullable=True)
    tflops: Mapped[float | None] = mapped_column(Float, nullable=True)
    pct_of_peak: Mapped[float | None] = mapped_column(Float, nullable=True)

    attempt: Mapped[DrillAttempt] = relationship(back_populates="points")


class BenchRun(Base):
    """One `studio-bench` run of a user's own kernel: where it came from and every point.

    `points_json` is the run's JSON document (studio.drills.bench_cli.summary); the columns
    beside it are what history lists and filters on.
    """

    __tablename__ = "bench_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kernel_path: Mapped[str] = mapped_column(Text, index=True)
    func: Mapped[str] = mapped_column(String(200))
    spec_path: Mapped[str] = mapped_column(Text, default="")
    content_hash: Mapped[str] = mapped_column(String(64), default="")  # sha256 of kernel + spec
    git_commit: Mapped[str | None] = mapped_column(String(64), nullable=True)
    git_dirty: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime)
    status: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16), default="")  # gpu | interpreter
    device: Mapped[str] = mapped_column(Text, default="")
    protocol: Mapped[str] = mapped_column(String(16), default="engine")
    versions_json: Mapped[str] = mapped_column(Text, default="{}")
    points_json: Mapped[str] = mapped_column(Text, default="{}")


class KernelProfile(Base):
    """An Nsight Compute profile of one benchmark point (studio.drills.profiler.Profile).

    Kept with the drill attempt or bench run the point came from, when known, so two
    attempts' profiles of the same point can be compared. `profile_json` is the whole
    profile (per-kernel metrics of the solution and the baseline, and ncu's CSV).
    """

    __tablename__ = "kernel_profiles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    source: Mapped[str] = mapped_column(String(16))          # drill | bench
    subject: Mapped[str] = mapped_column(Text, index=True)   # drill id, or FILE:FUNC of a bench
    attempt_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    bench_run_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    size: Mapped[str] = mapped_column(String(100))           # "4096x1024"
    dtype: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))          # ok | unavailable | failed
    device: Mapped[str] = mapped_column(Text, default="")
    code: Mapped[str] = mapped_column(Text, default="")       # the solution as profiled
    profile_json: Mapped[str] = mapped_column(Text, default="{}")


class Setting(Base):
    """A core setting (daily limits, desired retention...) as JSON text."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


# Partial indexes for the review queue (migration 0002); SQLAlchemy metadata cannot express
# them portably, so they are created by hand like the FTS tables.
QUEUE_INDEXES = [
    "CREATE INDEX IF NOT EXISTS ix_cards_queue_new ON cards (id, buried_until) "
    "WHERE last_review IS NULL AND retired = 0 AND suspended = 0",
    "CREATE INDEX IF NOT EXISTS ix_cards_queue_studied ON cards (fsrs_state, due, buried_until) "
    "WHERE last_review IS NOT NULL AND retired = 0 AND suspended = 0",
    "CREATE INDEX IF NOT EXISTS ix_review_log_day ON review_log (reviewed_at, was_new)",
    # Covers every column the browser filters and sorts on except the text, so a search
    # reads this index instead of the wide rows (question and answer text).
    "CREATE INDEX IF NOT EXISTS ix_cards_browse ON cards (retired, due, id, node_id, tags, deck, "
    "last_review, suspended, flag, fsrs_state, stability, difficulty, lapses, reps)",
]

# A log of the cards whose place in the browser's order may have moved (migration 0005): every
# insert and delete, and every change of id, due or retired, adds (seq, card id, a random
# nonce), whoever writes (this process, another one, raw SQL). The card browser keeps the due
# order of all cards between searches and, after a commit, moves only the cards logged since
# instead of reading all of them again (studio/core/cards.py). Only the newest CHANGE_LOG_KEEP
# entries are kept; the nonce tells a log that is not the one the kept order saw (a restored
# backup) from one that is. Created by hand, like the FTS triggers.
CHANGE_LOG_TABLE = "card_changes"
CHANGE_LOG_KEEP = 4096
_LOG_ROW = ("INSERT INTO card_changes(card_id, nonce) VALUES ({id}, random()); "
            "DELETE FROM card_changes WHERE seq <= last_insert_rowid() - " + str(CHANGE_LOG_KEEP) + ";")
CHANGE_LOG_DDL = [
    "CREATE TABLE IF NOT EXISTS card_changes (seq INTEGER PRIMARY KEY, card_id INTEGER NOT NULL, "
    "nonce INTEGER NOT NULL)",
    "CREATE TRIGGER IF NOT EXISTS card_changes_ai AFTER INSERT ON cards BEGIN "
    + _LOG_ROW.format(id="new.id") + " END",
    "CREATE TRIGGER IF NOT EXISTS card_changes_ad AFTER DELETE ON cards BEGIN "
    + _LOG_ROW.format(id="old.id") + " END",
    "CREATE TRIGGER IF NOT EXISTS card_changes_au AFTER UPDATE OF id, due, retired ON cards BEGIN "
    + _LOG_ROW.format(id="new.id")
    + " INSERT INTO card_changes(card_id, nonce) SELECT old.id, random() WHERE old.id != new.id; END",
]

# Full-text search tables: created by hand (FTS5 virtual tables), never autogenerated.
FTS_TABLES = ("notes_fts", "cards_fts")

FTS_DDL = [
    "CREATE VIRTUAL TABLE IF NOT EXISTS notes_fts USING fts5("
    "title, body, tags, content='notes', content_rowid='id', tokenize='trigram')",
    "CREATE TRIGGER IF NOT EXISTS notes_ai AFTER INSERT ON notes BEGIN "
    "INSERT INTO notes_fts(rowid, title, body, tags) VALUES (new.id, new.title, new.body, new.tags); END",
    "CREATE TRIGGER IF NOT EXISTS notes_ad AFTER DELETE ON notes BEGIN "
    "INSERT INTO notes_fts(notes_fts, rowid, title, body, tags) "
    "VALUES ('delete', old.id, old.title, old.body, old.tags); END",
    "CREATE TRIGGER IF NOT EXISTS notes_au AFTER UPDATE ON notes BEGIN "
    "INSERT INTO notes_fts(notes_fts, rowid, title, body, tags) "
    "VALUES ('delete', old.id, old.title, old.body, old.tags); "
    "INSERT INTO notes_fts(rowid, title, body, tags) VALUES (new.id, new.title, new.body, new.tags); END",
    "CREATE VIRTUAL TABLE IF NOT EXISTS cards_fts USING fts5("
    "q_en, a_en, q_zh, a_zh, tags, content='cards', content_rowid='id', tokenize='trigram')",
    "CREATE TRIGGER IF NOT EXISTS cards_ai AFTER INSERT ON cards BEGIN "
    "INSERT INTO cards_fts(rowid, q_en, a_en, q_zh, a_zh, tags) "
    "VALUES (new.id, new.q_en, new.a_en, new.q_zh, new.a_zh, new.tags); END",
    "CREATE TRIGGER IF NOT EXISTS cards_ad AFTER DELETE ON cards BEGIN "
    "INSERT INTO cards_fts(cards_fts, rowid, q_en, a_en, q_zh, a_zh, tags) "
    "VALUES ('delete', old.id, old.q_en, old.a_en, old.q_zh, old.a_zh, old.tags); END",
    "CREATE TRIGGER IF NOT EXISTS cards_au AFTER UPDATE OF q_en, a_en, q_zh, a_zh, tags ON cards BEGIN "
    "INSERT INTO cards_fts(cards_fts, rowid, q_en, a_en, q_zh, a_zh, tags) "
    "VALUES ('delete', old.id, old.q_en, old.a_en, old.q_zh, old.a_zh, old.tags); "
    "INSERT INTO cards_fts(rowid, q_en, a_en, q_zh, a_zh, tags) "
    "VALUES (new.id, new.q_en, new.a_en, new.q_zh, new.a_zh, new.tags); END",
]
