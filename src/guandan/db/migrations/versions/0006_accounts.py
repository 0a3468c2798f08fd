"""Optional accounts: users, their sessions, the wrong-password throttle, the replays an account claimed.

Revision ID: 0006_accounts
Revises: 0005_web_reviews
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_accounts"
down_revision: str | None = "0005_web_reviews"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("username", sa.String(32), nullable=True),
        sa.Column("username_key", sa.String(32), nullable=True),
        sa.Column("display_name", sa.String(32), nullable=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("username_key", name=op.f("uq_users_username_key")),
    )
    op.create_table(
        "user_sessions",
        sa.Column("id_hash", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_user_sessions_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id_hash", name=op.f("pk_user_sessions")),
    )
    op.create_index(op.f("ix_user_sessions_user_id"), "user_sessions", ["user_id"])
    op.create_table(
        "login_throttle",
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key_hash", name=op.f("pk_login_throttle")),
    )
    op.create_index(op.f("ix_login_throttle_window_start"), "login_throttle", ["window_start"])
    op.create_table(
        "user_replays",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("replay_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_user_replays_user_id_users"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["replay_id"], ["web_replays.id"], name=op.f("fk_user_replays_replay_id_web_replays"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "replay_id", name=op.f("pk_user_replays")),
    )
    op.create_index(op.f("ix_user_replays_replay_id"), "user_replays", ["replay_id"])


def downgrade() -> None:
    op.drop_table("user_replays")
    op.drop_table("login_throttle")
    op.drop_table("user_sessions")
    op.drop_table("users")
