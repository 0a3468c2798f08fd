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
from enum import Enum
from typing import Any, TypeGuard, TypeVar

from ..core.cards import N_CODES, Card, card_str, parse_card
from ..core.combos import Combo, resolve_combo
from ..core.deal import Action
from ..core.errors import GuandanError, shown
from ..core.match import MatchObservation, MatchState
from ..core.params import CardList, SeatNo
from ..core.rules import RuleSet
from ..core.vocab import ActionKind, Phase
from ..i18n import N_

E = TypeVar("E", bound=Enum)


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

#: What can be wrong with a bot's answer, by the code an arena results file keeps (guandan.arena.results).
PROBLEMS = ("nothing", "not_an_action", "other_seat", "unknown_kind", "wrong_phase", "pass_leading",
            "pass_not_allowed", "not_in_hand", "not_legal")


def failed_answer(answer: object, obs: MatchObservation) -> GuandanError:
    """What a bot answered that is not one of its legal actions, in words its author can act on (``played
    ♥3 ♥3, which is not in its hand``, ``answered nothing``): catalogued (``cli``), said with the cards in
    the reader's notation by ``guandan.present.said``; its ``str`` is the English with the engine's cards."""
    return said_problem(answer_problem(answer, obs), answer_record(answer), obs.deal.phase.value)


def answer_record(answer: object) -> Any:
    """A bot's answer as JSON, for a program to read: null for None, ``{"type": "str"}`` for what is not an
    action, else the action as a match record writes it (``{"seat": 0, "kind": "play", "cards": ["H3", "H3"]}``,
    with its ``combo``); a value JSON cannot hold is written as its text."""
    if answer is None:
        return None
    if not isinstance(answer, Action):
        return {"type": type(answer).__name__}
    out: dict[str, Any] = {"seat": _plain(answer.seat), "kind": _plain(answer.kind)}
    cards = answer.cards if isinstance(answer.cards, (tuple, list)) else (answer.cards,)
    if cards:
        out["cards"] = [card_str(c) if _is_card(c) else _plain(c) for c in cards]
    if isinstance(answer.combo, Combo):
        out["combo"] = answer.combo.to_dict()
    return out


def answer_problem(answer: object, obs: MatchObservation) -> str:
    """Which of :data:`PROBLEMS` an answer that is not one of the legal actions of ``obs`` has."""
    if answer is None:
        return "nothing"
    if not isinstance(answer, Action):
        return "not_an_action"
    deal = obs.deal
    if answer.seat != deal.seat:
        return "other_seat"
    try:
        kind = ActionKind(answer.kind)
    except ValueError:
        return "unknown_kind"
    in_phase = ((ActionKind.PLAY, ActionKind.PASS) if deal.phase == Phase.PLAY
                else tuple(k for k in _GIVES if k.value == deal.phase.value))
    if kind not in in_phase:
        return "wrong_phase"
    if kind == ActionKind.PASS:
        return "pass_leading" if deal.top is None else "pass_not_allowed"
    held = Counter(deal.hand)
    if any(held[c] < n for c, n in Counter(answer.cards).items()):
        return "not_in_hand"
    return "not_legal"


def said_problem(problem: str, answer: Any, phase: str) -> GuandanError:
    """The words of ``problem`` (one of :data:`PROBLEMS`) with ``answer`` as :func:`answer_record` writes it,
    answered during ``phase`` (a :class:`Phase` value): what :func:`failed_answer` says, rebuilt from what a
    results file keeps."""
    action = answer if isinstance(answer, dict) else {}
    kind = action.get("kind")
    if problem == "nothing":
        return GuandanError.said(N_("answered nothing"))
    if problem == "not_an_action":
        return GuandanError.said(N_("answered an object of type {kind}, not an action"), kind=action.get("type"))
    if problem == "other_seat":
        other = action.get("seat")
        return GuandanError.said(N_("answered for seat {other}"),
                                 other=SeatNo(other) if isinstance(other, int) and not isinstance(other, bool)
                                 else shown(other))
    if problem == "unknown_kind":
        return GuandanError.said(N_("answered an action of unknown kind {kind}"), kind=shown(kind))
    if problem == "wrong_phase":
        return GuandanError.said(N_("answered {kind} during {phase}"), kind=_enum(ActionKind, kind),
                                 phase=_enum(Phase, phase))
    if problem == "pass_leading":
        return GuandanError.said(N_("passed while leading, which is not allowed"))
    if problem == "pass_not_allowed":
        return GuandanError.said(N_("passed, which is not allowed here"))
    cards = _cards(action.get("cards", []))
    if problem == "not_in_hand":
        if kind == ActionKind.PLAY.value:
            return GuandanError.said(N_("played {cards}, which is not in its hand"), cards=cards)
        return GuandanError.said(N_("gave {cards}, which is not in its hand"), cards=cards)
    if kind == ActionKind.PLAY.value:
        return GuandanError.said(N_("played {cards}, which is not one of its legal plays here"), cards=cards)
    gives = _enum(ActionKind, kind)
    if isinstance(gives, ActionKind) and gives in _GIVES:
        return GuandanError.said(_GIVES[gives], cards=cards)
    return GuandanError.said(N_("answered an action of unknown kind {kind}"), kind=shown(kind))


def _is_card(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < N_CODES


def _plain(value: object) -> Any:
    """``value`` as JSON holds it: an enum's value, a number or a text as it is, anything else as its text."""
    if isinstance(value, Enum):
        value = value.value
    if value is None or isinstance(value, (str, bool, float)):
        return value
    if isinstance(value, int):
        return int(value)  # SeatNo and other int kinds: the number
    return shown(value)


def _enum(kind: type[E], value: Any) -> E | str:
    try:
        return kind(value)
    except (ValueError, TypeError):
        return shown(value)


def _cards(tokens: Any) -> CardList | str:
    """Card tokens of a record as the cards they name, or as written where one is not a card."""
    try:
        return CardList(parse_card(t) for t in tokens)
    except (GuandanError, TypeError, ValueError):
        return " ".join(str(t) for t in tokens) if isinstance(tokens, list) else shown(tokens)
