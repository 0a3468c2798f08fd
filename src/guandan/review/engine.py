"""The evaluation of one decision (复盘的评估), from the deciding seat's observation alone.

For a decision of seat S, :func:`evaluate` receives S's :class:`~guandan.core.match.MatchObservation`
at that moment (its hand, every public event, its legal actions) and the action it took; nothing
else about the deal reaches it. It draws a fixed number of worlds — hidden hands consistent with
everything public, from :func:`guandan.agents.worlds.sample_weighted` exactly as the ``search`` tier
draws them — and values, in every world, the action played and the engine's candidates (the
heuristic's shortlist, as search takes it) the way search does: a unit-policy playout of the rest of
the deal for all four seats (:func:`guandan.agents.worlds.playout`), or, once at most
``ENDGAME_CARDS`` cards are left in all hands, the exact minimax value of the world
(:class:`guandan.agents.endgame.EndgameSolver`). A value is in level points for S's team: the deal's
upgrade (1-2: +3, 1-3: +2, 1-4: +1 under the default table) when its team finishes first, the same
number negated when the other team does (:func:`guandan.agents.worlds.level_points`).

Every candidate is valued on the same worlds, so each comparison with the played action is paired;
the standard error of a gain is that of the mean paired difference. The worlds come from a
generator seeded by the review's seed and the decision's place in the record (deal, action number)
only, so the same observation always gets the same worlds: reshuffling the other seats' hidden cards
in any way the observation allows cannot change a verdict.

Tribute (进贡), the choice of a tribute card (选贡) and return (还贡) decisions are valued the same way:
in each world the other seats' pending tribute and return cards are chosen by a cheap form of the
heuristic's rule (the lowest card its plan holds as a loose single, else the lowest card allowed),
the cards change hands as the rules say, and the deal is played out from its first lead.

:func:`hindsight` values the same candidates in the one real world (every hand known): labelled as
such wherever it is shown, and never an input to the verdict.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..agents.counting import Knowledge, read
from ..agents.decompose import Decomposer, Unit
from ..agents.endgame import EndgameSolver, Exhausted
from ..agents.heuristic import HeuristicAgent, remove_cards
from ..agents.search import ENDGAME_CARDS, ENDGAME_NODES, ENDGAME_SHORTLIST, SHORTLIST
from ..agents.worlds import level_points, pass_evidence, playout, sample_hands, sample_weighted, tracker_from
from ..core.cards import BIG_JOKER, Card, lv
from ..core.combos import Combo
from ..core.deal import Action
from ..core.errors import GuandanError, shown
from ..core.events import TributeGiven, TributePaid
from ..core.match import MatchObservation
from ..core.rules import RuleSet
from ..core.tribute import partner, payers_of, plan_tribute, return_eligible
from ..core.turns import TurnTracker
from ..core.vocab import ActionKind, ComboType, DoubleTributeLeader, Phase
from ..i18n import N_

DEFAULT_BUDGET = 1.0  # seconds of effort per decision (see worlds_for)
WORLDS_PER_SECOND = 400  # worlds one core values in a CPU second, averaged over the decisions of whole deals
MIN_WORLDS = 8
MAX_WORLDS = 100_000
_ANTI_TRIES = 64  # redraws of a tribute-phase world that would have caused an anti-tribute (抗贡)


def worlds_for(budget: float) -> int:
    """The fixed number of worlds a budget buys: ``budget × WORLDS_PER_SECOND`` (at least ``MIN_WORLDS``).
    The budget is effort, not wall time, so a review is the same on any machine."""
    if not math.isfinite(budget) or budget <= 0:
        raise GuandanError.said(N_("the budget must be a positive number of seconds, not {value}"), value=shown(budget))
    return max(MIN_WORLDS, min(MAX_WORLDS, round(budget * WORLDS_PER_SECOND)))


@dataclass(frozen=True)
class Settings:
    """What a review is computed with; recorded in its JSON (``settings``)."""

    budget: float = DEFAULT_BUDGET
    seed: int = 0
    shortlist: int = SHORTLIST
    hindsight: bool = False

    @property
    def worlds(self) -> int:
        return worlds_for(self.budget)


@dataclass(frozen=True)
class Candidate:
    """One action valued over the decision's worlds."""

    action: Action
    value: float  # mean level points for the seat's team
    gain: float  # mean of (this action's value − the played action's), world by world
    se: float  # standard error of that gain (0 for the played action itself)
    heuristic_rank: int | None  # its place in the heuristic's shortlist (0: its first choice), None if not in it


@dataclass(frozen=True)
class Evaluation:
    """The verdict's numbers for one decision. ``candidates`` are best first; the played action is one."""

    played: Action
    candidates: tuple[Candidate, ...]
    worlds: int
    exact_worlds: int  # worlds valued by the exact endgame solver

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    @property
    def played_candidate(self) -> Candidate:
        return next(c for c in self.candidates if c.action == self.played)

    @property
    def loss(self) -> float:
        """Best − played, in level points (≥ 0)."""
        return max(0.0, self.best.gain)

    @property
    def se(self) -> float:
        """The standard error of :attr:`loss` (of the best candidate's paired gain)."""
        return self.best.se


@dataclass(frozen=True)
class Hindsight:
    """The same candidates valued with every hand known (one world: the real one)."""

    best: Action
    best_value: float
    played_value: float
    exact: bool  # solved exactly (endgame) rather than played out

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.played_value)


# --- candidates ----------------------------------------------------------------------------------

def matching_action(played: Action, legal: Sequence[Action]) -> Action:
    """The legal action that is ``played`` (cards in any order, same combo); ``played`` itself if none."""
    want = sorted(played.cards)
    for a in legal:
        if a.kind == played.kind and a.seat == played.seat and a.combo == played.combo and sorted(a.cards) == want:
            return a
    return played


def _endgame(obs: MatchObservation, know: Knowledge) -> bool:
    return obs.deal.phase == Phase.PLAY and sum(know.counts) <= ENDGAME_CARDS


def candidates(obs: MatchObservation, played: Action, rules: RuleSet, shortlist: int = SHORTLIST,
               know: Knowledge | None = None) -> tuple[list[Action], list[int | None]]:
    """The actions valued for a decision: the heuristic's shortlist (longer in an exact endgame, as
    search takes it) and the played action; with each one's place in the shortlist."""
    legal = list(obs.deal.legal)
    if not legal:
        raise GuandanError.said(N_("seat {seat} has no decision to review here"), seat=obs.deal.seat)
    know = know or read(obs)
    agent = HeuristicAgent(0)
    agent.reset(obs.deal.seat, rules)
    k = max(ENDGAME_SHORTLIST, shortlist) if _endgame(obs, know) else shortlist
    ranked = [r.action for r in agent.ranked(obs, legal, k)]
    ranks: list[int | None] = list(range(len(ranked)))
    if played not in ranked:
        ranked.append(played)
        ranks.append(None)
    return ranked, ranks


# --- the play phase ------------------------------------------------------------------------------

@dataclass
class _Line:
    """A candidate's position right after it, for playouts and the solver."""

    rest: list[Card]
    rest_units: list[Unit]
    tracker: TurnTracker
    top: Combo | None
    owner: int | None


def _lines(obs: MatchObservation, actions: Sequence[Action], rules: RuleSet, dec: Decomposer) -> list[_Line]:
    seat = obs.deal.seat
    hand = list(obs.deal.hand)
    base = tracker_from(obs.deal, rules)
    top = obs.deal.top
    out = []
    for a in actions:
        tr = base.copy()
        if a.kind == ActionKind.PASS:
            ended = tr.pass_(seat) is not None
            c_top, c_owner = (None, None) if ended or top is None else (top[2], top[0])
            rest = hand
        else:
            rest = remove_cards(hand, a.cards)
            _place, leader = tr.play(seat, goes_out=not rest)
            c_top, c_owner = (None, None) if leader is not None else (a.combo, seat)
        out.append(_Line(rest, list(dec(rest).units), tr, c_top, c_owner))
    return out


class _PlayValuer:
    """Values every candidate of a play decision in one world (exactly in small endgames)."""

    def __init__(self, obs: MatchObservation, actions: Sequence[Action], rules: RuleSet, dec: Decomposer,
                 exact: bool) -> None:
        self.seat = obs.deal.seat
        self.level = obs.deal.level
        self.rules = rules
        self.dec = dec
        self.lines = _lines(obs, actions, rules, dec)
        self.exact = exact  # cleared for the rest of the decision once a world is too big to solve

    def values(self, hands: list[list[Card]]) -> tuple[list[float], bool]:
        if self.exact:
            try:
                return self._solve(hands), True
            except Exhausted:
                self.exact = False
        others = {s: list(self.dec(hands[s]).units) for s in range(4) if s != self.seat and hands[s]}
        out = []
        for line in self.lines:
            units = [list(others.get(s, [])) for s in range(4)]
            units[self.seat] = list(line.rest_units)
            finish = playout(units, line.tracker.copy(), line.top, line.owner, dec=self.dec)
            out.append(level_points(finish, self.seat, self.rules))
        return out, False

    def _solve(self, hands: list[list[Card]]) -> list[float]:
        solver = EndgameSolver(self.seat, self.level, self.rules, ENDGAME_NODES, None)  # no clock: deterministic
        out = []
        for line in self.lines:
            hs = [list(h) for h in hands]
            hs[self.seat] = list(line.rest)
            out.append(solver.value(hs, line.tracker.copy(), line.top, line.owner))
        return out


# --- tribute, choice and return ------------------------------------------------------------------

def heuristic_give(hand: Sequence[Card], options: Sequence[Card], level: int, dec: Decomposer) -> Card:
    """The card the heuristic gives as tribute or return: the one whose loss the hand misses least,
    lower cards first at equal loss (:meth:`HeuristicAgent._keep_best`'s rule)."""
    best, best_score = options[0], -1e18
    for c in options:
        s = dec(remove_cards(hand, [c])).score - 0.3 * lv(c, level)
        if s > best_score:
            best, best_score = c, s
    return best


class _Decompositions:
    """Decompositions of one world's hands, each hand decomposed once for all candidates."""

    def __init__(self, dec: Decomposer) -> None:
        self.dec = dec
        self.memo: dict[tuple[Card, ...], tuple[Unit, ...]] = {}

    def units(self, hand: Sequence[Card]) -> tuple[Unit, ...]:
        key = tuple(sorted(hand))
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self.dec(key).units
        return got

    def give(self, hand: Sequence[Card], options: Sequence[Card], level: int) -> Card:
        """Another seat's pending tribute or return in a world, by a cheap form of the heuristic's rule
        (one decomposition instead of one per option): the lowest card its plan holds as a loose single,
        else the lowest card it may give."""
        allowed = set(options)
        loose = [u.cards[0] for u in self.units(hand)
                 if u.combo.type == ComboType.SINGLE and u.cards[0] in allowed]
        pool = loose or list(options)
        return min(pool, key=lambda c: (lv(c, level), c))


@dataclass
class _World:
    hands: list[list[Card]]
    paid: dict[int, Card]  # CHOOSE: which payer put down which card (hidden: drawn)


class _GiveValuer:
    """Values tribute, choice and return candidates in one world: the rest of the exchange as the
    rules and the heuristic make it, then a playout from the first lead."""

    def __init__(self, obs: MatchObservation, actions: Sequence[Action], rules: RuleSet, dec: Decomposer) -> None:
        d = obs.deal
        assert d.prev_finish is not None
        self.obs = obs
        self.seat = d.seat
        self.level = d.level
        self.rules = rules
        self.dec = dec
        self.actions = list(actions)
        self.phase = d.phase
        self.prev = d.prev_finish
        self.given = next((e.transfers for e in d.events if isinstance(e, TributeGiven)), ())

    def values(self, world: _World) -> list[float]:
        memo = _Decompositions(self.dec)
        return [self._value(world, a, memo) for a in self.actions]

    def _leader(self, payer_to_first: int) -> int:
        """The first leader after a double tribute: the payer to 头游, or 末游 (the rules' choice)."""
        if self.rules.double_tribute_leader == DoubleTributeLeader.PAYER_TO_FIRST:
            return payer_to_first
        return self.prev[3]

    def _value(self, world: _World, action: Action, memo: _Decompositions) -> float:
        hs = [list(h) for h in world.hands]
        card = action.cards[0]
        level, f1 = self.level, self.prev[0]
        if self.phase == Phase.TRIBUTE:
            plan = plan_tribute(self.prev, {s: hs[s] for s in range(4)}, level, self.rules, random.Random(0))
            payments = [(p.payer, p.receiver, card if p.payer == self.seat else memo.give(hs[p.payer], p.eligible, level))
                        for p in plan.payments]
            assert plan.leader is not None
            leader = plan.leader
        elif self.phase == Phase.CHOOSE:
            taken_from = next(p for p, c in world.paid.items() if c == card)
            other = next(p for p in world.paid if p != taken_from)
            payments = [(taken_from, f1, card), (other, partner(f1), world.paid[other])]
            leader = self._leader(taken_from)
            for payer, _r, c in payments:
                hs[payer].append(c)  # the world holds the payers' hands after paying: put the cards back
        else:  # RETURN: the tribute is public
            payments = [(t.giver, t.receiver, t.card) for t in self.given]
            leader = payments[0][0] if len(payments) == 1 else self._leader(
                next(g for g, r, _c in payments if r == f1))
            for payer, receiver, c in payments:  # undo the public transfer; it is redone below
                hs[receiver].remove(c)
                hs[payer].append(c)
        if self.phase != Phase.RETURN and len(payments) == 1:
            leader = payments[0][0]
        for payer, receiver, c in payments:
            hs[payer].remove(c)
            hs[receiver].append(c)
        for payer, receiver, c in payments:
            if self.phase == Phase.RETURN and receiver == self.seat:
                back = card
            else:
                options = return_eligible(hs[receiver], c, level, self.rules, to_partner=partner(receiver) == payer)
                back = memo.give(hs[receiver], options, level)
            hs[receiver].remove(back)
            hs[payer].append(back)
        units = [list(memo.units(h)) for h in hs]
        finish = playout(units, TurnTracker(leader, self.rules), None, None, dec=self.dec)
        return level_points(finish, self.seat, self.rules)


def _give_world(obs: MatchObservation, know: Knowledge, rng: random.Random) -> _World:
    """One world for a tribute-phase decision, consistent with everything public."""
    d = obs.deal
    hand = list(d.hand)
    if d.phase == Phase.CHOOSE:
        # the two tribute cards are down (the choice shows them) and no longer in the payers' hands
        payers = next(e.payers for e in d.events if isinstance(e, TributePaid))
        cards = [a.cards[0] for a in d.legal]
        if len(cards) == 1:
            cards = cards * 2
        unseen = know.unseen.copy()
        unseen.subtract(Counter(cards))
        counts = list(know.counts)
        for p in payers:
            counts[p] -= 1
        k = replace(know, counts=counts, unseen=+unseen)  # every other fact about the seats stays
        order = list(payers)
        rng.shuffle(order)  # who put down which card is not shown in the observation: drawn
        return _World(sample_hands(k, hand, rng), dict(zip(order, cards, strict=True)))
    if d.phase == Phase.TRIBUTE:
        assert d.prev_finish is not None
        payer_seats = payers_of(d.prev_finish)
        hands = sample_hands(know, hand, rng)
        for _ in range(_ANTI_TRIES):  # no 抗贡 was declared: the payers do not hold both big jokers
            if sum(h.count(BIG_JOKER) for s, h in enumerate(hands) if s in payer_seats) < 2:
                break
            hands = sample_hands(know, hand, rng)
        return _World(hands, {})
    return _World(sample_hands(know, hand, rng), {})


# --- the evaluation ------------------------------------------------------------------------------

def evaluate(obs: MatchObservation, played: Action, rules: RuleSet, settings: Settings, key: str) -> Evaluation:
    """Value ``played`` and the engine's candidates for ``obs``'s seat over ``settings.worlds`` worlds
    drawn from ``obs`` only, with a generator seeded by ``key`` (a public name of the decision)."""
    d = obs.deal
    if d.to_move != d.seat or not d.legal:
        raise GuandanError.said(N_("it is not seat {seat}'s turn in this observation"), seat=d.seat)
    played = matching_action(played, d.legal)
    know = read(obs)
    actions, ranks = candidates(obs, played, rules, settings.shortlist, know)
    n = settings.worlds
    rng = random.Random(f"guandan-review:{settings.seed}:{key}")
    dec = Decomposer(rules, d.level)
    totals = [0.0] * len(actions)
    diffs = [0.0] * len(actions)
    squares = [0.0] * len(actions)
    p = actions.index(played)
    exact_worlds = 0
    play = d.phase == Phase.PLAY
    valuer_play = _PlayValuer(obs, actions, rules, dec, _endgame(obs, know)) if play else None
    valuer_give = None if play else _GiveValuer(obs, actions, rules, dec)
    evidence = pass_evidence(d) if play else []
    for _ in range(n):
        if valuer_play is not None:
            hands = sample_weighted(know, list(d.hand), rng, evidence, d.level)
            values, exact = valuer_play.values(hands)
            exact_worlds += exact
        else:
            assert valuer_give is not None
            values = valuer_give.values(_give_world(obs, know, rng))
        for i, v in enumerate(values):
            totals[i] += v
            g = v - values[p]
            diffs[i] += g
            squares[i] += g * g
    cands = []
    for i, a in enumerate(actions):
        mean = diffs[i] / n
        var = max(0.0, squares[i] / n - mean * mean)
        cands.append(Candidate(a, totals[i] / n, mean, math.sqrt(var / max(1, n - 1)), ranks[i]))
    # best first; at equal value the played action, then the heuristic's order
    order = sorted(range(len(cands)), key=lambda i: (-round(cands[i].gain, 9), i != p, i))
    return Evaluation(played, tuple(cands[i] for i in order), n, exact_worlds)


def hindsight(obs: MatchObservation, played: Action, rules: RuleSet, settings: Settings,
              hands: Sequence[Sequence[Card]], paid: dict[int, Card] | None = None) -> Hindsight:
    """The candidates valued in the real world (``hands``: every seat's cards now; ``paid``: the
    tribute cards down, by payer, at a 选贡 choice). For the ``--hindsight`` column only."""
    d = obs.deal
    played = matching_action(played, d.legal)
    know = read(obs)
    actions, _ranks = candidates(obs, played, rules, settings.shortlist, know)
    dec = Decomposer(rules, d.level)
    world = [list(h) for h in hands]
    if d.phase == Phase.TRIBUTE:
        for payer, c in (paid or {}).items():  # a tribute already put down is still the payer's in a world
            world[payer].append(c)
    if d.phase == Phase.PLAY:
        values, exact = _PlayValuer(obs, actions, rules, dec, _endgame(obs, know)).values(world)
    else:
        values, exact = _GiveValuer(obs, actions, rules, dec).values(_World(world, dict(paid or {}))), False
    best = max(range(len(actions)), key=lambda i: (values[i], actions[i] == played))
    return Hindsight(actions[best], values[best], values[actions.index(played)], exact)


def goes_out(action: Action, obs: MatchObservation) -> bool:
    """Whether ``action`` plays the seat's last cards."""
    return action.kind == ActionKind.PLAY and len(action.cards) == len(obs.deal.hand)


__all__ = ["DEFAULT_BUDGET", "MIN_WORLDS", "WORLDS_PER_SECOND", "Candidate", "Evaluation", "Hindsight", "Settings",
           "candidates", "evaluate", "goes_out", "heuristic_give", "hindsight", "matching_action", "worlds_for"]
