"""A tribute payer's highest card is public (进贡), so worlds never give it a higher one."""

from __future__ import annotations

import random
from collections import Counter

from guandan.agents import make_agent
from guandan.agents.counting import NO_CEILING, read
from guandan.agents.worlds import sample_hands
from guandan.core.cards import lv, wild_code
from guandan.core.events import TributeGiven
from guandan.core.match import MatchConfig, MatchState, new_match
from guandan.core.rules import preset
from guandan.core.vocab import Phase


def _after_tribute(prev: tuple[int, ...], key: str, plays: int) -> MatchState:
    """A one-deal match that starts with a tribute from the finishing order ``prev``, played by
    heuristic seats for ``plays`` actions after the tribute and return."""
    rules = preset("competition")
    cfg = MatchConfig(max_deals=1, start_prev_finish=prev, start_declarer=prev[0] % 2)
    m = new_match(rules, key, cfg)
    agents = [make_agent("heuristic", s) for s in range(4)]
    for s, a in enumerate(agents):
        a.reset(s, rules)
    done = 0
    while m.deal.phase != Phase.PLAY or done < plays:
        seat = m.to_move
        assert seat is not None
        if m.deal.phase == Phase.PLAY:
            done += 1
        m.apply(agents[seat].choose(m.observation(seat), m.legal_actions()))
    return m


def _ceilings_seen(m: MatchState) -> dict[int, int]:
    obs = m.observation(0)
    return {t.giver: lv(t.card, obs.deal.level) for e in obs.deal.events if isinstance(e, TributeGiven)
            for t in e.transfers}


def test_a_payer_is_capped_at_its_tribute_and_the_true_hands_obey_it() -> None:
    checked = 0
    for i in range(12):
        prev = tuple(random.Random(i).sample(range(4), 4))
        m = _after_tribute(prev, f"ceiling{i}", 6)
        paid = _ceilings_seen(m)
        if not paid:
            continue  # 抗贡: nobody paid
        for seat in range(4):
            know = read(m.observation(seat))
            for s in range(4):
                assert know.ceiling[s] == paid.get(s, NO_CEILING)
        level = m.deal.level
        hands = m.deal.hands  # type: ignore[union-attr]
        for payer, ceiling in paid.items():
            # the fact the worlds rely on: a payer's hand, apart from the cards known to be in it
            # (what it got back), holds nothing above its tribute but wildcards
            know = read(m.observation((payer + 1) % 4))
            free = Counter(hands[payer]) - know.known[payer]
            assert all(lv(c, level) <= ceiling or c == wild_code(level) for c in free.elements())
        checked += 1
    assert checked >= 6


def test_worlds_respect_ceilings_counts_and_known_cards() -> None:
    checked = 0
    for i in range(12):
        prev = tuple(random.Random(100 + i).sample(range(4), 4))
        m = _after_tribute(prev, f"worlds{i}", 3)
        if not _ceilings_seen(m):
            continue
        seat = m.to_move
        assert seat is not None
        obs = m.observation(seat)
        know = read(obs)
        level = know.level
        truth = m.deal.hands  # type: ignore[union-attr]
        rng = random.Random(i)
        for _ in range(20):
            hands = sample_hands(know, obs.deal.hand, rng)
            assert [len(h) for h in hands] == [len(h) for h in truth]
            assert Counter(c for h in hands for c in h) == Counter(c for h in truth for c in h)
            for s in range(4):
                if s == seat:
                    continue
                assert not (know.known[s] - Counter(hands[s]))
                free = Counter(hands[s]) - know.known[s]
                assert all(c == wild_code(level) or lv(c, level) <= know.ceiling[s] for c in free.elements())
        checked += 1
    assert checked >= 6


def test_the_high_cards_spread_over_the_open_hands_by_their_room() -> None:
    """A card above the payer's tribute lands in each other hand as often as that hand has free
    places (uniform among the consistent worlds), and never in the payer's."""
    # 1 first, 3 (its partner) third: seat 2 alone pays, to seat 1
    m = next(m for i in range(20) for m in [_after_tribute((1, 0, 3, 2), f"spread{i}", 0)]
             if _ceilings_seen(m).get(2, NO_CEILING) < NO_CEILING)
    seat = 1
    obs = m.observation(seat)
    know = read(obs)
    level = know.level
    rng = random.Random(7)
    landed: Counter[int] = Counter()
    for _ in range(400):
        hands = sample_hands(know, obs.deal.hand, rng)
        for s in (0, 2, 3):
            free = Counter(hands[s]) - know.known[s]
            landed[s] += sum(1 for c in free.elements() if c != wild_code(level) and lv(c, level) > know.ceiling[2])
    assert landed[2] == 0
    room = {s: know.counts[s] - sum(know.known[s].values()) for s in (0, 3)}
    share = landed[0] / (landed[0] + landed[3])
    assert abs(share - room[0] / (room[0] + room[3])) < 0.06
