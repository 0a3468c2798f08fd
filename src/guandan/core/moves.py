"""Complete legal-move generation (RULES.md §3.3: templates tested by multiset inclusion).

A move is the cards (a sorted tuple of card codes) plus the declared :class:`Combo`. Moves are
*complete*: two plays are distinct when they use different (suit, rank) cards — the suits of a
straight flush, or simply which cards stay in hand — while the two physical copies of one card
are not. The *canonical* mode keeps one representative per (combo, number of wildcards used): the
first card set in generation order, which takes the lowest suits. Search uses it to stay small.

Generation walks templates (type × key × window) and takes, per rank, the sub-multisets of the
hand's natural cards from a precomputed table, with wildcards covering exactly the missing slots.
It never enumerates what a wildcard "is". Under ``wild_resolution = "strongest"`` (火拼) the same
walk yields candidate card sets, each resolved by :func:`classify`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations, product
from typing import NamedTuple

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
    beats,
    make_combo,
)
from .errors import GuandanError, InvalidHandError
from .rules import RuleSet


class Move(NamedTuple):
    """A play (cards + declared combo) or PASS (no cards, combo None)."""

    cards: tuple[Card, ...]
    combo: Combo | None

    @property
    def is_pass(self) -> bool:
        return self.combo is None


PASS = Move((), None)
MODES = ("complete", "canonical")


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


def _pos_rank(pos: int) -> int:
    return 12 if pos == 1 else pos - 2


class _Gen:
    """One generation run over one hand."""

    def __init__(self, cnt: Sequence[int], level: int, rules: RuleSet, wilds: tuple[Card, ...], free_wild: bool):
        self.level = level
        self.rules = rules
        self.stars = rules.bomb_order == "stars"
        self.wc = wild_code(level)
        self.cnt = cnt
        # wild fill options: wt[k] = list of wildcard tuples of length k (sorted codes)
        self.wt: list[list[tuple[Card, ...]]] = [[()]]
        nh = cnt[self.wc] if self.wc in wilds else 0
        nb = cnt[BIG_JOKER] if BIG_JOKER in wilds else 0
        self.W = nh + nb
        for k in range(1, self.W + 1):
            self.wt.append(
                [tuple(sorted((self.wc,) * h + (BIG_JOKER,) * (k - h))) for h in range(k + 1) if h <= nh and k - h <= nb]
            )
        self.free_wild = free_wild  # candidates mode (火拼): all-wildcard slots everywhere
        subs = []
        for r in range(13):
            b = 4 * r
            pat = (cnt[b], 0 if r == level else cnt[b + 1], cnt[b + 2], cnt[b + 3])
            subs.append(_rank_subs(r, pat))
        self.subs = subs
        self.out: list[Move] = []

    def mk(self, type_: str, size: int, key: int, suit: int = -1, x: int = 0, y: int = 0) -> Combo:
        return make_combo(type_, size, key, self.level, self.stars, suit, x, y)

    def group(self, r: int, k: int, part: bool = False) -> list[tuple[tuple[Card, ...], int]]:
        """Ways to make k cards of rank r: (cards, wildcards used). A play made of wildcards alone
        stands for level cards (§2.4), so an all-wildcard group of another rank is only allowed as a
        ``part`` of a larger template (a run position, a wing)."""
        subs = self.subs[r]
        res: list[tuple[tuple[Card, ...], int]] = []
        for w in range(min(k, self.W) + 1):
            nk = k - w
            if nk >= len(subs):
                continue
            if nk == 0 and not (part or self.free_wild or r == self.level or self.rules.allow_wild_underdeclare):
                continue
            for nat in subs[nk]:
                for wt in self.wt[w]:
                    res.append((tuple(sorted(nat + wt)) if w else nat, w))
        return res

    # --- emitting -------------------------------------------------------------------------
    def emit_all(self, combo: Combo, sets: Iterable[tuple[Card, ...]]) -> None:
        out = self.out
        for cards in sets:
            out.append(Move(cards, combo))

    # --- templates ------------------------------------------------------------------------
    def singles_pairs_triples(self, want: str | None, minv: int) -> None:
        for type_, k in ((SINGLE, 1), (PAIR, 2), (TRIPLE, 3)):
            if want is not None and want != type_:
                continue
            for r in range(13):
                combo = self.mk(type_, k, r)
                if combo.value <= minv:
                    continue
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
        for size in range(4, self.rules.max_bomb + 1):
            for r in range(13):
                combo = self.mk(BOMB, size, r)
                if combo.power > minpow:
                    self.emit_all(combo, (c for c, _ in self.group(r, size)))
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
        pair_groups = [self.group(p, 2) for p in range(13)]
        all_wild_pairs = self.wt[2] if W >= 2 else []
        for t in range(13):
            combo = self.mk(FULL_HOUSE, 5, t)
            if combo.value <= minv:
                continue
            triples = self.group(t, 3)
            if not triples:
                continue
            sets: list[tuple[Card, ...]] = []
            for tc, tw in triples:
                left = W - tw
                for p in range(13):
                    if p == t:
                        continue
                    for pc, pw in pair_groups[p]:
                        if pw <= left and (pw < 2 or self.free_wild):
                            sets.append(tuple(sorted(tc + pc)))
                if left >= 2 and not self.free_wild:
                    for wp in all_wild_pairs:
                        sets.append(tuple(sorted(tc + wp)))
                for jp in joker_pairs:
                    sets.append(tuple(sorted(tc + jp)))
            self.emit_all(combo, sets)

    def runs(self, type_: str, cap: int, kmin: int, kmax: int, size_want: int | None, minv: int) -> None:
        """Tubes/pair runs (cap 2), plates/triple runs (cap 3), chain bombs (cap x ≥ 4)."""
        W = self.W
        for k in range(kmin, kmax + 1):
            if size_want is not None and k * cap != size_want:
                continue
            for top in range(max(k, minv + 1), 15):
                options = [self.group(_pos_rank(p), cap, part=True) for p in range(top - k + 1, top + 1)]
                if not all(options):
                    continue
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
                self.emit_all(combo, (tuple(sorted(a)) for a, _ in acc))

    def straights(self, nmin: int, nmax: int, minv: int, want_sf: bool, want_plain: bool, min_sf_value: int) -> None:
        """Plain straights with top > minv (want_plain) and/or straight flushes with top > min_sf_value.

        Under ``sf_forced`` a card set whose natural cards share one suit is a straight flush, never
        a plain straight (§3.1), so the plain pass leaves those sets out.
        """
        W, cnt, wc = self.W, self.cnt, self.wc
        sf_forced = self.rules.sf_forced
        for n in range(nmin, nmax + 1):
            for top in range(n, 15):
                plain_ok = want_plain and top > minv
                sf_ok = want_sf and n == 5 and top > min_sf_value
                if not (plain_ok or sf_ok):
                    continue
                ranks = [_pos_rank(p) for p in range(top - n + 1, top + 1)]
                naturals = [[c[0] for c in self.subs[r][1]] if len(self.subs[r]) > 1 else [] for r in ranks]
                missing = sum(1 for x in naturals if not x)
                for nw in range(missing, W + 1):
                    for wpos in combinations(range(n), nw):
                        kept = [i for i in range(n) if i not in wpos]
                        if any(not naturals[i] for i in kept):
                            continue
                        flush_sets: list[tuple[Card, ...]] = []
                        if n == 5 and kept:
                            for s in range(4):
                                codes = tuple(4 * ranks[i] + s for i in kept)
                                if all(cnt[c] and c != wc for c in codes):
                                    flush_sets.append(codes)
                        for wt in self.wt[nw]:
                            if sf_ok:
                                for f in flush_sets:
                                    combo = self.mk(STRAIGHT_FLUSH, 5, top, suit=f[0] & 3)
                                    self.out.append(Move(tuple(sorted(f + wt)), combo))
                            if plain_ok:
                                combo = self.mk(STRAIGHT, n, top)
                                skip = set(flush_sets) if sf_forced else ()
                                for nat in product(*[naturals[i] for i in kept]):
                                    if nat not in skip:
                                        self.out.append(Move(tuple(sorted(nat + wt)), combo))

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
                        self.emit_all(combo, (tuple(sorted(a)) for a, _ in acc))

    # --- driver ---------------------------------------------------------------------------
    def run(self, top: Combo | None) -> list[Move]:
        rules = self.rules
        if top is None or not top.power:
            want = None if top is None else top.type
            minv = -1 if top is None else top.value
            size = None if top is None else top.size
            if want in (None, SINGLE, PAIR, TRIPLE):
                self.singles_pairs_triples(want, minv)
            if want in (None, FULL_HOUSE):
                self.full_houses(minv)
            if want is None or want == STRAIGHT:
                smin, smax = rules.straight_len
                if size is not None:
                    smin = smax = size
                self.straights(smin, smax, minv, want_sf=False, want_plain=True, min_sf_value=99)
            for type_, cap, (kmin, kmax) in (
                (rules.tube_type, 2, rules.tube_pairs),
                (rules.plate_type, 3, rules.plate_triples),
            ):
                if want is None or want == type_:
                    self.runs(type_, cap, kmin, kmax, size, minv)
            if rules.airplane and want in (None, AIRPLANE):
                self.airplanes(size, minv)
            minpow = 0
        else:
            minpow = top.power
        # bombs of every kind, above minpow
        self.bombs(minpow)
        min_sf_value = 99
        for s in range(2, 15):
            if self.mk(STRAIGHT_FLUSH, 5, s, suit=0).power > minpow:
                min_sf_value = s - 1
                break
        if min_sf_value < 99:
            self.straights(5, 5, 99, want_sf=True, want_plain=False, min_sf_value=min_sf_value)
        if rules.chain_bombs:
            for y in range(3, 7):
                for x in range(4, self.rules.max_bomb + 1):
                    if x * y > 27:
                        break
                    if self.mk(CHAIN_BOMB, x * y, 14, x=x, y=y).power > minpow:
                        lowest_top = next(
                            t for t in range(y, 15) if self.mk(CHAIN_BOMB, x * y, t, x=x, y=y).power > minpow
                        )
                        self.runs(CHAIN_BOMB, x, y, y, None, lowest_top - 1)
        return self.out


def _hand_counts(hand: Iterable[Card] | Sequence[int]) -> list[int]:
    cards = list(hand)
    cnt = [0] * N_CODES
    for c in cards:
        if not isinstance(c, int) or not 0 <= c < N_CODES:
            raise InvalidHandError(f"{c!r} is not a card code")
        cnt[c] += 1
        if cnt[c] > 2:
            raise InvalidHandError(f"card code {c} appears more than twice")
    return cnt


def legal_moves(
    hand: Iterable[Card],
    top: Combo | None,
    level: int,
    rules: RuleSet,
    mode: str = "complete",
) -> list[Move]:
    """Every legal play from ``hand`` on ``top`` (None when leading), plus PASS when following.

    ``level`` is a rank index (see :func:`guandan.core.cards.parse_level`). ``mode`` is "complete"
    (every distinct play) or "canonical" (one play per combo and number of wildcards used).
    """
    if mode not in MODES:
        raise GuandanError(f"unknown move mode {mode!r} (complete, canonical)")
    cnt = _hand_counts(hand)
    wc = wild_code(level)
    if rules.declares:
        moves = _Gen(cnt, level, rules, (wc,), free_wild=False).run(top)
    else:
        moves = _resolved_candidates(cnt, level, rules, top)
    if mode == "canonical":
        moves = _canonical(moves, wc)
    if top is not None:
        moves.append(PASS)
    return moves


def _resolved_candidates(cnt: list[int], level: int, rules: RuleSet, top: Combo | None) -> list[Move]:
    """火拼: candidate card sets from the templates (big jokers as wildcards too), each resolved by
    classify — the strongest reading decides what the cards are, whatever template produced them."""
    gen = _Gen(cnt, level, rules, (wild_code(level), BIG_JOKER), free_wild=True)
    gen.run(None)
    seen: set[tuple[Card, ...]] = set()
    moves: list[Move] = []
    for cards, _ in gen.out:
        if cards in seen:
            continue
        seen.add(cards)
        if any(cards.count(c) > cnt[c] for c in set(cards)):
            continue
        for combo in _classify_cached(cards, level, rules):
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
