"""`classify` against an independent reading of RULES.md §3.3: substitute the wildcards.

A play's interpretations are, by definition, the readings of the natural cards the wildcards could
stand for (§2.4: a ♥ level card may be any card but a joker; in huopin a big joker played with other
cards may be any card, a small joker or itself, §8.4), collapsed to (type, key, size, suit). Wildcards
with no natural card beside them are level cards (§2.4). Under ``sf_forced`` a window that can be a
straight flush has no plain-straight reading (§3.1). Under ``wild_resolution = "strongest"`` only the
readings that no other reading beats remain (§8.4).

The natural-card reader below is written from §3.1 and §8.4 alone; it shares no code with combos.py.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guandan.core import (
    BIG_JOKER,
    PRESET_NAMES,
    SMALL_JOKER,
    Combo,
    RuleSet,
    beats,
    classify,
    format_cards,
    parse_cards,
    parse_level,
    preset,
    wild_code,
)
from guandan.core.combos import make_combo

Card = int
Reading = tuple[str, str, int, "str | None", "int | None", "int | None"]  # type, key, size, suit, x, y

RANKS = "23456789TJQKA"
SUITS = "SHCD"
RULESETS = {name: preset(name) for name in PRESET_NAMES}


def pos_rank(pos: int) -> int:
    """Rank index at natural sequence position 1…14 (both ends are the ace, §2.3)."""
    return 12 if pos == 1 else pos - 2


def run_tops(ranks: Counter[int], length: int, per_rank: int) -> list[int]:
    """Tops of the windows of ``length`` consecutive positions holding exactly ``per_rank`` of each rank."""
    return [
        top for top in range(length, 15) if ranks == Counter({pos_rank(p): per_rank for p in range(top - length + 1, top + 1)})
    ]


def natural_readings(cards: list[Card], rules: RuleSet) -> set[Reading]:
    """Every reading of cards that hold no wildcard (§3.1, §8.4)."""
    n = len(cards)
    lj, bj = cards.count(SMALL_JOKER), cards.count(BIG_JOKER)
    nat = [c for c in cards if c < 52]
    ranks = Counter(c >> 2 for c in nat)
    out: set[Reading] = set()
    if lj or bj:
        if not nat:
            if n == 1:
                out.add(("single", "LJ" if lj else "BJ", 1, None, None, None))
            elif n == 2 and (lj == 2 or bj == 2):
                out.add(("pair", "LJ" if lj else "BJ", 2, None, None, None))
            elif n == 3 and rules.three_joker_bomb:
                out.add(("three_jokers", "JOKERS", 3, None, None, None))
            elif n == 4 and lj == 2 and bj == 2:
                out.add(("joker_bomb", "JOKERS", 4, None, None, None))
        elif n == 5 and rules.full_house_joker_pair and sorted((lj, bj)) == [0, 2] and list(ranks.values()) == [3]:
            out.add(("full_house", RANKS[next(iter(ranks))], 5, None, None, None))
        return out
    if len(ranks) == 1:
        key = RANKS[next(iter(ranks))]
        if n <= 3:
            out.add((("single", "pair", "triple")[n - 1], key, n, None, None, None))
        elif n <= rules.max_bomb:
            out.add(("bomb", key, n, None, None, None))
    if n == 5 and sorted(ranks.values()) == [2, 3]:
        out.add(("full_house", RANKS[next(r for r, c in ranks.items() if c == 3)], 5, None, None, None))
    lo, hi = rules.straight_len
    if lo <= n <= hi:
        suits = {c & 3 for c in nat}
        for top in run_tops(ranks, n, 1):
            flush = n == 5 and len(suits) == 1
            if flush:
                out.add(("straight_flush", RANKS[top - 2], 5, SUITS[next(iter(suits))], None, None))
            if not (flush and rules.sf_forced):
                out.add(("straight", RANKS[top - 2], n, None, None, None))
    for per_rank, (kmin, kmax), type_ in ((2, rules.tube_pairs, rules.tube_type), (3, rules.plate_triples, rules.plate_type)):
        if n % per_rank == 0 and kmin <= n // per_rank <= kmax:
            for top in run_tops(ranks, n // per_rank, per_rank):
                out.add((type_, RANKS[top - 2], n, None, None, None))
    if rules.airplane and n % 5 == 0 and n >= 10:
        k = n // 5
        for ttop, ptop in product(range(k, 15), repeat=2):
            triples = {pos_rank(p) for p in range(ttop - k + 1, ttop + 1)}
            pairs = {pos_rank(p) for p in range(ptop - k + 1, ptop + 1)}
            if not triples & pairs and ranks == Counter(dict.fromkeys(triples, 3)) + Counter(dict.fromkeys(pairs, 2)):
                out.add(("airplane", RANKS[ttop - 2], n, None, None, None))
    if rules.chain_bombs:
        for y in range(3, 7):
            if n % y == 0 and n // y >= 4:
                for top in run_tops(ranks, y, n // y):
                    out.add(("chain_bomb", RANKS[top - 2], n, None, n // y, y))
    return out


def substitutes(naturals: list[Card], big_joker: bool) -> list[Card]:
    """What one wildcard may be. Suits matter only for a straight flush, so one suit of the natural
    cards' (when they share one) and one other suit stand for all four."""
    suits = {c & 3 for c in naturals if c < 52}
    pick = [*suits, next(s for s in range(4) if s not in suits)] if len(suits) == 1 else [0]
    codes = [4 * r + s for r in range(13) for s in pick]
    return [*codes, SMALL_JOKER, BIG_JOKER] if big_joker else codes


def oracle(cards: list[Card], level: int, rules: RuleSet) -> set[Reading]:
    wc = wild_code(level)
    hearts = [c for c in cards if c == wc]
    rest = [c for c in cards if c != wc]
    if hearts and not any(c < 52 for c in rest):
        rest, hearts = rest + hearts, []  # ♥ level cards alone are level cards (§2.4)
    bjs: list[Card] = []
    if rules.big_joker_wild and BIG_JOKER in rest and len(cards) > cards.count(BIG_JOKER):
        bjs = [c for c in rest if c == BIG_JOKER]
        rest = [c for c in rest if c != BIG_JOKER]
    options = [substitutes(rest, False)] * len(hearts) + [substitutes(rest, True)] * len(bjs)
    found: set[Reading] = set()
    for chosen in product(*options):
        found |= natural_readings(rest + list(chosen), rules)
    if rules.sf_forced:
        flush_tops = {r[1] for r in found if r[0] == "straight_flush"}
        found = {r for r in found if not (r[0] == "straight" and r[2] == 5 and r[1] in flush_tops)}
    if not rules.declares:
        combos = {r: as_combo(r, level, rules) for r in found}
        found = {r for r in found if not any(beats(other, combos[r], rules) for other in combos.values())}
    return found


def as_combo(r: Reading, level: int, rules: RuleSet) -> Combo:
    type_, key, size, suit, x, y = r
    if type_ in ("single", "pair", "triple", "full_house", "bomb"):
        k = {"LJ": 13, "BJ": 14}.get(key, RANKS.find(key))
    elif type_ in ("three_jokers", "joker_bomb"):
        k = 15
    else:
        k = RANKS.index(key) + 2
    return make_combo(type_, size, k, level, rules.bomb_order == "stars", SUITS.find(suit) if suit else -1, x or 0, y or 0)


def engine(cards: list[Card], level: int, rules: RuleSet) -> set[Reading]:
    return {(c.type, c.key, c.size, c.suit, c.x, c.y) for c in classify(cards, level, rules)}


# ---------------------------------------------------------------------------------------------


def test_the_oracle_reads_known_plays() -> None:
    """The oracle itself, on plays whose readings RULES.md spells out."""
    comp = RULESETS["competition"]
    assert oracle(parse_cards("SJ DJ CJ H4 H4"), parse_level("4"), comp) == {
        ("bomb", "J", 5, None, None, None),
        ("full_house", "J", 5, None, None, None),
    }
    assert oracle(parse_cards("D4 D5 D6 D7 H8"), parse_level("8"), comp) == {
        ("straight_flush", "8", 5, "D", None, None),
        ("straight_flush", "7", 5, "D", None, None),
    }
    assert oracle(parse_cards("H8 H8"), parse_level("8"), comp) == {("pair", "8", 2, None, None, None)}
    assert oracle(parse_cards("H8 LJ"), parse_level("8"), comp) == set()
    assert oracle(parse_cards("C5 D6 S7 H8 BJ"), parse_level("2"), RULESETS["huopin"]) == {("straight", "9", 5, None, None, None)}


@st.composite
def card_set(draw: st.DrawFn, level: int, big_joker_wild: bool) -> list[Card]:
    """Cards from a few neighbouring ranks (or a run of distinct ranks), with at most two wildcards in all."""
    wc = wild_code(level)
    low = draw(st.sampled_from([1, 1, 10, *range(1, 13)]))  # the ace low, often
    ranks = [pos_rank(p) for p in range(low, min(low + draw(st.integers(1, 5)), 15))]
    suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))
    pool = sorted({4 * r + s for r in ranks for s in suits} - {wc})
    wilds = draw(st.sampled_from([[], [wc], [wc, wc], [BIG_JOKER], [BIG_JOKER, BIG_JOKER], [wc, BIG_JOKER]]))
    if not big_joker_wild:
        wilds = [c for c in wilds if c == wc]
    lj = draw(st.sampled_from([[], [], [], [SMALL_JOKER], [SMALL_JOKER, SMALL_JOKER]]))
    naturals: Counter[Card] = Counter()
    if draw(st.booleans()):  # a run of distinct ranks, for straights and straight flushes
        for p in range(low, min(low + draw(st.integers(3, 8)), 15)):
            code = 4 * pos_rank(p) + draw(st.sampled_from(sorted(suits)))
            if code != wc and draw(st.integers(0, 6)):
                naturals[code] = 1
    else:
        size = draw(st.integers(0, 10 - len(wilds) - len(lj)))
        for code in draw(st.lists(st.sampled_from(pool), max_size=size)) if pool else []:
            if naturals[code] < 2:
                naturals[code] += 1
    cards = sorted([*naturals.elements(), *wilds, *lj])
    return cards or [pool[0] if pool else SMALL_JOKER]


@pytest.mark.parametrize("name", PRESET_NAMES)
@settings(derandomize=True, deadline=None, max_examples=400, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_classify_equals_wildcard_substitution(name: str, data: st.DataObject) -> None:
    rules = RULESETS[name]
    for _ in range(PRESET_NAMES.index(name) * 3):  # parametrized cases share one derandomised seed
        data.draw(st.integers(0, 255), label="salt")
    level = data.draw(st.integers(0, 12), label="level")
    cards = data.draw(card_set(level, rules.big_joker_wild), label="cards")
    want, got = oracle(cards, level, rules), engine(cards, level, rules)
    assert got == want, f"{name}: {format_cards(cards)} at level {RANKS[level]}: missing {want - got}, extra {got - want}"
