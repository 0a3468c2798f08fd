"""`search`: decision-time determinized search (确定化搜索) on top of the heuristic.

For a play decision it shortlists the heuristic's best candidates, then, until the time budget is
spent, samples hidden hands consistent with everything public (:func:`worlds.sample_hands`) and
plays each candidate out in that world with the unit policy for all four seats. It picks the
candidate with the best mean level points (升级数) for its team; every candidate sees the same
worlds, so their comparison is paired. Tribute and return decisions are the heuristic's.

Anytime: it stops at ``time_budget`` (default 1 s) and answers with what it has. Deterministic for
a seed when the number of worlds is fixed (``max_worlds``); under a pure time budget the number of
worlds, and so rarely the choice, depends on the machine's speed.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ..core.combos import Combo
from ..core.deal import Action
from ..core.match import MatchObservation
from ..core.rules import RuleSet
from ..core.turns import TurnTracker
from .base import Agent, register
from .counting import read
from .decompose import Unit
from .heuristic import HeuristicAgent, remove_cards
from .worlds import level_points, playout, sample_hands, tracker_from

DEFAULT_BUDGET = 1.0
SHORTLIST = 6
PRIOR = 0.3  # level points of trust in the heuristic's first choice: playouts must beat it clearly
SAFETY = 0.85  # share of the budget spent searching; the rest covers setup and the last world


class _Candidate:
    __slots__ = ("action", "owner", "rest_units", "top", "total", "tracker")

    def __init__(self, action: Action, rest_units: list[Unit], tracker: TurnTracker, top: Combo | None,
                 owner: int | None) -> None:
        self.action = action
        self.rest_units = rest_units
        self.tracker = tracker
        self.top = top
        self.owner = owner
        self.total = 0.0


class SearchAgent(Agent):
    name = "search"

    def __init__(self, seed: int | str = 0, time_budget: float | None = None, max_worlds: int | None = None) -> None:
        super().__init__(seed, time_budget)
        self.heuristic = HeuristicAgent(seed, time_budget)
        self.max_worlds = max_worlds
        self.last_worlds = 0  # worlds evaluated for the last decision (for tests and the arena)

    def reset(self, seat: int, rules: RuleSet) -> None:
        super().reset(seat, rules)
        self.heuristic.reset(seat, rules)

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        start = time.perf_counter()
        budget = DEFAULT_BUDGET if self.time_budget is None else self.time_budget
        ranked = self.heuristic.ranked(obs, legal, SHORTLIST)
        self.last_worlds = 0
        if legal[0].kind not in ("play", "pass") or len(ranked) == 1:
            return ranked[0].action
        hand = list(obs.deal.hand)
        if any(r.action.kind == "play" and len(r.action.cards) == len(hand) for r in ranked):
            return ranked[0].action  # going out is never worse
        assert self.rules is not None
        rules = self.rules
        decompose = self.heuristic.decomposer(obs.deal.level)
        base = tracker_from(obs.deal, rules)
        top = obs.deal.top
        cands: list[_Candidate] = []
        for r in ranked:
            a = r.action
            tr = base.copy()
            if a.kind == "pass":
                ended = tr.pass_(self.seat) is not None
                c_top, c_owner = (None, None) if ended else (top[2], top[0]) if top else (None, None)
                rest = hand
            else:
                rest = remove_cards(hand, a.cards)
                _place, leader = tr.play(self.seat, goes_out=not rest)
                c_top, c_owner = (None, None) if leader is not None else (a.combo, self.seat)
            cands.append(_Candidate(a, list(decompose(rest).units), tr, c_top, c_owner))
        know = read(obs)
        deadline = start + budget * SAFETY
        worlds = 0
        world_cost = 0.0  # the slowest world so far: another one starts only if it fits
        while worlds < (self.max_worlds or 1_000_000):
            now = time.perf_counter()
            if self.max_worlds is None and now + world_cost >= deadline:
                break
            hands = sample_hands(know, hand, self.rng)
            others = {s: list(decompose(hands[s]).units) for s in range(4) if s != self.seat and hands[s]}
            results = []
            for c in cands:
                units = [list(others.get(s, [])) for s in range(4)]
                units[self.seat] = list(c.rest_units)
                results.append(level_points(playout(units, c.tracker.copy(), c.top, c.owner), self.seat, rules))
            for c, v in zip(cands, results, strict=True):
                c.total += v
            worlds += 1
            world_cost = max(world_cost, time.perf_counter() - now)
        self.last_worlds = worlds
        if worlds == 0:
            return ranked[0].action
        best = max(range(len(cands)), key=lambda i: cands[i].total / worlds + (PRIOR if i == 0 else 0.0))
        return cands[best].action


register("search")(lambda seed, budget: SearchAgent(seed, budget))

__all__ = ["DEFAULT_BUDGET", "SearchAgent"]
