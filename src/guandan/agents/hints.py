"""Hints (提示): the top-k actions for a seat, each with the reason it is suggested, for the terminal
client, the web app and game review. Ranks with the strongest available tier's own preference order.

A hint's :class:`HintReason` is a fact about the action in the seat's situation, worked out from the
observation and the action alone (:func:`reason_for`), never from where the ranking put it: a pair of
level cards that beats the top is :attr:`HintReason.BEAT`, not :attr:`HintReason.BEAT_SMALLEST`, when a
pair of 6s beats it too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..core.cards import lv, wild_code
from ..core.combos import Combo
from ..core.deal import Action
from ..core.match import MatchObservation
from ..core.rules import RuleSet, preset
from ..core.tribute import partner
from ..core.vocab import ActionKind


class HintReason(StrEnum):
    """Why a hinted action is suggested; each is true of the action it labels."""

    GO_OUT = "go_out"  # 出完: plays the last cards in hand
    BOMB = "bomb"  # 炸: a bomb, to take the round or the lead
    LEAD_LOW = "lead_low"  # 领出: a lead of the hand's lowest play of its kind (combo type and size)
    LEAD = "lead"  # any other lead
    BEAT_SMALLEST = "beat_smallest"  # 管上: the lowest-valued non-bomb play of its type that beats the top
    BEAT = "beat"  # beats the top otherwise (a higher play of the type)
    LET_PARTNER_WIN = "let_partner_win"  # 让队友走: pass while the partner holds the top
    PASS = "pass"  # 不要: any other pass
    TRIBUTE_FORCED = "tribute_forced"  # 进贡: the tribute is the highest card, by rule
    CHOOSE_HIGHER = "choose_higher"  # 选贡: a tribute card at least as high as the other (they are equal)
    RETURN = "return"  # 还贡: give a card back


@dataclass(frozen=True)
class Hint:
    """A suggested action and why (the presentation layer words the reason for people)."""

    action: Action
    reason: HintReason


def _plays_of_kind(legal: Sequence[Action], combo: Combo) -> list[Combo]:
    """The non-bomb combos in ``legal`` of ``combo``'s type and size."""
    return [a.combo for a in legal if a.kind == ActionKind.PLAY and a.combo is not None and not a.combo.is_bomb
            and a.combo.type == combo.type and a.combo.size == combo.size]


def reason_for(action: Action, obs: MatchObservation, legal: Sequence[Action] | None = None) -> HintReason:
    """What ``action`` does for ``obs``'s seat, judged against the legal actions (``legal``, by default
    the observation's): whether it goes out, bombs, is the lowest lead or the smallest beat of its kind."""
    deal = obs.deal
    legal = deal.legal if legal is None else legal
    kind = action.kind
    if kind == ActionKind.TRIBUTE:
        return HintReason.TRIBUTE_FORCED
    if kind == ActionKind.CHOOSE:
        return HintReason.CHOOSE_HIGHER  # the two cards to choose from are of equal rank (winners_choose)
    if kind == ActionKind.RETURN:
        return HintReason.RETURN
    if kind == ActionKind.PASS:
        top = deal.top
        return HintReason.LET_PARTNER_WIN if top is not None and top[0] == partner(deal.seat) else HintReason.PASS
    combo = action.combo
    assert combo is not None
    if len(action.cards) == len(deal.hand):
        return HintReason.GO_OUT
    if combo.is_bomb:
        return HintReason.BOMB
    lowest = min(c.value for c in _plays_of_kind(legal, combo) or [combo])
    if deal.top is None:
        return HintReason.LEAD_LOW if combo.value <= lowest else HintReason.LEAD
    return HintReason.BEAT_SMALLEST if combo.value <= lowest else HintReason.BEAT


def hints(obs: MatchObservation, k: int = 3, rules: RuleSet | None = None,
          legal: Sequence[Action] | None = None) -> list[Hint]:
    """Up to ``k`` distinct suggestions, best first, each with its true reason: the heuristic tier's
    own ranking (its hand decomposition, partnership and bomb rules). ``legal`` defaults to the
    actions the observation offers (none unless the seat is to move); ``rules`` to the competition
    preset, whose hand types every preset shares. Suggestions are always from ``legal``."""
    legal = obs.deal.legal if legal is None else legal
    if not legal or k <= 0:
        return []
    from .heuristic import HeuristicAgent

    agent = HeuristicAgent(0)
    agent.reset(obs.deal.seat, rules or preset("competition"))
    ranked = cheaper_bombs_first([s.action for s in agent.ranked(obs, legal, k)], obs, legal)[:k]
    return [Hint(a, reason_for(a, obs, legal)) for a in ranked]


def bomb_cost(action: Action, level: int) -> tuple[int, int, int]:
    """What a bomb spends: its cards (a longer bomb is a stronger one), then its wildcards (逢人配), then its
    strength."""
    assert action.combo is not None
    return (len(action.cards), action.cards.count(wild_code(level)), action.combo.power)


def cheaper_bombs_first(ranked: list[Action], obs: MatchObservation, legal: Sequence[Action]) -> list[Action]:
    """``ranked`` with its bombs in the places it gives bombs, cheapest first (:func:`bomb_cost`), and before a bomb
    that spends a wildcard the cheapest legal bomb that spends none and no more cards, where ``ranked`` lacks one:
    the heuristic tier plans a wildcard into a bomb of its rank (♠6 ♥6 ♦6 ♦6 ♥2*) and bombs with that unit, while a
    player asking for hints is better offered the four 6s first, keeping the wildcard. Going out stays where it is.
    The tier's own play is not changed: only the order its suggestions are offered in."""
    level, left = obs.deal.level, len(obs.deal.hand)

    def bomb(a: Action) -> bool:
        return a.kind == ActionKind.PLAY and a.combo is not None and a.combo.is_bomb and len(a.cards) < left

    out = list(ranked)
    wild = [a for a in out if bomb(a) and bomb_cost(a, level)[1]]
    if wild:
        most = max(len(a.cards) for a in wild)
        plain = [a for a in legal if bomb(a) and not bomb_cost(a, level)[1] and len(a.cards) <= most and a not in out]
        if plain:
            out.insert(out.index(wild[0]), min(plain, key=lambda a: bomb_cost(a, level)))
    places = [i for i, a in enumerate(out) if bomb(a)]
    for i, a in zip(places, sorted((out[i] for i in places), key=lambda a: bomb_cost(a, level)), strict=True):
        out[i] = a
    return out


best_actions = hints
"""The name the terminal client and the server call :func:`hints` by."""


def simple_rank(obs: MatchObservation, legal: Sequence[Action], k: int = 3) -> list[Hint]:
    """A rule-of-thumb ranking with no hand plan (lowest play first): cheaper, for bulk annotation."""
    level = obs.deal.level
    hand_size = len(obs.deal.hand)

    def rank(a: Action) -> tuple[int, int, int]:
        if a.kind in (ActionKind.TRIBUTE, ActionKind.RETURN, ActionKind.CHOOSE):
            return (0, lv(a.cards[0], level), 0)
        if a.kind == ActionKind.PASS:
            partner_top = obs.deal.top is not None and obs.deal.top[0] == partner(obs.deal.seat)
            return (0 if partner_top else 2, 0, 0)
        assert a.combo is not None
        if len(a.cards) == hand_size:
            return (-1, 0, 0)  # going out is always first
        return (3 if a.combo.is_bomb else 1, a.combo.value, -len(a.cards))

    ordered = sorted(legal, key=rank)
    return [Hint(a, reason_for(a, obs, legal)) for a in ordered[: max(0, k)]]


__all__ = ["Hint", "HintReason", "best_actions", "bomb_cost", "cheaper_bombs_first", "hints", "reason_for", "simple_rank"]
