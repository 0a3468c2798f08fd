"""The open-room list of the start page (``GET /api/rooms/open``): lobbies anyone may walk into.

A room is listed while it is in the lobby with at least one empty seat, is not a practice room (its
creator chose the seed, so its hands are known in advance) and its creator left ``RoomConfig.listed`` on.
Each entry is a whitelist of the room's public summary (``Room.summary()``): never a seat token's hash,
the seed or the replay id, even should the summary one day carry more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .rooms import Room

OPEN_ROOMS_MAX = 50  # entries answered: a start page shows a screenful, not every lobby of the server
ROOM_KEYS = ("code", "name", "preset", "timer", "max_deals")
SEAT_KEYS = ("kind", "name", "tier", "ready")  # not "online"/"auto": who is connected is the table's business


def is_open(room: Room) -> bool:
    """Whether ``room`` belongs in the list."""
    return (room.status == "lobby" and room.config.listed and room.config.seed is None
            and any(s.kind == "empty" for s in room.seats))


def open_rooms(rooms: Mapping[str, Room], now: float, limit: int = OPEN_ROOMS_MAX) -> list[dict[str, Any]]:
    """The open rooms of ``rooms`` (TableService.rooms), most recently created or changed first, at most
    ``limit``. ``now`` is the service clock (TableService.clock()), which ``Room.touched`` is read on."""
    found = [r for r in rooms.values() if is_open(r)]
    # the code breaks ties so that rooms touched at one clock reading keep one order between refreshes
    found.sort(key=lambda r: (-r.touched, r.code))
    return [_entry(r, now) for r in found[:limit]]  # summaries of the answered ones only: a scan stays cheap


def _entry(room: Room, now: float) -> dict[str, Any]:
    summary = room.summary()
    seats = [{k: seat[k] for k in SEAT_KEYS} for seat in summary["seats"]]
    return {**{k: summary[k] for k in ROOM_KEYS}, "seats": seats,
            "open_seats": sum(1 for s in seats if s["kind"] == "empty"),
            "age_s": max(0, int(now - room.touched))}  # whole seconds; never negative if the clock is stubbed
