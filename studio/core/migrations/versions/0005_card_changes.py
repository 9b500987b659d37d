"""A log of the cards whose place in the browser's due order may have moved.

Every insert and delete on cards, and every change of id, due or retired, adds a row
(seq, card id, random nonce); only the newest 4096 rows are kept. The card browser keeps
the due order of all cards between searches and, after a commit, moves only the cards
logged since (studio/core/cards.py, studio/core/models.py: CHANGE_LOG_DDL).

Revision ID: 0005
Revises: 0004
"""
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

# As models.CHANGE_LOG_DDL was when this revision was written (a migration never changes).
DDL = [
    'CREATE TABLE IF NOT EXISTS card_changes (seq INTEGER PRIMARY KEY, card_id INTEGER NOT NULL, nonce INTEGER NOT NULL)',
    'CREATE TRIGGER IF NOT EXISTS card_changes_ai AFTER INSERT ON cards BEGIN INSERT INTO card_changes(card_id, nonce) VALUES (new.id, random()); DELETE FROM card_changes WHERE seq <= last_insert_rowid() - 4096; END',
    'CREATE TRIGGER IF NOT EXISTS card_changes_ad AFTER DELETE ON cards BEGIN INSERT INTO card_changes(card_id, nonce) VALUES (old.id, random()); DELETE FROM card_changes WHERE seq <= last_insert_rowid() - 4096; END',
    'CREATE TRIGGER IF NOT EXISTS card_changes_au AFTER UPDATE OF id, due, retired ON cards BEGIN INSERT INTO card_changes(card_id, nonce) VALUES (new.id, random()); DELETE FROM card_changes WHERE seq <= last_insert_rowid() - 4096; INSERT INTO card_changes(card_id, nonce) SELECT old.id, random() WHERE old.id != new.id; END',
]


def upgrade() -> None:
    for ddl in DDL:
        op.execute(ddl)


def downgrade() -> None:
    for trigger in ("card_changes_ai", "card_changes_ad", "card_changes_au"):
        op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    op.execute("DROP TABLE IF EXISTS card_changes")
