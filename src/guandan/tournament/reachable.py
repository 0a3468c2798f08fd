"""Which round results play can produce under an event's rules: the check of a result a team enters.

A result slip gives the final levels (home, away), the side that passed A and the deals played. Whether play
could end so is found by exploring the round deal by deal from its start (both teams at 2), every finishing
order of every deal settled by the core's own :func:`~guandan.core.scoring.settle_deal`, so passing A, the
A-failure reset, streak bonuses and penalties and every variant rule count exactly as at a played table; a
first deal credited by the lateness rule comes from :func:`~.deals.settle_next`'s own award. Nothing here
knows how many levels a deal is worth.

The check is *sound*: it never refuses a result that play could produce. Where the rules leave a choice it
is lenient: an awarded first deal may or may not be counted among the deals played, a knockout's deciding
deal (加赛一副) too; a slip that gives no deal count is checked against every count the event allows. The
exploration is memoised per (rules, award levels, whether passing A ends the round), and stops at a budget
of states: where it stopped, every result is accepted (an over-approximation, never a wrong refusal).

States are kept up to the symmetries of the settlement, which only asks which team a seat is in and who is
its partner: the two seats of a team may trade places, and the two teams may (levels, declarer, A failures
and streaks with them); the start of a round is the same under all of them. Streak counts are capped where a
larger count can no longer change a level (levels stay within 2…A), which keeps the exploration exact.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from ..core.rules import RuleSet
from ..core.scoring import StreakCounts, settle_deal
from ..core.vocab import Scoring
from ..i18n import N_
from .deals import Track, settle_next
from .errors import Said, Word, said
from .levels import LEVEL_A, level_label, level_value
from .model import EventConfig
from .rounds import ResultSlip

#: The deals explored at most for one count: the most a round may have (RoundLimits' max_deals is 1…99).
HORIZON: Final = 99
#: States settled at most per set of rules (24 finishing orders each, about 0.14 ms a state on one core). The
#: competition and huaian-2009 rules (and huopin's scored by levels) have under 200 states in all (13–26 ms, every
#: count); the streaks of huaian-traditional give 545 states to settle for 5 deals, 1,664 for 6 and 7,453 for 8
#: (1.1 s): this settles them exactly for up to 5 deals, and a slip of 6 or more deals under them is accepted.
BUDGET: Final = 2000
#: Every finishing order of a deal (头游 first), as engine seats.
ORDERS: Final = tuple(itertools.permutations(range(4)))
#: The largest level step that can matter: a bonus or penalty this big moves a level to the end of 2…A.
_SPAN: Final = LEVEL_A - 2
_SIDES = (N_("home"), N_("away"))

# A state between deals: (home level, away level, declarer, home's A failures, away's, first-out streaks per
# seat, last-out streaks per seat, the side that passed A in the last deal, the side that passed A first).
# Levels are the core's rank indices (0 is level 2); -1 stands for "none" so that states compare.
Counts = tuple[int, int, int, int]
State = tuple[int, int, int, int, int, Counts, Counts, int, int]
#: A result as a slip gives it: home level, away level (2…14), the side that passed A (-1: none).
Outcome = tuple[int, int, int]

_ZERO = (0, 0, 0, 0)


def _flip(side: int) -> int:
    return side if side < 0 else 1 - side


def _mirror(o: Outcome) -> Outcome:
    """The same result with the teams' places traded."""
    return (o[1], o[0], _flip(o[2]))


class _Reach:
    """The states a round can be in after n deals, found lazily deal by deal, and the results they hold."""

    def __init__(self, rules: RuleSet, award_levels: int, stop_on_pass_a: bool) -> None:
        self.rules, self.stop = rules, stop_on_pass_a
        s = rules.streaks
        self.streaky = s is not None
        # from threshold + span on, a streak's bonus or penalty is more than the span of levels: no level tells
        # such counts apart, in either mode (a flat step is the same from the threshold on)
        self.cap_first = s.first_threshold + _SPAN if s is not None else 0
        self.cap_last = s.last_threshold + _SPAN if s is not None else 0
        self.succ: dict[State, frozenset[State]] = {}
        self.lock = threading.Lock()
        start = self._state(Track())
        _, awarded = settle_next(Track(), {"award": "home"}, rules, award_levels, stop_on_pass_a=stop_on_pass_a)
        # one layer list per origin: the round's start, and its first deal credited to one team
        self.layers: tuple[list[frozenset[State]], list[frozenset[State]]] = (
            [frozenset({start})], [frozenset({self._state(awarded)})])
        self.masks: tuple[dict[Outcome, int], dict[Outcome, int]] = ({}, {})
        for origin in (0, 1):
            self._record(origin, 0)
        self.seen: set[State] = set(self.layers[0][0] | self.layers[1][0])
        self.closed = False  # every state the round can reach has been seen
        self.over = False  # the budget ran out: layers past the last one are not known

    # ---- states ------------------------------------------------------------------------------------
    def _state(self, t: Track) -> State:
        st = t.streaks if self.streaky else StreakCounts()
        passed = -1 if t.passed_a is None or not self.stop else t.passed_a
        return self._canonical(t.levels[0], t.levels[1], -1 if t.declarer is None else t.declarer, t.a_failures[0],
                               t.a_failures[1], st.first, st.last, passed, -1)

    def _canonical(self, l0: int, l1: int, declarer: int, fail0: int, fail1: int, first: Counts, last: Counts,
                   passed: int, first_pass: int) -> State:
        """One state for all the images of a state under the settlement's symmetries: within each team the seat
        with the smaller (first-out, last-out) counts is put first, then the lesser of the two teams' orders."""
        if not self.streaky:
            return min((l0, l1, declarer, fail0, fail1, _ZERO, _ZERO, passed, first_pass),
                       (l1, l0, _flip(declarer), fail1, fail0, _ZERO, _ZERO, _flip(passed), _flip(first_pass)))
        if max(first) > self.cap_first or max(last) > self.cap_last:
            first = _capped(first, self.cap_first)
            last = _capped(last, self.cap_last)
        n, s = (first[0], last[0]), (first[2], last[2])
        if s < n:
            n, s = s, n
        e, w = (first[1], last[1]), (first[3], last[3])
        if w < e:
            e, w = w, e
        return min((l0, l1, declarer, fail0, fail1, (n[0], e[0], s[0], w[0]), (n[1], e[1], s[1], w[1]), passed,
                    first_pass),
                   (l1, l0, _flip(declarer), fail1, fail0, (e[0], n[0], w[0], s[0]), (e[1], n[1], w[1], s[1]),
                    _flip(passed), _flip(first_pass)))

    def _successors(self, s: State) -> frozenset[State]:
        known = self.succ.get(s)
        if known is not None:
            return known
        streaks, rules, stop, streaky = StreakCounts(s[5], s[6]), self.rules, self.stop, self.streaky
        levels, declarer, fails, first_pass = (s[0], s[1]), None if s[2] < 0 else s[2], (s[3], s[4]), s[8]
        raw: set[tuple[tuple[int, int], int, tuple[int, int], Counts, Counts, int]] = set()
        for finish in ORDERS:
            x = settle_deal(levels, declarer, finish, rules, fails, streaks)
            st = x.streaks_after if streaky else streaks
            raw.add((x.levels_after, x.declarer_after, x.a_failures_after, st.first, st.last,
                     -1 if x.match_winner is None else x.match_winner))
        done = frozenset(self._canonical(lv[0], lv[1], d, fa[0], fa[1], fi, la, won if stop else -1,
                                         first_pass if first_pass >= 0 else won)
                         for lv, d, fa, fi, la, won in raw)
        self.succ[s] = done
        return done

    def _record(self, origin: int, depth: int) -> None:
        masks, bit = self.masks[origin], 1 << depth
        for s in self.layers[origin][depth]:
            o = (s[0] + 2, s[1] + 2, s[8])
            for x in (o, _mirror(o)):
                masks[x] = masks.get(x, 0) | bit

    # ---- exploring -----------------------------------------------------------------------------------
    def extend(self, depth: int) -> bool:
        """Explore both origins through ``depth`` deals; False when the budget ran out first."""
        with self.lock:
            while len(self.layers[0]) <= depth:
                if self.over:
                    return False
                n = len(self.layers[0])
                for origin in (0, 1):
                    before = self.layers[origin][n - 1]
                    fresh = [s for s in before if s not in self.succ and not (self.stop and s[7] >= 0)]
                    if len(self.succ) + len(fresh) > BUDGET:
                        del self.layers[0][n:]  # the other origin's layer n may be done: keep them alike
                        self.over = True
                        return False
                    layer: set[State] = set()
                    for s in before:
                        if not (self.stop and s[7] >= 0):  # a pass of A ends the round: no deal after it
                            layer |= self._successors(s)
                    self.layers[origin].append(frozenset(layer))
                    self._record(origin, n)
                new = (self.layers[0][n] | self.layers[1][n]) - self.seen
                self.seen |= new
                if not new:
                    self.closed = True  # every later layer holds only states seen already
            return True

    def close(self) -> bool:
        """Explore until every reachable state has been seen; False when the budget ran out first."""
        while not self.closed:
            if not self.extend(len(self.layers[0])):
                return False
        return True

    def accepted(self, o: Outcome, depth: int) -> int:
        """The deal counts (a bit per count, through ``depth``, which must have been explored) a slip may give for
        ``o``: the deals played from the start, or after an awarded first deal counted or not."""
        plain, award = self.masks[0].get(o, 0), self.masks[1].get(o, 0)
        return (plain | award | award << 1) & ((2 << depth) - 1)

    def fewest(self, o: Outcome) -> tuple[int, int] | None:
        """The fewest deals a slip may give for ``o``, and the fewest played (an awarded first deal counted),
        exploring as far as needed; None when it cannot be known within the budget or ``o`` cannot come from
        play at all."""
        while True:
            plain, award = self.masks[0].get(o, 0), self.masks[1].get(o, 0)
            if plain | award:
                played = plain | award << 1
                return _low(plain | award), _low(played)
            if self.closed or not self.extend(len(self.layers[0])):
                return None


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _capped(counts: Counts, cap: int) -> Counts:
    return (min(counts[0], cap), min(counts[1], cap), min(counts[2], cap), min(counts[3], cap))


@lru_cache(maxsize=16)
def reach(rules: RuleSet, award_levels: int, stop_on_pass_a: bool) -> _Reach:
    """The (lazily explored) rounds of an event's rules: an event's rules do not change, so one per process."""
    return _Reach(rules, award_levels, stop_on_pass_a)


def check_result(cfg: EventConfig, round_no: int, table_no: int, slip: ResultSlip) -> Said | None:
    """Why the result on ``slip`` cannot come from play at round ``round_no`` table ``table_no`` under the
    event's rules, or None when it can (or cannot be told: a forfeit, rules that score points, a count past
    the event's limit, which is refused elsewhere, or an exploration past its budget)."""
    if slip.levels is None or slip.forfeit is not None or cfg.rules.scoring != Scoring.LEVELS:
        return None
    o: Outcome = (level_value(slip.levels[0]), level_value(slip.levels[1]),
                  -1 if slip.passed_a is None else slip.passed_a)
    if o[2] >= 0 and o[o[2]] != LEVEL_A:
        return None  # refused by the scoring, in its own words
    limit = cfg.limits.max_deals
    n = slip.deals
    if n is not None and limit is not None and n > limit:
        return None
    r = reach(cfg.rules, cfg.lateness.deal_award_levels, cfg.limits.stop_on_pass_a)
    where = {"round": round_no, "table": table_no, "result": _result_words(o)}
    if n is None or n > HORIZON:
        return _any_count(r, o, limit, where)
    if not r.extend(n):
        return None
    counts = r.accepted(o, n)
    if slip.decider is not None:
        counts |= counts << 1  # the deciding deal counted among the deals played, or not
    if counts >> n & 1:
        return None
    fewest = r.fewest(o)
    if fewest is None and not r.closed:
        return said(N_("round {round} table {table}: {result} cannot come from {deals} of play under this event's "
                       "rules"), deals=_deals(n), **where)
    if fewest is None:
        return said(_NEVER, **where)
    if fewest[0] > n:
        return said(N_("round {round} table {table}: {result} cannot come from {deals} of play: from 2:2 {takes}"),
                    deals=_deals(n), takes=_takes(*fewest), **where)
    return said(N_("round {round} table {table}: {result} cannot come from {deals} of play under this event's "
                   "rules; it can come from {other}"), deals=_deals(n), other=_deals(_nearest(counts, n)), **where)


#: A result that no number of deals can give.
_NEVER = N_("round {round} table {table}: {result} cannot come from play under this event's rules, in any number "
            "of deals")


def _any_count(r: _Reach, o: Outcome, limit: int | None, where: dict[str, object]) -> Said | None:
    """A slip without a deal count (or with more than can be explored): any count the event allows."""
    if limit is None:
        if not r.close() or o in r.masks[0] or o in r.masks[1]:
            return None
        return said(_NEVER, **where)
    if not r.extend(limit) or r.accepted(o, limit):
        return None
    fewest = r.fewest(o)
    if fewest is None and r.closed:
        return said(_NEVER, **where)
    if fewest is None:
        return said(N_("round {round} table {table}: {result} cannot come from play in this event's rounds of at "
                       "most {limit}"), limit=_deals(limit), **where)
    return said(N_("round {round} table {table}: {result} cannot come from play in this event's rounds of at most "
                   "{limit}: from 2:2 {takes}"), limit=_deals(limit), takes=_takes(*fewest), **where)


def _takes(fewest: int, played: int) -> Said:
    """The fewest deals a slip may give, and the fewest played when a first deal credited for lateness (and
    not counted) makes them differ."""
    if fewest == played:
        return said(N_("it takes at least {fewest}"), fewest=_deals(fewest))
    return said(N_("it takes at least {fewest}, or {besides} after a first deal credited for lateness"),
                fewest=_deals(played), besides=_deals(fewest))


def _nearest(counts: int, n: int) -> int:
    """The count among ``counts`` (a bit per count) nearest to ``n``, the smaller on a tie."""
    return min(_bits(counts), key=lambda k: (abs(k - n), k))


def _bits(mask: int) -> Iterable[int]:
    k = 0
    while mask:
        if mask & 1:
            yield k
        mask >>= 1
        k += 1


def _deals(n: int) -> Said:
    return said(N_("one deal")) if n == 1 else said(N_("{n} deals"), n=n)


def _result_words(o: Outcome) -> str:
    levels = f"{level_label(o[0])}:{level_label(o[1])}"
    if o[2] < 0:
        return levels
    return said(N_("{levels} with {side} passing A"), levels=levels, side=Word(_SIDES[o[2]]))
