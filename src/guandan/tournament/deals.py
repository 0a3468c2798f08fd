"""Per-deal reporting (每副牌记分): a table reports each deal's finishing order and the levels follow.

At a table the home team sits North–South and the away team East–West, which are the engine's seats
0 (North), 1 (East), 2 (South), 3 (West): the home team is the engine's team 0. The levels after each deal
come from the core's :func:`~guandan.core.scoring.settle_deal` under the event's rules, so passing A, the
A-failure reset and every variant rule apply exactly as at a played table. Levels here are the desk's
values 2…14 (A = 14).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import shown
from ..core.rules import RuleSet
from ..core.scoring import StreakCounts, settle_deal
from ..i18n import N_
from .errors import TournamentError, Word, clause, listed, refusal
from .levels import LEVEL_A, level_name

#: The sides as words of a refusal: North–South (home) and East–West (away).
_SIDES = (N_("home"), N_("away"))
#: Seat letters in engine order; North–South is the home team.
SEATS = ("N", "E", "S", "W")
#: The seats as words a person reads, in engine order (北, 东, 南, 西 in Chinese).
SEAT_NAMES = (N_("North"), N_("East"), N_("South"), N_("West"))
_SEAT_WORDS = {
    "n": 0, "north": 0, "北": 0, "e": 1, "east": 1, "东": 1, "s": 2, "south": 2, "南": 2,
    "w": 3, "west": 3, "西": 3,
}
#: The seats as an arbiter types them in a list of deals, in engine order, one catalogue entry so that each
#: language has its own (N E S W; 北 东 南 西): every one of them is read back by :func:`seat_index`.
SEAT_SHORT = N_("N E S W")
#: A lateness award (home, away) as an arbiter types it; the Chinese words are those the catalogue gives
#: these, so that a list of deals shown in Chinese is read back as it is.
AWARD_WORDS = (N_("award:home"), N_("award:away"))
_AWARD_SIDES = {"判给主队": "home", "判给客队": "away"}


def seat_index(token: Any) -> int:
    """A seat written N/E/S/W (or north…, 北东南西, or the engine's 0…3) as its engine index."""
    if isinstance(token, int) and not isinstance(token, bool) and 0 <= token <= 3:
        return token
    if isinstance(token, str) and token.strip().lower() in _SEAT_WORDS:
        return _SEAT_WORDS[token.strip().lower()]
    raise refusal(N_("a seat is N, E, S or W, not {seat}"), seat=shown(token))


def parse_finish(value: Any) -> tuple[int, int, int, int]:
    """A finishing order (头游, 二游, 三游[, 末游]) as four engine seats.

    Accepts a list of seats or a string such as "NSE", "N,S,E" or "N S E W"; the last place may be left
    out, since it follows from the other three.
    """
    if isinstance(value, str):
        text = value.replace("，", ",").replace(",", " ").strip()
        tokens: list[Any] = text.split() if " " in text else list(text)
    elif isinstance(value, list | tuple):
        tokens = list(value)
    else:
        raise refusal(N_("a finishing order is three or four seats such as N S E, not {value}"), value=shown(value))
    seats = [seat_index(t) for t in tokens]
    if len(seats) not in (3, 4):
        raise refusal(N_("a finishing order names three or four seats (first out first), not {n}"), n=len(seats))
    if len(set(seats)) != len(seats):
        raise refusal(N_("a seat appears twice in the finishing order {seats}"),
                      seats=listed(Word(SEAT_NAMES[x]) for x in seats))
    if len(seats) == 3:
        seats.append(next(x for x in range(4) if x not in seats))
    return (seats[0], seats[1], seats[2], seats[3])


@dataclass(frozen=True)
class DealEntry:
    """One deal (副) of a round at a table, as reported and scored.

    ``finish`` is the finishing order (engine seats), or None for a deal credited by the lateness rule
    (``award``: the side credited). ``levels`` are both sides' levels after the deal (home, away),
    ``winner`` the side that won it, ``upgrade`` the levels it went up, ``passed_a`` the side that passed A
    with this deal.
    """

    number: int
    finish: tuple[int, int, int, int] | None
    award: int | None
    levels: tuple[int, int]
    winner: int
    upgrade: int
    passed_a: int | None = None
    at: str | None = None

    def source(self) -> dict[str, Any]:
        """What was reported: the input that :func:`settle_deals` scores again on replay."""
        if self.finish is None:
            return {"award": "home" if self.award == 0 else "away"}
        return {"finish": [SEATS[x] for x in self.finish]}

    def to_dict(self) -> dict[str, Any]:
        return {"deal": self.number, **self.source(), "winner": "home" if self.winner == 0 else "away",
                "upgrade": self.upgrade, "levels": [level_name(self.levels[0]), level_name(self.levels[1])],
                "passed_a": None if self.passed_a is None else ("home" if self.passed_a == 0 else "away"),
                "at": self.at}


def parse_deal_list(text: str) -> list[dict[str, Any]]:
    """A table's deals as an arbiter writes them: ``"award:home; N S E; E W N"`` (or ``"判给主队; 北 南 东"``),
    one deal per semicolon, each a finishing order or ``award:home|away`` (判给主队|判给客队: the lateness
    rule). Checked when it is applied."""
    out: list[dict[str, Any]] = []
    for item in (x.strip() for x in text.replace("；", ";").split(";")):
        if not item:
            continue
        award = re.fullmatch(r"award\s*[:：]?\s*(.*)", item, re.IGNORECASE | re.DOTALL)
        if "".join(item.split()) in _AWARD_SIDES:
            out.append({"award": _AWARD_SIDES["".join(item.split())]})
        elif award:
            out.append({"award": award.group(1).strip().lower()})
        else:
            out.append({"finish": item})
    return out


def deal_list_text(deals: Sequence[DealEntry], _: Callable[[str], str] = str) -> str:
    """The inverse of :func:`parse_deal_list`: what an arbiter's form is filled in with, in the language of
    ``_`` (a gettext of the desk's catalogue; by default the letters and ``award:home``)."""
    seats = _(SEAT_SHORT).split()
    return "; ".join(_(AWARD_WORDS[d.award or 0]) if d.finish is None
                     else " ".join(seats[x] for x in d.finish) for d in deals)


def _source(item: Any) -> tuple[tuple[int, int, int, int] | None, int | None]:
    """One deal's input: {"finish": …} or {"award": "home"|"away"}."""
    if not isinstance(item, dict) or len(item) != 1 or not ({"finish", "award"} & set(item)):
        raise refusal(N_('a deal is {{"finish": [seats]}} or {{"award": "home"|"away"}}, not {value}'), value=shown(item))
    if "finish" in item:
        return parse_finish(item["finish"]), None
    award = item["award"]
    if award in ("home", "away"):
        return None, 0 if award == "home" else 1
    raise refusal(N_("a deal's award goes to home or away, not {value}"), value=shown(award))


@dataclass(frozen=True)
class Track:
    """Where a table's round stands between deals: what the next deal is settled from (the core's rank
    indices, 0 being level 2)."""

    levels: tuple[int, int] = (0, 0)
    declarer: int | None = None
    a_failures: tuple[int, int] = (0, 0)
    streaks: StreakCounts = field(default_factory=StreakCounts)
    deals: int = 0
    passed_a: int | None = None  # the side that passed A in the last deal


def settle_next(track: Track, item: Any, rules: RuleSet, award_levels: int, at: str | None = None, *,
                stop_on_pass_a: bool = True) -> tuple[DealEntry, Track]:
    """Score one more deal (``{"finish": …}`` or ``{"award": …}``) from ``track``.

    An award (the lateness rule, the first deal only) raises the credited side ``award_levels`` levels
    (stopping at A) and makes it the declarer, as a won deal would. With ``stop_on_pass_a`` a deal after one
    in which A was passed is refused.
    """
    n = track.deals + 1
    if stop_on_pass_a and track.passed_a is not None:
        raise refusal(N_("deal {deal}: the round was over, {side} passed A in deal {previous}"), deal=n,
                      side=Word(_SIDES[track.passed_a]), previous=n - 1)
    try:  # an arbiter's list of eight deals: the refusal says which of them is wrong
        finish, award = _source(item)
    except TournamentError as e:
        raise refusal(N_("deal {deal}: {problem}"), deal=n, problem=clause(e)) from None
    if finish is None:
        assert award is not None
        if track.deals:
            raise refusal(N_("deal {deal}: the lateness rule credits the first deal only"), deal=n)
        lv = list(track.levels)
        before = lv[award]
        lv[award] = min(LEVEL_A - 2, lv[award] + award_levels)
        levels = (lv[0], lv[1])
        entry = DealEntry(n, None, award, (levels[0] + 2, levels[1] + 2), award, lv[award] - before, None, at)
        return entry, Track(levels, award, track.a_failures, track.streaks, n, None)
    s = settle_deal(track.levels, track.declarer, finish, rules, track.a_failures, track.streaks)
    levels = s.levels_after
    entry = DealEntry(n, finish, None, (levels[0] + 2, levels[1] + 2), finish[0] % 2, s.upgrade, s.match_winner, at)
    return entry, Track(levels, s.declarer_after, s.a_failures_after, s.streaks_after, n, s.match_winner)


def settle_deals(items: Sequence[Any], rules: RuleSet, award_levels: int,
                 times: Sequence[str | None] | None = None, *,
                 stop_on_pass_a: bool = True) -> tuple[list[DealEntry], Track]:
    """Score a round's deals in order from their inputs (see :func:`settle_next`); also the track after them."""
    track = Track()
    out: list[DealEntry] = []
    for i, item in enumerate(items):
        at = times[i] if times is not None and i < len(times) else None
        entry, track = settle_next(track, item, rules, award_levels, at, stop_on_pass_a=stop_on_pass_a)
        out.append(entry)
    return out, track
