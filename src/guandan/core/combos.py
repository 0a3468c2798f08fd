"""Hand types (牌型), their interpretations and comparison (RULES.md §3, §8.4).

`classify` is the normative reading of a set of cards: every distinct interpretation (§3.3), or,
under ``wild_resolution = "strongest"`` (火拼), the strongest ones only. `beats` is §3.2 / §8.4.
The fast move generator in :mod:`guandan.core.moves` is tested against `classify`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from .cards import BIG_JOKER, RANKS, SMALL_JOKER, SUITS, Card, parse_cards, wild_code
from .errors import N_, ComboError, InvalidHandError, shown
from .params import CardList, Listed
from .reduce import by_init
from .rules import RuleSet
from .vocab import BOMB_TYPES, BombOrder, ComboType

# Hand types (RULES.md §3.1 and §8.4), by their short names for the generators below
SINGLE: Final = ComboType.SINGLE
PAIR: Final = ComboType.PAIR
TRIPLE: Final = ComboType.TRIPLE
FULL_HOUSE: Final = ComboType.FULL_HOUSE
STRAIGHT: Final = ComboType.STRAIGHT
TUBE: Final = ComboType.TUBE
PLATE: Final = ComboType.PLATE
PAIR_RUN: Final = ComboType.PAIR_RUN
TRIPLE_RUN: Final = ComboType.TRIPLE_RUN
AIRPLANE: Final = ComboType.AIRPLANE
BOMB: Final = ComboType.BOMB
STRAIGHT_FLUSH: Final = ComboType.STRAIGHT_FLUSH
CHAIN_BOMB: Final = ComboType.CHAIN_BOMB
THREE_JOKERS: Final = ComboType.THREE_JOKERS
JOKER_BOMB: Final = ComboType.JOKER_BOMB

RANK_KEYED: Final = frozenset({SINGLE, PAIR, TRIPLE, FULL_HOUSE, BOMB})

# key indices beyond the 13 ranks
LJ_KEY: Final = 13
BJ_KEY: Final = 14
JOKERS_KEY: Final = 15


@dataclass(frozen=True, slots=True)
class Combo:
    """A declared interpretation of some cards (RULES.md §3.3).

    ``key`` is a rank character; for sequences the top card in natural order ("5" for A-2-3-4-5);
    "LJ"/"BJ" for joker singles and pairs; "JOKERS" for joker bombs. ``value`` and ``power`` are
    derived at the level the combo was made for and drive `beats`; they take no part in equality.
    """

    type: ComboType
    size: int
    key: str
    suit: str | None = None  # straight_flush only
    x: int | None = None  # chain_bomb: cards per rank
    y: int | None = None  # chain_bomb: number of ranks
    stars: int | None = None  # 星级, huopin bombs only
    value: int = field(default=0, compare=False)  # key as a number (lv, or top position)
    power: int = field(default=0, compare=False)  # > 0 exactly for bombs; bombs compare by it

    @property
    def is_bomb(self) -> bool:
        return self.power > 0

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"type": self.type, "key": self.key, "size": self.size}
        if self.suit is not None:
            d["suit"] = self.suit
        if self.x is not None:
            d["x"], d["y"] = self.x, self.y
        if self.stars is not None:
            d["stars"] = self.stars
        return d

    def matches(self, spec: dict[str, object]) -> bool:
        """True if this combo has every field given in ``spec`` (type, key, size, suit, x, y, stars)."""
        mine = self.to_dict()
        return all(mine.get(k) == v for k, v in spec.items() if k in ("type", "key", "size", "suit", "x", "y", "stars"))

    def __str__(self) -> str:
        extra = f" {self.suit}" if self.suit else ""
        if self.x is not None:
            extra = f" {self.x}x{self.y}"
        return f"{self.type}({self.key}{extra}, {self.size})"

    def __reduce__(self) -> tuple[Any, ...]:
        return by_init(self)  # compiled, the default pickling cannot rebuild it


def _key_str(type_: ComboType, key: int) -> str:
    if type_ in (JOKER_BOMB, THREE_JOKERS):
        return "JOKERS"
    if type_ in RANK_KEYED:
        return "LJ" if key == LJ_KEY else "BJ" if key == BJ_KEY else RANKS[key]
    return RANKS[key - 2]  # sequences: key is the top position 2..14


@lru_cache(maxsize=65536)
def make_combo(
    type_: ComboType,
    size: int,
    key: int,
    level: int,
    stars_order: bool,
    suit: int = -1,
    x: int = 0,
    y: int = 0,
) -> Combo:
    """The (interned) Combo. ``key`` is a rank index (0…12, 13 LJ, 14 BJ, 15 jokers) for rank-keyed
    types and the top position (2…14) for sequences; ``level`` is a rank index."""
    if type_ in RANK_KEYED:
        value = 16 if key == LJ_KEY else 17 if key == BJ_KEY else 15 if key == level else key + 2
    else:
        value = key
    stars: int | None = None
    power = 0
    if type_ in BOMB_TYPES:
        if stars_order:
            # 火拼 (§8.4): more stars wins; equal stars: fewer cards wins, 三王 lowest 6★, 天王 highest 7★.
            if type_ == STRAIGHT_FLUSH:
                star2, sec = 11, 0  # between 5★ and 6★ [ASSUMPTION in RULES.md]
            elif type_ == THREE_JOKERS:
                stars, star2, sec = 6, 12, 0
            elif type_ == JOKER_BOMB:
                stars, star2, sec = 7, 14, 99
            elif type_ == CHAIN_BOMB:
                stars = x + y
                star2, sec = 2 * stars, 60 - size
            else:
                stars = size
                star2, sec = 2 * size, 60 - size
            power = star2 * 100_000 + sec * 100 + value
        else:
            # size ladder (§3.2): 4 < 5 < straight flush < 6 < … < 10 < four jokers
            tier2 = 1000 if type_ == JOKER_BOMB else 11 if type_ == STRAIGHT_FLUSH else 2 * size
            power = tier2 * 100 + value
    return Combo(
        type=type_,
        size=size,
        key=_key_str(type_, key),
        suit=SUITS[suit] if suit >= 0 else None,
        x=x or None,
        y=y or None,
        stars=stars,
        value=value,
        power=power,
    )


_TYPE_NO: Final[dict[str, int]] = {t.value: i for i, t in enumerate(ComboType)}
_COMBOS: dict[int, Combo] = {}  # the interned combos by a packed int: a template asks for one per window


def interned_combo(type_: str, size: int, key: int, level: int, stars: bool, suit: int = -1, x: int = 0,
                   y: int = 0) -> Combo:
    """:func:`make_combo` through a dict keyed by one int: the same interned combos, for hot paths
    (from compiled code an ``lru_cache`` call costs several times a dict lookup).
    The key packs every argument in its own bits: type < 16, size < 32, key < 16, level < 16, suit < 5, x, y < 16."""
    k = ((((((_TYPE_NO[type_] << 5 | size) << 4 | key) << 4 | level) << 1 | stars) * 5 + suit + 1) << 4 | x) << 4 | y
    combo = _COMBOS.get(k)
    if combo is None:
        combo = make_combo(type_, size, key, level, stars, suit, x, y)
        _COMBOS[k] = combo  # a race only makes the same interned combo twice
    return combo


def beats(a: Combo, b: Combo | None, rules: RuleSet | None = None) -> bool:
    """True iff ``a`` may be played on top of ``b`` (§3.2; §8.4 under ``bomb_order = "stars"``).

    ``b`` None means leading: anything goes. Equal plays never beat. ``rules`` is accepted for symmetry
    with the rest of the API; the bomb order was fixed when the combos were made.
    """
    if b is None:
        return True
    if a.power or b.power:
        return a.power > b.power
    return a.type == b.type and a.size == b.size and a.value > b.value


# ---------------------------------------------------------------------------------------------
# classify


def _pos_rank(pos: int) -> int:
    """Rank index of a sequence position 1…14 (1 and 14 are both the ace)."""
    return 12 if pos == 1 else pos - 2


def _fits_window(rank_counts: dict[int, int], low: int, top: int, cap: int) -> int | None:
    """Slots the wildcards must fill for naturals (rank→count) to sit in positions low…top with at
    most ``cap`` per position; None if they do not fit."""
    filled = 0
    for r, c in rank_counts.items():
        v = r + 2
        if not (low <= v <= top or (r == 12 and low == 1)) or c > cap:
            return None
        filled += c
    return (top - low + 1) * cap - filled


class _Reader:
    """All interpretations of naturals (rank→count, suits) + ``w`` free wildcards + jokers as themselves."""

    def __init__(self, rules: RuleSet, level: int) -> None:
        self.rules = rules
        self.level = level
        self.stars = rules.bomb_order == BombOrder.STARS

    def combo(self, type_: ComboType, size: int, key: int, suit: int = -1, x: int = 0, y: int = 0) -> Combo:
        return make_combo(type_, size, key, self.level, self.stars, suit, x, y)

    def readings(self, nat: Sequence[Card], w: int, lj: int, bj: int) -> set[Combo]:
        rules = self.rules
        n = len(nat) + w + lj + bj
        out: set[Combo] = set()
        rc: dict[int, int] = {}
        for c in nat:
            rc[c >> 2] = rc.get(c >> 2, 0) + 1
        jokers = lj + bj
        ranks_any = range(13) if not rc else None  # all-wild reading: any rank

        def one_rank() -> Iterable[int]:
            if ranks_any is not None:
                return ranks_any
            return rc.keys() if len(rc) == 1 else ()

        if jokers:
            if not nat and not w:
                if n == 1:
                    out.add(self.combo(SINGLE, 1, LJ_KEY if lj else BJ_KEY))
                elif n == 2 and (lj == 2 or bj == 2):
                    out.add(self.combo(PAIR, 2, LJ_KEY if lj == 2 else BJ_KEY))
                elif n == 3 and rules.three_joker_bomb:
                    out.add(self.combo(THREE_JOKERS, 3, JOKERS_KEY))
                elif n == 4 and lj == 2 and bj == 2:
                    out.add(self.combo(JOKER_BOMB, 4, JOKERS_KEY))
            if n == 5 and rules.full_house_joker_pair and (lj, bj) in ((2, 0), (0, 2)):
                for t in one_rank():
                    if rc.get(t, 0) + w == 3:
                        out.add(self.combo(FULL_HOUSE, 5, t))
            return out

        if n == 1:
            for r in one_rank():
                out.add(self.combo(SINGLE, 1, r))
            return out
        if n == 2:
            for r in one_rank():
                out.add(self.combo(PAIR, 2, r))
            return out
        if n == 3:
            for r in one_rank():
                out.add(self.combo(TRIPLE, 3, r))
        if 4 <= n <= rules.max_bomb:
            for r in one_rank():
                out.add(self.combo(BOMB, n, r))
        if n == 5:
            self._full_houses(rc, w, out)
        smin, smax = rules.straight_len
        if smin <= n <= smax:
            self._straights(nat, rc, w, n, out)
        for cap, (kmin, kmax), type_ in ((2, rules.tube_pairs, rules.tube_type), (3, rules.plate_triples, rules.plate_type)):
            if n % cap == 0 and kmin <= n // cap <= kmax:
                k = n // cap
                for top in range(k, 15):
                    if _fits_window(rc, top - k + 1, top, cap) == w:
                        out.add(self.combo(type_, n, top))
        if rules.airplane and n % 5 == 0 and n >= 10:
            self._airplanes(rc, w, n // 5, out)
        if rules.chain_bombs:
            for y in range(3, 7):
                if n % y == 0 and n // y >= 4:
                    x = n // y
                    for top in range(y, 15):
                        if _fits_window(rc, top - y + 1, top, x) == w:
                            out.add(self.combo(CHAIN_BOMB, n, top, x=x, y=y))
        return out

    def _full_houses(self, rc: dict[int, int], w: int, out: set[Combo]) -> None:
        for t in range(13):
            ct = rc.get(t, 0)
            if ct > 3 or 3 - ct > w:
                continue
            wl = w - (3 - ct)
            rest = [(r, c) for r, c in rc.items() if r != t]
            # with no natural card left, the pair is made of wildcards alone (any rank but t)
            ok = wl == 2 if not rest else len(rest) == 1 and rest[0][1] + wl == 2
            if ok and (ct > 0 or rest):
                out.add(self.combo(FULL_HOUSE, 5, t))

    def _straights(self, nat: Sequence[Card], rc: dict[int, int], w: int, n: int, out: set[Combo]) -> None:
        suits = {c & 3 for c in nat}
        flush = n == 5 and len(suits) == 1
        for top in range(n, 15):
            if _fits_window(rc, top - n + 1, top, 1) != w:
                continue
            if flush:
                out.add(self.combo(STRAIGHT_FLUSH, 5, top, suit=next(iter(suits))))
                if self.rules.sf_forced:
                    continue
            out.add(self.combo(STRAIGHT, n, top))

    def _airplanes(self, rc: dict[int, int], w: int, k: int, out: set[Combo]) -> None:
        for ttop in range(k, 15):
            tranks = {_pos_rank(p) for p in range(ttop - k + 1, ttop + 1)}
            for ptop in range(k, 15):
                pranks = {_pos_rank(p) for p in range(ptop - k + 1, ptop + 1)}
                if tranks & pranks:
                    continue
                need = 0
                for r, c in rc.items():
                    if r in tranks:
                        if c > 3:
                            break
                    elif r in pranks:
                        if c > 2:
                            break
                    else:
                        break
                    need += c
                else:
                    if 5 * k - need == w:
                        out.add(self.combo(AIRPLANE, 5 * k, ttop))


def _strongest(combos: set[Combo]) -> set[Combo]:
    """火拼's automatic resolution (§8.4): the strongest bomb, else the highest key of each type."""
    if not combos:
        return combos
    bombs = [c for c in combos if c.power]
    if bombs:
        top = max(c.power for c in bombs)
        return {c for c in bombs if c.power == top}
    best: dict[str, Combo] = {}
    for c in combos:
        if c.type not in best or c.value > best[c.type].value:
            best[c.type] = c
    return set(best.values())


def _classify_codes(cards: tuple[Card, ...], level: int, rules: RuleSet) -> frozenset[Combo]:
    reader = _Reader(rules, level)
    wc = wild_code(level)
    hearts = sum(1 for c in cards if c == wc)
    lj = sum(1 for c in cards if c == SMALL_JOKER)
    bj = sum(1 for c in cards if c == BIG_JOKER)
    nat = [c for c in cards if c < 52 and c != wc]
    combos: set[Combo] = set()
    bj_variants: list[tuple[int, int, int]] = [(bj, 0, 0)]
    if rules.big_joker_wild and bj and len(cards) > bj:
        # A big joker played with other cards may be itself, a small joker or any card (§8.4).
        bj_variants = [(s, l_, bj - s - l_) for s in range(bj + 1) for l_ in range(bj - s + 1)]
    for bj_self, bj_as_lj, bj_wild in bj_variants:
        w = hearts + bj_wild
        natural = nat
        if not nat and hearts:
            # The ♥ level cards with no natural card beside them stand for themselves (§2.4).
            natural = [wc] * hearts
            w = bj_wild
            if rules.allow_wild_underdeclare:
                combos |= reader.readings([], hearts + bj_wild, lj + bj_as_lj, bj_self)
        combos |= reader.readings(natural, w, lj + bj_as_lj, bj_self)
    if not rules.declares:
        combos = _strongest(combos)
    return frozenset(combos)


@lru_cache(maxsize=1 << 17)
def _classify_cached(cards: tuple[Card, ...], level: int, rules: RuleSet) -> frozenset[Combo]:
    return _classify_codes(cards, level, rules)


def classify(cards: Iterable[Card] | str, level: int, rules: RuleSet) -> list[Combo]:
    """Every distinct legal interpretation of ``cards`` at ``level`` (rank index), strongest first.

    Empty list: the cards are not a legal play. ``cards`` may be codes or RULES.md notation.
    """
    codes = tuple(sorted(parse_cards(cards) if isinstance(cards, str) else cards))
    if any(not isinstance(c, int) or not 0 <= c < 54 for c in codes):
        raise InvalidHandError.said(N_("not card codes: {codes}"), codes=shown(codes))
    if not codes:
        return []
    return sort_strongest(_classify_cached(codes, level, rules))


def sort_strongest(combos: Iterable[Combo]) -> list[Combo]:
    """Highest tier first, then highest key (the `default_choice` order of §3.3)."""
    return sorted(combos, key=lambda c: (c.power, c.value, c.type, c.suit or ""), reverse=True)


def default_choice(cards: Iterable[Card], level: int, rules: RuleSet) -> Combo:
    """The strongest interpretation (§3.3's helper for UIs and bots)."""
    codes = list(cards)
    found = classify(codes, level, rules)
    if not found:
        raise ComboError.said(N_("{cards} is not a legal play"), cards=CardList(codes))
    return found[0]


def resolve_combo(cards: Iterable[Card], level: int, rules: RuleSet, spec: dict[str, object] | None = None) -> Combo:
    """The interpretation of ``cards`` named by ``spec`` (type/key/size/suit…), or the only one.

    Raises :class:`ComboError` if the cards are no play, if ``spec`` names none of their readings, or
    if several readings remain under ``wild_resolution = "declare"`` and ``spec`` does not pick one.
    """
    cards = list(cards)
    found = classify(cards, level, rules)
    if not found:
        raise ComboError.said(N_("{cards} is not a legal play"), cards=CardList(cards))
    if spec:
        chosen = [c for c in found if c.matches(spec)]
        if not chosen:  # the declaration is quoted as it was written: it names no reading
            asked = " ".join(f"{k}={shown(v)}" for k, v in spec.items())
            raise ComboError.said(N_("{cards} cannot be declared as {asked}; its readings are: {options}"),
                                  cards=CardList(cards), asked=asked, options=Listed(found))
        found = chosen
    if len(found) > 1:
        raise ComboError.said(N_("{cards} has several readings ({options}); declare one"), cards=CardList(cards),
                              options=Listed(found))
    return found[0]
