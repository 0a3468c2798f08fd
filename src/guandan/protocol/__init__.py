"""The 2020 competition bot protocol (``../shared/PROTOCOL-2020.md``): messages, an in-process and
per-process adapter for external bots, a WebSocket server and a client (docs/protocol.md).

Kept import-light: the subprocess worker of :mod:`.adapter` imports this package before a bot.
"""

from __future__ import annotations
