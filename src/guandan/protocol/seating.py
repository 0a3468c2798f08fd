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

from ..core.vocab import parse_choice
from .errors import ProtocolError

PATH_PREFIX = "/game/"


class Seating(StrEnum):
    ORDER = "order"
    NAMED = "named"


SEATING_HELP = (
    "order: as on the platform, any /game/NAME, NAME ignored, each room takes the next four connections; "
    "named: /game/NAME is a room, four connections per NAME"
)


def parse_seating(value: str) -> Seating:
    """``order`` or ``named``; anything else is a :class:`ProtocolError` (a ValueError) naming the choices."""
    return parse_choice(Seating, value, "--seating", ProtocolError)


MAX_NAME = 100
"""The longest name in ``/game/{name}``: it goes into log lines, and under NAMED into record file names."""


def name_problem(path: str, seating: Seating) -> str | None:
    """Why the server does not serve ``path`` (the text of its refusal), or None when it does. A name
    is 1…:data:`MAX_NAME` printable characters, not ``.`` or ``..``: a control character would reach
    the log as it is (a carriage return rewrites the line on a terminal) and, under NAMED, a file name."""
    path = path.split("?", 1)[0]
    if not path.startswith(PATH_PREFIX):
        return f"connect to ws://HOST:PORT{PATH_PREFIX}{{name}}"
    name = path[len(PATH_PREFIX):]
    if not name or name in (".", ".."):
        return f"{PATH_PREFIX}{{name}} needs a name (not . or ..)"
    if len(name) > MAX_NAME or not name.isprintable():
        return (f"the name in {PATH_PREFIX}{{name}} must be at most {MAX_NAME} printable characters, "
                f"without control characters ({len(name)} given)")
    if seating is Seating.NAMED and "/" in name:
        return f"with --seating named the name in {PATH_PREFIX}{{name}} is a room and may not contain /"
    return None


def client_name(path: str) -> str | None:
    """The name a client gave in ``/game/{name}`` (query string dropped), or None when ``path`` is not
    under ``/game/`` or its name is not one (:func:`name_problem`). Under :attr:`Seating.ORDER` the
    name may hold ``/`` (some clients connect to ``/game/gd/0000002``); it is only a label."""
    if name_problem(path, Seating.ORDER) is not None:
        return None
    return path.split("?", 1)[0][len(PATH_PREFIX):]


def room_key(path: str, seating: Seating) -> str | None:
    """The room a connection to ``path`` asks for: ``""`` (the next room to fill) under ORDER, the
    name under NAMED; None when the server does not serve ``path``."""
    name = client_name(path)
    if name is None or name_problem(path, seating) is not None:
        return None
    return "" if seating is Seating.ORDER else name


__all__ = ["MAX_NAME", "PATH_PREFIX", "SEATING_HELP", "Seating", "client_name", "name_problem", "parse_seating",
           "room_key"]
