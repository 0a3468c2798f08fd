"""Property tests of the rules core: `legal_moves` against `classify`, in every preset.

The reference is brute force: every distinct sub-multiset of a small hand is classified, and the
(cards, combo) pairs that beat the top are exactly what the complete generator must return
(RULES.md §3.3: a play is legal iff its combo is one of classify(cards) and it beats the top).

Hands are drawn from a few neighbouring ranks and suits so that pairs, triples, bombs, runs and
straight flushes actually occur, with 0, 1 or 2 wildcards (the ♥ level cards, §2.4) and jokers
(big jokers are wildcards in huopin, §8.4). Every test is derandomised, so a run is reproducible.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guandan.core import (
    BIG_JOKER,
    PASS,
    PRESET_NAMES,
    SMALL_JOKER,
    Combo,
    Move,
    RuleSet,
    beats,
    classify,
    format_cards,
    legal_moves,
    parse_cards,
    physical_deck,
    preset,
    wild_code,
)

Card = int
Pair = tuple[tuple[Card, ...], Combo]

RULESETS = {name: preset(name) for name in PRESET_NAMES}


def fast(n: int) -> settings:
    return settings(
        derandomize=True,
        deadline=None,
        max_examples=n,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# ---------------------------------------------------------------------------------------------
# strategies


def _pos_rank(pos: int) -> int:
    """Rank index of a natural sequence position 1…14 (1 and 14 are both the ace, §2.3)."""
    return 12 if pos == 1 else pos - 2


@st.composite
def biased_hand(
    draw: st.DrawFn,
    level: int,
    max_cards: int = 10,
    n_wild: int | None = None,
    max_codes: int = 12,
) -> list[Card]:
    """A hand of up to ``max_cards`` cards from a window of 1–5 neighbouring ranks (the ace may be
    low or high) in 1–4 suits, with ``n_wild`` (or 0–2) wildcards and 0–2 of each joker.

    At most ``max_codes`` distinct natural codes are used, which bounds the brute force."""
    wc = wild_code(level)
    wild = draw(st.integers(0, 2)) if n_wild is None else n_wild
    lj = draw(st.sampled_from([0, 0, 1, 2]))
    bj = draw(st.sampled_from([0, 0, 1, 2]))
    low = draw(st.integers(1, 13))
    width = draw(st.integers(1, 5))
    ranks = [_pos_rank(p) for p in range(low, min(low + width, 15))]
    suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))
    pool = sorted({4 * r + s for r in ranks for s in suits} - {wc})
    hand = [wc] * wild + [SMALL_JOKER] * lj + [BIG_JOKER] * bj
    room = max(0, max_cards - len(hand))
    if pool and room:
        picks = draw(st.lists(st.tuples(st.sampled_from(pool), st.sampled_from([1, 2, 2])), max_size=max_codes))
        cnt: Counter[Card] = Counter()
        for code, k in picks:
            take = min(k, 2 - cnt[code], room)
            cnt[code] += take
            room -= take
        hand += list(cnt.elements())
    return sorted(hand[:max_cards])


def salted(data: st.DataObject, *params: object) -> None:
    """Parametrized cases of one test share Hypothesis' derandomised seed; a few throw-away draws,
    as many as the parameters dictate, make each case see different hands."""
    salt = sum(ord(ch) for ch in repr(params)) % 17
    for _ in range(salt):
        data.draw(st.integers(0, 255), label="salt")


def rules_and_level(data: st.DataObject, name: str, *params: object) -> tuple[RuleSet, int]:
    """A case's rules (the preset ``name``) and its level, drawn once the case is :func:`salted` by ``name``
    and ``params``."""
    salted(data, name, *params)
    return RULESETS[name], data.draw(st.integers(0, 12), label="level")


def hand_and_other(data: st.DataObject, hands: st.SearchStrategy[list[Card]]) -> tuple[list[Card], list[Card]]:
    """Two hands drawn from ``hands``: the one tested, and another whose plays are its tops."""
    return data.draw(hands, label="hand"), data.draw(hands, label="other hand")


def submultisets(hand: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every distinct non-empty sub-multiset of the hand, as a sorted tuple."""
    counts = Counter(hand)
    codes = sorted(counts)
    for picks in product(*(range(counts[c] + 1) for c in codes)):
        cards = tuple(c for c, k in zip(codes, picks, strict=True) for _ in range(k))
        if cards:
            yield cards


def brute_force(hand: Sequence[Card], top: Combo | None, level: int, rules: RuleSet) -> set[Pair]:
    return {
        (cards, combo)
        for cards in submultisets(hand)
        for combo in classify(cards, level, rules)
        if top is None or beats(combo, top, rules)
    }


def plays(moves: list[Move], following: bool) -> list[Move]:
    """The moves without the trailing PASS, checking that PASS is there exactly when following."""
    if following:
        assert moves and moves[-1] == PASS, "a follower may always pass (§4.3)"
        moves = moves[:-1]
    assert PASS not in moves, "PASS appears only once, at the end, and never when leading (§4.3)"
    return moves


def draw_tops(data: st.DataObject, other: list[Card], level: int, rules: RuleSet, n: int = 3) -> list[Combo]:
    """Tops played from another hand: a few random ones, and a bomb when that hand has one."""
    combos = sorted({m.combo for m in legal_moves(other, None, level, rules) if m.combo is not None}, key=str)
    if not combos:
        return []
    tops = [data.draw(st.sampled_from(combos), label="top") for _ in range(n)]
    bombs = [c for c in combos if c.is_bomb]
    if bombs:
        tops.append(data.draw(st.sampled_from(bombs), label="bomb top"))
    return tops


def show(hand: Sequence[Card], level: int, top: Combo | None) -> str:
    return f"hand {format_cards(sorted(hand))} at level index {level}, top {top}"


def is_submultiset(cards: Sequence[Card], hand: Sequence[Card]) -> bool:
    return not Counter(cards) - Counter(hand)


# ---------------------------------------------------------------------------------------------
# 1. brute-force equality


@pytest.mark.parametrize("n_wild", [0, 1, 2])
@pytest.mark.parametrize("name", PRESET_NAMES)
@fast(70)
@given(data=st.data())
def test_legal_moves_equal_brute_force(name: str, n_wild: int, data: st.DataObject) -> None:
    rules, level = rules_and_level(data, name, n_wild)
    hand = data.draw(biased_hand(level, n_wild=n_wild), label="hand")
    other = data.draw(biased_hand(level), label="other hand")
    for top in [None, *draw_tops(data, other, level, rules)]:
        moves = plays(legal_moves(hand, top, level, rules, mode="complete"), following=top is not None)
        got = {(m.cards, m.combo) for m in moves}
        assert len(got) == len(moves), f"duplicate moves: {show(hand, level, top)}"
        want = brute_force(hand, top, level, rules)
        missing, extra = want - got, got - want
        assert not missing and not extra, (
            f"{name}: {show(hand, level, top)}\n"
            f"missing: {[(format_cards(c), str(k)) for c, k in sorted(missing, key=str)[:6]]}\n"
            f"extra: {[(format_cards(c), str(k)) for c, k in sorted(extra, key=str)[:6]]}"
        )


@pytest.mark.parametrize("name", PRESET_NAMES)
@fast(25)
@given(data=st.data())
def test_legal_moves_equal_brute_force_dense_hands(name: str, data: st.DataObject) -> None:
    """Up to 14 cards over at most 6 distinct natural codes (each usually twice): 4-of-a-kind
    chains, airplanes, plates and big bombs appear, while the brute force stays small."""
    rules, level = rules_and_level(data, name)
    hand, other = hand_and_other(data, biased_hand(level, max_cards=14, max_codes=6))
    for top in [None, *draw_tops(data, other, level, rules, n=2)]:
        moves = plays(legal_moves(hand, top, level, rules), following=top is not None)
        assert {(m.cards, m.combo) for m in moves} == brute_force(hand, top, level, rules), show(hand, level, top)


# ---------------------------------------------------------------------------------------------
# 2. every generated move is sound, on bigger hands (no brute force needed)


def check_sound(moves: list[Move], hand: list[Card], top: Combo | None, level: int, rules: RuleSet) -> None:
    for m in plays(moves, following=top is not None):
        assert m.combo is not None
        assert list(m.cards) == sorted(m.cards), f"cards not sorted: {m}"
        assert m.combo in classify(m.cards, level, rules), f"{format_cards(m.cards)} is not {m.combo}"
        assert is_submultiset(m.cards, hand), f"{format_cards(m.cards)} not in {show(hand, level, top)}"
        assert top is None or beats(m.combo, top, rules), f"{m.combo} does not beat {top}"


@pytest.mark.parametrize("name", PRESET_NAMES)
@fast(30)
@given(data=st.data())
def test_every_move_classifies_fits_the_hand_and_beats(name: str, data: st.DataObject) -> None:
    rules, level = rules_and_level(data, name)
    size = 12 if name == "huopin" else 18
    hand, other = hand_and_other(data, biased_hand(level, max_cards=size, max_codes=20))
    for top in [None, *draw_tops(data, other, level, rules)]:
        check_sound(legal_moves(hand, top, level, rules), hand, top, level, rules)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_move_is_sound_on_dealt_hands(name: str) -> None:
    """Real 27-card hands from a shuffled 108-card deck (seeded)."""
    rules = RULESETS[name]
    rng = random.Random(20240601)
    deck = [c.code for c in physical_deck()]
    deals = 1 if name == "huopin" else 6
    for _ in range(deals):
        rng.shuffle(deck)
        level = rng.randrange(13)
        hand, other = sorted(deck[:27]), deck[27:54]
        lead = legal_moves(hand, None, level, rules)
        check_sound(lead, hand, None, level, rules)
        combos = sorted({m.combo for m in legal_moves(other, None, level, rules) if m.combo}, key=str)
        for top in rng.sample(combos, 4):
            check_sound(legal_moves(hand, top, level, rules), hand, top, level, rules)


# ---------------------------------------------------------------------------------------------
# 3. canonical mode


@pytest.mark.parametrize("name", PRESET_NAMES)
@fast(40)
@given(data=st.data())
def test_canonical_is_one_move_per_combo_and_wildcard_use(name: str, data: st.DataObject) -> None:
    rules, level = rules_and_level(data, name)
    wc = wild_code(level)
    hand, other = hand_and_other(data, biased_hand(level, max_cards=12, max_codes=10))
    for top in [None, *draw_tops(data, other, level, rules)]:
        following = top is not None
        complete = plays(legal_moves(hand, top, level, rules, mode="complete"), following)
        canonical = plays(legal_moves(hand, top, level, rules, mode="canonical"), following)
        assert set(canonical) <= set(complete), show(hand, level, top)
        keys = [wild_key(m, wc) for m in canonical]
        assert len(keys) == len(set(keys)), f"two canonical moves share a key: {show(hand, level, top)}"
        assert set(keys) == {wild_key(m, wc) for m in complete}, show(hand, level, top)


def wild_key(m: Move, wc: Card) -> tuple[Combo | None, int, int]:
    """What a canonical move stands for: its combo, and how many ♥ level cards (``wc``) and big jokers it uses."""
    return (m.combo, m.cards.count(wc), m.cards.count(BIG_JOKER))


def check_canonical_leads(hand: list[Card], level: int, rules: RuleSet) -> None:
    """The canonical leads of ``hand`` are complete ones, no two with one :func:`wild_key`, and every complete
    lead's key is among theirs."""
    wc = wild_code(level)
    complete = legal_moves(hand, None, level, rules, mode="complete")
    canonical = legal_moves(hand, None, level, rules, mode="canonical")
    assert set(canonical) <= set(complete), show(hand, level, None)
    assert len({wild_key(m, wc) for m in canonical}) == len(canonical), show(hand, level, None)
    missing = {wild_key(m, wc) for m in complete} - {wild_key(m, wc) for m in canonical}
    assert not missing, f"{show(hand, level, None)}: no canonical move for {sorted(map(str, missing))[:4]}"


@st.composite
def wild_heavy_hand(draw: st.DrawFn, level: int) -> list[Card]:
    """Both ♥ level cards, one or two big jokers, and up to eight cards of two or three neighbouring
    ranks in two suits: where the suits of the natural cards decide what a set resolves to."""
    low = draw(st.integers(1, 12))
    ranks = [_pos_rank(p) for p in range(low, min(low + draw(st.integers(2, 3)), 15))]
    suits = draw(st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True))
    wc = wild_code(level)
    pool = sorted({4 * r + s for r in ranks for s in suits} - {wc})
    naturals = draw(st.lists(st.sampled_from(pool), min_size=3, max_size=8)) if pool else []
    cnt = Counter(naturals)
    hand = [c for c in sorted(cnt) for _ in range(min(2, cnt[c]))]
    return sorted([*hand, wc, wc, *[BIG_JOKER] * draw(st.integers(1, 2))])


@pytest.mark.parametrize("name", PRESET_NAMES)
@fast(60)
@given(data=st.data())
def test_canonical_with_many_wildcards(name: str, data: st.DataObject) -> None:
    """Three or four wildcards in huopin (two ♥ level cards and big jokers), where the natural cards
    a representative takes decide whether it resolves to its template (§8.4)."""
    rules, level = rules_and_level(data, name)
    check_canonical_leads(data.draw(wild_heavy_hand(level), label="hand"), level, rules)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_canonical_exhaustively_on_a_small_universe(name: str) -> None:
    """Every hand of both ♥ 2s, one or two big jokers and up to five of S3 H3 S4 H4 S5 D5 at level 2."""
    rules = RULESETS[name]
    universe = parse_cards("S3 H3 S4 H4 S5 D5")
    wc = wild_code(0)
    for size in range(6):
        for naturals in combinations(universe, size):
            for big in (1, 2):
                check_canonical_leads(sorted([*naturals, wc, wc, *[BIG_JOKER] * big]), 0, rules)


# ---------------------------------------------------------------------------------------------
# 4. classify does not depend on the order of the cards


@pytest.mark.parametrize("name", PRESET_NAMES)
@fast(150)
@given(data=st.data())
def test_classify_is_invariant_under_card_order(name: str, data: st.DataObject) -> None:
    rules, level = rules_and_level(data, name)
    cards = data.draw(biased_hand(level, max_cards=12, max_codes=12), label="cards")
    shuffled = data.draw(st.permutations(cards), label="shuffled")
    expected = classify(sorted(cards), level, rules)
    assert classify(shuffled, level, rules) == expected
    assert classify(list(reversed(shuffled)), level, rules) == expected
    if cards:
        assert classify(format_cards(shuffled), level, rules) == expected  # RULES.md notation, any order


@st.composite
def structured_hand(draw: st.DrawFn, level: int) -> list[Card]:
    """Four neighbouring ranks in two suits, up to four cards of each, plus up to two wildcards
    (♥ level cards or, in huopin, big jokers): chain bombs, airplanes and long runs occur."""
    wc = wild_code(level)
    low = draw(st.sampled_from([1, 1, 11, *range(1, 12)]))  # the ace at either end, often
    suits = draw(st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True))
    hand: list[Card] = []
    for pos in range(low, low + 4):
        r = _pos_rank(pos)
        n = draw(st.sampled_from([0, 2, 3, 4, 4, 4]))
        codes = [4 * r + s for s in suits for _ in range(2) if 4 * r + s != wc]
        hand += codes[:n]
    specials = draw(st.sampled_from([(), (wc,), (wc, wc), (BIG_JOKER,), (BIG_JOKER, BIG_JOKER), (wc, BIG_JOKER)]))
    return sorted(hand + list(specials))


@pytest.mark.parametrize("name", PRESET_NAMES)
@fast(40)
@given(data=st.data())
def test_big_plays_equal_brute_force(name: str, data: st.DataObject) -> None:
    """The plays of 9 or more cards (chain bombs, airplanes, long runs, big bombs) of structured
    hands up to 18 cards, against brute force restricted to sub-multisets of that size."""
    rules, level = rules_and_level(data, name)
    hand, other = hand_and_other(data, structured_hand(level))
    cases = [(hand, None), (other, None)] + [(hand, top) for top in draw_tops(data, other, level, rules, n=2)]
    for cards_in_hand, top in cases:
        moves = plays(legal_moves(cards_in_hand, top, level, rules), following=top is not None)
        got = {(m.cards, m.combo) for m in moves if len(m.cards) >= 9}
        want = {
            (cards, combo)
            for cards in submultisets(cards_in_hand)
            if len(cards) >= 9
            for combo in classify(cards, level, rules)
            if top is None or beats(combo, top, rules)
        }
        assert got == want, show(cards_in_hand, level, top)
