"""How ``guandan protocol-server`` puts connections into rooms (docs/protocol.md, "Our server").

Kept free of websockets, so the command's ``--help`` and option checks load nothing heavy.

* :attr:`Seating.ORDER` (the default) is the platform's way: the name in ``/game/{name}`` is ignored,
  and each room takes the next four connections, in the order they arrive. The official example
  clients (``client1.py`` … ``client4.py`` connecting to ``/game/client1`` … ``/game/client4``) meet
  in one room this way.
* :attr:`Seating.NAMED` makes ``/game/{name}`` a room of its own: four connections per name, several
  rooms filling at once.

Either way the 1st and 3rd connections of a room are seats 0 and 2, the 2nd and 4th seats 1 and 3.
"""

from __future__ import annotations

from enum import StrEnum

from ..core.errors import shown

PATH_PREFIX = "/game/"


class Seating(StrEnum):
    ORDER = "order"
    NAMED = "named"


SEATING_HELP = (
    "order: as on the platform, any /game/NAME, NAME ignored, each room takes the next four connections; "
    "named: /game/NAME is a room, four connections per NAME"
)


def parse_seating(value: str) -> Seating:
    """``order`` or ``named``; anything else is a :class:`ValueError` naming the choices."""
    try:
        return Seating(value)
    except ValueError:
        raise ValueError(f"--seating must be one of {', '.join(Seating)}, not {shown(value)}") from None


def client_name(path: str) -> str | None:
    """The name a client gave in ``/game/{name}`` (query string dropped), or None when ``path`` is not
    under ``/game/`` or names nothing: an empty name, ``.`` or ``..``. Under :attr:`Seating.ORDER`
    the name may hold ``/`` (some clients connect to ``/game/gd/0000002``); it is only a label."""
    path = path.split("?", 1)[0]
    if not path.startswith(PATH_PREFIX):
        return None
    name = path[len(PATH_PREFIX):]
    return name if name and name not in (".", "..") else None


def room_key(path: str, seating: Seating) -> str | None:
    """The room a connection to ``path`` asks for: ``""`` (the next room to fill) under ORDER, the
    name under NAMED; None when the server does not serve ``path``."""
    name = client_name(path)
    if name is None:
        return None
    if seating is Seating.ORDER:
        return ""
    return name if "/" not in name else None


__all__ = ["PATH_PREFIX", "SEATING_HELP", "Seating", "client_name", "parse_seating", "room_key"]
