"""Indexes for the review queue and the browser.

Partial indexes: new cards by id, studied cards by state and due; a covering index for
browser searches.

The queue's questions ("next learning card due now", "how many reviews are due today",
"next new card") each touch only the rows they name through these indexes, instead of
scanning every card, so grading and showing the next card stays fast at tens of
thousands of cards.

Revision ID: 0002
Revises: 0001
"""
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

INDEXES = [
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


def upgrade() -> None:
    # The plain (suspended, retired, due) index of 0001 is superseded and would mislead the planner.
    op.execute("DROP INDEX IF EXISTS ix_cards_queue")
    for ddl in INDEXES:
        op.execute(ddl)


def downgrade() -> None:
    for name in ("ix_cards_queue_new", "ix_cards_queue_studied", "ix_review_log_day", "ix_cards_browse"):
        op.execute(f"DROP INDEX IF EXISTS {name}")
    op.execute("CREATE INDEX IF NOT EXISTS ix_cards_queue ON cards (suspended, retired, due)")
