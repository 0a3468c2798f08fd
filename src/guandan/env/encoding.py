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
from ..core.events import CardsReturned, Played, TributeGiven
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
_REL = [np.array([(me + k) % 4 for k in range(4)]) for me in range(4)]  # observer -> absolute seat of slot k
OBS_HIGH = 27  # the largest value of any slot (a 报牌 count stays ≤ 10; card counts ≤ 2)


class Encoder:
    """Encodes one seat's views, keeping per-deal tallies between calls: a deal's events only grow,
    so each call reads just the events it has not seen (a fresh Encoder gives the same vector)."""

    def __init__(self) -> None:
        self._deal: tuple[int, str] | None = None
        self._seen = 0
        self._played = np.zeros((4, N_CODES), dtype=np.int8)  # by absolute seat
        self._tribute = np.zeros(N_CODES, dtype=np.int8)
        self._returned = np.zeros(N_CODES, dtype=np.int8)

    def reset(self) -> None:
        """Forget every tally (a new match)."""
        self.__init__()  # type: ignore[misc]

    def encode(self, view: MatchObservation) -> npt.NDArray[np.int8]:
        """The observation vector (``OBS_SIZE`` int8 values) of ``view``."""
        deal = view.deal
        key = (view.deal_index, view.commitment)
        events = deal.events
        if key != self._deal or len(events) < self._seen:
            self.reset()
            self._deal = key
        for e in events[self._seen:]:
            if isinstance(e, Played):
                for c in e.cards:
                    self._played[e.player, c] += 1
            elif isinstance(e, TributeGiven):
                for t in e.transfers:
                    self._tribute[t.card] += 1
            elif isinstance(e, CardsReturned):
                for t in e.transfers:
                    self._returned[t.card] += 1
        self._seen = len(events)

        me = deal.seat
        v = np.zeros(OBS_SIZE, dtype=np.int8)
        # the hand, top play and tallies are written as whole slices, not card by card: the encoder
        # was a tenth of a step when it looped in Python
        if deal.hand:
            v[:N_CODES] = np.bincount(deal.hand, minlength=N_CODES)
        v[_PLAYED:_PLAYED + 4 * N_CODES] = self._played[_REL[me]].reshape(-1)
        for s, left in deal.reported.items():
            k = (s - me) % 4
            v[_REPORTED + k] = left
            v[_REPORTED_FLAG + k] = 1
        for s in deal.finish:
            v[_OUT + (s - me) % 4] = 1
        ours = me % 2
        v[_LEVELS + view.levels[ours]] = 1
        v[_LEVELS + 13 + view.levels[1 - ours]] = 1
        v[_DEAL_LEVEL + deal.level] = 1
        v[_DECLARER + (2 if view.declarer is None else 0 if view.declarer == ours else 1)] = 1
        if deal.top is not None:
            seat, cards, combo = deal.top
            v[_TOP_CARDS:_TOP_CARDS + N_CODES] = np.bincount(cards, minlength=N_CODES)
            v[_TOP_TYPE + COMBO_TYPE_INDEX[combo.type]] = 1
            v[_TOP_SEAT + (seat - me) % 4] = 1
        v[_TRIBUTE:_TRIBUTE + N_CODES] = self._tribute
        v[_RETURNED:_RETURNED + N_CODES] = self._returned
        v[_PHASE + PHASE_INDEX[deal.phase]] = 1
        return v


def encode(view: MatchObservation) -> npt.NDArray[np.int8]:
    """The observation vector of one seat's view (a fresh :class:`Encoder`, no state kept)."""
    return Encoder().encode(view)
