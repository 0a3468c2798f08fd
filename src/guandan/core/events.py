"""Events: the public facts of a deal and a match, one typed class per :class:`EventType`.

The engine returns them from ``apply`` and keeps them in order; every seat and every spectator may
see all of them (tribute and return cards are public once they change hands, RULES.md §4.2).
Consumers match on the class (``match event: case Played(seat=s, combo=c): …``), never on strings.

``to_json`` gives the wire shape (docs/web-protocol.md): ``{"type": …, <fields>}`` with cards in
RULES.md notation and levels as rank characters; :func:`event_from_json` reads it back exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import BIG_JOKER, Card, card_str, parse_card
from .combos import Combo
from .errors import GuandanError, shown
from .vocab import RANKS, EventType, SettlementNote

JSON = dict[str, Any]


def _level(x: int) -> str:
    return RANKS[x]


def _unlevel(v: Any, where: str) -> int:
    if not isinstance(v, str) or v not in RANKS or len(v) != 1:
        raise GuandanError(f"{where} must be a level 2…A (one of {', '.join(RANKS)}), not {shown(v)}")
    return RANKS.index(v)


def _int(v: Any, where: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise GuandanError(f"{where} must be an integer, not {shown(v)}")
    return v


def _opt_int(v: Any, where: str) -> int | None:
    return None if v is None else _int(v, where)


def _ints(v: Any, where: str) -> tuple[int, ...]:
    if not isinstance(v, list):
        raise GuandanError(f"{where} must be a list of integers")
    return tuple(_int(x, where) for x in v)


def _card(v: Any, where: str) -> Card:
    if not isinstance(v, str):
        raise GuandanError(f"{where} must be a card in rules notation")
    return parse_card(v)


def _cards(v: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(v, list):
        raise GuandanError(f"{where} must be a list of cards")
    return tuple(_card(x, where) for x in v)


@dataclass(frozen=True, slots=True)
class Transfer:
    """One card changing hands in the tribute (进贡) or the return (还贡)."""

    giver: int
    receiver: int
    card: Card

    def to_json(self) -> JSON:
        return {"giver": self.giver, "receiver": self.receiver, "card": card_str(self.card)}

    @classmethod
    def from_json(cls, d: Any) -> Transfer:
        if not isinstance(d, dict):
            raise GuandanError("a transfer must be an object with giver, receiver and card")
        return cls(_int(d.get("giver"), "giver"), _int(d.get("receiver"), "receiver"), _card(d.get("card"), "card"))


@dataclass(frozen=True, slots=True)
class Note:
    """A settlement note: why the levels moved other than by the upgrade table (§5.3, §8.2)."""

    kind: SettlementNote
    team: int | None = None
    amount: int | None = None  # levels gained or lost (streaks), failures so far (A failures)
    streak: int | None = None  # consecutive 头游 / 末游 behind a streak note
    level: int | None = None  # the level a team is reset to

    def to_json(self) -> JSON:
        d: JSON = {"kind": self.kind}
        for k in ("team", "amount", "streak"):
            if getattr(self, k) is not None:
                d[k] = getattr(self, k)
        if self.level is not None:
            d["level"] = _level(self.level)
        return d

    @classmethod
    def from_json(cls, d: Any) -> Note:
        if not isinstance(d, dict):
            raise GuandanError("a settlement note must be an object")
        try:
            kind = SettlementNote(str(d.get("kind")))
        except ValueError:
            raise GuandanError(f"unknown settlement note {shown(d.get('kind'))}") from None
        level = d.get("level")
        return cls(kind, _opt_int(d.get("team"), "team"), _opt_int(d.get("amount"), "amount"),
                   _opt_int(d.get("streak"), "streak"), None if level is None else _unlevel(level, "level"))


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event. ``seat`` is the seat the event is about, where there is one."""

    type: ClassVar[EventType]

    @property
    def seat(self) -> int | None:
        return None

    @property
    def revealed(self) -> tuple[Card, ...]:
        """The cards this event shows to everyone (played, flipped, given or returned)."""
        return ()

    def to_json(self) -> JSON:
        raise NotImplementedError

    def _head(self) -> JSON:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class DealStart(Event):
    """开局: deal ``index`` (from 0) is dealt at ``level``; ``levels`` are both teams' levels."""

    type: ClassVar[EventType] = EventType.DEAL_START
    index: int
    level: int
    declarer: int | None
    levels: tuple[int, int]

    def to_json(self) -> JSON:
        return {**self._head(), "index": self.index, "level": _level(self.level), "declarer": self.declarer,
                "levels": [_level(x) for x in self.levels]}

    @classmethod
    def from_json(cls, d: JSON) -> DealStart:
        lv = d.get("levels")
        if not isinstance(lv, list) or len(lv) != 2:
            raise GuandanError("levels must be two levels")
        return cls(_int(d.get("index"), "index"), _unlevel(d.get("level"), "level"),
                   _opt_int(d.get("declarer"), "declarer"), (_unlevel(lv[0], "levels"), _unlevel(lv[1], "levels")))


@dataclass(frozen=True, slots=True)
class FirstLead(Event):
    """首出: ``leader`` leads the first deal; ``flipped`` is the card turned face up, if one was."""

    type: ClassVar[EventType] = EventType.FIRST_LEAD
    leader: int
    flipped: Card | None = None

    @property
    def seat(self) -> int | None:
        return self.leader

    @property
    def revealed(self) -> tuple[Card, ...]:
        return () if self.flipped is None else (self.flipped,)

    def to_json(self) -> JSON:
        return {**self._head(), "seat": self.leader, "flipped": None if self.flipped is None else card_str(self.flipped)}

    @classmethod
    def from_json(cls, d: JSON) -> FirstLead:
        f = d.get("flipped")
        return cls(_int(d.get("seat"), "seat"), None if f is None else _card(f, "flipped"))


@dataclass(frozen=True, slots=True)
class AntiTribute(Event):
    """抗贡: the payers ``seats`` hold both big jokers and show them; no tribute this deal."""

    type: ClassVar[EventType] = EventType.ANTI_TRIBUTE
    seats: tuple[int, ...]

    @property
    def revealed(self) -> tuple[Card, ...]:
        return (BIG_JOKER, BIG_JOKER)  # between them the payers hold, and show, both big jokers

    def to_json(self) -> JSON:
        return {**self._head(), "seats": list(self.seats)}

    @classmethod
    def from_json(cls, d: JSON) -> AntiTribute:
        return cls(_ints(d.get("seats"), "seats"))


@dataclass(frozen=True, slots=True)
class TributePaid(Event):
    """The tribute cards of ``payers`` are down; 头游 now chooses one (winners_choose)."""

    type: ClassVar[EventType] = EventType.TRIBUTE_PAID
    payers: tuple[int, ...]

    def to_json(self) -> JSON:
        return {**self._head(), "payers": list(self.payers)}

    @classmethod
    def from_json(cls, d: JSON) -> TributePaid:
        return cls(_ints(d.get("payers"), "payers"))


@dataclass(frozen=True, slots=True)
class _Transfers(Event):
    transfers: tuple[Transfer, ...]

    @property
    def revealed(self) -> tuple[Card, ...]:
        return tuple(t.card for t in self.transfers)

    def to_json(self) -> JSON:
        return {**self._head(), "transfers": [t.to_json() for t in self.transfers]}


@dataclass(frozen=True, slots=True)
class TributeGiven(_Transfers):
    """进贡: the tribute cards change hands, all at once and face up."""

    type: ClassVar[EventType] = EventType.TRIBUTE

    @classmethod
    def from_json(cls, d: JSON) -> TributeGiven:
        return cls(_transfers(d))


@dataclass(frozen=True, slots=True)
class CardsReturned(_Transfers):
    """还贡: the return cards change hands."""

    type: ClassVar[EventType] = EventType.RETURN

    @classmethod
    def from_json(cls, d: JSON) -> CardsReturned:
        return cls(_transfers(d))


def _transfers(d: JSON) -> tuple[Transfer, ...]:
    t = d.get("transfers")
    if not isinstance(t, list):
        raise GuandanError("transfers must be a list")
    return tuple(Transfer.from_json(x) for x in t)


@dataclass(frozen=True, slots=True)
class Lead(Event):
    """先出: play starts, ``leader`` to lead."""

    type: ClassVar[EventType] = EventType.LEAD
    leader: int

    @property
    def seat(self) -> int | None:
        return self.leader

    def to_json(self) -> JSON:
        return {**self._head(), "seat": self.leader}

    @classmethod
    def from_json(cls, d: JSON) -> Lead:
        return cls(_int(d.get("seat"), "seat"))


@dataclass(frozen=True, slots=True)
class Played(Event):
    """出牌: ``player`` played ``cards`` read as ``combo``."""

    type: ClassVar[EventType] = EventType.PLAY
    player: int
    cards: tuple[Card, ...]
    combo: Combo

    @property
    def seat(self) -> int | None:
        return self.player

    @property
    def revealed(self) -> tuple[Card, ...]:
        return self.cards

    def to_json(self) -> JSON:
        return {**self._head(), "seat": self.player, "cards": [card_str(c) for c in self.cards],
                "combo": self.combo.to_dict()}


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """不要: ``player`` passed."""

    type: ClassVar[EventType] = EventType.PASS
    player: int

    @property
    def seat(self) -> int | None:
        return self.player

    def to_json(self) -> JSON:
        return {**self._head(), "seat": self.player}

    @classmethod
    def from_json(cls, d: JSON) -> Passed:
        return cls(_int(d.get("seat"), "seat"))


@dataclass(frozen=True, slots=True)
class Reported(Event):
    """报牌: ``player`` has ``count`` cards left; that count is public from now on."""

    type: ClassVar[EventType] = EventType.REPORT
    player: int
    count: int

    @property
    def seat(self) -> int | None:
        return self.player

    def to_json(self) -> JSON:
        return {**self._head(), "seat": self.player, "count": self.count}

    @classmethod
    def from_json(cls, d: JSON) -> Reported:
        return cls(_int(d.get("seat"), "seat"), _int(d.get("count"), "count"))


@dataclass(frozen=True, slots=True)
class WentOut(Event):
    """``player`` played its last card and finished ``place``-th (1 = 头游 … 4 = 末游)."""

    type: ClassVar[EventType] = EventType.OUT
    player: int
    place: int

    @property
    def seat(self) -> int | None:
        return self.player

    def to_json(self) -> JSON:
        return {**self._head(), "seat": self.player, "place": self.place}

    @classmethod
    def from_json(cls, d: JSON) -> WentOut:
        return cls(_int(d.get("seat"), "seat"), _int(d.get("place"), "place"))


@dataclass(frozen=True, slots=True)
class RoundWon(Event):
    """A round ended: ``winner`` made the last play nobody beat; ``leader`` leads next.
    ``jiefeng`` (接风) when the leader is not the winner, who has gone out."""

    type: ClassVar[EventType] = EventType.ROUND_WON
    winner: int
    leader: int
    jiefeng: bool

    @property
    def seat(self) -> int | None:
        return self.winner

    def to_json(self) -> JSON:
        return {**self._head(), "seat": self.winner, "leader": self.leader, "jiefeng": self.jiefeng}

    @classmethod
    def from_json(cls, d: JSON) -> RoundWon:
        j = d.get("jiefeng")
        if not isinstance(j, bool):
            raise GuandanError("jiefeng must be true or false")
        return cls(_int(d.get("seat"), "seat"), _int(d.get("leader"), "leader"), j)


@dataclass(frozen=True, slots=True)
class DealOver(Event):
    """The deal has ended; ``finish`` is the finishing order (头游 first)."""

    type: ClassVar[EventType] = EventType.DEAL_OVER
    finish: tuple[int, ...]

    def to_json(self) -> JSON:
        return {**self._head(), "finish": list(self.finish)}

    @classmethod
    def from_json(cls, d: JSON) -> DealOver:
        return cls(_ints(d.get("finish"), "finish"))


@dataclass(frozen=True, slots=True)
class DealSettled(Event):
    """After a deal: the new ``levels``, the next declarer (庄), the levels the winners gained,
    the result (1-``partner_place``), notes on A attempts and streaks, and 火拼 ``points`` per seat with how
    they arise: ``base`` per seat (by finishing place) × ``multiplier`` plus the seat's bomb contributions."""

    type: ClassVar[EventType] = EventType.DEAL_SETTLED
    finish: tuple[int, ...]
    levels: tuple[int, int]
    next_declarer: int
    upgrade: int
    partner_place: int
    notes: tuple[Note, ...] = ()
    points: tuple[int, ...] | None = None
    base: tuple[int, ...] | None = None
    multiplier: int | None = None

    @property
    def contributions(self) -> tuple[int, ...] | None:
        """Each seat's star-bomb contributions to its 火拼 points (None without the breakdown)."""
        if self.points is None or self.base is None or self.multiplier is None:
            return None
        return tuple(p - b * self.multiplier for p, b in zip(self.points, self.base, strict=True))

    @property
    def winners(self) -> int:
        """The winning team (the team of 头游)."""
        return self.finish[0] % 2

    def to_json(self) -> JSON:
        d = {**self._head(), "finish": list(self.finish), "levels": [_level(x) for x in self.levels],
             "next_declarer": self.next_declarer, "upgrade": self.upgrade, "partner_place": self.partner_place,
             "notes": [n.to_json() for n in self.notes]}
        if self.points is not None:
            d["points"] = list(self.points)
        if self.base is not None and self.multiplier is not None:
            d["base"], d["multiplier"] = list(self.base), self.multiplier
        return d

    @classmethod
    def from_json(cls, d: JSON) -> DealSettled:
        lv = d.get("levels")
        notes = d.get("notes", [])
        if not isinstance(lv, list) or len(lv) != 2 or not isinstance(notes, list):
            raise GuandanError("levels must be two levels and notes a list")
        pts, base, mult = d.get("points"), d.get("base"), d.get("multiplier")
        return cls(_ints(d.get("finish"), "finish"), (_unlevel(lv[0], "levels"), _unlevel(lv[1], "levels")),
                   _int(d.get("next_declarer"), "next_declarer"), _int(d.get("upgrade"), "upgrade"),
                   _int(d.get("partner_place"), "partner_place"), tuple(Note.from_json(n) for n in notes),
                   None if pts is None else _ints(pts, "points"), None if base is None else _ints(base, "base"),
                   None if mult is None else _int(mult, "multiplier"))


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    """The match has ended: ``winner`` (a team, or None at a deal limit), final levels and points."""

    type: ClassVar[EventType] = EventType.MATCH_OVER
    winner: int | None
    levels: tuple[int, int]
    deals: int
    points: tuple[int, ...]

    def to_json(self) -> JSON:
        return {**self._head(), "winner": self.winner, "levels": [_level(x) for x in self.levels],
                "deals": self.deals, "points": list(self.points)}

    @classmethod
    def from_json(cls, d: JSON) -> MatchOver:
        lv = d.get("levels")
        if not isinstance(lv, list) or len(lv) != 2:
            raise GuandanError("levels must be two levels")
        return cls(_opt_int(d.get("winner"), "winner"), (_unlevel(lv[0], "levels"), _unlevel(lv[1], "levels")),
                   _int(d.get("deals"), "deals"), _ints(d.get("points"), "points"))


EVENT_CLASSES: dict[EventType, type[Event]] = {
    cls.type: cls
    for cls in (DealStart, FirstLead, AntiTribute, TributePaid, TributeGiven, CardsReturned, Lead, Played, Passed,
                Reported, WentOut, RoundWon, DealOver, DealSettled, MatchOver)
}
"""The class of each event type: exactly one per :class:`EventType`."""


def event_from_json(d: Any, combo_reader: Callable[[Sequence[Card], JSON], Combo] | None = None) -> Event:
    """The event a ``to_json`` dict describes. A play's combo is rebuilt by ``combo_reader(cards, spec)``
    (it needs the deal's level and rules: pass ``lambda cards, spec: resolve_combo(cards, level, rules, spec)``).
    Raises GuandanError naming what is wrong."""
    if not isinstance(d, dict):
        raise GuandanError("an event must be a JSON object")
    try:
        kind = EventType(str(d.get("type")))
    except ValueError:
        raise GuandanError(f"unknown event type {shown(d.get('type'))}") from None
    if kind == EventType.PLAY:
        if combo_reader is None:
            raise GuandanError("reading a play event needs its deal's level and rules")
        spec = d.get("combo")
        if not isinstance(spec, dict):
            raise GuandanError("a play event needs its combo")
        cards = _cards(d.get("cards"), "cards")
        return Played(_int(d.get("seat"), "seat"), cards, combo_reader(cards, spec))
    reader: Any = EVENT_CLASSES[kind]
    event: Event = reader.from_json(d)
    return event


__all__ = [
    "EVENT_CLASSES",
    "AntiTribute",
    "CardsReturned",
    "DealOver",
    "DealSettled",
    "DealStart",
    "Event",
    "FirstLead",
    "Lead",
    "MatchOver",
    "Note",
    "Passed",
    "Played",
    "Reported",
    "RoundWon",
    "Transfer",
    "TributeGiven",
    "TributePaid",
    "WentOut",
    "event_from_json",
]
