"""Lead and follow rules on decomposed hands, shared by the heuristic agent and search playouts.

They see a :class:`Table` — card counts, who is out, the top play and its owner — and the seat's
:class:`~guandan.agents.decompose.Unit` s, never a hidden hand. Partnership (配合) rules live here:
do not overtake a partner who is winning the round (不压队友), feed a partner close to going out
(送牌), stop an opponent with few cards (堵牌), and keep bombs for when they decide the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..core.cards import BIG_JOKER, SMALL_JOKER, Card
from ..core.combos import (
    BJ_KEY,
    FULL_HOUSE,
    LJ_KEY,
    PAIR,
    PAIR_RUN,
    PLATE,
    SINGLE,
    STRAIGHT,
    TRIPLE,
    TRIPLE_RUN,
    TUBE,
    Combo,
    beats,
)
from ..core.moves import legal_moves
from ..core.tribute import partner as partner_of
from ..core.vocab import MoveMode
from .decompose import Decomposer, Unit, group_score

DANGER: Final = 6  # an opponent with this many cards or fewer may go out soon: worth a bomb
CONTROL: Final = 15  # singles / pairs of this value (level cards, jokers) are kept as control cards
BREAK_TOLERANCE: Final = 4.0  # hand score a break may cost (the heuristic's rule), more under threat
THREAT_TOLERANCE: Final = 30.0
MAX_BREAK_CANDIDATES: Final = 6  # distinct plays, cheapest first, whose cost to the hand is weighed (the heuristic's)


class Table:
    """The public situation a policy decides on. A plain class, not a dataclass: a playout makes one
    per turn, and a compiled dataclass still runs its generated ``__init__`` interpreted."""

    def __init__(self, seat: int, counts: Sequence[int], top: Combo | None, owner: int | None,
                 danger: int = DANGER) -> None:
        self.seat = seat
        self.counts = counts  # cards each seat holds (0 once out)
        self.top = top  # the play to beat; None when leading
        self.owner = owner  # who made it
        self.danger = danger  # an opponent with this many cards or fewer may go out soon: the player's style

    def __repr__(self) -> str:
        return (f"Table(seat={self.seat!r}, counts={self.counts!r}, top={self.top!r}, owner={self.owner!r}, "
                f"danger={self.danger!r})")

    def active(self, s: int) -> bool:
        return self.counts[s] > 0

    def opponents(self) -> list[int]:
        return [s for s in ((self.seat + 1) % 4, (self.seat + 3) % 4) if self.active(s)]

    def min_opponent(self) -> int:
        """The fewest cards an opponent still in the deal holds (99 when neither is)."""
        low = 99
        for s in ((self.seat + 1) % 4, (self.seat + 3) % 4):
            n = self.counts[s]
            if 0 < n < low:
                low = n
        return low


def _first_min(keys: Sequence[float]) -> int:
    """Index of the first smallest key: ``min()``'s tie rule, without its key-function call per unit
    (``min``/``max`` with a key are slow calls from compiled code). ``max`` is the min of the negations."""
    best = 0
    for i in range(1, len(keys)):
        if keys[i] < keys[best]:
            best = i
    return best


_SEQUENCES: Final = frozenset({STRAIGHT, TUBE, PLATE, PAIR_RUN, TRIPLE_RUN})


def lead_key(u: Unit) -> float:
    """Lower leads first: low plays, and among them the ones that shed more cards."""
    n = len(u.cards)
    bonus = 0.0 if n == 1 else 1.5 if n < 5 else 3.0
    value = u.value if n < 5 or u.type not in _SEQUENCES else u.value - 2
    return value - bonus


def lead_unit(units: Sequence[Unit], t: Table) -> Unit:
    """Which unit to lead (先出)."""
    normal = [u for u in units if not u.is_bomb]
    bombs = [u for u in units if u.is_bomb]
    if len(units) == 1:
        return units[0]
    if not normal:
        return bombs[_first_min([u.combo.power for u in bombs])]
    if len(normal) == 1:
        return normal[0]  # the bombs win the lead back if someone beats it
    mate = partner_of(t.seat)
    mate_left = t.counts[mate]
    threat = t.min_opponent()
    if 0 < mate_left <= 2 and threat > 2:
        want = [u for u in normal if len(u.cards) == mate_left]
        if want:
            return want[_first_min([u.value for u in want])]  # 送牌: a low play the partner can beat
    nxt = (t.seat + 1) % 4
    nxt_left = t.counts[nxt]
    choices = normal
    if 0 < nxt_left <= 2:
        # 堵牌: do not lead what the next opponent can finish on; else lead our strongest of it
        safe = [u for u in normal if len(u.cards) != nxt_left]
        if safe:
            choices = safe
        else:
            return normal[_first_min([-u.value for u in normal])]
    if len(normal) == 2 and len(choices) == 2:
        high = choices[_first_min([-u.value for u in choices])]
        if high.value >= CONTROL and len(high.cards) <= 2:
            return high  # take control with the big one, then go out with the other
    return choices[_first_min([lead_key(u) for u in choices])]


def follow_unit(units: Sequence[Unit], t: Table) -> Unit | None:
    """Follow with a whole unit (no breaking) or a bomb, or pass (None). Used by playouts."""
    top = t.top
    assert top is not None
    return _follow_whole(units, t, [u for u in units if not u.is_bomb and beats(u.combo, top)])


def _follow_whole(units: Sequence[Unit], t: Table, same: Sequence[Unit]) -> Unit | None:
    """:func:`follow_unit` given ``same``, the non-bomb units that beat the top."""
    top = t.top
    assert top is not None
    if t.owner == partner_of(t.seat):
        if len(units) == 1 and same:
            return same[0]
        return None
    if same:
        u = same[_first_min([x.value for x in same])]
        if (u.value >= CONTROL and top.type == SINGLE and top.value < 11 and t.min_opponent() > t.danger
                and len(units) > 4):
            return None  # keep a control card for later
        return u
    return bomb_choice(units, t)


def follow(units: Sequence[Unit], t: Table, dec: Decomposer) -> tuple[Unit, Unit, tuple[Unit, ...]] | None:
    """The playout's follow, closer to what the heuristic agent does: :func:`follow_unit`'s whole
    unit, else a single or pair broken out of a group unit (拆牌) when that costs the hand little (or
    an opponent is about to go out), else a bomb. Returns (the play, the unit it came from, what is
    left of that unit), or None to pass."""
    top = t.top
    assert top is not None
    same = [u for u in units if not u.is_bomb and beats(u.combo, top)]
    if t.owner == partner_of(t.seat) or same:
        whole = _follow_whole(units, t, same)  # a whole unit beats (or it is the partner's round): no break
        return None if whole is None else (whole, whole, ())
    bomb = bomb_choice(units, t)
    if top.type not in (SINGLE, PAIR):
        return None if bomb is None else (bomb, bomb, ())
    threat = _threatened(t)
    broken = break_unit(units, top, dec, BREAK_TOLERANCE + (THREAT_TOLERANCE if threat else 0.0))
    if broken is not None and _break_wins(broken[0], bomb is not None, threat):
        return broken[1:]
    return None if bomb is None else (bomb, bomb, ())


def _threatened(t: Table) -> bool:
    """The play to beat is an opponent's who is about to go out (堵牌): breaks may cost more."""
    return t.owner is not None and t.counts[t.owner] <= t.danger


def _break_wins(loss: float, bomb: bool, threat: bool) -> bool:
    """Whether a break costing the hand ``loss`` beats the alternatives, scored as the heuristic
    scores them: a break 15 − loss, a bomb 12 under threat and 8 otherwise, passing 0."""
    bomb_score = (12.0 if threat else 8.0) if bomb else -1.0
    return 15.0 - loss > max(0.0, bomb_score)


def follow_full(units: Sequence[Unit], t: Table, dec: Decomposer) -> tuple[Unit, Unit | None, tuple[Unit, ...]] | None:
    """:func:`follow`, and where no whole unit beats the top and no single or pair can be split off
    cheaply, any play of the hand that beats it, weighed as the heuristic agent weighs a break
    (:func:`break_any`): a straight, tube or full house taken out of other units (拆牌管上). Playouts
    with it replay heuristic players' deals more faithfully, at several times the cost of a follow.
    Returns what :func:`follow` returns, except that after such a break the source is None and
    ``rest`` is a fresh plan of what is left of the hand."""
    move = follow(units, t, dec)
    top = t.top
    assert top is not None
    if move is not None and not move[0].is_bomb:
        return move  # a whole unit or a cheap split: what the heuristic plays too
    if t.owner == partner_of(t.seat):
        return move
    for u in units:
        if not u.is_bomb and beats(u.combo, top):
            return move  # a whole unit beats, and the heuristic kept it back (a control card): no break
    threat = _threatened(t)
    found = break_any(units, top, dec, BREAK_TOLERANCE + (THREAT_TOLERANCE if threat else 0.0))
    if found is not None and _break_wins(found[0], move is not None, threat):  # move is None or a bomb here
        return found[1], None, found[2]
    return move


def break_any(units: Sequence[Unit], top: Combo, dec: Decomposer,
              tolerance: float) -> tuple[float, Unit, tuple[Unit, ...]] | None:
    """The heuristic agent's break (拆牌管上) on a hand held as ``units``: of the non-bomb plays that
    beat ``top``, the six lowest distinct ones (most wildcards first at one value), the one whose
    removal costs the hand's decomposition score least, if no more than ``tolerance``: (that cost,
    the play, the rest of the hand decomposed afresh)."""
    hand = [c for u in units for c in u.cards]
    if len(hand) < top.size:
        return None
    wc = dec.wc
    plays = [m for m in legal_moves(hand, top, dec.level, dec.rules, MoveMode.CANONICAL)
             if m.combo is not None and not m.combo.is_bomb]
    if not plays:
        return None
    plays.sort(key=lambda m: (m.combo.value if m.combo is not None else 0, -m.cards.count(wc)))
    base = dec(hand).score
    best: tuple[float, Unit, tuple[Unit, ...]] | None = None
    seen: list[Combo] = []
    for m in plays:
        combo = m.combo
        assert combo is not None
        if combo in seen:
            continue
        seen.append(combo)
        if len(seen) > MAX_BREAK_CANDIDATES:
            break
        rest = list(hand)
        for c in m.cards:
            rest.remove(c)
        after = dec(rest)
        loss = base - after.score
        if loss <= tolerance and (best is None or loss < best[0]):
            best = (loss, Unit(m.cards, combo), after.units)
    return best


def break_unit(units: Sequence[Unit], top: Combo, dec: Decomposer,
               tolerance: float) -> tuple[float, Unit, Unit, tuple[Unit, ...]] | None:
    """The cheapest single or pair beating ``top`` taken out of a pair, triple or full house (no
    wildcards): (loss of hand score, the play, the source unit, the rest of it as units). The loss
    is local — the source's score minus its remainder's, as :func:`group_score` values them, with a
    full house's pair carried free as the decomposer counts it."""
    need = 1 if top.type == SINGLE else 2
    floor = top.value
    best: tuple[float, int, Unit, int] | None = None  # (loss, value, source, rank key taken from)
    for u in units:
        kind = u.type
        if kind not in _GROUPS or u.is_bomb or dec.wc in u.cards:
            continue
        if kind == FULL_HOUSE:
            vt, kt, vp, kp = _fh_parts(u, dec)
            opts = []
            if vt > floor:
                # out of the triple: 2+2 (single) or 1+2 (pair) remain
                opts.append((group_score(3, vt) - group_score(3 - need, vt) - group_score(2, vp), vt, kt))
            if vp > floor:
                # out of the pair: the triple and a lone card remain, or the triple alone
                opts.append((-group_score(2 - need, vp), vp, kp))
        else:
            n = len(u.cards)
            if n <= need or u.value <= floor:
                continue
            v = u.value
            opts = [(group_score(n, v) - group_score(n - need, v), v, _key(u.cards[0]))]
        for loss, v, key in opts:
            if loss <= tolerance and (best is None or (loss, v) < (best[0], best[1])):
                best = (loss, v, u, key)
    if best is None:
        return None
    loss, _v, src, key = best
    taken = [c for c in src.cards if _key(c) == key][:need]
    rest = list(src.cards)
    for c in taken:
        rest.remove(c)
    play = Unit(tuple(taken), dec.combo(SINGLE if need == 1 else PAIR, need, key))
    return loss, play, src, _group_units(rest, dec)


_GROUPS: Final = (PAIR, TRIPLE, FULL_HOUSE)


def _key(c: Card) -> int:
    return LJ_KEY if c == SMALL_JOKER else BJ_KEY if c == BIG_JOKER else c >> 2


def _fh_parts(u: Unit, dec: Decomposer) -> tuple[int, int, int, int]:
    """A natural full house's triple value and rank key, and its pair's value and rank key."""
    keys = [_key(c) for c in u.cards]
    kt = next(k for k in keys if keys.count(k) == 3)
    kp = next(k for k in keys if keys.count(k) == 2)
    return u.value, kt, dec.values[kp], kp


def _group_units(cards: Sequence[Card], dec: Decomposer) -> tuple[Unit, ...]:
    groups: dict[int, list[Card]] = {}
    for c in cards:
        groups.setdefault(_key(c), []).append(c)
    return tuple(Unit(tuple(cs), dec.combo((SINGLE, PAIR, TRIPLE)[len(cs) - 1], len(cs), k)) for k, cs in groups.items())


def bomb_choice(units: Sequence[Unit], t: Table) -> Unit | None:
    """Bomb (炸) an opponent's play when it stops them going out or lets us finish soon."""
    top = t.top
    if top is None or t.owner is None or t.owner == partner_of(t.seat):
        return None
    bombs = [u for u in units if u.is_bomb and beats(u.combo, top)]
    if not bombs:
        return None
    normal = sum(1 for u in units if not u.is_bomb)
    owner_left = t.counts[t.owner]
    if owner_left <= t.danger or t.min_opponent() <= t.danger // 2 or normal <= 1 or (normal <= 2 and len(bombs) >= 2):
        return bombs[_first_min([u.combo.power for u in bombs])]
    return None


__all__ = ["CONTROL", "DANGER", "Table", "bomb_choice", "break_any", "break_unit", "follow", "follow_full", "follow_unit",
           "lead_key", "lead_unit", "partner_of"]
