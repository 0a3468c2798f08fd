"""Ratings: rated matches (per seat an account or a bot tier), each account's rating per preset, and the
rating history (guandan.db.ratings).

Revision ID: 0007_ratings
Revises: 0006_accounts
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_ratings"
down_revision: str | None = "0006_accounts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rated_matches",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("replay_id", sa.String(16), nullable=True),
        sa.Column("room_code", sa.String(12), nullable=True),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("deals_won_0", sa.Integer(), nullable=False),
        sa.Column("deals_won_1", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        *(sa.Column(f"seat{i}_user", sa.Integer(), nullable=True) for i in range(4)),
        *(sa.Column(f"seat{i}_bot", sa.String(16), nullable=True) for i in range(4)),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["replay_id"], ["web_replays.id"], name=op.f("fk_rated_matches_replay_id_web_replays"),
                                ondelete="SET NULL"),
        *(sa.ForeignKeyConstraint([f"seat{i}_user"], ["users.id"], name=op.f(f"fk_rated_matches_seat{i}_user_users"))
          for i in range(4)),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rated_matches")),
    )
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("display", sa.Integer(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_ratings_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "preset", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_preset_display", "ratings", ["preset", "display", "user_id"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("display", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_rating_history_user_id_users"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["match_id"], ["rated_matches.id"], name=op.f("fk_rating_history_match_id_rated_matches"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_history")),
        sa.UniqueConstraint("user_id", "match_id", name=op.f("uq_rating_history_user_id_match_id")),
    )
    op.create_index(op.f("ix_rating_history_match_id"), "rating_history", ["match_id"])
    op.create_index("ix_rating_history_user_at", "rating_history", ["user_id", "at", "id"])
    op.create_index("ix_rating_history_user_preset_at", "rating_history", ["user_id", "preset", "at", "id"])


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_table("ratings")
    op.drop_table("rated_matches")
