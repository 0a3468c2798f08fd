"""The deal (一副牌) state machine: dealing, tribute, return, play, finish (RULES.md §4).

``state.phase``, ``state.to_move``, ``state.legal_actions()``, ``state.apply(action) -> events``.
An illegal action (wrong seat, wrong phase, a card not in hand, a play that does not beat…) raises
:class:`IllegalActionError` and leaves the state untouched. Hidden information leaves only through
:meth:`DealState.observation`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, NamedTuple

from .cards import Card, card_str, physical_deck, wild_code
from .combos import Combo, beats, classify
from .errors import N_, GuandanError, IllegalActionError, shown
from .events import (
    AntiTribute,
    CardsReturned,
    DealOver,
    Event,
    FirstLead,
    Lead,
    Passed,
    Played,
    Reported,
    RoundWon,
    Transfer,
    TributeGiven,
    TributePaid,
    WentOut,
)
from .moves import Move, legal_moves
from .params import CardList, Listed, SeatNo
from .reduce import by_init
from .rules import RuleSet
from .tribute import TributePlan, leader_after_tribute, partner, plan_tribute, return_eligible
from .turns import TurnTracker
from .vocab import ActionKind, EqualTributeAssignment, MoveMode, Phase

TRIBUTE, CHOOSE, RETURN, PLAY, OVER = Phase.TRIBUTE, Phase.CHOOSE, Phase.RETURN, Phase.PLAY, Phase.OVER


class Action(NamedTuple):
    """What a seat does: 进贡 (tribute), 头游 choosing a tribute card under ``winners_choose``,
    还贡 (return), a play or a pass."""

    kind: ActionKind
    seat: int
    cards: tuple[Card, ...] = ()
    combo: Combo | None = None

    def __str__(self) -> str:
        body = " ".join(card_str(c) for c in self.cards)
        what = f" as {self.combo}" if self.combo else ""
        return f"seat {self.seat} {self.kind.value} {body}{what}".rstrip()


def first_leader_from_flips(flips: Sequence[Card], level: int) -> int:
    """Index of the first flipped card that is neither a joker nor the wildcard (§4.1)."""
    wc = wild_code(level)
    for i, c in enumerate(flips):
        if c < 52 and c != wc:
            return i
    raise GuandanError.said(N_("no flipped card qualifies (all jokers or wildcards)"))


_new_action: Final = tuple.__new__  # an Action without its interpreted __new__ (all four fields given)
_DECK_CODES: Final = tuple(pc.code for pc in physical_deck())


def deal_cards(rng: random.Random, level: int = 0) -> tuple[list[list[Card]], int, Card]:
    """27 cards to each seat from a shuffled 108-card deck, and the first-deal card flip (§4.1):
    physical cards are turned at random until one is neither a joker nor the ♥ level card; its holder
    leads. Returns (hands, flip holder, flipped card)."""
    deck = list(_DECK_CODES)  # the physical deck's codes in its order: the same shuffle as the cards'
    rng.shuffle(deck)
    hands = [sorted(deck[27 * s : 27 * s + 27]) for s in range(4)]
    wc = wild_code(level)
    while True:
        i = rng.randrange(108)
        code = deck[i]
        if code < 52 and code != wc:
            return hands, i // 27, code


@dataclass
class DealState:
    """One deal. Build it with :func:`new_deal`."""

    rules: RuleSet
    level: int  # rank index of the deal's level
    hands: list[list[Card]]
    initial_hands: tuple[tuple[Card, ...], ...]
    prev_finish: tuple[int, ...] | None
    move_mode: MoveMode = MoveMode.COMPLETE
    phase: Phase = PLAY
    events: list[Event] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    reported: list[bool] = field(default_factory=lambda: [False] * 4)
    star_plays: list[tuple[int, int]] = field(default_factory=list)
    plan: TributePlan | None = None
    first_leader: int = 0
    flipped: Card | None = None
    _paid: dict[int, Card] = field(default_factory=dict)  # payer -> card
    _receiver_of: dict[int, int] = field(default_factory=dict)  # payer -> receiver
    _returned: dict[int, Card] = field(default_factory=dict)  # receiver -> card
    tracker: TurnTracker | None = None
    top: tuple[int, Move] | None = None  # (seat, move) currently winning the round
    _moves_cache: list[Move] | None = None
    # cards each seat has played, kept as plays apply: every observation reports them, and recounting
    # the Played events each time made observing grow with the deal (derived data, so not compared)
    _played: list[int] = field(default_factory=lambda: [0] * 4, repr=False, compare=False)

    # --- queries --------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def finish(self) -> list[int]:
        return list(self.tracker.finish) if self.tracker else []

    @property
    def to_move(self) -> int | None:
        if self.phase == PLAY:
            assert self.tracker is not None
            return self.tracker.turn
        if self.phase == TRIBUTE:
            assert self.plan is not None
            return next(p.payer for p in self.plan.payments if p.payer not in self._paid)
        if self.phase == CHOOSE:
            assert self.prev_finish is not None
            return self.prev_finish[0]
        if self.phase == RETURN:
            return next(r for r in self._return_order() if r not in self._returned)
        return None

    @property
    def top_combo(self) -> Combo | None:
        return self.top[1].combo if self.top else None

    def _return_order(self) -> list[int]:
        assert self.plan is not None
        return [self._receiver_of[p.payer] for p in self.plan.payments]

    def legal_moves(self) -> list[Move]:
        """The seat to move's legal plays (and PASS when following), in the state's move mode."""
        if self.phase != PLAY:
            return []
        if self._moves_cache is None:
            seat = self.to_move
            assert seat is not None
            self._moves_cache = legal_moves(self.hands[seat], self.top_combo, self.level, self.rules, self.move_mode)
        return self._moves_cache

    def legal_actions(self) -> list[Action]:
        seat = self.to_move
        if seat is None:
            return []
        if self.phase == PLAY:
            return [Action(ActionKind.PASS, seat) if m.combo is None else Action(ActionKind.PLAY, seat, m.cards, m.combo)
                    for m in self.legal_moves()]
        if self.phase == TRIBUTE:
            assert self.plan is not None
            pay = next(p for p in self.plan.payments if p.payer == seat)
            return [Action(ActionKind.TRIBUTE, seat, (c,)) for c in pay.eligible]
        if self.phase == CHOOSE:
            return [Action(ActionKind.CHOOSE, seat, (c,)) for c in sorted(set(self._paid.values()))]
        if self.phase == RETURN:
            return [Action(ActionKind.RETURN, seat, (c,)) for c in self.return_options(seat)]
        return []

    def return_options(self, receiver: int) -> list[Card]:
        payer = next(p for p, r in self._receiver_of.items() if r == receiver)
        return return_eligible(self.hands[receiver], self._paid[payer], self.level, self.rules,
                               to_partner=partner(receiver) == payer)

    # --- transitions ----------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Apply one action; returns the events it caused. Raises IllegalActionError, unchanged."""
        seat = self.to_move
        if seat is None:  # only once the deal is over
            raise IllegalActionError.said(N_("the deal is over"))
        if action.seat != seat:
            raise IllegalActionError.said(N_("it is seat {seat}'s turn ({phase}), not seat {actor}'s"),
                                          seat=SeatNo(seat), phase=self.phase, actor=SeatNo(action.seat))
        try:
            kind = ActionKind(action.kind)
        except ValueError:
            raise IllegalActionError.said(N_("unknown action kind {kind}"), kind=shown(action.kind)) from None
        if kind in (ActionKind.PLAY, ActionKind.PASS):
            if self.phase != PLAY:
                raise IllegalActionError.said(N_("{kind} is not possible during {phase}"), kind=kind, phase=self.phase)
            action = action._replace(kind=kind)
            cache = self._moves_cache
            # an action built from legal_actions() is one of the cached moves: apply_move's trusted
            # path, so it is not classified again (a fifth of a step for the environments)
            if cache is not None and action.combo is not None and Move(action.cards, action.combo) in cache:
                return self._play(action, trusted=True)
            return self._play(action)
        if kind.value != self.phase.value:
            raise IllegalActionError.said(N_("{kind} is not possible during {phase}"), kind=kind, phase=self.phase)
        if len(action.cards) != 1:
            raise IllegalActionError.said(N_("a tribute, a choice or a return is exactly one card, not {count}"),
                                          count=len(action.cards))
        card = action.cards[0]
        if kind == ActionKind.TRIBUTE:
            return self._tribute(seat, card)
        if kind == ActionKind.CHOOSE:
            return self._choose(card)
        return self._return(seat, card)

    def apply_move(self, move: Move) -> list[Event]:
        """Apply a Move for the seat to move. A move taken from :meth:`legal_moves` is known to be
        legal and skips re-validation; any other goes through :meth:`apply`'s checks."""
        seat = self.to_move
        if seat is None or self.phase != PLAY:
            raise IllegalActionError.said(N_("no play is possible during {phase}"), phase=self.phase)
        kind = ActionKind.PASS if move.combo is None else ActionKind.PLAY
        action = _new_action(Action, (kind, seat, move.cards, move.combo))
        cache = self._moves_cache
        if cache is not None:
            for m in cache:  # by identity: an equal move from elsewhere is checked as any other
                if m is move:
                    return self._play(action, trusted=True, move=move)
        return self.apply(action)

    def _play(self, action: Action, trusted: bool = False, move: Move | None = None) -> list[Event]:
        """Apply a play or pass; ``move``: the listed move it is (its cards sorted, its combo interned)."""
        tracker = self.tracker
        assert tracker is not None
        seat = action.seat
        if action.kind == ActionKind.PASS:
            if action.cards or action.combo is not None:
                raise IllegalActionError.said(N_("a pass takes no cards"))
            if tracker.leading:
                raise IllegalActionError.said(N_("the leader must play: passing is not allowed when leading"))
            self.actions.append(action)
            ev: list[Event] = [Passed(seat)]
            leader = tracker.pass_(seat)
            if leader is not None:
                ev.append(self._round_end(leader))
            self.events.extend(ev)
            self._moves_cache = None
            return ev
        hand = self.hands[seat]
        if move is not None and move.combo is not None:
            cards: tuple[Card, ...] = move.cards
            combo: Combo = move.combo
        else:
            cards = tuple(sorted(action.cards))
            declared = action.combo
            combo = self._validate_play(seat, cards, declared) if not trusted or declared is None else declared
            action = _new_action(Action, (ActionKind.PLAY, seat, cards, combo))
            move = Move(cards, combo)
        # --- legal: mutate
        for c in cards:
            hand.remove(c)
        self._played[seat] += len(cards)
        self.actions.append(action)
        self.top = (seat, move)
        if combo.stars is not None and combo.stars >= 6:
            self.star_plays.append((seat, combo.stars))
        ev = [Played(seat, cards, combo)]
        left = len(hand)
        threshold = self.rules.report_threshold
        if threshold is not None and left and left <= threshold and not self.reported[seat]:
            self.reported[seat] = True  # 报牌: from now on this count is public
            ev.append(Reported(seat, left))
        place, leader = tracker.play(seat, goes_out=not hand)
        if place is not None:
            ev.append(WentOut(seat, place))
        if tracker.over:
            self.phase = OVER
            self.top = None
            ev.append(DealOver(tuple(tracker.finish)))
        elif leader is not None:
            ev.append(self._round_end(leader))
        self.events.extend(ev)
        self._moves_cache = None
        return ev

    def _validate_play(self, seat: int, cards: tuple[Card, ...], combo: Combo | None) -> Combo:
        """The declared combo (interned) if ``cards`` are a legal play for ``seat`` now."""
        if not cards:
            raise IllegalActionError.said(N_("a play needs cards (use a pass action to pass)"))
        need = Counter(cards)
        have = Counter(self.hands[seat])
        missing = [c for c, n in need.items() if have[c] < n]
        if missing:
            raise IllegalActionError.said(N_("seat {seat} does not hold {cards}"), seat=SeatNo(seat),
                                          cards=CardList(missing))
        readings = classify(cards, self.level, self.rules)
        if not readings:
            raise IllegalActionError.said(N_("{cards} is not a legal play"), cards=CardList(cards))
        if combo is None:
            if len(readings) > 1:
                raise IllegalActionError.said(N_("{cards} has several readings ({options}); declare one"),
                                              cards=CardList(cards), options=Listed(readings))
            combo = readings[0]
        elif combo not in readings:
            raise IllegalActionError.said(N_("{cards} cannot be declared as {combo}; its readings are: {options}"),
                                          cards=CardList(cards), combo=combo, options=Listed(readings))
        else:
            combo = readings[readings.index(combo)]  # the interned combo made at this level
        top = self.top_combo
        if top is not None and not beats(combo, top, self.rules):
            raise IllegalActionError.said(N_("{combo} does not beat {top}"), combo=combo, top=top)
        return combo

    def _round_end(self, leader: int) -> Event:
        assert self.top is not None
        owner = self.top[0]
        self.top = None
        return RoundWon(owner, leader, leader != owner)

    def _tribute(self, seat: int, card: Card) -> list[Event]:
        assert self.plan is not None
        pay = next(p for p in self.plan.payments if p.payer == seat)
        if card not in pay.eligible:
            raise IllegalActionError.said(N_("seat {seat} must pay one of {allowed}, not {card}"), seat=SeatNo(seat),
                                          allowed=CardList(pay.eligible), card=CardList((card,)))
        self.actions.append(Action(ActionKind.TRIBUTE, seat, (card,)))
        self.hands[seat].remove(card)
        self._paid[seat] = card
        if len(self._paid) < len(self.plan.payments):
            return []
        if self.rules.equal_tribute_assignment == EqualTributeAssignment.WINNERS_CHOOSE and len(
            self.plan.payments) == 2 and self.plan.payments[0].value == self.plan.payments[1].value:
            self.phase = CHOOSE
            ev: list[Event] = [TributePaid(tuple(sorted(self._paid)))]
            self.events.extend(ev)
            return ev
        return self._deliver_tribute()

    def _choose(self, card: Card) -> list[Event]:
        assert self.plan is not None and self.prev_finish is not None
        f1 = self.prev_finish[0]
        options = [p for p, c in self._paid.items() if c == card]
        if not options:
            raise IllegalActionError.said(N_("{card} is not one of the tribute cards"), card=CardList((card,)))
        self.actions.append(Action(ActionKind.CHOOSE, f1, (card,)))
        hi = options[0]
        lo = next(p for p in self._paid if p != hi)
        leader = leader_after_tribute(hi, self.prev_finish, True, self.rules)
        pays = {p.payer: p for p in self.plan.payments}
        self.plan = TributePlan(False, (), (pays[hi], pays[lo]), leader, (hi, lo))
        self._receiver_of = {hi: f1, lo: partner(f1)}
        return self._deliver_tribute()

    def _deliver_tribute(self) -> list[Event]:
        assert self.plan is not None
        result = []
        for p in self.plan.payments:
            recv = self._receiver_of[p.payer]
            card = self._paid[p.payer]
            self.hands[recv].append(card)
            self.hands[recv].sort()
            result.append(Transfer(p.payer, recv, card))
        self.phase = RETURN
        ev: list[Event] = [TributeGiven(tuple(result))]
        self.events.extend(ev)
        return ev

    def _return(self, seat: int, card: Card) -> list[Event]:
        options = self.return_options(seat)
        if card not in options:
            raise IllegalActionError.said(N_("seat {seat} may return one of {allowed}, not {card}"), seat=SeatNo(seat),
                                          allowed=CardList(options), card=CardList((card,)))
        self.actions.append(Action(ActionKind.RETURN, seat, (card,)))
        self._returned[seat] = card
        if len(self._returned) < len(self._receiver_of):
            return []
        result = []
        for payer, recv in self._receiver_of.items():
            c = self._returned[recv]
            self.hands[recv].remove(c)
            self.hands[payer].append(c)
            self.hands[payer].sort()
            result.append(Transfer(recv, payer, c))
        assert self.plan is not None and self.plan.leader is not None
        ev: list[Event] = [CardsReturned(tuple(result))]
        ev.append(self._start_play(self.plan.leader))
        self.events.extend(ev)
        return ev

    def _start_play(self, leader: int) -> Event:
        self.phase = PLAY
        self.first_leader = leader
        self.tracker = TurnTracker(leader, self.rules)
        self._moves_cache = None
        return Lead(leader)

    # --- search support -------------------------------------------------------------------
    def clone(self) -> DealState:
        """An independent copy (hands, trackers and logs), for search and tests."""
        # through __init__ (replace), since a compiled class has neither a bare __new__ nor a __dict__
        return replace(
            self, hands=[list(h) for h in self.hands], events=list(self.events), actions=list(self.actions),
            reported=list(self.reported), _played=list(self._played), star_plays=list(self.star_plays),
            _paid=dict(self._paid), _receiver_of=dict(self._receiver_of), _returned=dict(self._returned),
            tracker=self.tracker.copy() if self.tracker else None, _moves_cache=None)

    # --- the only ways information leaves the engine ----------------------------------------
    def public_view(self) -> DealView:
        """What everyone at the table, and every spectator, may know (公开信息)."""
        return DealView(**self._public_fields())

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know: the public view, its own hand and, on its turn, its legal actions."""
        if seat not in range(4):
            raise GuandanError(f"seat must be 0…3, not {shown(seat)}")
        legal = tuple(self.legal_actions()) if self.to_move == seat else ()
        return Observation(**self._public_fields(), seat=seat, hand=tuple(sorted(self.hands[seat])), legal=legal)

    def _public_fields(self) -> dict[str, Any]:
        top = self.top
        top_play: tuple[int, tuple[Card, ...], Combo] | None = None
        if top is not None:
            move = top[1]
            if move.combo is not None:
                top_play = (top[0], move.cards, move.combo)
        return {
            "phase": self.phase,
            "to_move": self.to_move,
            "level": self.level,
            # 报牌 makes a count public from that moment on: the current count of every reported seat
            "reported": {s: len(self.hands[s]) for s in range(4) if self.reported[s]},
            "played_counts": tuple(self._played),
            "top": top_play,
            "finish": tuple(self.finish),
            "events": tuple(self.events),
            "prev_finish": self.prev_finish,
            "first_leader": self.first_leader if self.phase in (PLAY, OVER) else None,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        return by_init(self)  # compiled, the default pickling cannot rebuild it


@dataclass(frozen=True)
class DealView:
    """The public view of a deal (what a spectator sees): every event, the top play, the finishing
    order, the cards each seat has played, and the counts made public by 报牌 — no hand, nothing hidden."""

    phase: Phase
    to_move: int | None
    level: int
    reported: dict[int, int]  # seat -> cards left, for the seats that have reported (报牌)
    played_counts: tuple[int, ...]  # cards each seat has played this deal (public: everyone saw them)
    top: tuple[int, tuple[Card, ...], Combo] | None
    finish: tuple[int, ...]
    events: tuple[Event, ...]
    prev_finish: tuple[int, ...] | None
    first_leader: int | None

    def __reduce__(self) -> tuple[Any, ...]:
        return by_init(self)  # compiled, the default pickling cannot rebuild it


@dataclass(frozen=True)
class Observation(DealView):
    """Everything one seat may know (RULES.md: own hand, every public event, counts made public by
    报牌, revealed tribute/return/anti-tribute cards) and nothing else."""

    seat: int
    hand: tuple[Card, ...]
    legal: tuple[Action, ...]

    @property
    def public_counts(self) -> dict[int, int]:
        """The card counts this seat knows: its own and those made public by 报牌."""
        return {**self.reported, self.seat: len(self.hand)}

    def __reduce__(self) -> tuple[Any, ...]:
        return by_init(self)  # compiled, the default pickling cannot rebuild it


def new_deal(
    rules: RuleSet,
    rng: random.Random,
    level: int = 0,
    prev_finish: Sequence[int] | None = None,
    hands: Sequence[Sequence[Card]] | None = None,
    first_leader: int | None = None,
    move_mode: MoveMode = MoveMode.COMPLETE,
) -> DealState:
    """Deal (or take ``hands``), then start with the first-deal flip or the tribute (§4.1–§4.2).

    ``rng`` is the deal's own generator (never the global one); ``first_leader`` overrides the flip.
    """
    flipped: Card | None = None
    if hands is None:
        dealt, flip_leader, flipped = deal_cards(rng, level)
    else:
        dealt = [sorted(h) for h in hands]
        if len(dealt) != 4 or sorted(c for h in dealt for c in h) != sorted(pc.code for pc in physical_deck()):
            raise GuandanError.said(N_("hands must be four hands holding the 108 cards exactly"))
        flip_leader = 0
        if prev_finish is None and first_leader is None:
            raise GuandanError.said(N_("given hands for a first deal need an explicit first_leader"))
    state = DealState(
        rules=rules,
        level=level,
        hands=dealt,
        initial_hands=tuple(tuple(h) for h in dealt),
        prev_finish=tuple(prev_finish) if prev_finish is not None else None,
        move_mode=move_mode,
        flipped=flipped,
    )
    if prev_finish is None:
        leader = flip_leader if first_leader is None else first_leader
        state.events.append(FirstLead(leader, flipped if first_leader is None else None))
        state._start_play(leader)
        return state
    if sorted(prev_finish) != [0, 1, 2, 3]:
        raise GuandanError.said(N_("prev_finish must be the four seats in finishing order, not {value}"),
                                value=shown(list(prev_finish)))
    plan = plan_tribute(prev_finish, {s: dealt[s] for s in range(4)}, level, rules, rng)
    state.plan = plan
    if plan.anti_tribute:
        state.events.append(AntiTribute(tuple(plan.anti_seats)))
        state.events.append(state._start_play(prev_finish[0]))  # 头游 leads after 抗贡
        return state
    state._receiver_of = {p.payer: p.receiver for p in plan.payments}
    state.phase = TRIBUTE
    return state


__all__ = [
    "CHOOSE",
    "OVER",
    "PLAY",
    "RETURN",
    "TRIBUTE",
    "Action",
    "DealState",
    "DealView",
    "Event",
    "Observation",
    "deal_cards",
    "first_leader_from_flips",
    "new_deal",
]
