"""JSON shapes of engine objects on the wire (docs/web-protocol.md): cards as rules-notation strings,
actions, public events and the two projections a client may see — a seat's view, built only from
``match.observation(seat)``, and the spectator's public view (the same minus the hand and the legal
actions). Nothing here reads another seat's hand: hidden cards cannot reach a frame by mistake.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..core.cards import Card, card_str, parse_card, wild_code
from ..core.combos import Combo, beats, classify, resolve_combo
from ..core.deal import Action, DealView, Observation
from ..core.errors import GuandanError, shown
from ..core.events import Event, MatchOver, Played
from ..core.match import MatchObservation, MatchState, MatchView
from ..core.params import CardList
from ..core.rules import RuleSet
from ..core.tribute import payers_of
from ..core.vocab import RANKS, ActionKind, Phase
from ..i18n import LANGUAGES, N_, translator
from ..present import Presenter, level_text
from ..present.order import play_order

JSON = dict[str, Any]


def cards_json(codes: Iterable[Card]) -> list[str]:
    return [card_str(c) for c in codes]


def action_json(a: Action) -> JSON:
    d: JSON = {"kind": a.kind, "seat": a.seat, "cards": cards_json(a.cards)}
    if a.combo is not None:
        d["combo"] = a.combo.to_dict()
    return d


class Texts:
    """A renderer of one description in every language (``texts(describe)`` is ``{"zh": [...], "en": [...]}``),
    following the playing level of the deal it tells: the deal it begins in, then each deal whose start it
    told (its wildcards are starred, and a play's order on the wire is read at it)."""

    def __init__(self, presenters: Sequence[Presenter]) -> None:
        self.presenters = list(presenters)

    def __call__(self, describe: Callable[[Presenter], list[str]]) -> dict[str, list[str]]:
        return {p.lang: describe(p) for p in self.presenters}

    @property
    def level(self) -> int | None:
        """The playing level (a rank index) of the deal being told, if known."""
        return self.presenters[0].deal_level if self.presenters else None


#: Where a Chinese character meets a digit or a Latin letter: a line may break there (Unicode's line breaking).
_HAN_MEETS_LATIN = re.compile(r"(?<=[\u4e00-\u9fff])(?=[0-9A-Za-z])|(?<=[0-9A-Za-z])(?=[\u4e00-\u9fff])")


class PagePresenter(Presenter):
    """The presenter of the lines a web page shows from the server: the live table's log and the replay's. These
    lines are every reader's alike, no seat's, so both teams' levels are Team 1's first, each after its team's name
    as the page's corner writes them (common.js levelsText: "队1 2 : 队2 5"), and a line that also names its
    declarer's team says whose level is whose. Spaces are no-break bar the one after the colon, and a word joiner
    (U+2060, unseen) holds a Chinese name to its number ("队1"), where a line may otherwise break: a line that wraps
    on a phone never parts a team's name from its number, nor a team from its level."""

    def levels(self, levels: Sequence[int]) -> str:
        web = translator("web", self.lang)
        text = web.gettext("Team 1 {a} : Team 2 {b}").format(a=level_text(levels[0]), b=level_text(levels[1]))
        return _HAN_MEETS_LATIN.sub("\u2060", text.replace(" ", "\u00a0").replace(":\u00a0", ": ", 1))

    def event(self, event: Event) -> list[str]:
        """As :meth:`Presenter.event`, but the match's end in two lines: who won, then the final levels (now that
        each team is named beside its level the whole is long, and a page that shows the levels itself, as the
        table's end-of-deal panel does, takes the first line alone)."""
        if isinstance(event, MatchOver):
            return list(self.match_over(event))
        return super().event(event)



def texts_for(names: Sequence[str] | Callable[[str], Sequence[str]], level: int | None = None) -> Texts:
    """A renderer of one description in every language for a web page (:class:`PagePresenter`), naming seats by
    ``names`` ("Seat N" where a name is empty); ``names`` may also be a function of the language. ``level`` is the
    playing level of the deal the descriptions begin in (its wildcards are starred); a deal's start told later
    sets it."""
    return Texts([PagePresenter(lang, names=names(lang) if callable(names) else names, deal_level=level)
                  for lang in LANGUAGES])


def shown_play(cards: Sequence[Card], combo: Combo, level: int | None) -> JSON:
    """How a play is shown (the wire's extra fields of a ``play`` event): ``order``, its cards in the order
    the combination reads (:func:`guandan.present.order.play_order`, as the terminal shows them), and
    ``wild``, the places in ``order`` of the wildcards (逢人配: the ♥ card of ``level``, the deal's level)."""
    order = play_order(cards, combo, level)
    wild = wild_code(level) if level is not None else None
    return {"order": cards_json(order), "wild": [i for i, c in enumerate(order) if c == wild]}


def event_json(e: Event, texts: Texts | None = None, level: int | None = None) -> JSON:
    """An event on the wire: its typed fields (``Event.to_json``) and, with ``texts``, what it says for
    people in every language (``"text": {"zh": [...], "en": [...]}``) — the browser shows these lines
    and never describes an event itself. A play also tells how it is shown (:func:`shown_play`) at
    ``level``, the deal's playing level: by default the one ``texts`` follows."""
    d = e.to_json()
    if texts is not None:
        d["text"] = texts(lambda p: p.event(e))
    if isinstance(e, Played):
        d.update(shown_play(e.cards, e.combo, level if level is not None or texts is None else texts.level))
    return d


def parse_action(match: MatchState, seat: int, kind: str, cards: Sequence[str], combo: JSON | None) -> Action:
    """The engine action a client asked for. Raises GuandanError naming what is wrong."""
    codes = tuple(parse_card(t) for t in cards)
    resolved = None
    try:
        kind = ActionKind(kind)
    except ValueError:
        raise GuandanError.said(N_("unknown action kind {kind}"), kind=shown(kind)) from None
    if kind == ActionKind.PLAY:
        if match.deal is None:
            raise GuandanError.said(N_("no deal in progress"))
        resolved = resolve_combo(codes, match.deal.level, match.rules, combo)
    elif combo is not None:
        raise GuandanError.said(N_("{kind} takes no combo"), kind=kind)
    if kind == ActionKind.PASS and codes:
        raise GuandanError.said(N_("a pass takes no cards"))
    return Action(kind, seat, codes, resolved)


TRIBUTE_PHASES = (Phase.TRIBUTE, Phase.CHOOSE)
LEGAL_INLINE_MAX = 3000  # a longer legal list (火拼 leads reach 80,000) is answered per selection


def seat_view(obs: MatchObservation, *, with_events: bool, texts: Texts | None = None) -> JSON:
    """What one seat sees: the public view plus its hand and (when it is to move) its legal actions.
    When there are more than LEGAL_INLINE_MAX, only the non-play actions are listed, ``legal_complete``
    is false, and the client asks for the plays of its selection with a ``readings`` frame."""
    view = public_view(obs, with_events=with_events, texts=texts)
    d: Observation = obs.deal
    view["seat"] = d.seat
    view["hand"] = cards_json(d.hand)
    view.update(legal_fields(d.legal))
    return view


def legal_fields(legal: Sequence[Action], *, complete: bool | None = None, can_play: bool | None = None) -> JSON:
    """The legal part of a seat's view: ``legal`` (every action, or only the non-play ones when there are
    more than LEGAL_INLINE_MAX), ``legal_complete`` and ``can_play``. A worker process builds it for a
    position whose plays are too many to generate on the event loop (server/workers.py), which may also
    state ``complete`` and ``can_play`` when it lists no plays at all."""
    if complete is None:
        complete = len(legal) <= LEGAL_INLINE_MAX
    return {"legal": [action_json(a) for a in legal if complete or a.kind != ActionKind.PLAY],
            "legal_complete": complete,
            "can_play": any(a.kind == ActionKind.PLAY for a in legal) if can_play is None else can_play}


def readings_of(match: MatchState, seat: int, cards: Sequence[str]) -> list[JSON]:
    """The legal plays of exactly ``cards`` for the seat to move: each reading that beats the top.
    Raises GuandanError naming a bad card or a card the seat does not hold."""
    codes = selection_of(match, seat, cards)
    deal = match.deal
    assert deal is not None
    top = deal.top_combo
    return [action_json(Action(ActionKind.PLAY, seat, codes, c)) for c in classify(codes, deal.level, match.rules)
            if beats(c, top, match.rules)]


WHY_MAX_CARDS = 10  # a longer selection that is no legal play is told so without being read (classify grows fast)
WHY = {
    "no_combination": N_("These cards make no combination."),
    "too_low": N_("{play} does not beat {top}."),
    "other_kind": N_("{play} cannot follow {top}: play the same kind, or a bomb."),
    "not_legal": N_("These cards are not a legal play now."),
}


def selection_verdict(codes: Sequence[Card], top: Combo | None, level: int, rules: RuleSet) -> JSON:
    """Why a selection that is no legal play is not one, for the player to read before sending it: no
    combination at all, a combination below the table's, or one of another kind — in zh and en."""
    readings = classify(tuple(codes), level, rules) if len(codes) <= WHY_MAX_CARDS else None
    if readings is not None and not readings:
        code, play = "no_combination", None
    elif readings and top is not None:
        # a bomb can follow anything (it is only too low); another play must be of the table's kind and size
        same = [c for c in readings if c.power > 0 or (c.type == top.type and c.size == top.size)]
        code, play = ("too_low", same[0]) if same else ("other_kind", readings[0])
    else:
        code, play = "not_legal", None
    text = {}
    for lang in LANGUAGES:
        p = Presenter(lang)
        words = translator("web", lang).gettext(WHY[code])
        if play is not None and top is not None:
            words = words.format(play=p.combo(play), top=p.combo(top))
        text[lang] = words
    return {"code": code, "text": text}


def selection_of(match: MatchState, seat: int, cards: Sequence[str]) -> tuple[Card, ...]:
    """A ``readings`` request's cards as sorted codes, checked: the play phase, cards the seat holds.
    Raises GuandanError naming a bad card or a card the seat does not hold."""
    deal = match.deal
    if deal is None or deal.phase != Phase.PLAY:
        raise GuandanError.said(N_("readings are for the play phase"))
    codes = tuple(sorted(parse_card(t) for t in cards))
    hand = Counter(deal.hands[seat])  # the requester's own hand (observation() would rebuild every legal move)
    missing = [c for c, n in Counter(codes).items() if hand[c] < n]
    if missing:
        raise GuandanError.said(N_("you do not hold {cards}"), cards=CardList(missing))
    return codes


def public_view(view: MatchView[Any], *, with_events: bool, texts: Texts | None = None) -> JSON:
    """The public part of a view (公开信息): for a spectator, ``match.public_view()``; for a seat, the same
    fields of its observation. No hand, no legal actions, counts only once 报牌 made them public."""
    d: DealView = view.deal
    out: JSON = {
        "phase": d.phase,
        "to_move": d.to_move,
        "level": RANKS[d.level],
        "reported": {str(s): n for s, n in d.reported.items()},
        "played_counts": list(d.played_counts),
        "top": None if d.top is None else {"seat": d.top[0], "cards": cards_json(d.top[1]), "combo": d.top[2].to_dict()},
        "finish": list(d.finish),
        "prev_finish": list(d.prev_finish) if d.prev_finish is not None else None,
        # who pays tribute this deal (进贡), as the core's rule decides it from the last deal's finishing order
        "tribute_payers": payers_of(d.prev_finish) if d.prev_finish is not None and d.phase in TRIBUTE_PHASES else [],
        "first_leader": d.first_leader,
        "deal_index": view.deal_index,
        "levels": [RANKS[x] for x in view.levels],
        "declarer": view.declarer,
        "a_failures": list(view.a_failures),
        "points": list(view.points),
        "winner": view.winner,
        "ended": view.ended,
        "commitment": view.commitment,  # the deal's commitment: its seed is revealed only in the replay
    }
    if with_events:
        out["events"] = [event_json(e, texts, d.level) for e in d.events]
    return out
