"""Tournament desk: tournaments, the append-only audit log, standings projection.

Revision ID: 0001_tournament
Revises:
Create Date: 2026-01-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001_tournament"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_SQLITE_TRIGGERS = [
    f"CREATE TRIGGER tournament_events_no_{verb.lower()} BEFORE {verb} ON tournament_events "
    "BEGIN SELECT RAISE(ABORT, 'tournament_events is append-only'); END"
    for verb in ("UPDATE", "DELETE")
]
_PG_TRIGGER = [
    "CREATE FUNCTION tournament_events_append_only() RETURNS trigger AS $$ "
    "BEGIN RAISE EXCEPTION 'tournament_events is append-only'; END; $$ LANGUAGE plpgsql",
    "CREATE TRIGGER tournament_events_no_change BEFORE UPDATE OR DELETE ON tournament_events "
    "FOR EACH ROW EXECUTE FUNCTION tournament_events_append_only()",
]


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=40), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_table(
        "tournament_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=40), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("actor", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_events_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_events")),
        sa.UniqueConstraint("tournament_id", "seq", name=op.f("uq_tournament_events_tournament_id_seq")),
    )
    op.create_index(op.f("ix_tournament_events_tournament_id"), "tournament_events", ["tournament_id"])
    op.create_table(
        "tournament_standings",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("team_name", sa.String(length=100), nullable=False),
        sa.Column("club", sa.String(length=100), nullable=True),
        sa.Column("match_points", sa.Integer(), nullable=False),
        sa.Column("opponents_points", sa.Integer(), nullable=False),
        sa.Column("level_diff", sa.Integer(), nullable=False),
        sa.Column("levels_gained", sa.Integer(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("byes", sa.Integer(), nullable=False),
        sa.Column("as_of_seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_standings_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("tournament_id", "team_id", name=op.f("pk_tournament_standings")),
    )
    dialect = op.get_bind().dialect.name
    for stmt in _SQLITE_TRIGGERS if dialect == "sqlite" else _PG_TRIGGER if dialect == "postgresql" else []:
        op.execute(stmt)


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS tournament_events_no_update")
        op.execute("DROP TRIGGER IF EXISTS tournament_events_no_delete")
    elif dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS tournament_events_no_change ON tournament_events")
        op.execute("DROP FUNCTION IF EXISTS tournament_events_append_only()")
    op.drop_table("tournament_standings")
    op.drop_index(op.f("ix_tournament_events_tournament_id"), table_name="tournament_events")
    op.drop_table("tournament_events")
    op.drop_table("tournaments")
