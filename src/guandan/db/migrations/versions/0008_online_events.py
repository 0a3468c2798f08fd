"""Online events: the teams of two accounts entered in a tournament played on the web app's tables, and
the room of each of its tables (guandan.db.online).

Revision ID: 0008_online_events
Revises: 0007_ratings
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_online_events"
down_revision: str | None = "0007_ratings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "online_entries",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("team_name", sa.String(100), nullable=False),
        sa.Column("user1_id", sa.Integer(), nullable=False),
        sa.Column("user2_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_online_entries_tournament_id_tournaments")),
        sa.ForeignKeyConstraint(["user1_id"], ["users.id"], name=op.f("fk_online_entries_user1_id_users")),
        sa.ForeignKeyConstraint(["user2_id"], ["users.id"], name=op.f("fk_online_entries_user2_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_online_entries")),
        sa.UniqueConstraint("tournament_id", "user1_id", name=op.f("uq_online_entries_tournament_id_user1_id")),
        sa.UniqueConstraint("tournament_id", "user2_id", name=op.f("uq_online_entries_tournament_id_user2_id")),
    )
    op.create_index(op.f("ix_online_entries_tournament_id"), "online_entries", ["tournament_id"])
    op.create_table(
        "online_rooms",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("room_code", sa.String(12), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_online_rooms_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("tournament_id", "round", "table_no", name=op.f("pk_online_rooms")),
        sa.UniqueConstraint("room_code", name=op.f("uq_online_rooms_room_code")),
    )


def downgrade() -> None:
    op.drop_table("online_rooms")
    op.drop_index(op.f("ix_online_entries_tournament_id"), table_name="online_entries")
    op.drop_table("online_entries")
