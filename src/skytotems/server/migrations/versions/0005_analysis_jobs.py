"""Post-game analysis jobs: one per finished table and level, claimed by one worker,
resumable from the decisions already done (docs/analysis.md, "On the server").

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

big_id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "analysis_jobs",
        sa.Column("id", big_id, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("decisions", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("heartbeat_ms", sa.BigInteger(), nullable=True),
        sa.Column("requested_by", sa.String(64), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
        sa.UniqueConstraint("table_id", "level", name="uq_analysis_table_level"),
    )
    op.create_index("ix_analysis_jobs_status", "analysis_jobs", ["status"])
    op.create_index("ix_analysis_jobs_requested_by", "analysis_jobs", ["requested_by"])
    op.create_index("ix_analysis_jobs_created_ms", "analysis_jobs", ["created_ms"])


def downgrade() -> None:
    op.drop_index("ix_analysis_jobs_created_ms", table_name="analysis_jobs")
    op.drop_index("ix_analysis_jobs_requested_by", table_name="analysis_jobs")
    op.drop_index("ix_analysis_jobs_status", table_name="analysis_jobs")
    op.drop_table("analysis_jobs")
