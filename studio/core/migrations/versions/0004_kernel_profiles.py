"""Kernel profiles: Nsight Compute profiles of benchmark points.

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "kernel_profiles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("subject", sa.Text(), nullable=False),
        sa.Column("attempt_id", sa.Integer(), nullable=True),
        sa.Column("bench_run_id", sa.Integer(), nullable=True),
        sa.Column("size", sa.String(length=100), nullable=False),
        sa.Column("dtype", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("device", sa.Text(), nullable=False),
        sa.Column("code", sa.Text(), nullable=False),
        sa.Column("profile_json", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_kernel_profiles_subject", "kernel_profiles", ["subject"])
    op.create_index("ix_kernel_profiles_attempt_id", "kernel_profiles", ["attempt_id"])
    op.create_index("ix_kernel_profiles_bench_run_id", "kernel_profiles", ["bench_run_id"])


def downgrade() -> None:
    op.drop_index("ix_kernel_profiles_bench_run_id", table_name="kernel_profiles")
    op.drop_index("ix_kernel_profiles_attempt_id", table_name="kernel_profiles")
    op.drop_index("ix_kernel_profiles_subject", table_name="kernel_profiles")
    op.drop_table("kernel_profiles")
