"""End of a deal: upgrades (§5.2), passing and failing A (§5.3), streaks (§8.2), 火拼 points (§8.4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .events import Note
from .reduce import by_init
from .rules import RuleSet
from .tribute import partner, team_of
from .vocab import RANKS, HuopinCombine, SettlementNote, StreakMode, StreakScope

A: Final = 12  # rank index of the ace: the top level


@dataclass(frozen=True)
class StreakCounts:
    """Consecutive 头游 / 末游 per seat (huaian-traditional)."""

    first: tuple[int, int, int, int] = (0, 0, 0, 0)
    last: tuple[int, int, int, int] = (0, 0, 0, 0)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_init(self)  # compiled, the default pickling cannot rebuild it


@dataclass(frozen=True)
class DealSettlement:
    levels_after: tuple[int, int]  # per team, rank indices
    declarer_after: int  # the team that won: it declares the next deal
    match_winner: int | None
    a_failures_after: tuple[int, int]
    streaks_after: StreakCounts
    upgrade: int  # levels the winner gained (before streak adjustments)
    partner_place: int  # 2, 3 or 4: the result 1-2 / 1-3 / 1-4
    notes: tuple[Note, ...] = field(default=())

    @property
    def next_level(self) -> int:
        return self.levels_after[self.declarer_after]

    def __reduce__(self) -> tuple[Any, ...]:
        return by_init(self)  # compiled, the default pickling cannot rebuild it


def partner_place(finish: Sequence[int]) -> int:
    return list(finish).index(partner(finish[0])) + 1


def settle_deal(
    levels: tuple[int, int],
    declarer: int | None,
    finish: Sequence[int],
    rules: RuleSet,
    a_failures: tuple[int, int] = (0, 0),
    streaks: StreakCounts | None = None,
) -> DealSettlement:
    """RULES.md §6 ``settle_deal``: the levels after a deal and whether the match is won."""
    streaks = streaks or StreakCounts()
    w = team_of(finish[0])
    pos = partner_place(finish)
    lv_ = list(levels)
    fails = list(a_failures)
    notes: list[Note] = []
    played_at = levels[declarer] if declarer is not None else 0
    if rules.a_pass_requires_declarer:
        a_attempt = declarer is not None and levels[declarer] == A
        passes = a_attempt and w == declarer and pos in rules.a_pass_results
    else:
        a_attempt = declarer is not None and levels[declarer] == A
        passes = played_at == A and levels[w] == A and pos in rules.a_pass_results
    if passes:
        return DealSettlement(levels, w, w, a_failures, _next_streaks(streaks, finish, pos, rules), 0, pos,
                              (Note(SettlementNote.PASSED_A, team=w),))
    up = rules.upgrade(pos)
    if rules.overshoot_wins and lv_[w] + up > A:
        notes.append(Note(SettlementNote.OVERSHOOT, team=w))
        return DealSettlement(levels, w, w, a_failures, _next_streaks(streaks, finish, pos, rules), up, pos, tuple(notes))
    lv_[w] = min(A, lv_[w] + up)
    new_streaks = streaks
    if rules.streaks is not None:
        new_streaks = _next_streaks(streaks, finish, pos, rules)
        _apply_streaks(rules, new_streaks, finish, w, lv_, notes)
    if a_attempt and declarer is not None and rules.a_max_failures:
        fails[declarer] += 1
        notes.append(Note(SettlementNote.A_FAILED, team=declarer, amount=fails[declarer]))
        if fails[declarer] >= rules.a_max_failures:
            lv_[declarer] = RANKS.index(rules.a_fail_reset_to)
            fails[declarer] = 0
            notes.append(Note(SettlementNote.A_RESET, team=declarer, level=lv_[declarer]))
    return DealSettlement((lv_[0], lv_[1]), w, None, (fails[0], fails[1]), new_streaks, up, pos, tuple(notes))


def _losers_last(finish: Sequence[int], pos: int) -> set[int]:
    """Who counts a 末游: both losers after 双下 (S001 "双下各记一次末游"), else the 4th place."""
    if pos == 2:
        return {s for s in range(4) if team_of(s) != team_of(finish[0])}
    return {finish[3]}


def _next_streaks(streaks: StreakCounts, finish: Sequence[int], pos: int, rules: RuleSet) -> StreakCounts:
    """The counts after this deal. Under ``scope="team"`` a count is the team's, kept alike on both partners' seats:
    the deals in a row in which either partner was 头游 (or 末游, 双下 counting once)."""
    last = _losers_last(finish, pos)
    first_seats = {finish[0]}
    if rules.streaks is not None and rules.streaks.scope == StreakScope.TEAM:
        first_seats = {s for s in range(4) if team_of(s) == team_of(finish[0])}
        last = {s for s in range(4) if any(team_of(s) == team_of(loser) for loser in last)}
    first = tuple(streaks.first[s] + 1 if s in first_seats else 0 for s in range(4))
    lastc = tuple(streaks.last[s] + 1 if s in last else 0 for s in range(4))
    return StreakCounts(first, lastc)  # type: ignore[arg-type]


def _apply_streaks(rules: RuleSet, st: StreakCounts, finish: Sequence[int], w: int, lv_: list[int],
                   notes: list[Note]) -> None:
    cfg = rules.streaks
    assert cfg is not None

    def amount(k: int, threshold: int) -> int:
        if k < threshold:
            return 0
        return k - threshold + 1 if cfg.mode == StreakMode.ESCALATING else 1

    h = st.first[finish[0]]  # the team's count under scope="team" (_next_streaks)
    bonus = amount(h, cfg.first_threshold)
    if bonus:
        lv_[w] = min(A, lv_[w] + bonus)
        notes.append(Note(SettlementNote.STREAK_BONUS, team=w, amount=bonus, streak=h))
    for t in (0, 1):
        k = max(st.last[t], st.last[t + 2])
        pen = amount(k, cfg.last_threshold)
        if pen:
            lv_[t] = max(0, lv_[t] - pen)
            notes.append(Note(SettlementNote.STREAK_PENALTY, team=t, amount=pen, streak=k))


# ---------------------------------------------------------------------------------------------
# 火拼 points (§8.4)

_BASE = {2: (3, 3, -3, -3), 3: (2, -2, 2, -2), 4: (1, -1, -1, 1)}  # by finishing place 1st..4th


def star_multiplier(stars: int) -> int:
    return 8 if stars > 8 else {6: 2, 7: 3, 8: 4}.get(stars, 1)


def star_contribution(stars: int) -> tuple[int, int, int]:
    """(player, partner, each opponent) for one qualifying bomb play."""
    if stars >= 8:
        return (12, 6, -9)
    if stars == 7:
        return (8, 4, -6)
    if stars == 6:
        return (4, 2, -3)
    return (0, 0, 0)


@dataclass(frozen=True, slots=True)
class HuopinScore:
    """A deal's 火拼 points per seat and how they arise: ``base`` (by finishing place) × ``multiplier`` (the
    star bombs played) plus each seat's bomb contributions."""

    base: tuple[int, ...]
    multiplier: int
    points: tuple[int, ...]

    @property
    def contributions(self) -> tuple[int, ...]:
        return tuple(p - b * self.multiplier for p, b in zip(self.points, self.base, strict=True))

    def __reduce__(self) -> tuple[Any, ...]:
        return by_init(self)  # compiled, the default pickling cannot rebuild it


def huopin_score(finish: Sequence[int], star_plays: Sequence[tuple[int, int]], rules: RuleSet) -> HuopinScore:
    """Deal score per seat: base × multiplier + contributions (the total is always 0)."""
    pos = partner_place(finish)
    base = [0, 0, 0, 0]
    for place, seat in enumerate(finish):
        base[seat] = _BASE[pos][place]
    mults = [star_multiplier(s) for _, s in star_plays if star_multiplier(s) > 1]
    if not mults:
        mult = 1
    elif rules.huopin_multiplier_combine == HuopinCombine.MAX:
        mult = max(mults)
    else:
        mult = 1
        for m in mults:
            mult *= m
    points = [b * mult for b in base]
    for seat, stars in star_plays:
        me, mate, opp = star_contribution(stars)
        for s in range(4):
            points[s] += me if s == seat else mate if s == partner(seat) else opp
    return HuopinScore(tuple(base), mult, tuple(points))


def huopin_points(finish: Sequence[int], star_plays: Sequence[tuple[int, int]], rules: RuleSet) -> list[int]:
    """Deal score per seat: base × multiplier + contributions (the total is always 0)."""
    return list(huopin_score(finish, star_plays, rules).points)
