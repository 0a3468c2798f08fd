"""The seats of a record, named for people as the web replay page names them.

A record that says who was a bot (``meta["seats"]``: each seat's ``kind``, ``"human"`` or ``"bot"``, and a bot's
``tier``; the web app's records and those `guandan play` saves) names a bot by its seat and tier ("Bot 2 ·
Greedy", 机器人2·贪心) and a player by the name played under, or "Player 1" (玩家1) without one. A record that
does not say so names each seat by its recorded name. A seat with no name is "Seat N", as the presenter says it,
and seats that would still share a name get their number ("Alice (2)").

The words are the game catalogue's; they are those of the web table (``guandan.server.rooms.seat_names``, the web
catalogue), so that a seat is named alike on the table, on the replay page and in the review (复盘).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..i18n import N_, translator
from . import DOMAIN, Presenter

SeatKind = tuple[str | None, str | None]  # (kind, tier): ("human", None), ("bot", "greedy"); (None, None) unknown

PLAYER_NAME = N_("Player {n}")  # a player with no name (web: one who joined without a name)
BOT_NAME = N_("Bot {n} · {tier}")
BOT_ALONE = N_("Bot {n}")  # a bot whose tier the record does not give
# the bot tiers by the names the lobby gives them (the msgid is the wire name); another tier (a plugin's) keeps its own
TIER_NAMES: dict[str, str] = {"random": N_("random"), "greedy": N_("greedy"), "heuristic": N_("heuristic"),
                              "search": N_("search")}


def seat_kinds(meta: Any) -> list[SeatKind]:
    """(kind, tier) of each seat where the record's meta says it (``meta["seats"]``), else (None, None)."""
    seats = meta.get("seats") if isinstance(meta, Mapping) else None
    out: list[SeatKind] = []
    for s in range(4):
        entry = seats[s] if isinstance(seats, list) and s < len(seats) and isinstance(seats[s], Mapping) else {}
        kind, tier = entry.get("kind"), entry.get("tier")
        out.append((kind if kind in ("bot", "human") else None, tier if isinstance(tier, str) and tier else None))
    return out


def recorded_players(data: Mapping[str, Any]) -> list[str]:
    """The record's players' names as recorded ("" where a name is not text)."""
    players = data.get("players")
    return [p if isinstance(p, str) else "" for p in players] if isinstance(players, list) else []


def seat_names(players: Sequence[str], kinds: Sequence[SeatKind]) -> Callable[[str], list[str]]:
    """The seats' names in a language, told apart: a human by the name played under ("Player 2" without one),
    a bot as "Bot 2 · Greedy" (its tier by the name the lobby gives it); where the record does not say who was
    a bot, the recorded name.
    Seats that would still share a name get their number ("Alice (2)"): three bots once all read "greedy bot"."""
    def names(lang: str) -> list[str]:
        tr = translator(DOMAIN, lang)
        out: list[str] = []
        for s in range(4):
            kind, tier = kinds[s]
            if kind == "bot":
                n = s + 1
                if tier is None:
                    out.append(tr.gettext(BOT_ALONE).format(n=n))
                else:
                    shown = tr.gettext(TIER_NAMES[tier]) if tier in TIER_NAMES else tier
                    out.append(tr.gettext(BOT_NAME).format(n=n, tier=shown))
            else:
                name = players[s] if s < len(players) else ""
                if not name and kind == "human":  # joined without a name: named as at the table
                    name = tr.gettext(PLAYER_NAME).format(n=s + 1)
                out.append(name)
        seat = Presenter(lang).seat  # an unnamed seat is "Seat N", as the presenter would say it
        out = [name or seat(s) for s, name in enumerate(out)]
        twice = {name for name, k in Counter(out).items() if k > 1}
        return [f"{name} ({s + 1})" if name in twice else name for s, name in enumerate(out)]

    return names


def record_seat_names(data: Mapping[str, Any], lang: str) -> list[str] | None:
    """The seats' names in ``lang`` when the record says who was a bot (``meta["seats"]``): "Player 1", "Bot 2 ·
    Greedy", as on the web replay page; ``None`` when it does not say."""
    kinds = seat_kinds(data.get("meta"))
    if all(kind is None for kind, _tier in kinds):
        return None
    return seat_names(recorded_players(data), kinds)(lang)


__all__ = ["BOT_ALONE", "BOT_NAME", "PLAYER_NAME", "TIER_NAMES", "SeatKind", "record_seat_names", "recorded_players",
           "seat_kinds", "seat_names"]
