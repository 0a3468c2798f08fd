"""The one presentation layer: cards, plays, actions, events and results described for people.

Every sentence comes from the gettext domain ``game`` (``locale/{zh,en}/LC_MESSAGES/game.po``), so the
terminal client, ``guandan replay``/``simulate``, the tournament pages and the web app (which receives
the lines rendered here) all say the same thing in Chinese and English. 10 is written "10", jokers are
小王/大王 (Small Joker/Big Joker), levels are 2…A; no Python value is ever shown.

Seats are named by the caller's choice: relative to a viewer (你/下家/对家/上家), by player names, or
"Seat 1"…"Seat 4" (seats are numbered from 1 for people, from 0 in the engine).

A play's cards are shown in the order its combination reads (:func:`.order.play_order`), the wildcards
starred once the presenter knows the deal's level: given to it, or learnt from the ``DealStart`` it tells.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, cached_property

from ..agents.hints import HintReason
from ..cliutil import cli_lang
from ..cliutil import said as said_with
from ..core.cards import BIG_JOKER, SMALL_JOKER, Card, rank_index, suit_of, wild_code
from ..core.combos import Combo
from ..core.deal import Action
from ..core.events import (
    AntiTribute,
    CardsReturned,
    DealOver,
    DealSettled,
    DealStart,
    Event,
    FirstLead,
    Lead,
    MatchOver,
    Note,
    Passed,
    Played,
    Reported,
    RoundWon,
    TributeGiven,
    TributePaid,
    WentOut,
)
from ..core.params import CardList, Listed
from ..core.vocab import RANKS, ActionKind, ComboKey, ComboType, Phase, SettlementNote
from ..i18n import N_, Translator, fill, translator
from .order import play_order

DOMAIN = "game"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}

COMBO_NAMES: dict[ComboType, str] = {
    ComboType.SINGLE: N_("single"),
    ComboType.PAIR: N_("pair"),
    ComboType.TRIPLE: N_("triple"),
    ComboType.FULL_HOUSE: N_("full house"),
    ComboType.STRAIGHT: N_("straight"),
    ComboType.TUBE: N_("tube"),
    ComboType.PLATE: N_("plate"),
    ComboType.PAIR_RUN: N_("pair run"),
    ComboType.TRIPLE_RUN: N_("triple run"),
    ComboType.AIRPLANE: N_("airplane"),
    ComboType.BOMB: N_("bomb"),
    ComboType.STRAIGHT_FLUSH: N_("straight flush"),
    ComboType.CHAIN_BOMB: N_("chain bomb"),
    ComboType.THREE_JOKERS: N_("three jokers"),
    ComboType.JOKER_BOMB: N_("four jokers"),
}
PLACE_NAMES = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd"), 4: N_("last")}
RESULT_NAMES = {2: N_("1-2 (double win)"), 3: N_("1-3"), 4: N_("1-4")}
ACTION_NAMES = {
    ActionKind.PLAY: N_("a play"),
    ActionKind.PASS: N_("a pass"),
    ActionKind.TRIBUTE: N_("a tribute"),
    ActionKind.CHOOSE: N_("a choice of tribute card"),
    ActionKind.RETURN: N_("a card given back"),
}
PHASE_NAMES = {
    Phase.TRIBUTE: N_("the tribute"),
    Phase.CHOOSE: N_("the choice of tribute cards"),
    Phase.RETURN: N_("the giving back"),
    Phase.PLAY: N_("the play"),
    Phase.OVER: N_("the end of the deal"),
}
RELATIVE_SEATS = (N_("You"), N_("Next opponent"), N_("Partner"), N_("Previous opponent"))
SEQUENCES = frozenset({ComboType.STRAIGHT, ComboType.TUBE, ComboType.PLATE, ComboType.PAIR_RUN, ComboType.TRIPLE_RUN,
                       ComboType.AIRPLANE, ComboType.STRAIGHT_FLUSH, ComboType.CHAIN_BOMB})
_RANKS_PER_CARD = {ComboType.STRAIGHT: 1, ComboType.STRAIGHT_FLUSH: 1, ComboType.TUBE: 2, ComboType.PAIR_RUN: 2,
                   ComboType.PLATE: 3, ComboType.TRIPLE_RUN: 3, ComboType.AIRPLANE: 5}


def rank_text(rank: str) -> str:
    """A rank character for people: ``T`` is "10"."""
    return "10" if rank == "T" else rank


def level_text(level: int) -> str:
    """A level (rank index 0…12) for people: 2…10, J, Q, K, A."""
    return rank_text(RANKS[level])


def _position_text(pos: int) -> str:
    # sequence positions: 1 is the ace below 2, 2…14 are 2…A
    return "A" if pos == 1 else rank_text(RANKS[pos - 2])


class Presenter:
    """Describes the game in one language. ``seat_label`` names a seat; the default is "Seat N".

    ``deal_level`` is the playing level (a rank index) of the deal being told, which tells the wildcards
    (逢人配) apart so that plays, tribute and return cards star them; :meth:`event` follows it from each
    ``DealStart`` it tells, so that a presenter told a match's events in order stars every deal's own."""

    def __init__(self, lang: str = "en", *, viewer: int | None = None, names: Sequence[str] | None = None,
                 seat_label: Callable[[int], str] | None = None, deal_level: int | None = None) -> None:
        self.lang = lang
        self.tr: Translator = translator(DOMAIN, lang)
        self.viewer = viewer
        self.names = list(names) if names is not None else None
        self._seat_label = seat_label
        self.deal_level = deal_level

    @cached_property
    def _(self) -> Callable[[str], str]:
        return self.tr.gettext

    # --- names --------------------------------------------------------------------------------
    def seat(self, seat: int) -> str:
        if self._seat_label is not None:
            return self._seat_label(seat)
        if self.viewer is not None:
            return self._(RELATIVE_SEATS[(seat - self.viewer) % 4])
        if self.names is not None and seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return self._("Seat {n}").format(n=seat + 1)

    def _you(self, seat: int) -> bool:
        """Whether ``seat`` is named "You": its sentences then have their own, second-person msgids
        ("You lead", not "You leads"), which a translation may word differently too."""
        return self._seat_label is None and self.viewer is not None and seat == self.viewer

    def _opponents(self, team: int) -> bool:
        """Whether ``team`` is named "Opponents", a plural subject with sentences of its own."""
        return self.viewer is not None and team != self.viewer % 2

    def seats(self, seats: Sequence[int]) -> str:
        return self._(", ").join(self.seat(s) for s in seats)

    def team(self, team: int) -> str:
        if self.viewer is not None:
            return self._("Your team") if team == self.viewer % 2 else self._("Opponents")
        return self._("Team {n} (seats {a} and {b})").format(n=team + 1, a=team + 1, b=team + 3)

    def place(self, place: int) -> str:
        return self._(PLACE_NAMES[place])

    def result(self, partner_place: int) -> str:
        """1-2 (双上), 1-3 or 1-4: where the winner's partner finished."""
        return self._(RESULT_NAMES[partner_place])

    def level(self, level: int) -> str:
        return level_text(level)

    def levels(self, levels: Sequence[int]) -> str:
        """Both teams' levels. Told to a seat (``viewer``), each named, the seat's own team first, as
        :meth:`team_levels` writes them: ``Your team 3 : Opponents 2``. Else Team 1's first, as every face with no
        seat of its own writes them in either language: ``3:2``, ``10:A`` (the tournament desk's results read
        ``A:6`` too); with no space inside, a line broken to fit never parts them."""
        if self.viewer is not None:
            ours = self.viewer % 2
            return self.team_levels(level_text(levels[ours]), level_text(levels[1 - ours]))
        return f"{level_text(levels[0])}:{level_text(levels[1])}"

    def team_levels(self, ours: str, theirs: str) -> str:
        """The viewer's team's level and the other team's, each after its name, the viewer's first: ``Your team
        5 : Opponents A`` (我方 5 : 对方 A); ``ours`` and ``theirs`` as the caller writes them (the terminal's
        table adds a failed A's tally). The terminal client's table and its log both write the levels so."""
        assert self.viewer is not None, "a presenter with no viewer has no own team"
        ours_team = self.viewer % 2
        return self._("{us} {a} : {them} {b}").format(us=self.team(ours_team), a=ours, them=self.team(1 - ours_team),
                                                      b=theirs)

    def sentence(self, text: str) -> str:
        """``text`` begun as a line of its own: a cased language's first letter upper case, the rest as written
        ("Full house 3: …", "Big Joker" kept), as the web's words beside the buttons read; Chinese has no case and
        is left as it is."""
        return text[:1].upper() + text[1:]

    def combo_type(self, type_: ComboType) -> str:
        return self._(COMBO_NAMES[type_])

    def whole_names(self) -> list[str]:
        """The names this presenter writes that are one thing to a reader: the jokers, the combinations, the
        seats, the teams and the places (Big Joker, full house, Previous opponent, Your team; 大王, 三带二, 上家,
        我方, 头游): a line broken to fit a terminal keeps each whole, neither parted at a space inside nor,
        in a run of Chinese, between its characters."""
        names = [self.card(SMALL_JOKER), self.card(BIG_JOKER), *map(self.combo_type, COMBO_NAMES),
                 *map(self.seat, range(4)), self.team(0), self.team(1), *map(self.place, range(1, 5))]
        return [name for name in dict.fromkeys(names) if len(name) > 1]

    # --- cards and plays ----------------------------------------------------------------------
    def card(self, code: Card, level: int | None = None) -> str:
        """``♠10``, ``小王`` / ``Small Joker``; a wildcard (the ♥ level card) is starred when ``level`` is given."""
        if code == SMALL_JOKER:
            return self._("Small Joker")
        if code == BIG_JOKER:
            return self._("Big Joker")
        suit = suit_of(code)
        assert suit is not None
        text = SUIT_SYMBOLS[suit] + rank_text(RANKS[rank_index(code)])
        return text + "*" if level is not None and code == wild_code(level) else text

    def cards(self, codes: Sequence[Card], level: int | None = None) -> str:
        if not codes:
            return self._("(no cards)")
        return " ".join(self.card(c, level) for c in codes)

    def combo(self, combo: Combo) -> str:
        """E.g. ``pair 9``, ``straight 10–A``, ``bomb 9 ×5`` (``炸弹 9×5``), ``straight flush ♥5–9``, ``four jokers``."""
        name = self.combo_type(combo.type)
        if combo.key == ComboKey.JOKERS:
            text = name
        elif combo.key in (ComboKey.SMALL_JOKER, ComboKey.BIG_JOKER):
            joker = self._("Small Joker") if combo.key == ComboKey.SMALL_JOKER else self._("Big Joker")
            text = f"{name} {joker}"
        elif combo.type in SEQUENCES:
            top = RANKS.index(combo.key) + 2
            if combo.type == ComboType.CHAIN_BOMB:
                assert combo.y is not None
                span = combo.y
            else:
                span = combo.size // _RANKS_PER_CARD[combo.type]
            run = f"{_position_text(top - span + 1)}–{_position_text(top)}"
            suit = SUIT_SYMBOLS[combo.suit] if combo.suit else ""
            text = f"{name} {suit}{run}"
            if combo.type == ComboType.CHAIN_BOMB:
                text += f" ×{combo.x}"
        else:
            text = f"{name} {rank_text(combo.key)}"
            if combo.type == ComboType.BOMB:  # its size as the card counter writes a count: 炸弹 3×5
                text = self._("{bomb} ×{n}").format(bomb=text, n=combo.size)
        if combo.stars:
            text += f" {combo.stars}★"
        return text

    def _level(self, level: int | None) -> int | None:
        return self.deal_level if level is None else level

    def played_cards(self, cards: Sequence[Card], combo: Combo, level: int | None = None) -> str:
        """A play's cards alone, in the order ``combo`` reads them, wildcards starred (``level``: the deal's,
        by default the presenter's)."""
        lv = self._level(level)
        return self.cards(play_order(cards, combo, lv), lv)

    def play(self, cards: Sequence[Card], combo: Combo, level: int | None = None) -> str:
        """``straight 10–A: ♠10 ♠J ♠Q ♥5* ♠A``: the combination, then its cards as it reads them. A single or
        a pair of jokers is its combination alone (``single Small Joker``, ``pair Big Joker``): its cards
        would only name the joker again."""
        if combo.key in (ComboKey.SMALL_JOKER, ComboKey.BIG_JOKER):
            return self.combo(combo)
        return self._("{combo}: {cards}").format(combo=self.combo(combo), cards=self.played_cards(cards, combo, level))

    def action(self, action: Action, level: int | None = None) -> str:
        """What a seat does, as a person would say it (without the seat); ``level`` as for :meth:`play`."""
        if action.kind == ActionKind.PASS:
            return self._("pass")
        if action.kind == ActionKind.PLAY:
            assert action.combo is not None
            return self.play(action.cards, action.combo, level)
        card = self.cards(action.cards, self._level(level))
        if action.kind == ActionKind.TRIBUTE:
            return fill(self._("pay {card} as tribute"), card=card)
        if action.kind == ActionKind.CHOOSE:
            return fill(self._("take {card} from the tribute"), card=card)
        return fill(self._("give back {card}"), card=card)

    def param(self, value: object) -> str | None:
        """A parameter of an engine error as a person reads it (guandan.cliutil.said): a combo, cards, an
        action (without its seat), several of those, an action kind or a phase; ``None`` for anything else."""
        if isinstance(value, Combo):
            return self.combo(value)
        if isinstance(value, CardList):
            return self.cards(value)
        if isinstance(value, Action):
            return self.action(value)
        if isinstance(value, Listed):
            return self._(", ").join(self.param(v) or str(v) for v in value)
        if isinstance(value, ActionKind):
            return self._(ACTION_NAMES[value])
        if isinstance(value, Phase):
            return self._(PHASE_NAMES[value])
        return None

    # --- events -------------------------------------------------------------------------------
    def event(self, event: Event) -> list[str]:
        """The lines that tell one public event (some events, e.g. ``tribute_paid``, say little). A
        ``DealStart`` also sets :attr:`deal_level` to its deal's, for the events that follow it."""
        _ = self._
        match event:
            case DealStart(index=i, level=lv, declarer=d, levels=lvs):
                self.deal_level = lv
                if self.viewer is not None:  # the teams named, as the terminal's table writes the line
                    if d is None:
                        return [_("Deal {n} · playing level {level} · {levels} · no declarer yet").format(
                            n=i + 1, level=level_text(lv), levels=self.levels(lvs))]
                    return [_("Deal {n} · playing level {level} · {levels} · declarer {team}").format(
                        n=i + 1, level=level_text(lv), levels=self.levels(lvs), team=self.team(d))]
                if d is None:  # the first deal: the same words as the terminal table's "no declarer yet"
                    return [_("Deal {n} · playing level {level} · levels {levels} · no declarer yet").format(
                        n=i + 1, level=level_text(lv), levels=self.levels(lvs))]
                return [_("Deal {n} · playing level {level} · levels {levels} · declarer {team}").format(
                    n=i + 1, level=level_text(lv), levels=self.levels(lvs), team=self.team(d))]
            case FirstLead(leader=s, flipped=c):
                if c is not None:
                    if self._you(s):
                        return [fill(_("You lead first (flipped card {card})"), card=self.card(c))]
                    return [fill(_("{who} leads first (flipped card {card})"), who=self.seat(s), card=self.card(c))]
                return [_("You lead first") if self._you(s) else _("{who} leads first").format(who=self.seat(s))]
            case AntiTribute(seats=seats):
                holders = list(dict.fromkeys(seats))  # one player may hold both big jokers: named once
                if len(holders) > 1:
                    return [_("Anti-tribute: {who} hold both Big Jokers; no tribute").format(
                        who=self.seats(holders))]
                if self._you(holders[0]):
                    return [_("Anti-tribute: you hold both Big Jokers; no tribute")]
                return [_("Anti-tribute: {who} holds both Big Jokers; no tribute").format(
                    who=self.seat(holders[0]))]
            case TributePaid():
                return [_("The tribute cards are down; the winner of the last deal picks one")]
            case TributeGiven(transfers=ts):
                return [_("Tribute: {giver} → {receiver}: {card}").format(giver=self.seat(t.giver),
                        receiver=self.seat(t.receiver), card=self.card(t.card, self.deal_level)) for t in ts]
            case CardsReturned(transfers=ts):
                return [_("Return: {giver} → {receiver}: {card}").format(giver=self.seat(t.giver),
                        receiver=self.seat(t.receiver), card=self.card(t.card, self.deal_level)) for t in ts]
            case Lead(leader=s):
                return [_("You lead") if self._you(s) else _("{who} leads").format(who=self.seat(s))]
            case Played(player=s, cards=cards, combo=combo):
                return [_("{who}: {play}").format(who=self.seat(s), play=self.play(cards, combo))]
            case Passed(player=s):
                return [_("{who}: pass").format(who=self.seat(s))]
            case Reported(player=s, count=n):
                if self._you(s):
                    return [self.tr.ngettext("Report: you have {n} card left", "Report: you have {n} cards left",
                                             n).format(n=n)]
                return [self.tr.ngettext("Report: {who} has {n} card left", "Report: {who} has {n} cards left",
                                         n).format(who=self.seat(s), n=n)]
            case WentOut(player=s, place=p):
                if self._you(s):
                    return [_("You are out: {place}").format(place=self.place(p))]
                return [_("{who} is out: {place}").format(who=self.seat(s), place=self.place(p))]
            case RoundWon(winner=w, leader=ld, jiefeng=j):
                if j:
                    if self._you(ld):
                        return [_("Jiefeng: you take the lead")]
                    return [_("Jiefeng: {who} takes the lead").format(who=self.seat(ld))]
                if self._you(w):
                    return [_("You win the round and lead")]
                return [_("{who} wins the round and leads").format(who=self.seat(w))]
            case DealOver(finish=f):
                return [_("Finishing order: {order}").format(order=self.order(f))]
            case DealSettled():
                return self.settlement(event)
            case MatchOver():
                return [" · ".join(self.match_over(event))]
        return []

    def match_over(self, event: MatchOver) -> tuple[str, str]:
        """The match's end in two parts: who won after how many deals, and the final levels."""
        w, n = event.winner, event.deals
        _ = self._
        if w is None:
            head = self.tr.ngettext("Match over after {n} deal (deal limit): no winner",
                                    "Match over after {n} deals (deal limit): no winner", n).format(n=n)
        elif self._opponents(w):
            head = self.tr.ngettext("Match over after {n} deal: the opponents win",
                                    "Match over after {n} deals: the opponents win", n).format(n=n)
        else:
            head = self.tr.ngettext("Match over after {n} deal: {team} wins", "Match over after {n} deals: {team} wins",
                                    n).format(n=n, team=self.team(w))
        return head, _("final levels {levels}").format(levels=self.levels(event.levels))

    def order(self, finish: Sequence[int]) -> str:
        """``1st You, 2nd Partner, …``: each place joined to its seat by a no-break space, so that a narrow line
        breaks between them (after 头游 你，), never between a place and the seat it belongs to."""
        return self._(", ").join(f"{self.place(i + 1)}\u00a0{self.seat(s)}" for i, s in enumerate(finish))

    def settlement(self, s: DealSettled) -> list[str]:
        """The end of a deal: result, levels gained, the new levels, notes, 火拼 points."""
        _ = self._
        if any(n.kind == SettlementNote.PASSED_A for n in s.notes):  # no level is gained: the note says the match is won
            lines = [_("Result {result} · levels now {levels}").format(result=self.result(s.partner_place),
                                                                       levels=self.levels(s.levels))]
        else:
            lines = [_("Result {result}: {team} +{up} · levels now {levels}").format(
                result=self.result(s.partner_place), team=self.team(s.winners), up=s.upgrade,
                levels=self.levels(s.levels))]
        lines += [self.note(n) for n in s.notes]
        contributions = s.contributions
        if s.points is not None and s.base is not None and s.multiplier is not None and contributions is not None:
            lines.append(_("Points this deal (base × multiplier + bombs):"))
            lines += [_("{seat}: {base} × {mult} {bombs:+d} = {total:+d}").format(
                seat=self.seat(i), base=s.base[i], mult=s.multiplier, bombs=contributions[i], total=s.points[i])
                for i in range(len(s.points))]
        elif s.points is not None:
            lines.append(_("Points this deal: {points}").format(points=self.points(s.points)))
        return lines

    def points(self, points: Sequence[int]) -> str:
        return self._(", ").join(f"{self.seat(i)} {p:+d}" for i, p in enumerate(points))

    def note(self, n: Note) -> str:
        _ = self._
        team = self.team(n.team) if n.team is not None else ""
        they = n.team is not None and self._opponents(n.team)  # "Opponents" takes a plural verb
        if n.kind == SettlementNote.PASSED_A:
            if they:
                return _("The opponents passed A and win the match")
            return _("{team} passed A and wins the match").format(team=team)
        if n.kind == SettlementNote.OVERSHOOT:
            if they:
                return _("The opponents went past A and win the match")
            return _("{team} went past A and wins the match").format(team=team)
        if n.kind == SettlementNote.A_FAILED:
            return _("{team} failed at A (failure {n})").format(team=team, n=n.amount)
        if n.kind == SettlementNote.A_RESET:
            assert n.level is not None
            if they:
                return _("The opponents go back to level {level} after too many failures at A").format(
                    level=level_text(n.level))
            return _("{team} goes back to level {level} after too many failures at A").format(
                team=team, level=level_text(n.level))
        k = n.streak or 0
        if n.kind == SettlementNote.STREAK_BONUS:
            return self.tr.ngettext("{team} +{n} for finishing first {k} time in a row",
                                    "{team} +{n} for finishing first {k} times in a row", k).format(
                team=team, n=n.amount, k=k)
        return self.tr.ngettext("{team} −{n} for finishing last {k} time in a row",
                                "{team} −{n} for finishing last {k} times in a row", k).format(team=team, n=n.amount, k=k)

    # --- hints --------------------------------------------------------------------------------
    def hint_reason(self, reason: HintReason) -> str:
        """Why a hint (提示) suggests its action, in words true of that action (``agents.hints``)."""
        return self._(hint_reason_msgids()[reason])


def said(e: BaseException, lang: str | None = None, domain: str = "cli") -> str:
    """An error in the reader's language (``lang``, else the environment's), its cards, combos and actions
    described as everywhere else: :func:`guandan.cliutil.said` with a :class:`Presenter`."""
    language = cli_lang(lang)
    return said_with(e, language, domain, Presenter(language))


@cache
def hint_reason_msgids() -> dict[HintReason, str]:
    """The msgid of each hint reason."""
    return {
        HintReason.GO_OUT: N_("go out: these are your last cards"),
        HintReason.BOMB: N_("a bomb: few plays can beat it"),
        HintReason.LEAD_LOW: N_("lead your lowest play of this kind"),
        HintReason.LEAD: N_("lead this play"),
        HintReason.BEAT_SMALLEST: N_("the smallest play of this kind that beats the table"),
        HintReason.BEAT: N_("beat the play on the table"),
        HintReason.LET_PARTNER_WIN: N_("pass: your partner is winning the round"),
        HintReason.PASS: N_("pass and keep your cards"),
        HintReason.TRIBUTE_FORCED: N_("the rules make you pay your highest card (wildcards excepted)"),
        HintReason.CHOOSE_HIGHER: N_("take this tribute card: both are of the same rank"),
        HintReason.RETURN: N_("you must give one card back"),
    }


__all__ = ["COMBO_NAMES", "DOMAIN", "PLACE_NAMES", "Presenter", "fill", "hint_reason_msgids", "level_text", "rank_text",
           "said"]
