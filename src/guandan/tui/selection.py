"""From what the player selected or typed to the legal actions it can mean.

A selection is checked in this order, each failure a :class:`InputProblem` whose message is a
catalogue msgid: every token is a card, every card is in the hand (counting copies), the cards form
a hand type (牌型), and some reading of it is legal now. Several legal readings (wildcards, 逢人配)
are all returned so that the player picks one; nothing is applied here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..core.cards import Card, card_str, parse_card
from ..core.combos import classify
from ..core.deal import Action
from ..core.errors import GuandanError
from ..core.rules import RuleSet
from ..i18n import N_, Translator


class InputProblem(GuandanError):
    """Bad input; ``msgid`` is a catalogue message and ``params`` its format fields."""

    def __init__(self, msgid: str, **params: object) -> None:
        super().__init__(msgid.format(**params))
        self.msgid = msgid
        self.params = params

    def text(self, tr: Translator) -> str:
        return tr.gettext(self.msgid).format(**self.params)


def parse_tokens(text: str) -> list[Card]:
    """Cards typed as ``H3 H3 S3`` (RULES.md notation, any case) or ``♥3 小王``; ``*`` is ignored."""
    cards: list[Card] = []
    for token in text.replace(",", " ").split():
        token = token.rstrip("*")
        try:
            cards.append(parse_card(token))
        except GuandanError:
            try:
                cards.append(parse_card(token, "display"))
            except GuandanError:
                raise InputProblem(N_("Unknown card “{token}” (write cards like H3 S10 LJ BJ)"), token=token) from None
    return cards


def check_in_hand(cards: Sequence[Card], hand: Sequence[Card]) -> None:
    have = Counter(hand)
    need = Counter(cards)
    lacking = [card_str(c) for c, n in sorted(need.items()) for _ in range(n - have[c]) if n > have[c]]
    if lacking:
        raise InputProblem(N_("Not in your hand: {cards}"), cards=" ".join(lacking))


def candidates(cards: Sequence[Card], hand: Sequence[Card], legal: Sequence[Action], level: int,
               rules: RuleSet) -> list[Action]:
    """The legal actions the selected ``cards`` can mean (one, or several readings to choose from)."""
    if not legal:
        raise InputProblem(N_("It is not your turn"))
    if not cards:
        raise InputProblem(N_("Select some cards first"))
    check_in_hand(cards, hand)
    kind = legal[0].kind
    if kind in ("tribute", "return", "choose"):
        options = [a for a in legal if a.kind == kind]
        match = [a for a in options if len(cards) == 1 and a.cards == (cards[0],)]
        if not match:
            raise InputProblem(N_("Give exactly one of: {cards}"),
                               cards=" ".join(card_str(a.cards[0]) for a in options))
        return match[:1]
    key = tuple(sorted(cards))
    readings = classify(key, level, rules)
    if not readings:
        raise InputProblem(N_("{cards} is not a hand type (牌型)"), cards=" ".join(card_str(c) for c in key))
    plays = {(tuple(sorted(a.cards)), a.combo) for a in legal if a.kind == "play"}
    legal_readings = [Action("play", legal[0].seat, key, r) for r in readings if (key, r) in plays]
    if not legal_readings:
        if not any(a.kind == "pass" for a in legal):
            raise InputProblem(N_("{cards} cannot be played now"), cards=" ".join(card_str(c) for c in key))
        raise InputProblem(N_("{cards} does not beat the play on the table"), cards=" ".join(card_str(c) for c in key))
    if not rules.declares:
        return legal_readings[:1]  # 火拼: the strongest reading is taken, nothing to declare
    return legal_readings


def pass_action(legal: Sequence[Action]) -> Action:
    act = next((a for a in legal if a.kind == "pass"), None)
    if act is None:
        if legal and legal[0].kind != "play":
            raise InputProblem(N_("You cannot pass now: give a card"))
        raise InputProblem(N_("You lead: you cannot pass"))
    return act
