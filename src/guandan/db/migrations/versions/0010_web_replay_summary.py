"""Web app: each replay keeps a summary beside its record (who sat where, how it ended), so that a list of
replays gives each a readable title without reading the records (guandan.db.web.replay_summary).

Revision ID: 0010_web_replay_summary
Revises: 0009_tournament_people
Create Date: 2026-12-06
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

from guandan.db.web import replay_summary

revision: str = "0010_web_replay_summary"
down_revision: str | None = "0009_tournament_people"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 200  # records read at a time (a whole match's record is some hundreds of KB)


def upgrade() -> None:
    op.add_column("web_replays", sa.Column("summary", sa.JSON(), nullable=True))
    if context.is_offline_mode():  # a script of the changes: the rows are summed up when it runs online
        return
    replays = sa.table("web_replays", sa.column("id", sa.String(16)), sa.column("record", sa.Text()),
                       sa.column("summary", sa.JSON()))
    conn = op.get_bind()
    ids = list(conn.scalars(sa.select(replays.c.id).order_by(replays.c.id)))
    for start in range(0, len(ids), BATCH):
        rows = conn.execute(sa.select(replays.c.id, replays.c.record)
                            .where(replays.c.id.in_(ids[start:start + BATCH]))).all()
        for replay_id, record in rows:
            try:
                summary = replay_summary(json.loads(record))
            except ValueError:  # a record that does not read: its list entry says less, as before
                continue
            if summary is not None:
                conn.execute(sa.update(replays).where(replays.c.id == replay_id).values(summary=summary))


def downgrade() -> None:
    with op.batch_alter_table("web_replays") as batch:
        batch.drop_column("summary")
