"""Whose turn it is during play (RULES.md §4.3–§4.4, §6 ``act`` / ``record_out``).

A round ends when the turn comes back to the owner of the top play — implemented with a shrinking
``waiting`` set, never by counting passes — and the deal ends at once on 双上 or the third finisher.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .errors import N_, IllegalActionError
from .params import SeatNo
from .rules import RuleSet
from .tribute import partner
from .vocab import Jiefeng


class TurnTracker:
    """The turn, the top-play owner and the finishing order; no cards."""

    __slots__ = ("finish", "jiefeng", "owner", "rules", "turn", "waiting")

    def __init__(self, leader: int, rules: RuleSet, already_out: Iterable[int] = ()) -> None:
        self.finish: list[int] = list(already_out)
        if leader in self.finish:
            raise IllegalActionError.said(N_("seat {seat} is out and cannot lead"), seat=SeatNo(leader))
        self.turn = leader
        self.owner: int | None = None  # owner of the current top play; None while leading
        self.waiting: set[int] = set()
        self.rules = rules
        self.jiefeng = rules.jiefeng

    def copy(self) -> TurnTracker:
        # through __init__ (a compiled class has no bare __new__); no seat is out yet, so it cannot refuse
        t = TurnTracker(self.turn, self.rules)
        t.finish, t.owner, t.waiting = list(self.finish), self.owner, set(self.waiting)
        return t

    def __reduce__(self) -> tuple[Any, ...]:
        # compiled, the default pickling cannot rebuild it (no __dict__, no bare __new__)
        return TurnTracker, (self.turn, self.rules), (list(self.finish), self.owner, set(self.waiting))

    def __setstate__(self, state: tuple[list[int], int | None, set[int]]) -> None:
        self.finish, self.owner, self.waiting = state

    @property
    def over(self) -> bool:
        return len(self.finish) == 4

    @property
    def leading(self) -> bool:
        return self.owner is None

    def active(self) -> list[int]:
        return [s for s in range(4) if s not in self.finish]

    def next_active_after(self, seat: int) -> int:
        for i in range(1, 5):
            s = (seat + i) % 4
            if s not in self.finish:
                return s
        raise IllegalActionError.said(N_("no active seat left"))

    def check_turn(self, seat: int) -> None:
        if self.over:
            raise IllegalActionError.said(N_("the deal is over"))
        if seat != self.turn:
            raise IllegalActionError.said(N_("it is seat {seat}'s turn, not seat {actor}'s"), seat=SeatNo(self.turn),
                                          actor=SeatNo(seat))

    def pass_(self, seat: int) -> int | None:
        """A pass. Returns the new leader if this pass ended the round, else None."""
        self.check_turn(seat)
        if self.owner is None:
            raise IllegalActionError.said(N_("the leader must play: passing is not allowed when leading"))
        self.waiting.discard(seat)
        if not self.waiting:
            return self._round_won()
        self.turn = self.next_active_after(seat)
        return None

    def play(self, seat: int, goes_out: bool) -> tuple[int | None, int | None]:
        """A play. Returns (finishing place if the seat went out, new leader if the round ended)."""
        self.check_turn(seat)
        self.owner = seat
        place = None
        if goes_out:
            place = self._record_out(seat)
            if self.over:
                return place, None
        self.waiting = {s for s in self.active() if s != seat}
        if not self.waiting:  # cannot happen in a 4-player deal, kept for safety
            return place, self._round_won()
        self.turn = self.next_active_after(seat)
        return place, None

    def _record_out(self, seat: int) -> int:
        f = self.finish
        f.append(seat)
        place = len(f)
        if len(f) == 2 and f[1] == partner(f[0]):  # 双上: the deal ends at once
            rest = []
            s = f[1]
            for _ in range(3):  # double_down_order = "turn_order"
                s = (s + 1) % 4
                if s not in f:
                    rest.append(s)
            f.extend(rest)
        elif len(f) == 3:
            f.extend(self.active())
        return place

    def _round_won(self) -> int:
        owner = self.owner
        assert owner is not None
        self.owner = None
        self.waiting = set()
        if owner not in self.finish:
            self.turn = owner
        elif self.jiefeng == Jiefeng.PARTNER:
            self.turn = partner(owner)  # 接风: always still in play here (§4.3)
        else:
            self.turn = self.next_active_after(owner)
        return self.turn
