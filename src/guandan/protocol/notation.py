"""Our actions ⇄ the protocol's ``[type, rank, cards]`` triples, and which rule sets it can carry.

The protocol only names the ten standard hand types (牌型) and has no step in which 头游 picks a
tribute card, so :func:`check_rules` refuses 火拼 (huopin) and ``winners_choose`` up front instead of
failing in the middle of a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.cards import Card, card_protocol, parse_card
from ..core.combos import classify
from ..core.deal import Action
from ..core.errors import GuandanError, shown
from ..core.moves import PASS, Move
from ..core.rules import RuleSet, preset
from ..core.vocab import RANKS, ActionKind, EqualTributeAssignment, Phase
from ..i18n import N_
from ..protocol_names import protocol_action
from .errors import ProtocolError

PASS_TRIPLE: list[Any] = ["PASS", "PASS", "PASS"]
STAGE_OF_PHASE: dict[Phase, str] = {Phase.PLAY: "play", Phase.TRIBUTE: "tribute", Phase.RETURN: "back"}
"""Our deal phase → the act message's ``stage`` (还贡 is called "back" there)."""
PHASE_OF_STAGE: dict[str, Phase] = {stage: phase for phase, stage in STAGE_OF_PHASE.items()}
"""An act message's ``stage`` → our deal phase."""
_WORD_OF_KIND: dict[ActionKind, str] = {ActionKind.TRIBUTE: "tribute", ActionKind.RETURN: "back"}
"""A single-card exchange → the protocol's word for it (进贡 ``tribute``, 还贡 ``back``)."""
_KIND_OF_WORD: dict[str, ActionKind] = {word: kind for kind, word in _WORD_OF_KIND.items()}

_STANDARD = preset("competition")
_HAND_TYPE_KEYS = ("straight_len", "tube_pairs", "plate_triples", "airplane", "chain_bombs", "three_joker_bomb",
                   "big_joker_wild", "wild_resolution", "bomb_order", "max_bomb")


def rank_str(level: int) -> str:
    """A level (rank index) as the protocol writes it: ``2``…``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
    return RANKS[level]


def check_rules(rules: RuleSet) -> None:
    """Raise :class:`ProtocolError` unless every hand type and step of ``rules`` has a protocol form.

    The three standard presets pass; 火拼 (extra hand types, stars) and 头游选贡 (``winners_choose``) do not.
    """
    odd = [k for k in _HAND_TYPE_KEYS if getattr(rules, k) != getattr(_STANDARD, k)]
    if odd:
        raise ProtocolError.said(N_("the 2020 protocol only knows the standard hand types (牌型); rule set {name} "
                                    "changes {keys} — use competition, huaian-traditional or huaian-2009"),
                                 name=shown(rules.name), keys=", ".join(odd))
    if rules.equal_tribute_assignment is EqualTributeAssignment.WINNERS_CHOOSE:
        raise ProtocolError.said(N_("the 2020 protocol has no step where 头游 chooses a tribute card "
                                    "(equal_tribute_assignment = winners_choose); use left or random"))


def action_triple(action: Action, level: int) -> list[Any]:
    """An action of ours as the protocol's triple (tribute → ``tribute``, return → ``back``)."""
    if action.kind is ActionKind.PASS:
        return list(PASS_TRIPLE)
    if action.kind is ActionKind.PLAY:
        return protocol_action(action.cards, action.combo, level)
    word = _WORD_OF_KIND.get(action.kind)
    if word is not None and len(action.cards) == 1:
        return [word, word, [card_protocol(action.cards[0])]]
    raise ProtocolError(f"the 2020 protocol cannot express the action {action}")


def parse_protocol_cards(cards: Any) -> tuple[Card, ...]:
    """A protocol card list (``["H2", "SB"]``) as sorted codes; :class:`ProtocolError` naming the bad token."""
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise ProtocolError.said(N_("cards must be a list of card strings, not {value}"), value=shown(cards))
    try:
        return tuple(sorted(parse_card(c, "protocol", i + 1) for i, c in enumerate(cards)))
    except GuandanError as e:  # the card's own words, catalogued where they are
        raise (ProtocolError.said(e.msgid, **e.params) if e.msgid else ProtocolError(str(e))) from None


def move_from_triple(triple: Any, level: int, rules: RuleSet) -> Move:
    """The play a ``[type, rank, cards]`` triple stands for at ``level``: the cards' reading whose
    protocol type and rank match. Raises :class:`ProtocolError` if none (or, impossibly, two) do."""
    if not isinstance(triple, list) or len(triple) != 3:
        raise ProtocolError.said(N_("an action must be a [type, rank, cards] triple, not {value}"), value=shown(triple))
    kind, rank, raw = triple
    if triple == PASS_TRIPLE:
        return PASS
    if kind == PASS_TRIPLE[0]:
        raise ProtocolError.said(N_('a pass is written ["PASS", "PASS", "PASS"], not {value}'), value=shown(triple))
    cards = parse_protocol_cards(raw)
    if not cards:
        raise ProtocolError.said(N_("{kind} {rank} names no cards"), kind=kind, rank=rank)
    found = [Move(cards, c) for c in classify(cards, level, rules) if protocol_action(cards, c, level)[:2] == [kind, rank]]
    if len(found) != 1:
        msgid = (N_("{triple} matches no reading of its cards at level {level}") if not found
                 else N_("{triple} matches more than one reading of its cards at level {level}"))
        raise ProtocolError.said(msgid, triple=shown(triple), level=rank_str(level))
    return found[0]


def action_from_triple(triple: Any, seat: int, level: int, rules: RuleSet) -> Action:
    """Like :func:`move_from_triple`, also for ``tribute``/``back`` triples, as an :class:`Action` of ``seat``."""
    word = triple[0] if isinstance(triple, list) and len(triple) == 3 else None
    kind = _KIND_OF_WORD.get(word) if isinstance(word, str) else None
    if kind is not None:
        cards = parse_protocol_cards(triple[2])
        if triple[1] != triple[0] or len(cards) != 1:
            raise ProtocolError.said(N_("a {word} is written [{quoted}, {quoted}, [card]], not {value}"), word=triple[0],
                                     quoted=shown(triple[0]), value=shown(triple))
        return Action(kind, seat, cards)
    move = move_from_triple(triple, level, rules)
    return Action(ActionKind.PASS, seat) if move.combo is None else Action(ActionKind.PLAY, seat, move.cards, move.combo)


def action_list(legal: Sequence[Action], level: int) -> list[list[Any]]:
    """The act message's ``actionList``: exactly ``legal``, in order, so index i is ``legal[i]``."""
    return [action_triple(a, level) for a in legal]


__all__ = [
    "PASS_TRIPLE",
    "PHASE_OF_STAGE",
    "STAGE_OF_PHASE",
    "action_from_triple",
    "action_list",
    "action_triple",
    "check_rules",
    "move_from_triple",
    "parse_protocol_cards",
    "rank_str",
]
