"""Web app: a room's server-drawn match seed is 128 bits of text, kept beside the practice seed.

Revision ID: 0004_web_secret_seed
Revises: 0003_web_replay_owners
Create Date: 2026-01-20
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_web_secret_seed"
down_revision: str | None = "0003_web_replay_owners"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # additive: rows written before keep their integer seed in ``seed`` and replay exactly as before
    op.add_column("web_rooms", sa.Column("secret_seed", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("web_rooms") as batch:
        batch.drop_column("secret_seed")
