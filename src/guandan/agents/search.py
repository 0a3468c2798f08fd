"""`search`: decision-time determinized search (确定化搜索) on top of the heuristic.

For a play decision it shortlists the heuristic's best candidates, then, until the time budget is
spent, samples hidden hands consistent with everything public (:func:`worlds.sample_hands`) and
plays each candidate out in that world with the unit policy for all four seats. It picks the
candidate with the best mean level points (升级数) for its team (``win_bonus`` adds to that a
fixed amount for winning the deal, whatever its margin); every candidate sees the same worlds, so
their comparison is paired. Tribute decisions are the heuristic's, and so is the return (还贡) unless
``returns`` is on: then each shortlisted return card is valued by playing the whole deal out in
sampled worlds, from the hands after the returns.

The playout policy is the heuristic's own lead rule on a decomposition made once per world, and
its follow rule including breaking a pair, triple or full house (拆牌, :func:`policy.follow`), so
that a playout predicts what heuristic players — partner and opponents — actually do (its follows
match the heuristic agent's real ones in about nine plays out of ten). Since playouts never look at
another seat's cards, a mean over worlds estimates the value of a move followed by that policy:
a rollout improvement of the heuristic.

Refinements of the plain scheme: worlds that contradict a seat's passes (不要) on a cheap single or
pair are redrawn a few times (:func:`worlds.sample_weighted`), and once at most ``ENDGAME_CARDS``
cards are left in all hands each world is solved exactly on the real legal moves (残局精算,
:mod:`guandan.agents.endgame`) instead of played out, falling back to playouts for the rest of the
decision when a world is too big for the node limit or the clock. An alternative displaces the
heuristic's first choice only when its paired mean gain clears a small prior plus one standard
error, so a few lucky worlds do not overturn a sound default. With ``infer`` > 0 a world is also
redrawn while it leaves the other seats' latest plays and passes unexplained by the unit policy
(读牌, :mod:`guandan.agents.inference`), and with ``bomb`` the hand's cheapest bomb over an
opponent's play is valued whenever the heuristic's shortlist holds no bomb. With ``break_any`` = K
the first K follows of every playout may break any unit — a straight, tube or full house as well —
weighed by a fresh decomposition as the heuristic weighs it (:func:`policy.follow_full`), so that
playouts replay heuristic deals more faithfully. These three and ``returns`` are off by default:
the arena found no gain from any of them (a searched return changes a deal's margin now and then,
almost never its winner), inference costs about three worlds in four and ``break_any`` several
times the cost of a world. ``danger`` sets how few cards make an opponent a threat worth a bomb,
in the shortlist and for the playouts' seats (:class:`policy.Table`), the opponents' too unless
``rival_danger`` gives theirs; it stays the heuristic's 6, since bombing sooner, which wins the
heuristic more deals, made the search's choices no better in the arena.

Anytime: it stops at ``time_budget`` (default 1 s) and answers with what it has, or earlier once
the choice is settled (:func:`_settled`: no candidate is within 2 standard errors of changing it;
on 166 recorded decisions the settled choice, after 221 worlds on average, equalled the choice
after 1,000 worlds in 165). With ``prune`` (racing) the same test is applied to each alternative on
its own as the worlds come in: one that more worlds would almost surely leave unchosen stops being
played out (:func:`_prune`), so that in a decision that does not settle the contenders share the
budget. Deterministic for a seed when the number of worlds is fixed (``max_worlds``);
under a pure time budget the number of worlds, and so rarely the choice, depends on the machine's
speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from ..core.cards import Card
from ..core.combos import Combo, beats
from ..core.deal import Action, Observation
from ..core.events import TributeGiven
from ..core.match import MatchObservation
from ..core.rules import RuleSet
from ..core.tribute import leader_after_tribute, partner, return_eligible
from ..core.turns import TurnTracker
from ..core.vocab import ActionKind, BombOrder, Phase
from .base import Agent, Option, register
from .belief import chain, resample, seat_weights
from .counting import read
from .decompose import Decomposer, Unit
from .endgame import EndgameSolver, Exhausted
from .heuristic import HeuristicAgent, Scored, find_action, keep_score, remove_cards
from .inference import PlayEvidence
from .policy import DANGER
from .worlds import bomb_pass_evidence, level_points, pass_evidence, playout, sample_hands, sample_weighted, tracker_from

DEFAULT_BUDGET: Final = 1.0
SHORTLIST: Final = 6
PRIOR: Final = 0.15  # level points of trust in the heuristic's first choice: playouts must beat it clearly
CONFIDENCE: Final = 1.0  # standard errors a candidate's paired gain must clear to displace the first choice
SAFETY: Final = 0.85  # share of the budget spent searching; the rest covers setup and the last world
ENDGAME_CARDS: Final = 14  # at most this many cards left in all hands: worlds are solved exactly (残局)
ENDGAME_SHORTLIST: Final = 12  # the exact solver can afford to look past the heuristic's top six
ENDGAME_NODES: Final = 3000  # per world; beyond it the position is too big and playouts take over
SETTLE_MIN: Final = 32  # worlds before the choice may be called settled
SETTLE_EVERY: Final = 8  # worlds between checks
SETTLE_Z: Final = 2.0  # standard errors by which a settled choice must be clear of changing
WIN_BONUS: Final = 1.0  # level points a world's value adds for winning the deal (and takes for losing it)
WIDEN: Final = 0  # candidates added from the heuristic's ranking when the choice settles early (0: never)
BREAK_ANY: Final = 0  # a playout's first follows that may break any unit, weighed as the heuristic weighs it
BOMB: Final = False  # value the cheapest bomb as well when the heuristic's shortlist holds none
INFER: Final = 0  # each other seat's latest decisions a world is checked against (读牌; 0: passes only)
TRIES: Final = 4  # draws per world at most while it contradicts the evidence
RETURNS: Final = False  # value the return (还贡) candidates by playing whole deals out (off: the heuristic's card)
PRUNE: Final = False  # stop playing out alternatives that can no longer be chosen (racing)
READ_BOMBS: Final = False  # worlds give no bomb to a seat whose pass, under threat, says it held none
BELIEF: Final = 1  # worlds drawn for each one kept by the learned belief over whole hands (1: off)


class _Candidate:
    __slots__ = ("action", "live", "n", "owner", "rest", "rest_units", "sq", "top", "total", "tracker")

    def __init__(self, action: Action, rest: list[Card], rest_units: list[Unit], tracker: TurnTracker,
                 top: Combo | None, owner: int | None) -> None:
        self.action = action
        self.rest = rest
        self.rest_units = rest_units
        self.tracker = tracker
        self.top = top
        self.owner = owner
        self.total = 0.0  # sum over worlds of (this candidate's value − the first choice's)
        self.sq = 0.0  # sum of the squares of those differences
        self.n = 0  # worlds it was valued in: a candidate added by widening joins late
        self.live = True  # still valued in each new world (racing drops the hopeless: :func:`_prune`)


@mypyc_attr(allow_interpreted_subclasses=True)  # an agent is an extension point: tests and plugins subclass it
class SearchAgent(Agent):
    name = "search"

    def __init__(self, seed: int | str = 0, time_budget: float | None = None, max_worlds: int | None = None,
                 endgame: bool = True, evidence: bool = True, breaks: bool = True, settle: bool = True,
                 prior: float = PRIOR, confidence: float = CONFIDENCE, shortlist: int = SHORTLIST,
                 endgame_cards: int = ENDGAME_CARDS, endgame_nodes: int = ENDGAME_NODES,
                 win_bonus: float = WIN_BONUS, widen: int = WIDEN, infer: int = INFER, tries: int = TRIES,
                 bomb: bool = BOMB, break_any: int = BREAK_ANY, returns: bool = RETURNS,
                 danger: int = DANGER, rival_danger: int = 0, prune: bool = PRUNE,
                 read_bombs: bool = READ_BOMBS, belief: int = BELIEF, belief_steps: int = 0) -> None:
        super().__init__(seed, time_budget)
        self.heuristic = HeuristicAgent(seed, time_budget, danger)
        self.danger = danger  # the style of its shortlist and of its playouts' seats
        self.rival_danger = rival_danger or -1  # the opponents' style in its playouts (0: danger's)
        self.max_worlds = max_worlds or None  # 0 (the spec's default): the clock decides
        self.prior = prior
        self.confidence = confidence
        self.shortlist = shortlist
        self.endgame = endgame  # solve small endgames exactly (off: playouts only, as before)
        self.endgame_cards = endgame_cards  # at most this many cards left in all hands: solved exactly
        self.endgame_nodes = endgame_nodes  # the solver's node limit per world
        self.win_bonus = win_bonus  # a world's value: its level points, ± this for the deal's winner
        self.widen = widen  # a settled choice with budget left is reopened to this many more candidates
        self.evidence = evidence  # redraw worlds that contradict passes (off: uniform worlds)
        self.infer = infer  # and that contradict this many of each other seat's latest decisions
        self.tries = tries  # draws per world at most
        self.bomb = bomb  # an opponent's play: the cheapest bomb over it is a candidate too (炸不炸)
        self.breaks = breaks  # playouts may break units to follow, as the heuristic does (off: whole units only)
        self.break_any = break_any  # a playout's first follows that may split any unit, not only a group (needs breaks)
        self.settle = settle  # stop before the budget once more worlds cannot change the choice
        self.returns = returns  # search the return (还贡) too, by playouts of the whole deal
        self.prune = prune  # racing: alternatives that can no longer be chosen stop being played out
        self.read_bombs = read_bombs  # a pass under threat rules out a bomb over the play (size-ladder bombs only)
        self.belief = belief  # worlds drawn to keep one by the learned hand score (1 or less: every draw kept)
        self.belief_steps = belief_steps  # then swaps of hidden cards by that score (0: none)
        self.last_worlds = 0  # worlds evaluated for the last decision (for tests and the arena)
        self.last_exact = 0  # of those, worlds the endgame solver valued exactly
        self.last_settled = False  # the last decision stopped early: its choice was settled
        self.last_candidates = 0  # candidates the last decision valued (more than the shortlist once widened)
        self.last_valuations = 0  # candidate values it computed, over all its worlds (fewer when racing)
        self.clock: Callable[[], float] = time.perf_counter  # what the budget is measured by (tests step it)
        # the return's worlds draw from their own stream, so searching it leaves every later decision's
        # worlds as they would have been (a duplicate comparison then differs only where the card does)
        self.return_rng = random.Random(f"{self.name}:{seed}:return")

    def reset(self, seat: int, rules: RuleSet) -> None:
        super().reset(seat, rules)
        self.heuristic.reset(seat, rules)
        self.return_rng = random.Random(f"{self.name}:{self.seed}:{seat}:return")

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        start = self.clock()
        budget = DEFAULT_BUDGET if self.time_budget is None else self.time_budget
        know = read(obs)
        endgame = self.endgame and obs.deal.phase == Phase.PLAY and sum(know.counts) <= self.endgame_cards
        width = max(ENDGAME_SHORTLIST, self.shortlist) if endgame else self.shortlist
        ranked = self.heuristic.ranked(obs, legal, width + self.widen)
        reserve = ranked[width:]  # the next best, valued only if the choice among the first settles early
        ranked = ranked[:width]
        self.last_worlds = 0
        self.last_exact = 0
        self.last_settled = False
        self.last_candidates = 0
        self.last_valuations = 0
        if legal[0].kind == ActionKind.RETURN and self.returns and len(ranked) > 1:
            return self._choose_return(obs, ranked, start, budget)
        if legal[0].kind not in (ActionKind.PLAY, ActionKind.PASS) or len(ranked) == 1:
            return ranked[0].action
        hand = list(obs.deal.hand)
        if any(r.action.kind == ActionKind.PLAY and len(r.action.cards) == len(hand) for r in ranked):
            return ranked[0].action  # going out is never worse
        assert self.rules is not None
        rules = self.rules
        decompose = self.heuristic.decomposer(obs.deal.level)
        base = tracker_from(obs.deal, rules)
        top = obs.deal.top

        def candidate(a: Action) -> _Candidate:
            tr = base.copy()
            if a.kind == ActionKind.PASS:
                ended = tr.pass_(self.seat) is not None
                c_top, c_owner = (None, None) if ended else (top[2], top[0]) if top else (None, None)
                rest = hand
            else:
                rest = remove_cards(hand, a.cards)
                _place, leader = tr.play(self.seat, goes_out=not rest)
                c_top, c_owner = (None, None) if leader is not None else (a.combo, self.seat)
            return _Candidate(a, rest, list(decompose(rest).units), tr, c_top, c_owner)

        cands = [candidate(r.action) for r in ranked]
        if self.bomb and top is not None and top[0] % 2 != self.seat % 2:
            extra = self._cheapest_bomb(decompose(hand).units, top[2], legal, obs.deal.level,
                                        [r.action for r in ranked])
            if extra is not None:
                cands.append(candidate(extra))
        deadline = start + budget * SAFETY
        evidence = pass_evidence(obs.deal) if self.evidence else []
        play = PlayEvidence(obs.deal, decompose, self.infer) if self.evidence and self.infer > 0 else None
        bombs: list[tuple[int, Combo]] = []
        if self.evidence and self.read_bombs and rules.bomb_order == BombOrder.SIZE_LADDER:
            # the danger each seat bombs at, as the playouts model it
            rival = self.rival_danger if self.rival_danger > 0 else self.danger
            bombs = bomb_pass_evidence(obs.deal, [self.danger if s % 2 == self.seat % 2 else rival for s in range(4)])
        level = obs.deal.level
        weights = seat_weights(obs.deal, know) if self.belief > 1 or self.belief_steps > 0 else None
        breaker = decompose if self.breaks else None
        worlds = 0
        world_cost = 0.0  # the slowest world so far: another one starts only if it fits
        while worlds < (self.max_worlds or 1_000_000):
            now = self.clock()
            if self.max_worlds is None and now + world_cost >= deadline:
                break
            if weights is None:
                hands = sample_weighted(know, hand, self.rng, evidence, level, self.tries, play, bombs)
            else:
                hands = resample(weights, self.belief, know, hand, self.rng, evidence, level, self.tries, play, bombs)
                if self.belief_steps > 0:
                    hands = chain(weights, self.belief_steps, hands, know, self.rng)
            results = None
            if endgame:
                # a fixed max_worlds promises determinism, so only the node limit may stop the solver then
                solver_deadline = None if self.max_worlds is not None else deadline
                try:
                    results = self._solve(hands, cands, level, rules, solver_deadline)
                    self.last_exact += 1
                except Exhausted:
                    endgame = False  # too big for this decision: every later world uses playouts
            if results is None:
                others = {s: list(decompose(hands[s]).units) for s in range(4) if s != self.seat and hands[s]}
                results = []
                for c in cands:
                    if not c.live:
                        results.append(0.0)  # not recorded
                        continue
                    units = [list(others.get(s, [])) for s in range(4)]
                    units[self.seat] = list(c.rest_units)
                    results.append(self._play_out(units, c.tracker.copy(), c.top, c.owner, breaker, rules))
            self.last_valuations += sum(c.live for c in cands)
            _record(cands, results)
            worlds += 1
            world_cost = max(world_cost, self.clock() - now)
            if self.prune and worlds >= SETTLE_MIN and worlds % SETTLE_EVERY == 0:
                before = sum(c.live for c in cands)
                _prune(cands, self.prior)
                world_cost *= sum(c.live for c in cands) / before  # a world now plays fewer candidates out
            if self.settle and worlds >= SETTLE_MIN and worlds % SETTLE_EVERY == 0 and _settled(cands, self.prior):
                if not reserve:
                    self.last_settled = True
                    break
                # budget left over: spend it on the next candidates rather than stop (the first
                # choice goes on being valued in every world, so their gains are paired with it too)
                before = len(cands)
                cands.extend(candidate(r.action) for r in reserve)
                reserve = []
                world_cost *= len(cands) / before  # a world now plays every candidate out
        self.last_worlds = worlds
        self.last_candidates = len(cands)
        if worlds == 0:
            return ranked[0].action
        return _pick(cands, self.prior, self.confidence)

    def _choose_return(self, obs: MatchObservation, ranked: Sequence[Scored], start: float,
                       budget: float) -> Action:
        """还贡: value each shortlisted card by playing the whole deal out in sampled worlds, from
        the hands after the returns to the end, with the leader the rules give. A partner who also
        received a tribute returns, in each world, the card the heuristic would return from the
        hand that world gives it (its choice is not public until both cards change hands)."""
        assert self.rules is not None
        rules = self.rules
        deal = obs.deal
        level = deal.level
        hand = list(deal.hand)
        payer_of, received, leader = tribute_of(deal, rules)
        mine = payer_of[self.seat]
        mate = partner(self.seat)
        decompose = self.heuristic.decomposer(level)
        breaker = decompose if self.breaks else None
        cands = []
        for r in ranked:
            rest = remove_cards(hand, r.action.cards)
            cands.append(_Candidate(r.action, rest, list(decompose(rest).units), TurnTracker(leader, rules), None, None))
        know = read(obs)
        deadline = start + budget * SAFETY
        worlds = 0
        world_cost = 0.0
        while worlds < (self.max_worlds or 1_000_000):
            now = self.clock()
            if self.max_worlds is None and now + world_cost >= deadline:
                break
            hands = sample_hands(know, hand, self.return_rng)
            if mate in payer_of:
                back = return_eligible(hands[mate], received[mate], level, rules, partner(mate) == payer_of[mate])
                card = max(back, key=lambda c: keep_score(decompose, hands[mate], c, level))
                hands[mate].remove(card)
                hands[payer_of[mate]].append(card)
            shared = {s: list(decompose(hands[s]).units) for s in range(4) if s not in (self.seat, mine)}
            results = []
            for c in cands:
                units = [list(shared.get(s, [])) for s in range(4)]
                units[self.seat] = list(c.rest_units)
                units[mine] = list(decompose(hands[mine] + list(c.action.cards)).units)
                results.append(self._play_out(units, c.tracker.copy(), None, None, breaker, rules))
            _record(cands, results)
            worlds += 1
            world_cost = max(world_cost, self.clock() - now)
            if self.settle and worlds >= SETTLE_MIN and worlds % SETTLE_EVERY == 0 and _settled(cands, self.prior):
                self.last_settled = True
                break
        self.last_worlds = worlds
        self.last_candidates = len(cands)
        if worlds == 0:
            return ranked[0].action
        return _pick(cands, self.prior, self.confidence)

    def _play_out(self, units: list[list[Unit]], tracker: TurnTracker, top: Combo | None, owner: int | None,
                  breaker: Decomposer | None, rules: RuleSet) -> float:
        """One world played to the end from ``tracker``'s turn with the unit policy, in this agent's
        style (``danger``, ``rival_danger``), as a value for its team (level points and ``win_bonus``)."""
        finish = playout(units, tracker, top, owner, dec=breaker, full=self.break_any,
                         danger=self.danger, rivals=self.rival_danger, side=self.seat % 2)
        return level_points(finish, self.seat, rules, self.win_bonus)

    @staticmethod
    def _cheapest_bomb(units: Sequence[Unit], top: Combo, legal: Sequence[Action], level: int,
                       listed: Sequence[Action]) -> Action | None:
        """The lowest bomb of the hand's plan that beats ``top``, unless a bomb is listed already:
        the heuristic bombs only under threat, so whether to bomb now is otherwise never valued."""
        if any(a.combo is not None and a.combo.is_bomb for a in listed):
            return None
        best: Unit | None = None
        for u in units:
            if u.is_bomb and beats(u.combo, top) and (best is None or u.combo.power < best.combo.power):
                best = u
        return None if best is None else find_action(best, legal, level)

    def _solve(self, hands: list[list[Card]], cands: list[_Candidate], level: int, rules: RuleSet,
               deadline: float | None) -> list[float]:
        """Exact values of every candidate in one world; one solver, so they share its table."""
        solver = EndgameSolver(self.seat, level, rules, self.endgame_nodes, deadline, self.clock, self.win_bonus)
        out = []
        for c in cands:
            if not c.live:
                out.append(0.0)  # not recorded
                continue
            hs = [list(h) for h in hands]
            hs[self.seat] = list(c.rest)
            out.append(solver.value(hs, c.tracker.copy(), c.top, c.owner))
        return out


def tribute_of(deal: Observation, rules: RuleSet) -> tuple[dict[int, int], dict[int, Card], int]:
    """From the public tribute (进贡) of a deal in its return phase: each receiver's payer, the card
    each receiver got, and the seat that will lead once the cards are returned."""
    given = next(e for e in deal.events if isinstance(e, TributeGiven)).transfers
    assert deal.prev_finish is not None, "a tribute follows a previous deal"
    to_first = next(t.giver for t in given if t.receiver == deal.prev_finish[0])
    leader = leader_after_tribute(to_first, deal.prev_finish, len(given) == 2, rules)
    return {t.receiver: t.giver for t in given}, {t.receiver: t.card for t in given}, leader


def _record(cands: Sequence[_Candidate], results: Sequence[float]) -> None:
    """Add one world's values: each candidate's gain is paired with the first choice's on that world."""
    for c, v in zip(cands, results, strict=True):
        if not c.live:
            continue
        d = v - results[0]
        c.total += d
        c.sq += d * d
        c.n += 1


def _pick(cands: Sequence[_Candidate], prior: float, confidence: float) -> Action:
    """The first choice, unless an alternative's pessimistic gain over it (:func:`_lower_bound`) is positive."""
    best = max(range(len(cands)), key=lambda i: 0.0 if i == 0 else
               _lower_bound(cands[i], prior, confidence) if cands[i].live else -math.inf)
    return cands[best].action


def _stats(c: _Candidate) -> tuple[float, float]:
    """Mean and standard error of ``c``'s paired gain over the first choice, over its worlds (≥ 1)."""
    mean = c.total / c.n
    var = max(0.0, c.sq / c.n - mean * mean)
    return mean, math.sqrt(var / c.n)


def _settled(cands: Sequence[_Candidate], prior: float = PRIOR) -> bool:
    """Whether more worlds would almost surely leave the choice as it is: either no alternative
    can plausibly clear the prior, or one clears it and can plausibly be caught by no other. A
    candidate valued in fewer than ``SETTLE_MIN`` worlds (one added late) keeps it open."""
    if any(c.n < SETTLE_MIN for c in cands if c.live):
        return False
    stats = [_stats(c) for c in cands[1:] if c.live]
    if not stats:
        return True
    if all(m + SETTLE_Z * se < prior for m, se in stats):
        return True
    best = max(range(len(stats)), key=lambda i: stats[i][0] - SETTLE_Z * stats[i][1])
    low = stats[best][0] - SETTLE_Z * stats[best][1]
    return low > prior and all(m + SETTLE_Z * se < low for i, (m, se) in enumerate(stats) if i != best)


def _prune(cands: Sequence[_Candidate], prior: float = PRIOR) -> None:
    """Racing: stop valuing each alternative that more worlds would almost surely leave unchosen,
    by the test :func:`_settled` applies to all of them at once — it cannot plausibly clear the
    prior, or another clears it and it cannot plausibly catch that one. The first choice stays:
    every gain is paired with its value in the same world."""
    alive = [c for c in cands[1:] if c.live and c.n >= SETTLE_MIN]
    if not alive:
        return
    stats = {id(c): _stats(c) for c in alive}
    low = max(m - SETTLE_Z * se for m, se in stats.values())
    bar = max(prior, low)
    for c in alive:
        m, se = stats[id(c)]
        if m + SETTLE_Z * se < bar:
            c.live = False


def _lower_bound(c: _Candidate, prior: float = PRIOR, confidence: float = CONFIDENCE) -> float:
    """A pessimistic estimate of how much better ``c`` is than the heuristic's first choice: with
    few worlds a lucky mean must clear its standard error as well as the prior."""
    if c.n == 0:
        return -math.inf
    mean, se = _stats(c)
    return mean - prior - confidence * se


OPTIONS = {
    "prior": Option(float, PRIOR, "level points an alternative must gain over the heuristic's first choice", 0, 10),
    "confidence": Option(float, CONFIDENCE, "standard errors that gain must clear as well", 0, 10),
    "shortlist": Option(int, SHORTLIST, "candidates taken from the heuristic's ranking", 1, 50),
    "max_worlds": Option(int, 0, "worlds per decision, ignoring the clock (deterministic); 0: until the budget",
                         0, 100_000),
    "endgame": Option(bool, True, "solve worlds exactly once few cards are left (endgame_cards)"),
    "endgame_cards": Option(int, ENDGAME_CARDS, "cards left in all hands at which worlds are solved exactly", 4, 54),
    "endgame_nodes": Option(int, ENDGAME_NODES, "the exact solver's node limit per world (then playouts)", 100,
                            1_000_000),
    "evidence": Option(bool, True, "redraw worlds that contradict a seat's passes"),
    "bomb": Option(bool, BOMB, "value the cheapest bomb over an opponent's play as well when the shortlist holds none"),
    "infer": Option(int, INFER, "each other seat's latest plays and passes a world must explain as the unit policy "
                    "would have made them (0: passes on singles and pairs only)", 0, 50),
    "tries": Option(int, TRIES, "draws per world at most while it contradicts the evidence", 1, 64),
    "breaks": Option(bool, True, "playouts break pairs, triples and full houses to follow"),
    "break_any": Option(int, BREAK_ANY, "a playout's first follows that may break any unit, each break weighed by a "
                        "fresh decomposition as the heuristic weighs it (with breaks; 0: none)", 0, 1000, before=0),
    "returns": Option(bool, RETURNS, "choose the return (还贡) card by playing whole deals out in sampled worlds "
                      "(off: the heuristic's card)", before=False),
    "settle": Option(bool, True, "stop before the budget once the choice is settled"),
    "prune": Option(bool, PRUNE, "racing: stop playing out the alternatives that more worlds would almost surely leave "
                    "unchosen, so that the rest get more worlds in the same time", before=False),
    "widen": Option(int, WIDEN, "candidates added from the heuristic's ranking when the choice settles with budget left",
                    0, 50),
    "danger": Option(int, DANGER, "an opponent with this many cards or fewer is close to going out, in the "
                     "shortlist and for the playouts' seats (the opponents' too unless rival_danger gives theirs): "
                     "worth a bomb, and a costlier break to stop", 0, 27, before=DANGER),
    "read_bombs": Option(bool, READ_BOMBS, "worlds give no bomb over a play to a seat that passed on it while the "
                         "play's owner was close to going out (the heuristic would have bombed)", before=False),
    "belief": Option(int, BELIEF, "worlds drawn for each one kept, the one kept by a belief over whole hands learned "
                     "from play (a bomb kept back, low singles led first); 1: every draw kept", 1, 64, before=1),
    "belief_steps": Option(int, 0, "then swaps of two hidden cards between two hands, each kept or undone by that "
                           "belief (a Metropolis chain; 0: none)", 0, 10_000, before=0),
    "rival_danger": Option(int, 0, "the opponents' danger in the playouts (0: the same as danger)", 0, 27, before=0),
    "win_bonus": Option(float, WIN_BONUS, "level points a world adds for winning the deal and takes for losing it",
                        0, 10),
}
register("search", OPTIONS)(lambda seed, budget, **options: SearchAgent(seed, budget, **options))

__all__ = ["DEFAULT_BUDGET", "SearchAgent", "tribute_of"]
