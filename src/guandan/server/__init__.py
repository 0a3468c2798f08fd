"""The web app (issue #7): lobby, server-authoritative tables over WebSockets, bots and 托管, replays,
persistence (an append-only action log per table). Start it with ``guandan serve``.
"""

from .app import create_app

__all__ = ["create_app"]
