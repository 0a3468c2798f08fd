"""Hand decomposition (拆牌): split a hand into the fewest, strongest plays (手数).

The heuristic and search tiers both reason about a hand as a list of :class:`Unit` s — single (单张),
pair (对子), triple (三张), full house (三带二), straight (顺子), tube (木板), plate (钢板), bomb (炸弹),
straight flush (同花顺), joker bomb (天王炸) — chosen by a small branch-and-bound over the sequence
plays, with the rank groups and the wildcards (逢人配) placed greedily where they gain most.

The score is "minus the plays it takes" plus a value term: every non-bomb play costs
:data:`PLAY_COST`, low cards cost a little more than high ones, and bombs count as a gain (they win a
round whenever needed). Higher is better. Speed matters more than perfection here: one decomposition
must take about a millisecond so that search can afford thousands of them per decision.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, final

from ..core.cards import BIG_JOKER, SMALL_JOKER, Card, wild_code
from ..core.combos import (
    BJ_KEY,
    BOMB,
    FULL_HOUSE,
    JOKER_BOMB,
    JOKERS_KEY,
    LJ_KEY,
    PAIR,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPLE,
    Combo,
    classify,
    interned_combo,
)
from ..core.reduce import by_init
from ..core.rules import RuleSet
from ..core.vocab import BombOrder

PLAY_COST: Final = 10.0  # one more play (手) to get rid of
NODE_LIMIT: Final = 300  # branch-and-bound nodes per decomposition: bounds the time, not the quality much


@final
class Unit:
    """One planned play: its cards and the combo they are declared as. Equal when both are.

    A plain class, not a dataclass: playouts make and compare units by the million, and a compiled
    dataclass still runs its generated ``__init__`` and ``__eq__`` interpreted. Immutable (``Final``).
    """

    def __init__(self, cards: tuple[Card, ...], combo: Combo) -> None:
        self.cards: Final = cards
        self.combo: Final = combo
        self.is_bomb: Final = combo.power > 0  # stored: playouts ask millions of times

    @property
    def type(self) -> str:
        return self.combo.type

    @property
    def value(self) -> int:
        return self.combo.value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Unit):
            return NotImplemented
        return self.cards == other.cards and self.combo == other.combo

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.cards, self.combo))

    def __repr__(self) -> str:
        return f"Unit(cards={self.cards!r}, combo={self.combo!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Unit, (self.cards, self.combo))


@dataclass(frozen=True, slots=True)
class Decomposition:
    units: tuple[Unit, ...]
    score: float

    @property
    def plays(self) -> int:
        """手数: non-bomb plays needed (bombs can always take a round back)."""
        return sum(1 for u in self.units if not u.is_bomb)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_init(self)  # compiled, the default pickling cannot rebuild it


def pos_rank(pos: int) -> int:
    """Rank index of a sequence position 1…14 (both ends are the ace)."""
    return 12 if pos == 1 else pos - 2


def rank_value(rank: int, level: int) -> int:
    """lv of a natural rank at this level (§2.2)."""
    return 15 if rank == level else rank + 2


def group_score(count: int, value: int) -> float:
    """Score of ``count`` cards of one rank kept together (single, pair, triple or bomb)."""
    if count <= 0:
        return 0.0
    if count >= 4:
        return 6.0 + 2.5 * (count - 4) + 0.05 * value
    return -PLAY_COST + (value - 10) * (1.0 if count == 1 else 0.8) + (count - 1) * 1.0


def sequence_score(top: int, length: int) -> float:
    return -PLAY_COST + (top - (length + 1) / 2 - 8) * 0.5


# A sequence template: (type, cards per position, number of positions, top position)
_Seq = tuple[str, int, int, int]


def _templates(rules: RuleSet) -> list[_Seq]:
    out: list[_Seq] = []
    n = rules.straight_len[0]
    out += [(STRAIGHT, 1, n, top) for top in range(n, 15)]
    k = rules.tube_pairs[0]
    out += [(rules.tube_type, 2, k, top) for top in range(k, 15)]
    k = rules.plate_triples[0]
    out += [(rules.plate_type, 3, k, top) for top in range(k, 15)]
    return out


class _Solver:
    """Branch-and-bound over the sequence plays on rank counts; the leaves place the rest."""

    def __init__(self, counts: list[int], wilds: int, level: int, templates: list[_Seq]) -> None:
        self.level = level
        self.templates = templates
        self.values = [rank_value(r, level) for r in range(13)]
        self.nodes = 0
        self.best_score = -1e18
        self.best_plan: tuple[list[tuple[int, int]], list[int]] = ([], [])
        self.counts = counts
        self.wilds = wilds
        self.caps = [t[1] for t in templates]
        self.ranks = [[pos_rank(p) for p in range(t[3] - t[2] + 1, t[3] + 1)] for t in templates]
        self.limit = NODE_LIMIT

    def need(self, i: int, counts: list[int]) -> int:
        """Wildcards needed to complete template ``i``, or -1 when it would break a bomb or is empty."""
        cap = self.caps[i]
        need = 0
        naturals = 0
        for r in self.ranks[i]:
            c = counts[r]
            if c >= 4:
                return -1
            if c < cap:
                need += cap - c
                naturals += c
            else:
                naturals += cap
        return need if naturals else -1

    def leaf(self, counts: list[int], wilds: int) -> tuple[float, list[int]]:
        """Groups by rank with the wildcards added greedily where each gains most (default: as
        level cards). Returns the score and the ranks each wildcard joined."""
        values = self.values
        c = list(counts)
        placed: list[int] = []
        for _ in range(wilds):
            best_r, best_gain = self.level, -1e9
            for r in range(13):
                gain = group_score(c[r] + 1, values[r]) - group_score(c[r], values[r])
                if gain > best_gain:
                    best_r, best_gain = r, gain
            c[best_r] += 1
            placed.append(best_r)
        score = sum(group_score(c[r], values[r]) for r in range(13))
        score += _full_house_gain(c, values)
        return score, placed

    def search(self, cands: list[int], counts: list[int], wilds: int, chosen: list[tuple[int, int]], acc: float) -> None:
        """Try the sequence templates in ``cands`` (indices, ascending: each set is tried once)."""
        self.nodes += 1
        leaf_score, placed = self.leaf(counts, wilds)
        if acc + leaf_score > self.best_score:
            self.best_score = acc + leaf_score
            self.best_plan = (list(chosen), placed)
        if self.nodes >= self.limit:
            return
        feasible = [(i, n) for i in cands if 0 <= (n := self.need(i, counts)) <= wilds]
        for j, (i, need) in enumerate(feasible):
            _, cap, k, top = self.templates[i]
            taken = []
            for r in self.ranks[i]:
                n = min(cap, counts[r])
                counts[r] -= n
                taken.append((r, n))
            chosen.append((i, need))
            self.search([x for x, _ in feasible[j:]], counts, wilds - need, chosen, acc + sequence_score(top, k))
            chosen.pop()
            for r, n in taken:
                counts[r] += n
            if self.nodes >= self.limit:
                return


def _full_house_gain(c: Sequence[int], values: Sequence[int]) -> float:
    """三带二: each triple carries the lowest spare pair, saving that pair's play."""
    triples = sum(1 for r in range(13) if c[r] == 3)
    if not triples:
        return 0.0
    pair_scores = sorted(group_score(2, values[r]) for r in range(13) if c[r] == 2 and values[r] < 14)
    return -sum(pair_scores[:triples])


def _fh_pairs(groups: dict[int, list[Card]], values: Sequence[int]) -> list[tuple[int, int]]:
    triples = sorted((r for r, cs in groups.items() if len(cs) == 3), key=lambda r: values[r])
    pairs = sorted((r for r, cs in groups.items() if len(cs) == 2 and values[r] < 14), key=lambda r: values[r])
    return list(zip(triples, pairs, strict=False))


def _sf_options(by_rank: list[list[Card]], wilds: int) -> list[tuple[int, int, int]]:
    """Straight flushes (suit, top position, wildcards needed) that fit, fewest wildcards first."""
    opts = []
    for suit in range(4):
        for top in range(5, 15):
            need = 0
            for p in range(top - 4, top + 1):
                r = pos_rank(p)
                if r * 4 + suit not in by_rank[r]:
                    need += 1
            if need <= wilds:
                opts.append((need, -top, suit))
    opts.sort()
    return [(s, -t, n) for n, t, s in opts[:4]]


class Decomposer:
    """Decomposes hands for one RuleSet and level (cheap to build; keep one per deal)."""

    def __init__(self, rules: RuleSet, level: int, node_limit: int = NODE_LIMIT) -> None:
        self.node_limit = node_limit
        self.rules = rules
        self.level = level
        self.stars = rules.bomb_order == BombOrder.STARS
        self.templates = _templates(rules)
        self.values = [rank_value(r, level) for r in range(13)]
        self.wc = wild_code(level)

    def combo(self, type_: str, size: int, key: int, suit: int = -1) -> Combo:
        return interned_combo(type_, size, key, self.level, self.stars, suit)

    def __reduce__(self) -> tuple[Any, ...]:
        # compiled, the default pickling cannot rebuild it; everything else it holds derives from these
        return Decomposer, (self.rules, self.level, self.node_limit)

    def __call__(self, hand: Iterable[Card]) -> Decomposition:
        return self.decompose(hand)

    def decompose(self, hand: Iterable[Card]) -> Decomposition:
        cards = list(hand)
        wc = self.wc
        wilds = [c for c in cards if c == wc]
        lj = cards.count(SMALL_JOKER)
        bj = cards.count(BIG_JOKER)
        by_rank: list[list[Card]] = [[] for _ in range(13)]
        for c in sorted(cards):
            if c < 52 and c != wc:
                by_rank[c >> 2].append(c)
        best: tuple[float, list[Unit]] | None = None
        sf_branches: list[tuple[int, int, int] | None] = [None]
        if len(cards) >= 5:
            sf_branches += _sf_options(by_rank, len(wilds))
        for sf in sf_branches:
            pools = [list(x) for x in by_rank]
            w = list(wilds)
            units: list[Unit] = []
            score = 0.0
            if sf is not None:
                suit, top, _need = sf
                sf_cards: list[Card] = []
                for p in range(top - 4, top + 1):
                    r = pos_rank(p)
                    code = r * 4 + suit
                    if code in pools[r]:
                        pools[r].remove(code)
                        sf_cards.append(code)
                    else:
                        sf_cards.append(w.pop())
                units.append(Unit(tuple(sorted(sf_cards)), self.combo(STRAIGHT_FLUSH, 5, top, suit)))
                score += 9.0
            s, rest = self._solve(pools, w)
            score += s
            if best is None or score > best[0]:
                best = (score, units + rest)
        assert best is not None
        score, units = best
        units += self._jokers(lj, bj)
        score += sum(self._joker_score(u) for u in units if u.cards and u.cards[0] >= 52)
        return Decomposition(tuple(units), score)

    def _solve(self, pools: list[list[Card]], wilds: list[Card]) -> tuple[float, list[Unit]]:
        counts = [len(p) for p in pools]
        solver = _Solver(counts, len(wilds), self.level, self.templates)
        solver.limit = self.node_limit
        solver.search(list(range(len(self.templates))), list(counts), len(wilds), [], 0.0)
        chosen, placed = solver.best_plan
        units: list[Unit] = []
        w = list(wilds)
        for idx, _need in chosen:
            type_, cap, k, top = self.templates[idx]
            seq: list[Card] = []
            for p in range(top - k + 1, top + 1):
                r = pos_rank(p)
                for _ in range(cap):
                    seq.append(pools[r].pop() if pools[r] else w.pop())
            units.append(Unit(tuple(sorted(seq)), self.combo(type_, cap * k, top)))
        groups: dict[int, list[Card]] = {}
        for r in range(13):
            if pools[r]:
                groups[r] = list(pools[r])
        for r in placed:
            groups.setdefault(r, []).append(w.pop())
        fh = dict(_fh_pairs(groups, self.values))
        paired = set(fh.values())
        for r in sorted(groups, key=lambda r: self.values[r]):
            if r in paired:
                continue
            cs = groups[r]
            if r in fh:
                cs = cs + groups[fh[r]]
                units.append(Unit(tuple(sorted(cs)), self.combo(FULL_HOUSE, 5, r)))
                continue
            n = len(cs)
            type_ = SINGLE if n == 1 else PAIR if n == 2 else TRIPLE if n == 3 else BOMB
            units.append(Unit(tuple(sorted(cs)), self.combo(type_, n, r)))
        return solver.best_score, units

    def _jokers(self, lj: int, bj: int) -> list[Unit]:
        if lj == 2 and bj == 2:
            cards = (SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER)
            return [Unit(cards, self.combo(JOKER_BOMB, 4, JOKERS_KEY))]
        out = []
        for code, n, key in ((SMALL_JOKER, lj, LJ_KEY), (BIG_JOKER, bj, BJ_KEY)):
            if n == 2:
                out.append(Unit((code, code), self.combo(PAIR, 2, key)))
            elif n == 1:
                out.append(Unit((code,), self.combo(SINGLE, 1, key)))
        return out

    def _joker_score(self, u: Unit) -> float:
        if u.is_bomb:
            return 20.0
        return group_score(len(u.cards), u.value)


def checked_combo(unit: Unit, level: int, rules: RuleSet) -> Combo | None:
    """The unit's combo if its cards can be declared so under ``rules``, else their strongest
    reading, else None (the cards are not one play). Guards the variants the decomposer ignores."""
    readings = classify(unit.cards, level, rules)
    if unit.combo in readings:
        return unit.combo
    return readings[0] if readings else None


__all__ = ["PLAY_COST", "Decomposer", "Decomposition", "Unit", "checked_combo", "group_score", "rank_value"]
