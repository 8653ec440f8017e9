"""Table chat (kept with its table) and whether a table is listed in the lobby.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

big_id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", big_id, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=True),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])
    with op.batch_alter_table("tables") as batch:
        # tables made before this revision were all listed in the lobby
        batch.add_column(
            sa.Column("listed", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("listed")
    op.drop_index("ix_chat_table_id", table_name="chat")
    op.drop_table("chat")
