"""Accounts: the organiser permission (``users.organiser``), which lets an account create online events from
the site's pages; the site's operator grants and takes it away with ``guandan organiser``.

Revision ID: 0011_account_organiser
Revises: 0010_web_replay_summary
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_account_organiser"
down_revision: str | None = "0010_web_replay_summary"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # every account there already is a player: nobody becomes an organiser by the upgrade
    op.add_column("users", sa.Column("organiser", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("organiser")
