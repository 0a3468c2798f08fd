"""`heuristic`: knowledge-based play from a hand decomposition (拆牌) and card counting (记牌).

Leads follow the decomposition's plan (:func:`guandan.agents.policy.lead_unit`). When following it
beats with a whole unit if it has one, otherwise it weighs breaking a unit by how much the rest of
the hand loses (a fresh decomposition), and bombs only when that stops an opponent or wins the deal.
Tribute (进贡) and return (还贡) keep the card whose loss hurts the hand least. A few milliseconds per
decision. Its one option, ``danger``, is how few cards make an opponent close to going out (default 6;
the arena finds 10 stronger against this default, which stays the yardstick of every arena row).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from mypy_extensions import mypyc_attr

from ..core.cards import Card, lv, wild_code
from ..core.deal import Action
from ..core.match import MatchObservation
from ..core.rules import RuleSet
from ..core.vocab import ActionKind
from .base import Agent, Option, register
from .counting import read
from .decompose import Decomposer, Decomposition, Unit
from .policy import DANGER, MAX_BREAK_CANDIDATES, Table, bomb_choice, lead_unit, partner_of

_Adder = Callable[[Action | None, float, str], None]
BREAK_TOLERANCE: Final = 4.0  # how much hand score a follow may cost before passing is better


def remove_cards(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return rest


def find_action(unit: Unit, legal: Sequence[Action], level: int) -> Action | None:
    """The legal action that plays ``unit``: the same cards and combo, else the same combo with as
    many wildcards (canonical move lists keep one card set per combo), else the same cards."""
    cards = tuple(sorted(unit.cards))
    same_cards = None
    wc = wild_code(level)
    wilds = cards.count(wc)
    same_combo = None
    for a in legal:
        if a.kind != ActionKind.PLAY:
            continue
        if a.cards == cards:
            if a.combo == unit.combo:
                return a
            same_cards = same_cards or a
        elif a.combo == unit.combo and a.cards.count(wc) == wilds and same_combo is None:
            same_combo = a
    return same_combo or same_cards


def keep_score(decompose: Decomposer, hand: Sequence[Card], card: Card, level: int) -> float:
    """How good ``hand`` is without ``card`` when ``card`` is given away (进贡 / 还贡): the rest's
    decomposition score, less a little for the card's value, since a strong card helps the receiver."""
    return decompose(remove_cards(hand, (card,))).score - 0.3 * lv(card, level)


@dataclass
class Scored:
    action: Action
    score: float
    reason: str


@mypyc_attr(allow_interpreted_subclasses=True)  # an agent is an extension point: tests and plugins subclass it
class HeuristicAgent(Agent):
    name = "heuristic"

    def __init__(self, seed: int | str = 0, time_budget: float | None = None, danger: int = DANGER) -> None:
        super().__init__(seed, time_budget)
        self._decomposer: Decomposer | None = None
        self.danger = danger  # an opponent with this many cards or fewer is close to going out: bomb, break more

    def reset(self, seat: int, rules: RuleSet) -> None:
        super().reset(seat, rules)
        self._decomposer = None

    def decomposer(self, level: int) -> Decomposer:
        assert self.rules is not None, "reset() first"
        if self._decomposer is None or self._decomposer.level != level or self._decomposer.rules is not self.rules:
            self._decomposer = Decomposer(self.rules, level)
        return self._decomposer

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        return self.ranked(obs, legal, 1)[0].action

    # --- ranking (also used by hints and by search's shortlist) ----------------------------
    def ranked(self, obs: MatchObservation, legal: Sequence[Action], k: int) -> list[Scored]:
        """Up to ``k`` distinct actions, best first, each with a short bilingual reason."""
        if self.rules is None:
            raise RuntimeError("the agent needs reset(seat, rules) before choose()")
        first = legal[0]
        if first.kind in (ActionKind.TRIBUTE, ActionKind.RETURN):
            return self._keep_best(obs, legal, k)
        if first.kind == ActionKind.CHOOSE:
            best = sorted(legal, key=lambda a: -lv(a.cards[0], obs.deal.level))
            return [Scored(a, 0.0, "选贡 take the higher tribute card") for a in best[:k]]
        return self._play(obs, legal, k)

    def _keep_best(self, obs: MatchObservation, legal: Sequence[Action], k: int) -> list[Scored]:
        dec = self.decomposer(obs.deal.level)
        hand = list(obs.deal.hand)
        word = "进贡 tribute" if legal[0].kind == ActionKind.TRIBUTE else "还贡 return"
        level = obs.deal.level
        scored = [Scored(a, keep_score(dec, hand, a.cards[0], level), f"{word}: the card the hand misses least")
                  for a in legal]
        scored.sort(key=lambda x: -x.score)
        return scored[:k]

    def table(self, obs: MatchObservation) -> Table:
        know = read(obs)
        counts = [0 if s in obs.deal.finish else know.counts[s] for s in range(4)]
        top = obs.deal.top
        return Table(obs.deal.seat, counts, top[2] if top else None, top[0] if top else None, self.danger)

    def _play(self, obs: MatchObservation, legal: Sequence[Action], k: int) -> list[Scored]:
        level = obs.deal.level
        hand = list(obs.deal.hand)
        dec = self.decomposer(level)(hand)
        t = self.table(obs)
        out: list[Scored] = []
        seen: set[Action] = set()

        def add(a: Action | None, score: float, reason: str) -> None:
            if a is not None and a not in seen:
                seen.add(a)
                out.append(Scored(a, score, reason))

        plays = [a for a in legal if a.kind == ActionKind.PLAY]
        passing = next((a for a in legal if a.kind == ActionKind.PASS), None)
        for a in plays:
            if len(a.cards) == len(hand):
                add(a, 100.0, "出完 go out")
        if t.top is None:
            self._leads(dec, t, legal, level, add)
        else:
            self._follows(obs, dec, t, legal, passing, add)
        if passing is not None:
            add(passing, -50.0, "不要 keep your cards")
        # anything else legal, lowest first, so that k suggestions always exist
        rest = sorted((a for a in plays if a not in seen),
                      key=lambda a: (a.combo.is_bomb if a.combo else 0, a.combo.value if a.combo else 0, -len(a.cards)))
        for a in rest[: max(0, k - len(out))]:
            add(a, -100.0, "可出 also possible")
        if not out:
            add(legal[0], -100.0, "可出 also possible")
        out.sort(key=lambda x: -x.score)  # stable: ties keep the order the rules added them
        return out[:k]

    def _leads(self, dec: Decomposition, t: Table, legal: Sequence[Action], level: int,
               add: _Adder) -> None:
        units = list(dec.units)
        order: list[Unit] = []
        while units:
            u = lead_unit(units, t)
            order.append(u)
            units.remove(u)
        for i, u in enumerate(order):
            reason = _lead_reason(u, t, first=i == 0)
            add(find_action(u, legal, level), 10.0 - i, reason)

    def _follows(self, obs: MatchObservation, dec: Decomposition, t: Table, legal: Sequence[Action],
                 passing: Action | None, add: _Adder) -> None:
        assert t.top is not None
        level = obs.deal.level
        hand = list(obs.deal.hand)
        mate = partner_of(t.seat)
        plays = [a for a in legal if a.kind == ActionKind.PLAY and a.combo is not None]
        normal = [a for a in plays if a.combo is not None and not a.combo.is_bomb]
        if t.owner == mate and passing is not None:
            add(passing, 50.0, "让队友走 partner is winning the round")
        threat = t.owner is not None and t.owner != mate and t.counts[t.owner] <= t.danger
        units = [u for u in dec.units if not u.is_bomb and u.combo.type == t.top.type and u.combo.size == t.top.size]
        exact = [find_action(u, legal, level) for u in sorted(units, key=lambda u: u.value)]
        exact_ok = [a for a in exact if a is not None and a in set(normal)]
        for a in exact_ok:
            assert a.combo is not None
            keep = a.combo.value >= 15 and t.top.value < 11 and not threat and dec.plays > 4
            add(a, 20.0 - a.combo.value * 0.1 - (30.0 if keep else 0.0),
                f"管上 beat with a whole {_zh(a)} from the plan")
        if not exact_ok and normal:
            base = dec.score
            candidates = sorted(normal, key=lambda a: (a.combo.value if a.combo else 0, -a.cards.count(wild_code(level))))
            decomposer = self.decomposer(level)
            tried = 0
            seen_combos: set[object] = set()
            for a in candidates:
                if a.combo in seen_combos:
                    continue
                seen_combos.add(a.combo)
                tried += 1
                if tried > MAX_BREAK_CANDIDATES:
                    break
                loss = base - decomposer(remove_cards(hand, a.cards)).score
                tolerance = BREAK_TOLERANCE + (30.0 if threat else 0.0)
                if loss <= tolerance:
                    add(a, 15.0 - loss, f"拆牌管上 break a unit to beat ({_zh(a)})")
                else:
                    add(a, -60.0 - loss, f"拆牌 costly: {_zh(a)}")
        bomb = bomb_choice(dec.units, t)
        if bomb is not None:
            add(find_action(bomb, legal, level), 12.0 if threat else 8.0,
                "炸 bomb: stop an opponent close to going out" if threat else "炸 bomb to take the lead and finish")
        if passing is not None and t.owner != mate:
            add(passing, 0.0, "不要 pass and keep the plan")



def _zh(a: Action) -> str:
    return str(a.combo) if a.combo else "pass"  # the ranking's own trace, never shown to a person


def _lead_reason(u: Unit, t: Table, first: bool) -> str:
    mate = partner_of(t.seat)
    if first and 0 < t.counts[mate] <= 2 and len(u.cards) == t.counts[mate]:
        return f"送牌 feed your partner: {u.combo}"
    if u.is_bomb:
        return f"炸 lead a bomb: {u.combo}"
    return f"领出 lead from the plan: {u.combo}"


OPTIONS: Final = {
    "danger": Option(int, DANGER, "an opponent with this many cards or fewer is close to going out: "
                     "worth a bomb, and a costlier break to stop", 0, 27, before=DANGER),
}

register("heuristic", OPTIONS)(lambda seed, budget, **options: HeuristicAgent(seed, budget, **options))

__all__ = ["HeuristicAgent", "Scored", "find_action", "keep_score", "remove_cards"]
