"""Hints (提示): the top-k actions for a seat, each with a short reason, for the terminal client,
the web app and game review. Ranks with the strongest available tier's own preference order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.cards import lv
from ..core.deal import Action
from ..core.match import MatchObservation
from ..core.rules import RuleSet, preset
from ..core.tribute import partner
from ..names import combo_name


@dataclass(frozen=True)
class Hint:
    action: Action
    reason: str  # short, bilingual


def _reason(action: Action, obs: MatchObservation) -> str:
    if action.kind == "pass":
        top = obs.deal.top
        if top is not None and top[0] == partner(obs.deal.seat):
            return "让队友走 partner is winning the round"
        return "不要 keep your cards"
    if action.kind == "tribute":
        return "进贡 the highest card is forced"
    if action.kind == "return":
        return "还贡 return your least useful card"
    assert action.combo is not None
    if len(action.cards) == len(obs.deal.hand):
        return f"出完 go out with {combo_name(action.combo)}"
    if action.combo.is_bomb:
        return f"炸 bomb to take the lead: {combo_name(action.combo)}"
    if obs.deal.top is None:
        return f"领出 lead low: {combo_name(action.combo)}"
    return f"管上 smallest play that beats: {combo_name(action.combo)}"


def best_actions(obs: MatchObservation, k: int = 3, rules: RuleSet | None = None,
                 legal: Sequence[Action] | None = None) -> list[Hint]:
    """Up to ``k`` distinct suggestions, best first: the heuristic tier's own ranking (its hand
    decomposition, partnership and bomb rules), with its reason. ``legal`` defaults to the actions
    the observation offers (none unless the seat is to move); ``rules`` to the competition preset,
    whose hand types every preset shares. Suggestions are always from ``legal``."""
    legal = obs.deal.legal if legal is None else legal
    if not legal or k <= 0:
        return []
    from .heuristic import HeuristicAgent

    agent = HeuristicAgent(0)
    agent.reset(obs.deal.seat, rules or preset("competition"))
    return [Hint(s.action, s.reason) for s in agent.ranked(obs, legal, k)]


def simple_rank(obs: MatchObservation, legal: Sequence[Action], k: int = 3) -> list[Hint]:
    """A rule-of-thumb ranking with no hand plan (lowest play first): cheaper, for bulk annotation."""
    level = obs.deal.level
    hand_size = len(obs.deal.hand)

    def rank(a: Action) -> tuple[int, int, int]:
        if a.kind in ("tribute", "return", "choose"):
            return (0, lv(a.cards[0], level), 0)
        if a.kind == "pass":
            partner_top = obs.deal.top is not None and obs.deal.top[0] == partner(obs.deal.seat)
            return (0 if partner_top else 2, 0, 0)
        assert a.combo is not None
        if len(a.cards) == hand_size:
            return (-1, 0, 0)  # going out is always first
        return (3 if a.combo.is_bomb else 1, a.combo.value, -len(a.cards))

    ordered = sorted(legal, key=rank)
    return [Hint(a, _reason(a, obs)) for a in ordered[: max(0, k)]]
