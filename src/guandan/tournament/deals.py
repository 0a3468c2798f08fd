"""Per-deal reporting (每副牌记分): a table reports each deal's finishing order and the levels follow.

At a table the home team sits North–South and the away team East–West, which are the engine's seats
0 (North), 1 (East), 2 (South), 3 (West): the home team is the engine's team 0. The levels after each deal
come from the core's :func:`~guandan.core.scoring.settle_deal` under the event's rules, so passing A, the
A-failure reset and every variant rule apply exactly as at a played table. Levels here are the desk's
values 2…14 (A = 14).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.rules import RuleSet
from ..core.scoring import StreakCounts, settle_deal
from .errors import TournamentError
from .levels import LEVEL_A, level_name

#: Seat letters in engine order; North–South is the home team.
SEATS = ("N", "E", "S", "W")
_SEAT_WORDS = {
    "n": 0, "north": 0, "北": 0, "e": 1, "east": 1, "东": 1, "s": 2, "south": 2, "南": 2,
    "w": 3, "west": 3, "西": 3,
}


def seat_index(token: Any) -> int:
    """A seat written N/E/S/W (or north…, 北东南西, or the engine's 0…3) as its engine index."""
    if isinstance(token, int) and not isinstance(token, bool) and 0 <= token <= 3:
        return token
    if isinstance(token, str) and token.strip().lower() in _SEAT_WORDS:
        return _SEAT_WORDS[token.strip().lower()]
    raise TournamentError(f"a seat is N, E, S or W, not {token!r}")


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
        raise TournamentError(f"a finishing order is three or four seats such as N S E, not {value!r}")
    seats = [seat_index(t) for t in tokens]
    if len(seats) not in (3, 4):
        raise TournamentError(f"a finishing order names three or four seats (first out first), not {len(seats)}")
    if len(set(seats)) != len(seats):
        raise TournamentError(f"a seat appears twice in the finishing order {' '.join(SEATS[x] for x in seats)}")
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
    """A table's deals as an arbiter writes them: ``"award:home; N S E; E W N"``, one deal per semicolon,
    each a finishing order or ``award:home|away`` (the lateness rule). Checked when it is applied."""
    out: list[dict[str, Any]] = []
    for item in (x.strip() for x in text.replace("；", ";").split(";")):
        if not item:
            continue
        if item.lower().startswith(("award:", "award：")):
            out.append({"award": item.replace("：", ":").split(":", 1)[1].strip().lower()})
        else:
            out.append({"finish": item})
    return out


def deal_list_text(deals: Sequence[DealEntry]) -> str:
    """The inverse of :func:`parse_deal_list`: what an arbiter's form is filled in with."""
    return "; ".join(f"award:{'home' if d.award == 0 else 'away'}" if d.finish is None
                     else " ".join(SEATS[x] for x in d.finish) for d in deals)


def _source(item: Any) -> tuple[tuple[int, int, int, int] | None, int | None]:
    """One deal's input: {"finish": …} or {"award": "home"|"away"}."""
    if not isinstance(item, dict) or len(item) != 1 or not ({"finish", "award"} & set(item)):
        raise TournamentError(f"a deal is {{\"finish\": [seats]}} or {{\"award\": \"home\"|\"away\"}}, not {item!r}")
    if "finish" in item:
        return parse_finish(item["finish"]), None
    award = item["award"]
    if award in ("home", "away"):
        return None, 0 if award == "home" else 1
    raise TournamentError(f"a deal's award goes to home or away, not {award!r}")


def settle_deals(items: Sequence[Any], rules: RuleSet, award_levels: int,
                 times: Sequence[str | None] | None = None, *, stop_on_pass_a: bool = True) -> list[DealEntry]:
    """Score a round's deals in order from their inputs (see :func:`_source`).

    An award (the lateness rule) raises the credited side ``award_levels`` levels (stopping at A) and makes
    it the declarer, as a won deal would. With ``stop_on_pass_a`` a deal after one in which A was passed
    is refused.
    """
    levels, declarer = (0, 0), None  # the core's rank indices: 0 is level 2
    fails, streaks = (0, 0), StreakCounts()
    out: list[DealEntry] = []
    for i, item in enumerate(items):
        if stop_on_pass_a and out and out[-1].passed_a is not None:
            raise TournamentError(f"deal {i + 1}: the round was over, {('home', 'away')[out[-1].passed_a]} "
                                  f"passed A in deal {i}")
        finish, award = _source(item)
        at = times[i] if times is not None and i < len(times) else None
        if finish is None:
            assert award is not None
            if i:
                raise TournamentError(f"deal {i + 1}: the lateness rule credits the first deal only")
            lv = list(levels)
            before = lv[award]
            lv[award] = min(LEVEL_A - 2, lv[award] + award_levels)
            levels, declarer = (lv[0], lv[1]), award
            out.append(DealEntry(i + 1, None, award, (levels[0] + 2, levels[1] + 2), award, lv[award] - before,
                                 None, at))
            continue
        s = settle_deal(levels, declarer, finish, rules, fails, streaks)
        levels, declarer, fails, streaks = s.levels_after, s.declarer_after, s.a_failures_after, s.streaks_after
        winner = finish[0] % 2
        out.append(DealEntry(i + 1, finish, None, (levels[0] + 2, levels[1] + 2), winner, s.upgrade,
                             s.match_winner, at))
    return out
