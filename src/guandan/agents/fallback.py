"""The move played for a bot that failed: it raised, returned None, or returned an action that is not legal.

One rule for every face that seats bots in front of people (the web app's tables, ``guandan play``), so a
faulty tier, built in or a plugin, never stalls or loses a game and plays the same move wherever it runs:
the first legal action; or, where listing every play would be slow (the web app under 火拼-like rules), one
found without listing them: the first legal action outside the play phase, PASS when following, else the
lowest card of the hand led as a single. The arena does not use it: there a failing tier is an error or a
counted crash, since its result would not be the tier's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from ..core.cards import Card
from ..core.combos import resolve_combo
from ..core.deal import Action
from ..core.errors import GuandanError
from ..core.match import MatchState
from ..core.rules import RuleSet
from ..core.vocab import ActionKind, Phase


def action_without_listing(seat: int, legal: Sequence[Action] | None, hand: Sequence[Card], following: bool,
                           level: int, rules: RuleSet) -> Action:
    """A legal action found without generating the plays: ``legal[0]`` where the few legal actions are
    listed (outside the play phase), else PASS when ``following``, else the lowest card led as a single."""
    if legal is not None:
        return legal[0]
    if following:
        return Action(ActionKind.PASS, seat)
    card = min(hand)
    return Action(ActionKind.PLAY, seat, (card,), resolve_combo((card,), level, rules))


def fallback_action(match: MatchState, seat: int, *, list_plays: bool = True) -> Action:
    """The action played for the bot at ``seat`` (the seat to move) when it failed: the first of
    ``match.legal_actions()``, or with ``list_plays=False`` one found without listing the plays."""
    deal = match.deal
    if deal is None or match.to_move != seat:
        raise GuandanError("the fallback is asked for a seat that is not to move")
    if list_plays:
        return match.legal_actions()[0]
    legal = None if deal.phase == Phase.PLAY else tuple(match.legal_actions())
    return action_without_listing(seat, legal, deal.hands[seat], deal.top is not None, deal.level, match.rules)


def is_legal(action: object, legal: Sequence[Action]) -> TypeGuard[Action]:
    """Whether a bot's answer is one of the legal actions (None, or anything not an Action, is not)."""
    return isinstance(action, Action) and action in legal
