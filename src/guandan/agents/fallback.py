"""The move played for a bot that failed: it raised, returned None, or returned an action that is not legal.

One rule for every face that seats bots in front of people (the web app's tables, ``guandan play``), so a
faulty tier, built in or a plugin, never stalls or loses a game and plays the same move wherever it runs:
the first legal action; or, where listing every play would be slow (the web app under 火拼-like rules), one
found without listing them: the first legal action outside the play phase, PASS when following, else the
lowest card of the hand led as a single. The arena does not use it: there a failing tier is an error or a
counted crash, since its result would not be the tier's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypeGuard

from ..core.cards import Card
from ..core.combos import resolve_combo
from ..core.deal import Action
from ..core.errors import GuandanError, shown
from ..core.match import MatchObservation, MatchState
from ..core.params import CardList, SeatNo
from ..core.rules import RuleSet
from ..core.vocab import ActionKind, Phase
from ..i18n import N_


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


_GIVES = {
    ActionKind.TRIBUTE: N_("paid {cards} as tribute, which is not allowed here"),
    ActionKind.CHOOSE: N_("took {cards} from the tribute, which is not allowed here"),
    ActionKind.RETURN: N_("gave back {cards}, which is not allowed here"),
}


def failed_answer(answer: object, obs: MatchObservation) -> GuandanError:
    """What a bot answered that is not one of its legal actions, in words its author can act on (``played
    ♥3 ♥3, which is not in its hand``, ``answered nothing``): catalogued (``cli``), said with the cards in
    the reader's notation by ``guandan.present.said``; its ``str`` is the English with the engine's cards."""
    if answer is None:
        return GuandanError.said(N_("answered nothing"))
    if not isinstance(answer, Action):
        # the type's name, as the raising case names the exception's: what the author's code returned
        return GuandanError.said(N_("answered an object of type {kind}, not an action"), kind=type(answer).__name__)
    deal = obs.deal
    if answer.seat != deal.seat:
        return GuandanError.said(N_("answered for seat {other}"), other=SeatNo(answer.seat))
    try:
        kind = ActionKind(answer.kind)
    except ValueError:
        return GuandanError.said(N_("answered an action of unknown kind {kind}"), kind=shown(answer.kind))
    in_phase = ((ActionKind.PLAY, ActionKind.PASS) if deal.phase == Phase.PLAY
                else tuple(k for k in _GIVES if k.value == deal.phase.value))
    if kind not in in_phase:
        return GuandanError.said(N_("answered {kind} during {phase}"), kind=kind, phase=deal.phase)
    if kind == ActionKind.PASS:
        if deal.top is None:
            return GuandanError.said(N_("passed while leading, which is not allowed"))
        return GuandanError.said(N_("passed, which is not allowed here"))
    held = Counter(deal.hand)
    cards = CardList(answer.cards)
    if any(held[c] < n for c, n in Counter(answer.cards).items()):
        if kind == ActionKind.PLAY:
            return GuandanError.said(N_("played {cards}, which is not in its hand"), cards=cards)
        return GuandanError.said(N_("gave {cards}, which is not in its hand"), cards=cards)
    if kind == ActionKind.PLAY:
        return GuandanError.said(N_("played {cards}, which is not one of its legal plays here"), cards=cards)
    return GuandanError.said(_GIVES[kind], cards=cards)
