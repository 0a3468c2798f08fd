"""Complete legal-move generation (RULES.md §3.3: templates tested by multiset inclusion).

A move is the cards (a sorted tuple of card codes) plus the declared :class:`Combo`. Moves are
*complete*: two plays are distinct when they use different (suit, rank) cards — the suits of a
straight flush, or simply which cards stay in hand — while the two physical copies of one card
are not. The *canonical* mode keeps one representative per (combo, ♥ level cards used, big jokers
used), taking the lowest suits that still read as that combo. Search uses it to stay small.

Generation walks templates (type × key × window) and takes, per rank, the sub-multisets of the
hand's natural cards from a precomputed table, with wildcards covering exactly the missing slots.
It never enumerates what a wildcard "is". A hand's generator is cached while the hand is
unchanged: its bombs are generated once, and its plays of one (type, size) are kept sorted by key
so that following is a bisect.

Thread safety: the generator cache is shared by every thread of a process, so its mutation holds a
module lock and each generator runs under its own lock (two threads asking about one hand take
turns; different hands run side by side). Every answer is a fresh list, and the other caches
(``functools.lru_cache`` of pure functions) hold immutable values only.

Under ``wild_resolution = "strongest"`` (火拼) big jokers are wildcards too and a card set is only
what its strongest reading says. The templates yield every reading of every set, so complete mode
groups them by set and resolves each group as :func:`classify` does; canonical mode, which sees
only some readings of a set, confirms each representative with :func:`classify` instead.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from itertools import combinations, product
from threading import Lock
from typing import Final, final

from .cards import BIG_JOKER, N_CODES, SMALL_JOKER, Card, wild_code
from .combos import (
    AIRPLANE,
    BJ_KEY,
    BOMB,
    CHAIN_BOMB,
    FULL_HOUSE,
    JOKER_BOMB,
    JOKERS_KEY,
    LJ_KEY,
    PAIR,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_JOKERS,
    TRIPLE,
    Combo,
    _classify_cached,
    _strongest,
    beats,
    interned_combo,
    make_combo,
    sort_strongest,
)
from .errors import N_, GuandanError, InvalidHandError, shown
from .rules import RuleSet
from .vocab import BombOrder, MoveMode


@final
class Move:
    """A play (cards + declared combo) or PASS (no cards, combo None).

    It compares, hashes, indexes and unpacks like the pair ``(cards, combo)``. A plain class, not a
    named tuple: compiled, making one is a direct allocation, and a generator makes hundreds per
    hand. Treat it as immutable (the attributes are ``Final``).
    """

    def __init__(self, cards: tuple[Card, ...], combo: Combo | None) -> None:
        self.cards: Final = cards
        self.combo: Final = combo

    @property
    def is_pass(self) -> bool:
        return self.combo is None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.combo == other.combo and self.cards == other.cards
        if isinstance(other, tuple):
            return len(other) == 2 and self.cards == other[0] and self.combo == other[1]
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.cards, self.combo))

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index: int) -> tuple[Card, ...] | Combo | None:
        return (self.cards, self.combo)[index]

    def __iter__(self) -> Iterator[tuple[Card, ...] | Combo | None]:
        return iter((self.cards, self.combo))

    def __repr__(self) -> str:
        return f"Move(cards={self.cards!r}, combo={self.combo!r})"

    def __reduce__(self) -> tuple[type[Move], tuple[tuple[Card, ...], Combo | None]]:
        return (Move, (self.cards, self.combo))


PASS: Final = Move((), None)
MODES: Final = tuple(MoveMode)
_COMPLETE: Final = MoveMode.COMPLETE
_CANONICAL: Final = MoveMode.CANONICAL


@lru_cache(maxsize=4096)
def _rank_subs(r: int, pattern: tuple[int, int, int, int]) -> tuple[tuple[tuple[Card, ...], ...], ...]:
    """For rank r with per-suit counts ``pattern``: sub-multisets grouped by size (index = size)."""
    groups: list[list[tuple[Card, ...]]] = [[] for _ in range(sum(pattern) + 1)]
    for picks in product(*(range(n + 1) for n in pattern)):
        cards: tuple[Card, ...] = ()
        for s, k in enumerate(picks):
            cards += (4 * r + s,) * k
        groups[len(cards)].append(cards)
    return tuple(tuple(g) for g in groups)


# by rank and pattern in one int (13 × 3⁴): _rank_subs and the distinct natural codes (never mutated)
_SUBS: dict[int, tuple[tuple[tuple[tuple[Card, ...], ...], ...], list[Card]]] = {}


def _singles(groups: tuple[tuple[tuple[Card, ...], ...], ...]) -> list[Card]:
    return [c[0] for c in groups[1]] if len(groups) > 1 else []


def _pos_rank(pos: int) -> int:
    return 12 if pos == 1 else pos - 2


_POPCOUNT: Final = tuple(bin(i).count("1") for i in range(32))


_SF_TOPS: dict[int, tuple[int, ...]] = {}  # by mask << 4 | wilds: at most 2¹⁵ × 5 entries


def _sf_tops(mask: int, wilds: int) -> tuple[int, ...]:
    """Tops of the 5-card windows that ``wilds`` wildcards can complete, for one suit's position mask."""
    key = mask << 4 | wilds
    found = _SF_TOPS.get(key)
    if found is None:
        found = _SF_TOPS[key] = tuple(top for top in range(5, 15) if 5 - _POPCOUNT[mask >> (top - 4) & 31] <= wilds)
    return found

# rank indices of the sequence window of length n ending at position top (1 and 14 are both the ace)
_WINDOWS: Final = {(n, top): tuple(_pos_rank(p) for p in range(top - n + 1, top + 1))
                   for n in range(1, 14) for top in range(n, 15)}


def _always(cards: tuple[Card, ...], combo: Combo) -> bool:
    return True


def _combo_value(m: Move) -> int:
    return m.combo.value  # type: ignore[union-attr]


@lru_cache(maxsize=1024)
def _rank_combos(type_: str, size: int, level: int, stars: bool) -> tuple[Combo, ...]:
    """The combo of each of the 13 ranks for a rank-keyed type, at a level."""
    return tuple(make_combo(type_, size, r, level, stars) for r in range(13))


@final
class _Shape:
    """The rule set's fields that the templates read, as one compiled object (reading a field of a
    rule set, a plain dataclass, is a dictionary lookup)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules  # held, so that its id keys the cache below for as long as the entry lives
        self.straight_len: tuple[int, int] = rules.straight_len
        self.runs: list[tuple[str, int, int, int]] = [
            (rules.tube_type, 2, rules.tube_pairs[0], rules.tube_pairs[1]),
            (rules.plate_type, 3, rules.plate_triples[0], rules.plate_triples[1]),
        ]
        self.airplane: bool = rules.airplane


_SHAPES: dict[int, _Shape] = {}  # by id(rules): RuleSet.__hash__ is interpreted Python


def _shape(rules: RuleSet) -> _Shape:
    found = _SHAPES.get(id(rules))
    if found is None or found.rules is not rules:
        if len(_SHAPES) >= 64:  # rule sets made and dropped (one per room, say) are not kept alive here
            _SHAPES.clear()
        found = _SHAPES[id(rules)] = _Shape(rules)
    return found


class _Gen:
    """The move generator of one hand, kept (see :func:`_generator`) while the hand is unchanged.

    ``canonical`` keeps the first natural sub-multiset per (rank, wildcards used), so templates
    yield one representative per (combo, wildcard use) without enumerating the rest.
    """

    def __init__(self, cnt: tuple[int, ...], level: int, rules: RuleSet, wilds: tuple[Card, ...], free_wild: bool,
                 canonical: bool = False):
        self.level = level
        self.rules = rules
        self.stars = rules.bomb_order == BombOrder.STARS
        self.wc = wild_code(level)
        self.cnt = cnt
        self.canonical = canonical
        # wild fill options: wt[k] = list of wildcard tuples of length k (sorted codes)
        self.wt: list[list[tuple[Card, ...]]] = [[()]]
        nh = cnt[self.wc] if self.wc in wilds else 0
        nb = cnt[BIG_JOKER] if BIG_JOKER in wilds else 0
        self.W = nh + nb
        for k in range(1, self.W + 1):
            opts = [tuple(sorted((self.wc,) * h + (BIG_JOKER,) * (k - h))) for h in range(k + 1) if h <= nh and k - h <= nb]
            self.wt.append(opts[:1] if canonical and not free_wild else opts)
        self.free_wild = free_wild  # candidates mode (火拼): all-wildcard slots everywhere
        subs = []
        singles: list[list[Card]] = []
        for r in range(13):
            b = 4 * r
            h = 0 if r == level else cnt[b + 1]
            key = r * 81 + cnt[b] * 27 + h * 9 + cnt[b + 2] * 3 + cnt[b + 3]
            found = _SUBS.get(key)
            if found is None:
                groups = _rank_subs(r, (cnt[b], h, cnt[b + 2], cnt[b + 3]))
                found = _SUBS[key] = (groups, _singles(groups))
            subs.append(found[0])
            singles.append(found[1])
        self.subs = subs
        self.n_nat = [len(x) - 1 for x in subs]  # natural cards per rank
        self.singles = singles  # distinct natural codes per rank (shared between hands: read only)
        self._groups: dict[int, list[tuple[tuple[Card, ...], int]]] = {}  # by r, k, part, every packed in one int
        self._bomb_moves: list[Move] | None = None
        # 火拼 canonical mode: a representative must resolve to its template's reading (set by the caller)
        self.accept: Callable[[tuple[Card, ...], Combo], bool] = _always
        self._follow: dict[tuple[str, int], tuple[list[int], list[Move]]] = {}
        self._asked: set[tuple[str, int]] = set()
        self.out: list[Move] = []
        self._lock = Lock()  # run() fills self.out and the caches above: one thread at a time

    def mk(self, type_: str, size: int, key: int, suit: int = -1, x: int = 0, y: int = 0) -> Combo:
        return interned_combo(type_, size, key, self.level, self.stars, suit, x, y)

    def group(self, r: int, k: int, part: bool = False, every: bool = False) -> list[tuple[tuple[Card, ...], int]]:
        """Ways to make k cards of rank r: (sorted cards, wildcards used). A play made of wildcards
        alone stands for level cards (§2.4), so an all-wildcard group of another rank is only allowed
        as a ``part`` of a larger template (a run position, a wing). ``every``: all natural
        sub-multisets even in canonical mode."""
        key = r << 8 | k << 2 | part << 1 | every
        found = self._groups.get(key)
        if found is not None:
            return found
        subs = self.subs[r]
        res: list[tuple[tuple[Card, ...], int]] = []
        for w in range(min(k, self.W) + 1):
            nk = k - w
            if nk >= len(subs):
                continue
            if nk == 0 and not (part or self.free_wild or r == self.level or self.rules.allow_wild_underdeclare):
                continue
            nats = subs[nk][:1] if self.canonical and not every else subs[nk]
            if w:
                for wt in self.wt[w]:
                    res.extend((tuple(sorted(nat + wt)), w) for nat in nats)
            else:
                res.extend((nat, 0) for nat in nats)
        self._groups[key] = res
        return res

    def emit_all(self, combo: Combo, sets: Iterable[tuple[Card, ...]]) -> None:
        self.out.extend([Move(cards, combo) for cards in sets])

    # --- templates ------------------------------------------------------------------------
    def singles_pairs_triples(self, want: str | None, minv: int) -> None:
        for type_, k in ((SINGLE, 1), (PAIR, 2), (TRIPLE, 3)):
            if want is not None and want != type_:
                continue
            combos = _rank_combos(type_, k, self.level, self.stars)
            need = k - self.W
            for r in range(13):
                combo = combos[r]
                if self.n_nat[r] >= need and combo.value > minv:
                    self.emit_all(combo, [c for c, _ in self.group(r, k)])
            if k <= 2:
                for jk, code in ((LJ_KEY, SMALL_JOKER), (BJ_KEY, BIG_JOKER)):
                    if self.cnt[code] >= k:
                        combo = self.mk(type_, k, jk)
                        if combo.value > minv:
                            self.out.append(Move((code,) * k, combo))
                if k == 2 and self.free_wild and self.cnt[SMALL_JOKER] and self.cnt[BIG_JOKER]:
                    self.out.append(Move((SMALL_JOKER, BIG_JOKER), self.mk(PAIR, 2, LJ_KEY)))

    def bombs(self, minpow: int) -> None:
        W = self.W
        max_bomb = self.rules.max_bomb
        for r in range(13):
            top_size = min(self.n_nat[r] + W, max_bomb)
            for size in range(4, top_size + 1):
                combo = self.mk(BOMB, size, r)
                if combo.power > minpow:
                    self.emit_all(combo, [c for c, _ in self.group(r, size)])
        lj, bj = self.cnt[SMALL_JOKER], self.cnt[BIG_JOKER]
        if lj == 2 and bj == 2:
            combo = self.mk(JOKER_BOMB, 4, JOKERS_KEY)
            if combo.power > minpow:
                self.out.append(Move((SMALL_JOKER,) * 2 + (BIG_JOKER,) * 2, combo))
        if self.rules.three_joker_bomb and lj + bj >= 3:
            combo = self.mk(THREE_JOKERS, 3, JOKERS_KEY)
            if combo.power > minpow:
                for nl in (1, 2):
                    if nl <= lj and 3 - nl <= bj:
                        self.out.append(Move((SMALL_JOKER,) * nl + (BIG_JOKER,) * (3 - nl), combo))

    def full_houses(self, minv: int) -> None:
        W = self.W
        joker_pairs: list[tuple[Card, ...]] = []
        if self.rules.full_house_joker_pair:
            for code in (SMALL_JOKER, BIG_JOKER):
                if self.cnt[code] == 2:
                    joker_pairs.append((code, code))
            if self.free_wild and self.cnt[SMALL_JOKER] and self.cnt[BIG_JOKER]:
                joker_pairs.append((SMALL_JOKER, BIG_JOKER))
        pair_groups = [self.group(p, 2) if self.n_nat[p] + W >= 2 else [] for p in range(13)]
        all_wild_pairs = self.wt[2] if W >= 2 else []
        for t in range(13):
            if self.n_nat[t] + W < 3:
                continue
            combo = self.mk(FULL_HOUSE, 5, t)
            if combo.value <= minv:
                continue
            triples = self.group(t, 3)
            sets: list[tuple[Card, ...]] = []
            if self.canonical:
                self.emit_all(combo, self._canonical_full_houses(t, triples, pair_groups, all_wild_pairs, joker_pairs))
                continue
            for tc, tw in triples:
                left = W - tw
                for p in range(13):
                    if p == t:
                        continue
                    pg = pair_groups[p]
                    if not pg:
                        continue
                    ok = [(pc, pw) for pc, pw in pg if pw <= left and (pw < 2 or self.free_wild)]
                    if tw:
                        sets.extend([tuple(sorted(tc + pc)) for pc, _ in ok])
                    else:
                        # natural blocks of two ranks are already in code order; a wildcard is not
                        sets.extend([(tc + pc if p > t else pc + tc) if not pw else tuple(sorted(tc + pc)) for pc, pw in ok])
                if left >= 2 and not self.free_wild:
                    sets.extend(tuple(sorted(tc + wp)) for wp in all_wild_pairs)
                sets.extend(tuple(sorted(tc + jp)) for jp in joker_pairs)
            self.emit_all(combo, sets)

    def _canonical_full_houses(self, t: int, triples: list[tuple[tuple[Card, ...], int]],
                               pair_groups: list[list[tuple[tuple[Card, ...], int]]],
                               all_wild_pairs: list[tuple[Card, ...]],
                               joker_pairs: list[tuple[Card, ...]]) -> list[tuple[Card, ...]]:
        """One full house per wildcard count: the lowest pair that completes it."""
        W, wc = self.W, self.wc
        if not self.free_wild:
            return self._plain_canonical_full_houses(t, triples, pair_groups, joker_pairs)
        best: dict[tuple[int, int], tuple[Card, ...]] = {}  # (♥ level cards, big jokers) -> cards
        rejected: set[tuple[int, int]] = set()
        combo = self.mk(FULL_HOUSE, 5, t)
        for again in (False, True):
            if again:
                # 火拼: when the first natural cards of the triple and the pair share one suit, the
                # wildcards can complete a straight flush, the strongest reading (§8.4), so the set
                # is no full house; other cards of the same ranks may be, so the wildcard uses that
                # were rejected are retried with every natural choice
                rejected -= best.keys()
                if not rejected:
                    break
                triples = self.group(t, 3, every=True)
                pair_groups = [self.group(p, 2, every=True) if pair_groups[p] else [] for p in range(13)]
            for tc, tw in triples:
                options = [tc + pc for p in range(13) if p != t for pc, pw in pair_groups[p] if tw + pw <= W and pw < 2]
                if W - tw >= 2:
                    options.extend(tc + wp for wp in all_wild_pairs)
                options.extend(tc + jp for jp in joker_pairs)
                for cards in options:
                    key = (cards.count(wc), cards.count(BIG_JOKER))
                    if key not in best and (not again or key in rejected):
                        ordered = tuple(sorted(cards))
                        if self.accept(ordered, combo):
                            best[key] = ordered
                        else:
                            rejected.add(key)
        return list(best.values())

    def _plain_canonical_full_houses(self, t: int, triples: list[tuple[tuple[Card, ...], int]],
                                     pair_groups: list[list[tuple[tuple[Card, ...], int]]],
                                     joker_pairs: list[tuple[Card, ...]]) -> list[tuple[Card, ...]]:
        """:meth:`_canonical_full_houses` when only the ♥ level cards are wild: a group's wildcard
        count is then its ♥ level cards, and big jokers come only from a joker pair, so each
        option's key is known before its cards are joined (same walk, same first option per key)."""
        W = self.W
        best: dict[int, tuple[Card, ...]] = {}  # 3 × ♥ level cards + big jokers -> cards
        for tc, tw in triples:
            for p in range(13):
                if p == t:
                    continue
                for pc, pw in pair_groups[p]:
                    if tw + pw <= W and pw < 2 and 3 * (tw + pw) not in best:
                        best[3 * (tw + pw)] = tuple(sorted(tc + pc))
            if W - tw >= 2 and 3 * (tw + 2) not in best:
                best[3 * (tw + 2)] = tuple(sorted(tc + self.wt[2][0]))
            for jp in joker_pairs:
                key = 3 * tw + (2 if jp[0] == BIG_JOKER else 0)
                if key not in best:
                    best[key] = tuple(sorted(tc + jp))
        return list(best.values())

    def runs(self, type_: str, cap: int, kmin: int, kmax: int, size_want: int | None, minv: int) -> None:
        """Tubes/pair runs (cap 2), plates/triple runs (cap 3), chain bombs (cap x ≥ 4)."""
        W = self.W
        n_nat = self.n_nat
        for k in range(kmin, kmax + 1):
            if size_want is not None and k * cap != size_want:
                continue
            for top in range(max(k, minv + 1), 15):
                ranks = _WINDOWS[k, top]
                if sum(max(0, cap - n_nat[r]) for r in ranks) > W:
                    continue
                options = [self.group(r, cap, part=True) for r in ranks]
                acc: list[tuple[tuple[Card, ...], int]] = [((), 0)]
                for opts in options:
                    acc = [(a + c, aw + w) for a, aw in acc for c, w in opts if aw + w <= W]
                    if not acc:
                        break
                if not acc:
                    continue
                if type_ == CHAIN_BOMB:
                    combo = self.mk(CHAIN_BOMB, k * cap, top, x=cap, y=k)
                else:
                    combo = self.mk(type_, k * cap, top)
                a_low = top - k + 1 == 1
                if self.canonical:  # one representative per wildcard use (♥ level cards, big jokers)
                    firsts: dict[tuple[int, int], tuple[tuple[Card, ...], int]] = {}
                    for a, aw in acc:
                        key = (aw, a.count(BIG_JOKER) if self.free_wild else 0)
                        if key not in firsts and self.accept(tuple(sorted(a)), combo):
                            firsts[key] = (a, aw)
                    acc = list(firsts.values())
                self.emit_all(combo, [tuple(sorted(a)) if aw or a_low else a for a, aw in acc])

    def straights(self, nmin: int, nmax: int, minv: int) -> None:
        """Plain straights with top > minv. Under ``sf_forced`` a card set whose natural cards share
        one suit is a straight flush, never a plain straight (§3.1), so those sets are left out."""
        W = self.W
        sf_forced = self.rules.sf_forced
        singles = self.singles
        wt_all = self.wt
        for n in range(nmin, nmax + 1):
            for top in range(max(n, minv + 1), 15):
                ranks = _WINDOWS[n, top]
                naturals = [singles[r] for r in ranks]
                missing = [i for i in range(n) if not naturals[i]]
                if len(missing) > W:
                    continue
                combo = self.mk(STRAIGHT, n, top)
                a_low = top == n
                present = [i for i in range(n) if naturals[i]]
                if self.canonical and not self.free_wild:
                    self._canonical_straights(combo, n, ranks, naturals, present, len(missing), sf_forced and n == 5)
                    continue
                done: set[tuple[Card, ...]] = set()  # canonical: wildcard uses already represented
                for extra in range(W - len(missing) + 1):
                    for chosen in combinations(present, extra):
                        kept = [i for i in present if i not in chosen]
                        if not kept:
                            continue
                        lists = [naturals[i] for i in kept]
                        skip: set[tuple[Card, ...]] = set()
                        if sf_forced and n == 5:
                            common = {c & 3 for c in lists[0]}
                            for lst in lists[1:]:
                                common &= {c & 3 for c in lst}
                            skip = {tuple(4 * ranks[i] + s for i in kept) for s in common}
                        nw = n - len(kept)
                        for wt in wt_all[nw]:
                            if self.canonical:
                                # one representative: the first suit choice that is not a flush
                                if wt in done:
                                    continue
                                first = next((nat for nat in product(*lists) if nat not in skip), None)
                                if first is not None:
                                    cards = tuple(sorted(first + wt))
                                    if self.accept(cards, combo):
                                        done.add(wt)
                                        self.emit_all(combo, [cards])
                                continue
                            if nw or a_low:
                                sets = [tuple(sorted(nat + wt)) for nat in product(*lists) if nat not in skip]
                            else:
                                sets = [nat for nat in product(*lists) if nat not in skip]
                            self.emit_all(combo, sets)

    def _canonical_straights(self, combo: Combo, n: int, ranks: tuple[int, ...], naturals: list[list[Card]],
                             present: list[int], missing: int, no_flush: bool) -> None:
        """One straight per number of wildcards used (there is one wildcard tuple per count when
        big jokers are not wild): the first choice, in the complete walk's order, of which present
        cards the wildcards replace and of suits, that is not a flush (under ``no_flush``)."""
        for extra in range(self.W - missing + 1):
            if extra == len(present):
                break  # wildcards alone are no straight of this window
            wt = self.wt[missing + extra][0]
            for chosen in combinations(present, extra):
                lists = [naturals[i] for i in present if i not in chosen]
                first: tuple[Card, ...] | None = tuple([lst[0] for lst in lists])
                if no_flush and first is not None:
                    suit = first[0] & 3
                    if all(c & 3 == suit for c in first):  # rare: the walk's own test, in full
                        kept = [i for i in present if i not in chosen]
                        common = {c & 3 for c in lists[0]}
                        for lst in lists[1:]:
                            common &= {c & 3 for c in lst}
                        skip = {tuple(4 * ranks[i] + s for i in kept) for s in common}
                        first = next((nat for nat in product(*lists) if nat not in skip), None)
                if first is not None:
                    self.emit_all(combo, [tuple(sorted(first + wt))])
                    break

    def straight_flushes(self, min_top: int) -> None:
        """Straight flushes (exactly 5 cards) with top > min_top: per suit, the window's missing
        cards are wildcards, and any present card may also be replaced by a wildcard."""
        W, cnt, wc = self.W, self.cnt, self.wc
        for s in range(4):
            # bit p set = the natural card of this suit at sequence position p (1 and 14: the ace)
            mask = 0
            for r in range(13):
                if cnt[4 * r + s] and 4 * r + s != wc:
                    mask |= 4 << r
            if mask >> 14 & 1:
                mask |= 2
            for top in _sf_tops(mask, W):
                if top <= min_top:
                    continue
                window = mask >> (top - 4) & 31
                ranks = _WINDOWS[5, top]
                present = [i for i in range(5) if window >> i & 1]
                combo = self.mk(STRAIGHT_FLUSH, 5, top, suit=s)
                done: set[tuple[Card, ...]] = set()  # canonical: wildcard uses already represented
                for extra in range(W - (5 - len(present)) + 1):
                    for chosen in combinations(present, extra):
                        kept = tuple(4 * ranks[i] + s for i in present if i not in chosen)
                        if not kept:
                            continue
                        for wt in self.wt[5 - len(kept)]:
                            cards = tuple(sorted(kept + wt))
                            if self.canonical:
                                if wt in done or not self.accept(cards, combo):
                                    continue
                                done.add(wt)
                            self.out.append(Move(cards, combo))

    def airplanes(self, size_want: int | None, minv: int) -> None:
        W = self.W
        for k in range(2, self.rules.plate_triples[1] + 1):
            if 5 * k > 27 or (size_want is not None and 5 * k != size_want):
                continue
            for ttop in range(max(k, minv + 1), 15):
                tranks = [_pos_rank(p) for p in range(ttop - k + 1, ttop + 1)]
                topts = [self.group(r, 3, part=True) for r in tranks]
                if not all(topts):
                    continue
                for ptop in range(k, 15):
                    pranks = [_pos_rank(p) for p in range(ptop - k + 1, ptop + 1)]
                    if set(pranks) & set(tranks):
                        continue
                    popts = [self.group(r, 2, part=True) for r in pranks]
                    if not all(popts):
                        continue
                    acc: list[tuple[tuple[Card, ...], int]] = [((), 0)]
                    for opts in topts + popts:
                        acc = [(a + c, aw + w) for a, aw in acc for c, w in opts if aw + w <= W]
                        if not acc:
                            break
                    if acc:
                        combo = self.mk(AIRPLANE, 5 * k, ttop)
                        self.emit_all(combo, [tuple(sorted(a)) for a, _ in acc])

    def _non_bombs(self, want: str | None, minv: int, size: int | None) -> None:
        shape = _shape(self.rules)
        if want is None or want in (SINGLE, PAIR, TRIPLE):
            self.singles_pairs_triples(want, minv)
        if want is None or want == FULL_HOUSE:
            self.full_houses(minv)
        if want is None or want == STRAIGHT:
            smin, smax = shape.straight_len
            if size is not None:
                smin = smax = size
            self.straights(smin, smax, minv)
        for type_, cap, kmin, kmax in shape.runs:
            if want is None or want == type_:
                self.runs(type_, cap, kmin, kmax, size, minv)
        if shape.airplane and (want is None or want == AIRPLANE):
            self.airplanes(size, minv)

    def _all_bombs(self) -> None:
        self.bombs(0)
        self.straight_flushes(4)
        if self.rules.chain_bombs:
            for y in range(3, 7):
                for x in range(4, self.rules.max_bomb + 1):
                    if x * y > 27:
                        break
                    self.runs(CHAIN_BOMB, x, y, y, None, y - 1)

    # --- driver ---------------------------------------------------------------------------
    def run(self, top: Combo | None) -> list[Move]:
        """The plays on ``top`` (bombs included; no PASS): a fresh list the caller owns."""
        with self._lock:
            return self._run(top)

    def _run(self, top: Combo | None) -> list[Move]:
        if top is None:
            self.out = []
            self._non_bombs(None, -1, None)
        elif not top.power:
            # the plays of one (type, size) depend on the hand alone: cached, sorted by key value
            key = (top.type, top.size)
            entry = self._follow.get(key)
            if entry is None and key not in self._asked:
                # first time: only the keys above the top (a cold hand often asks once), in the
                # cached lists' order, so that an answer never depends on what was asked before
                self._asked.add(key)
                self.out = []
                self._non_bombs(top.type, top.value, top.size)
                self.out.sort(key=_combo_value)
            else:
                if entry is None:
                    self.out = []
                    self._non_bombs(top.type, -1, top.size)
                    moves = sorted(self.out, key=_combo_value)
                    entry = ([m.combo.value for m in moves], moves)  # type: ignore[union-attr]
                    self._follow[key] = entry
                values, moves = entry
                self.out = moves[bisect_right(values, top.value):]
        else:
            self.out = []
        minpow = top.power if top is not None else 0
        # bombs of every kind depend on the hand alone: generated once per hand, filtered per top
        if self._bomb_moves is None:
            plays, self.out = self.out, []
            self._all_bombs()
            self._bomb_moves, self.out = self.out, plays
        if minpow:
            self.out.extend([m for m in self._bomb_moves if m.combo.power > minpow])  # type: ignore[union-attr]
        else:
            self.out.extend(self._bomb_moves)
        out, self.out = self.out, []  # a cached generator must not keep its last answer alive
        return out


def _hand_counts(hand: Iterable[Card]) -> list[int]:
    cnt = [0] * N_CODES
    over = False
    try:
        for c in hand:
            if c < 0:
                raise IndexError
            n = cnt[c] + 1
            cnt[c] = n
            if n > 2:
                over = True
    except (IndexError, TypeError):
        raise InvalidHandError.said(N_("a hand holds something that is not a card code 0…53: {hand}"),
                                    hand=shown(list(hand))) from None
    if over:
        raise InvalidHandError.said(N_("card code {code} appears more than twice"), code=cnt.index(max(cnt)))
    return cnt


def legal_moves(
    hand: Iterable[Card],
    top: Combo | None,
    level: int,
    rules: RuleSet,
    mode: MoveMode | str = MoveMode.COMPLETE,
) -> list[Move]:
    """Every legal play from ``hand`` on ``top`` (None when leading), plus PASS when following.

    ``level`` is a rank index (see :func:`guandan.core.cards.parse_level`). ``mode`` is complete
    (every distinct play) or canonical (one play per combo and number of wildcards used).
    """
    if mode is _COMPLETE:  # the enum members by identity first: a lookup on the enum class costs more
        canonical = False
    elif mode is _CANONICAL:
        canonical = True
    elif mode not in MODES:
        raise GuandanError.said(N_("unknown move mode {mode} (complete, canonical)"), mode=shown(mode))
    else:
        canonical = mode == MoveMode.CANONICAL
    cnt = _hand_counts(hand)
    wc = wild_code(level)
    if rules.declares:
        moves = _generator(tuple(cnt), level, rules, canonical).run(top)
    elif canonical:
        moves = _canonical(_classified_candidates(cnt, level, rules, top), wc)
    else:
        moves = _resolved_candidates(cnt, level, rules, top)
    if top is not None:
        moves.append(PASS)
    return moves


_GEN_CACHE: dict[tuple[tuple[int, ...], int, int, bool, bool], _Gen] = {}  # in insertion order: the first key is the oldest hand
_GEN_CACHE_SIZE: Final = 32  # a deal has four live hands; more only keeps garbage alive
_GEN_CACHE_LOCK = Lock()  # every insert-and-evict of _GEN_CACHE holds it


def _generator(cnt: tuple[int, ...], level: int, rules: RuleSet, canonical: bool, free_wild: bool = False) -> _Gen:
    """The generator for one hand, reused while the hand does not change (a seat is asked for its
    moves several times between two of its own plays)."""
    # keyed by the rule set's id, not the rule set (its __hash__ is interpreted Python): a cached
    # generator holds its rule set, so while the entry lives no other object can take that id
    key = (cnt, level, id(rules), canonical, free_wild)
    gen = _GEN_CACHE.get(key)  # one dict read is atomic: no lock on the path taken most
    if gen is not None and gen.rules is rules:
        return gen
    # built outside the lock (other threads' hands need not wait); a thread that built the same
    # hand's generator meanwhile wins, so every thread then shares one generator per hand
    wilds = (wild_code(level), BIG_JOKER) if free_wild else (wild_code(level),)
    gen = _Gen(cnt, level, rules, wilds, free_wild=free_wild, canonical=canonical)
    if canonical and free_wild:
        def resolves_to(cards: tuple[Card, ...], combo: Combo) -> bool:
            return combo in _classify_cached(cards, level, rules)

        gen.accept = resolves_to
    with _GEN_CACHE_LOCK:
        found = _GEN_CACHE.get(key)
        if found is not None and found.rules is rules:
            return found
        _GEN_CACHE[key] = gen
        if len(_GEN_CACHE) > _GEN_CACHE_SIZE:
            del _GEN_CACHE[next(iter(_GEN_CACHE))]  # the oldest hand: a live hand is asked again soon after it changes
    return gen


def _resolved_candidates(cnt: list[int], level: int, rules: RuleSet, top: Combo | None) -> list[Move]:
    """火拼: the strongest reading decides what the cards are (§8.4).

    The templates (big jokers as wildcards too) yield every reading of every card set, so the
    readings are grouped by card set and resolved like :func:`classify` does: the strongest bomb,
    else the highest key of each type. Following only needs the top's (type, size) templates above
    its key and the bomb templates: a set whose resolved reading beats the top is produced by that
    reading's own template, and only a bomb or a higher key of that type can displace it."""
    gen = _generator(tuple(cnt), level, rules, False, free_wild=True)
    readings: dict[tuple[Card, ...], list[Combo]] = {}
    for m in gen.run(top):
        cards, combo = m.cards, m.combo
        found = readings.get(cards)
        if found is None:
            readings[cards] = [combo]  # type: ignore[list-item]
        else:
            found.append(combo)  # type: ignore[arg-type]
    moves: list[Move] = []
    wc = wild_code(level)
    big, hearts = cnt[BIG_JOKER], cnt[wc]
    for cards, combos in readings.items():
        # templates budget wildcards as a total, so two parts of one set may together take more
        # ♥ level cards or big jokers than the hand holds (natural cards are never over-used)
        if (BIG_JOKER in cards and cards.count(BIG_JOKER) > big) or (wc in cards and cards.count(wc) > hearts):
            continue
        # a set's readings in a fixed order (strongest first), not a set's hash order, which changes per process
        for combo in combos if len(combos) == 1 else sort_strongest(_strongest(set(combos))):
            if beats(combo, top):
                moves.append(Move(cards, combo))
    return moves


def _classified_candidates(cnt: list[int], level: int, rules: RuleSet, top: Combo | None) -> list[Move]:
    """火拼 canonical mode: one candidate per template and wildcard use, each resolved exactly by
    classify (a truncated walk does not see every reading of a set, so its template readings
    cannot be trusted for resolution)."""
    gen = _generator(tuple(cnt), level, rules, True, free_wild=True)
    wc = wild_code(level)
    big, hearts = cnt[BIG_JOKER], cnt[wc]
    seen: set[tuple[Card, ...]] = set()
    moves: list[Move] = []
    for m in gen.run(top):
        cards = m.cards
        if cards in seen:
            continue
        seen.add(cards)
        if (BIG_JOKER in cards and cards.count(BIG_JOKER) > big) or (wc in cards and cards.count(wc) > hearts):
            continue
        readings = _classify_cached(cards, level, rules)
        for combo in readings if len(readings) == 1 else sort_strongest(readings):
            if beats(combo, top):
                moves.append(Move(cards, combo))
    return moves


def _canonical(moves: list[Move], wc: Card) -> list[Move]:
    seen: set[tuple[Combo | None, int, int]] = set()
    out: list[Move] = []
    for m in moves:
        key = (m.combo, m.cards.count(wc), m.cards.count(BIG_JOKER))
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out
