"""Web app: private replays — who owns a replay (seat-token hashes) and whether it is public.

Revision ID: 0003_web_replay_owners
Revises: 0002_web
Create Date: 2026-01-20
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_web_replay_owners"
down_revision: str | None = "0002_web"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Replays kept before this revision stay reachable by their links but are listed to no one: who
    # played them was not recorded with them.
    op.add_column("web_replays", sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "web_replay_owners",
        sa.Column("replay_id", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.ForeignKeyConstraint(["replay_id"], ["web_replays.id"], name=op.f("fk_web_replay_owners_replay_id_web_replays"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("replay_id", "token_hash", name=op.f("pk_web_replay_owners")),
    )
    op.create_index(op.f("ix_web_replay_owners_token_hash"), "web_replay_owners", ["token_hash"])


def downgrade() -> None:
    op.drop_table("web_replay_owners")
    with op.batch_alter_table("web_replays") as batch:
        batch.drop_column("public")
