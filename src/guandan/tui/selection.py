"""From what the player selected or typed to the legal actions it can mean.

A selection is checked in this order, each failure a :class:`InputProblem` whose message is a
catalogue msgid: every token is a card, every card is in the hand (counting copies), the cards form
a hand type (牌型), and some reading of it is legal now. Several legal readings (wildcards, 逢人配)
are all returned so that the player picks one; nothing is applied here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..core.cards import Card, parse_card
from ..core.combos import classify
from ..core.deal import Action
from ..core.errors import GuandanError
from ..core.rules import RuleSet
from ..core.vocab import ActionKind
from ..i18n import N_, Translator
from ..present import Presenter, fill
from .hand import level_sorted
from .text import typed_tokens

GIVE_KINDS = frozenset({ActionKind.TRIBUTE, ActionKind.RETURN, ActionKind.CHOOSE})  # one card changes hands
#: Why one card from the hand cannot be given now, by the kind of giving; then the cards that can.
GIVE_REFUSALS = {
    ActionKind.TRIBUTE: N_("{card} cannot be paid as tribute: the rules take your highest card (wildcards excepted): "
                           "{cards}"),
    ActionKind.RETURN: N_("{card} cannot be given back; these can: {cards}"),
    ActionKind.CHOOSE: N_("{card} is not one of the tribute cards; take one of: {cards}"),
}


class Cards(tuple[Card, ...]):
    """A problem's cards: shown as people write them (``♠10 小王``) by :meth:`InputProblem.text`."""

    __slots__ = ()


class InputProblem(GuandanError):
    """Bad input; ``msgid`` is a ``tui`` catalogue message and ``params`` its format fields
    (:class:`Cards` values are written by the game's presenter)."""

    msgid: str

    def __init__(self, msgid: str, **params: object) -> None:
        super().__init__(msgid.format(**{k: typed_tokens(v) if isinstance(v, Cards) else v for k, v in params.items()}))
        self.msgid = msgid
        self.params = params

    def text(self, tr: Translator, present: Presenter, level: int | None = None) -> str:
        """The message in the reader's language; with the deal's ``level`` its cards are in the hand's order and
        the wildcards starred, as the hand and the "selected: …" line show them (not ♥2 ♥2 ♠8 ♠9 ♣10)."""
        fields = {k: present.cards(v if level is None else level_sorted(v, level), level) if isinstance(v, Cards) else v
                  for k, v in self.params.items()}
        return fill(tr.gettext(self.msgid), **fields)


def parse_tokens(text: str) -> list[Card]:
    """Cards typed as ``H3 H3 S10`` (RULES.md notation, any case, 10 or T) or ``♥3 小王``; ``*`` is ignored."""
    cards: list[Card] = []
    for token in text.replace(",", " ").replace("，", " ").split():
        token = token.rstrip("*")
        for attempt in (token, token.upper()):
            try:
                cards.append(parse_card(attempt, "display"))
                break
            except GuandanError:
                continue
        else:
            raise InputProblem(N_("Unknown card “{token}” (write cards like H3 S10 LJ BJ)"), token=token)
    return cards


def check_in_hand(cards: Sequence[Card], hand: Sequence[Card]) -> None:
    have = Counter(hand)
    need = Counter(cards)
    absent = [c for c, n in sorted(need.items()) for _ in range(n) if not have[c]]
    if absent:
        raise InputProblem(N_("Not in your hand: {cards}"), cards=Cards(absent))
    # a card typed more often than it is held: "not in your hand: ♠9" would be untrue of a hand holding two
    short = next((c for c, n in sorted(need.items()) if n > have[c]), None)
    if short is not None:
        raise InputProblem(N_("You hold only {n} {cards}"), n=have[short], cards=Cards((short,)))


def candidates(cards: Sequence[Card], hand: Sequence[Card], legal: Sequence[Action], level: int,
               rules: RuleSet) -> list[Action]:
    """The legal actions the selected ``cards`` can mean (one, or several readings to choose from)."""
    if not legal:
        raise InputProblem(N_("It is not your turn"))
    if not cards:
        raise InputProblem(N_("Select some cards first"))
    kind = legal[0].kind
    if kind != ActionKind.CHOOSE:  # the tribute cards 头游 chooses from are the payers', not yet in the hand
        check_in_hand(cards, hand)
    if kind in GIVE_KINDS:
        options = [a for a in legal if a.kind == kind]
        match = [a for a in options if len(cards) == 1 and a.cards == (cards[0],)]
        if not match:
            allowed = Cards(sorted({a.cards[0] for a in options}))
            if len(cards) != 1:
                raise InputProblem(N_("Give exactly one of: {cards}"), cards=allowed)
            # one card, not one of these: say why it cannot go, not only what can
            raise InputProblem(GIVE_REFUSALS[kind], card=Cards(cards), cards=allowed)
        return match[:1]
    key = tuple(sorted(cards))
    readings = classify(key, level, rules)
    if not readings:
        raise InputProblem(N_("{cards} is not a hand type"), cards=Cards(key))
    plays = {(tuple(sorted(a.cards)), a.combo) for a in legal if a.kind == ActionKind.PLAY}
    legal_readings = [Action(ActionKind.PLAY, legal[0].seat, key, r) for r in readings if (key, r) in plays]
    if not legal_readings:
        if not any(a.kind == ActionKind.PASS for a in legal):
            raise InputProblem(N_("{cards} cannot be played now"), cards=Cards(key))
        raise InputProblem(N_("{cards} does not beat the play on the table"), cards=Cards(key))
    if not rules.declares:
        return legal_readings[:1]  # 火拼: the strongest reading is taken, nothing to declare
    return legal_readings


def pass_action(legal: Sequence[Action]) -> Action:
    act = next((a for a in legal if a.kind == ActionKind.PASS), None)
    if act is None:
        if legal and legal[0].kind != ActionKind.PLAY:
            raise InputProblem(N_("You cannot pass now: give a card"))
        raise InputProblem(N_("You lead: you cannot pass"))
    return act


def describe_selection(cards: Sequence[Card], hand: Sequence[Card], legal: Sequence[Action], level: int,
                       rules: RuleSet, tr: Translator, present: Presenter) -> str:
    """The "selected: …" line: the selected cards and what they would be played as, or why they
    cannot be (not a hand type, does not beat the table, not a card you may give). With nothing selected, how to
    select when there is something to do (``legal``), else nothing."""
    _ = tr.gettext
    if not cards:
        return _("No cards selected: ←/→ to move, space to select") if legal else ""
    shown = present.cards(cards, level)
    if legal and legal[0].kind in GIVE_KINDS:
        ok = len(cards) == 1 and any(a.cards == (cards[0],) for a in legal)
        return _("Selected: {cards} — Enter gives it").format(cards=shown) if ok else _(
            "Selected: {cards} — you must give exactly one of the highlighted cards").format(cards=shown)
    readings = classify(tuple(sorted(cards)), level, rules)
    if not readings:
        return _("Selected: {cards} — not a hand type").format(cards=shown)
    if not legal:
        return _("Selected: {cards} — {combo}").format(cards=shown, combo=present.combo(readings[0]))
    try:
        found = candidates(cards, hand, legal, level, rules)
    except InputProblem:
        names = _(" or ").join(present.combo(r) for r in readings)
        if not any(a.kind == ActionKind.PASS for a in legal):
            return _("Selected: {cards} — {combo}, which cannot be played now").format(cards=shown, combo=names)
        return _("Selected: {cards} — {combo}, which does not beat the play on the table").format(
            cards=shown, combo=names)
    names = _(" or ").join(present.combo(a.combo) for a in found if a.combo is not None)
    if len(found) > 1:
        # the instruction before the readings: a long list wraps or is cut at its end, never the keys
        return _("Selected: {cards} — several readings (Enter, then pick a number): {combo}").format(
            cards=shown, combo=names)
    return _("Selected: {cards} — plays as {combo}").format(cards=shown, combo=names)
