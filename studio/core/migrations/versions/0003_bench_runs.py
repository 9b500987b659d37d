"""Bench runs: the history of `studio-bench` runs of the user's own kernels.

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bench_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kernel_path", sa.Text(), nullable=False),
        sa.Column("func", sa.String(length=200), nullable=False),
        sa.Column("spec_path", sa.Text(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("git_commit", sa.String(length=64), nullable=True),
        sa.Column("git_dirty", sa.Boolean(), nullable=True),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("device", sa.Text(), nullable=False),
        sa.Column("protocol", sa.String(length=16), nullable=False),
        sa.Column("versions_json", sa.Text(), nullable=False),
        sa.Column("points_json", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_bench_runs_kernel_path", "bench_runs", ["kernel_path"])


def downgrade() -> None:
    op.drop_index("ix_bench_runs_kernel_path", table_name="bench_runs")
    op.drop_table("bench_runs")
