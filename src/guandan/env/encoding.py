"""The fixed-size observation vector of the research environments, built from one seat's view only.

:func:`encode` reads a :class:`~guandan.core.match.MatchObservation` (``match.observation(seat)``), never
the match state, so no other seat's hidden cards can reach it. Seats are *relative* to the observer:
slot 0 is the observer, 1 the next seat to act after it (its right), 2 its partner, 3 the seat
before it; teams are "ours" then "theirs". The layout (:data:`LAYOUT`, sizes in docs/research.md):

=================  ====  ============================================================
hand               54    own cards, count per card kind (0–2)
played             216   cards each relative seat has played this deal (4 × 54, 0–2)
reported           4     cards left of each seat that has 报牌 (0 when it has not)
reported_flag      4     1 for a seat that has reported
out                4     1 for a seat that has gone out this deal
levels             26    our team's level, then theirs (one-hot 13 each)
deal_level         13    the deal's level (one-hot)
declarer           3     the declaring team: ours, theirs, none (first deal)
top_cards          54    the trick's winning play so far (counts; zeros when leading)
top_type           15    its combo type (one-hot over ComboType)
top_seat           4     who played it (relative one-hot)
tribute            54    cards paid as tribute this deal (counts, public once given)
returned           54    cards given back (还贡) this deal
phase              5     tribute, choose, return, play, over (one-hot)
=================  ====  ============================================================
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..core.cards import N_CODES
from ..core.events import CardsReturned, Lead, Passed, Played, Reported, RoundWon, TributeGiven, WentOut
from ..core.match import MatchObservation
from ..core.vocab import Phase
from .actions import COMBO_TYPE_INDEX, COMBO_TYPES

PHASES: tuple[Phase, ...] = tuple(Phase)
PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}

LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", N_CODES),
    ("played", 4 * N_CODES),
    ("reported", 4),
    ("reported_flag", 4),
    ("out", 4),
    ("levels", 26),
    ("deal_level", 13),
    ("declarer", 3),
    ("top_cards", N_CODES),
    ("top_type", len(COMBO_TYPES)),
    ("top_seat", 4),
    ("tribute", N_CODES),
    ("returned", N_CODES),
    ("phase", len(PHASES)),
)


def _offsets() -> dict[str, int]:
    out, at = {}, 0
    for name, size in LAYOUT:
        out[name] = at
        at += size
    return out


OFFSET: dict[str, int] = _offsets()
OBS_SIZE = sum(size for _, size in LAYOUT)
_PLAYED, _REPORTED, _REPORTED_FLAG, _OUT = OFFSET["played"], OFFSET["reported"], OFFSET["reported_flag"], OFFSET["out"]
_LEVELS, _DEAL_LEVEL, _DECLARER = OFFSET["levels"], OFFSET["deal_level"], OFFSET["declarer"]
_TOP_CARDS, _TOP_TYPE, _TOP_SEAT = OFFSET["top_cards"], OFFSET["top_type"], OFFSET["top_seat"]
_TRIBUTE, _RETURNED, _PHASE = OFFSET["tribute"], OFFSET["returned"], OFFSET["phase"]
_INT8 = np.dtype(np.int8)  # passed positionally: frombuffer's keyword parsing costs more than the call
# the events that carry no tallied cards, skipped by their exact type before the isinstance tests: most
# of a deal's events are passes and trick ends
_UNTALLIED = frozenset({Passed, RoundWon, Lead, Reported, WentOut})
_NO_HAND = bytes(N_CODES)
OBS_HIGH = 27  # the largest value of any slot (a 报牌 count stays ≤ 10; card counts ≤ 2)


class Encoder:
    """Encodes one seat's views, keeping per-deal tallies between calls: a deal's events only grow,
    so each call reads just the events it has not seen (a fresh Encoder gives the same vector)."""

    def __init__(self) -> None:
        self._deal: tuple[int, str, int] | None = None  # (deal index, commitment, observer seat)
        self._seen = 0
        # the tallies (cards played by each relative seat, tribute, returns) and the hand's counts kept at
        # their offsets in an otherwise zero vector: an encoding starts as a copy of it. Plain bytes, not
        # numpy: the per-call work is a few dozen single-slot writes, each ~100 ns in numpy against ~20
        self._base = bytearray(OBS_SIZE)
        self._hand: tuple[int, ...] | None = None  # the hand whose counts base holds in its first slots

    def reset(self) -> None:
        """Forget every tally (a new match)."""
        self.__init__()  # type: ignore[misc]

    def encode(self, view: MatchObservation) -> npt.NDArray[np.int8]:
        """The observation vector (``OBS_SIZE`` int8 values) of ``view``."""
        deal = view.deal
        me = deal.seat
        key = (view.deal_index, view.commitment, me)
        events = deal.events
        if key != self._deal or len(events) < self._seen:
            self.reset()
            self._deal = key
        base = self._base
        for e in events[self._seen:]:
            if type(e) in _UNTALLIED:
                continue
            if isinstance(e, Played):
                at = _PLAYED + (e.player - me) % 4 * N_CODES
                for c in e.cards:
                    base[at + c] += 1
            elif isinstance(e, TributeGiven):
                for t in e.transfers:
                    base[_TRIBUTE + t.card] += 1
            elif isinstance(e, CardsReturned):
                for t in e.transfers:
                    base[_RETURNED + t.card] += 1
        self._seen = len(events)

        hand = deal.hand
        if hand != self._hand:  # a seat's hand is unchanged since its last turn when it passed
            base[:N_CODES] = _NO_HAND
            for c in hand:
                base[c] += 1
            self._hand = hand

        v = bytearray(base)
        for s, left in deal.reported.items():
            k = (s - me) % 4
            v[_REPORTED + k] = left
            v[_REPORTED_FLAG + k] = 1
        for s in deal.finish:
            v[_OUT + (s - me) % 4] = 1
        ours = me % 2
        levels = view.levels
        v[_LEVELS + levels[ours]] = 1
        v[_LEVELS + 13 + levels[1 - ours]] = 1
        v[_DEAL_LEVEL + deal.level] = 1
        declarer = view.declarer
        v[_DECLARER + (2 if declarer is None else 0 if declarer == ours else 1)] = 1
        top = deal.top
        if top is not None:
            seat, cards, combo = top
            for c in cards:
                v[_TOP_CARDS + c] += 1
            v[_TOP_TYPE + COMBO_TYPE_INDEX[combo.type]] = 1
            v[_TOP_SEAT + (seat - me) % 4] = 1
        v[_PHASE + PHASE_INDEX[deal.phase]] = 1
        # int8 over the same bytes (every slot is 0…OBS_HIGH), writable, without a copy
        return np.frombuffer(v, _INT8)


def encode(view: MatchObservation) -> npt.NDArray[np.int8]:
    """The observation vector of one seat's view (a fresh :class:`Encoder`, no state kept)."""
    return Encoder().encode(view)
