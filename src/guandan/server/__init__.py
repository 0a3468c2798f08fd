"""The web app: lobby, server-authoritative tables over WebSockets, bots and 托管, replays,
persistence (an append-only action log per table). Start it with ``guandan serve``.

``create_app`` is imported on first use, so that reading the table models (as the migration
environment does) does not load the whole web stack.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
