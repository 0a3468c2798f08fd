"""The web app's tables, as the server knows them; they are declared in :mod:`guandan.db.web`, beside
every other table, so that Alembic's environment finds them without ``guandan.db`` importing the server."""

from __future__ import annotations

from ..db.web import WebAction, WebReplay, WebReplayOwner, WebReview, WebRoom

__all__ = ["WebAction", "WebReplay", "WebReplayOwner", "WebReview", "WebRoom"]
