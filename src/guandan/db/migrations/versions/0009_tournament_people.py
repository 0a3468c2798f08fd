"""Names of people kept beside the tournament desk's append-only log, so that they can be erased
(guandan.db.tournament.TournamentPerson).

Revision ID: 0009_tournament_people
Revises: 0008_online_events
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_tournament_people"
down_revision: str | None = "0008_online_events"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournament_people",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_people_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("tournament_id", "id", name=op.f("pk_tournament_people")),
    )


def downgrade() -> None:
    op.drop_table("tournament_people")
