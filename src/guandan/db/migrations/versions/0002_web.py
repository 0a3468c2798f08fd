"""Web app: rooms, their append-only action log, replays (guandan.db.web).

Revision ID: 0002_web
Revises: 0001_tournament
Create Date: 2026-01-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_web"
down_revision: str | None = "0001_tournament"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_SQLITE_TRIGGERS = [
    f"CREATE TRIGGER web_actions_no_{verb.lower()} BEFORE {verb} ON web_actions "
    "BEGIN SELECT RAISE(ABORT, 'web_actions is append-only'); END"
    for verb in ("UPDATE", "DELETE")
]
_PG_TRIGGER = [
    "CREATE FUNCTION web_actions_append_only() RETURNS trigger AS $$ "
    "BEGIN RAISE EXCEPTION 'web_actions is append-only'; END; $$ LANGUAGE plpgsql",
    "CREATE TRIGGER web_actions_no_change BEFORE UPDATE OR DELETE ON web_actions "
    "FOR EACH ROW EXECUTE FUNCTION web_actions_append_only()",
]


def upgrade() -> None:
    op.create_table(
        "web_rooms",
        sa.Column("code", sa.String(12), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("replay_id", sa.String(16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_web_rooms")),
    )
    op.create_index(op.f("ix_web_rooms_status"), "web_rooms", ["status"])
    op.create_table(
        "web_actions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_code", sa.String(12), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room_code"], ["web_rooms.code"], name=op.f("fk_web_actions_room_code_web_rooms"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_actions")),
        sa.UniqueConstraint("room_code", "seq", name=op.f("uq_web_actions_room_code_seq")),
    )
    op.create_index(op.f("ix_web_actions_room_code"), "web_actions", ["room_code"])
    op.create_table(
        "web_replays",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("room_code", sa.String(12), nullable=True),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("imported", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_replays")),
    )
    op.create_index(op.f("ix_web_replays_room_code"), "web_replays", ["room_code"])
    statements = _PG_TRIGGER if op.get_bind().dialect.name == "postgresql" else _SQLITE_TRIGGERS
    for sql in statements:
        op.execute(sql)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS web_actions_no_change ON web_actions")
        op.execute("DROP FUNCTION IF EXISTS web_actions_append_only()")
    op.drop_table("web_replays")
    op.drop_table("web_actions")
    op.drop_table("web_rooms")
