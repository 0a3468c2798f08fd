"""Exact endgame solver (残局精算) for one determinized world.

When few cards are left, every hand of a sampled world is small enough to search the whole game
tree on the engine's real legal moves (canonical mode: one play per combo and wildcard use), not on
the playout policy's units. Seats of the searching team maximise its level points (升级数), the
others minimise them — perfect-information minimax with alpha-beta pruning and a transposition
table, on a copy of the real :class:`~guandan.core.turns.TurnTracker` so turn order, 接风 and the end
of the deal (双上, third finisher) follow the engine exactly.

The solver is bounded: past ``node_limit`` nodes or the ``deadline`` it raises :class:`Exhausted`,
and the caller falls back to policy playouts (anytime search).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Final

from ..core.cards import Card
from ..core.combos import Combo
from ..core.moves import Move, legal_moves
from ..core.rules import RuleSet
from ..core.turns import TurnTracker
from ..core.vocab import MoveMode
from .worlds import level_points

EXACT, LOWER, UPPER = 0, 1, 2
_CHECK_EVERY: Final = 64  # nodes between clock reads: perf_counter is not free at this node rate


class Exhausted(Exception):
    """The solver ran out of nodes or time before proving a value."""


Hands = tuple[tuple[Card, ...], ...]


class EndgameSolver:
    """Minimax values of positions for ``seat``'s team; the table is shared across calls, so
    solving every candidate action of one world reuses the common subtrees."""

    def __init__(self, seat: int, level: int, rules: RuleSet, node_limit: int, deadline: float | None = None,
                 clock: Callable[[], float] = time.perf_counter, win_bonus: float = 0.0) -> None:
        self.seat = seat
        self.win_bonus = win_bonus  # the value of a finished deal is level_points(…, win_bonus)
        self.clock = clock  # the clock the deadline is read on
        self.level = level
        self.rules = rules
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self._table: dict[tuple[object, ...], tuple[float, int]] = {}
        self._moves: dict[tuple[tuple[Card, ...], Combo | None], list[Move]] = {}

    def value(self, hands: Sequence[Sequence[Card]], tracker: TurnTracker, top: Combo | None,
              owner: int | None) -> float:
        """The exact level points for ``seat``'s team with best play by all four seats from here.

        ``hands`` are the four hands now (empty for seats that are out); ``top``/``owner`` the play
        to beat, ignored while ``tracker`` says the turn leads. Raises :class:`Exhausted`.
        """
        hs: Hands = tuple(tuple(sorted(h)) for h in hands)
        return self._search(hs, tracker, top, owner, -1e9, 1e9)

    def _legal(self, hand: tuple[Card, ...], top: Combo | None) -> list[Move]:
        key = (hand, top)
        moves = self._moves.get(key)
        if moves is None:
            moves = legal_moves(hand, top, self.level, self.rules, mode=MoveMode.CANONICAL)
            # Going out first, then plays that shed more cards, pass last: good moves early prune most.
            moves.sort(key=lambda m: (m.combo is None, -len(m.cards)))
            self._moves[key] = moves
        return moves

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise Exhausted(f"more than {self.node_limit} nodes")
        if self.deadline is not None and self.nodes % _CHECK_EVERY == 0 and self.clock() > self.deadline:
            raise Exhausted("out of time")

    def _search(self, hands: Hands, tr: TurnTracker, top: Combo | None, owner: int | None,
                alpha: float, beta: float) -> float:
        if tr.over:
            return level_points(tr.finish, self.seat, self.rules, self.win_bonus)
        self._tick()
        if tr.leading:
            top, owner = None, None
        key = (hands, tr.turn, tr.owner, frozenset(tr.waiting), tuple(tr.finish), top)
        hit = self._table.get(key)
        if hit is not None:
            v, flag = hit
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
        a0, b0 = alpha, beta
        s = tr.turn
        maximise = s % 2 == self.seat % 2
        best = -1e9 if maximise else 1e9
        for m in self._legal(hands[s], top):
            t = tr.copy()
            if m.combo is None:
                ended = t.pass_(s) is not None
                v = self._search(hands, t, None if ended else top, None if ended else owner, alpha, beta)
            else:
                rest = list(hands[s])
                for c in m.cards:
                    rest.remove(c)
                nh = (*hands[:s], tuple(rest), *hands[s + 1:])
                t.play(s, goes_out=not rest)
                v = self._search(nh, t, m.combo, s, alpha, beta)
            if maximise:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        flag = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
        self._table[key] = (best, flag)
        return best


__all__ = ["EndgameSolver", "Exhausted"]
