"""Web app: reviews (复盘) of replays, one per replay and seat.

Revision ID: 0005_web_reviews
Revises: 0004_web_secret_seed
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_web_reviews"
down_revision: str | None = "0004_web_secret_seed"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "web_reviews",
        sa.Column("replay_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("review", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["replay_id"], ["web_replays.id"], name=op.f("fk_web_reviews_replay_id_web_replays"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("replay_id", "seat", name=op.f("pk_web_reviews")),
    )
    op.create_index(op.f("ix_web_reviews_status"), "web_reviews", ["status"])


def downgrade() -> None:
    op.drop_table("web_reviews")
