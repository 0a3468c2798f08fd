"""Inference from play (读牌): earlier decisions of the other seats as evidence about their hands."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from guandan.agents.counting import read
from guandan.agents.decompose import Decomposer
from guandan.agents.heuristic import HeuristicAgent
from guandan.agents.inference import PlayEvidence, decisions, policy_agrees
from guandan.agents.search import SearchAgent
from guandan.agents.worlds import sample_hands, sample_weighted
from guandan.core.events import Lead, Passed, Played, RoundWon
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.core.tribute import partner
from guandan.core.vocab import ActionKind, Phase

RULES = preset("competition")


def _midgame(seed: str, steps: int) -> tuple[Any, int]:
    """A one-deal match of four heuristic players, ``steps`` actions in (or at its last decision)."""
    m = new_match(RULES, seed, MatchConfig(max_deals=1))
    agents = [HeuristicAgent(s) for s in range(4)]
    for s, a in enumerate(agents):
        a.reset(s, RULES)
    for _ in range(steps):
        seat = m.to_move
        assert seat is not None
        legal = m.legal_actions()
        action = agents[seat].choose(m.observation(seat), legal)
        m.apply(action)
        if m.ended or m.to_move is None:
            break
        nxt = m.observation(m.to_move)
        if nxt.deal.phase == Phase.PLAY and sum(len(h) for h in m.deal.hands) <= 40:
            break  # keep a world with cards left to infer from
    seat = m.to_move
    assert seat is not None
    return m, seat


def test_decisions_are_each_seats_latest_telling_ones_with_the_hand_held_then() -> None:
    m, seat = _midgame("infer:a", 70)
    obs = m.observation(seat).deal
    truth = m.deal.hands
    every = decisions(obs, 100)
    # counted independently from the events: every play of another seat, and every pass of
    # another seat on a play of an opponent of the passer
    plays = passes = 0
    owner = None
    for e in obs.events:
        if isinstance(e, Played):
            plays += e.player != seat
            owner = e.player
        elif isinstance(e, Passed):
            passes += e.player != seat and owner is not None and owner != partner(e.player)
        elif isinstance(e, (RoundWon, Lead)):
            owner = None
    assert plays > 5 and passes > 0
    assert len(every) == plays + passes
    for d in every:
        assert d.seat != seat
        assert d.combo is not None or (d.owner is not None and d.owner != partner(d.seat))
        # the hand then: the hand now and everything played since, exactly the count the table showed
        assert len(truth[d.seat]) + len(d.later) == d.counts[d.seat]
        if d.combo is not None:
            assert len(d.later) >= d.combo.size
    two = decisions(obs, 2)
    for s in range(4):
        mine = [d for d in every if d.seat == s]
        assert [id(d.combo) for d in two if d.seat == s] == [id(d.combo) for d in mine[:2]]
    assert all(d.seat != seat for d in two) and len(two) <= 6


def test_the_true_hands_explain_what_heuristic_players_did() -> None:
    """The unit policy is the heuristic's own lead rule and (nine times in ten) its follow, so the
    real hands explain nearly every decision, and a random world explains far fewer."""
    agree = leads_agree = leads = total = 0
    random_agree = 0
    rng = random.Random(1)
    for i in range(8):
        m, seat = _midgame(f"infer:b:{i}", 200)
        obs = m.observation(seat)
        dec = Decomposer(RULES, obs.deal.level)
        guess = sample_hands(read(obs), obs.deal.hand, rng)
        for d in decisions(obs.deal, 100):
            ok = policy_agrees(d, m.deal.hands[d.seat], dec)
            agree += ok
            total += 1
            random_agree += policy_agrees(d, guess[d.seat], dec)
            if d.top is None:
                leads += 1
                leads_agree += ok
    assert total > 100 and leads > 20
    assert leads_agree >= 0.97 * leads
    assert agree >= 0.88 * total
    assert random_agree < agree - 0.2 * total


def test_play_evidence_draws_worlds_that_explain_more() -> None:
    m, seat = _midgame("infer:c", 200)
    obs = m.observation(seat)
    know = read(obs)
    dec = Decomposer(RULES, obs.deal.level)
    play = PlayEvidence(obs.deal, dec, 3)
    assert len(play) > 3
    truth = m.deal.hands
    rng_a, rng_b = random.Random(4), random.Random(4)
    plain = [play.misses(sample_weighted(know, obs.deal.hand, rng_a, [], obs.deal.level, tries=1), 99)
             for _ in range(40)]
    weighted = []
    for _ in range(40):
        hands = sample_weighted(know, obs.deal.hand, rng_b, [], obs.deal.level, tries=4, play=play)
        weighted.append(play.misses(hands, 99))
        # evidence weighs worlds, it never breaks a public fact
        assert [len(h) for h in hands] == know.counts
        assert Counter(c for h in hands for c in h) == Counter(c for h in truth for c in h)
        for s in range(4):
            assert not (know.known[s] - Counter(hands[s]))
    assert play.misses(truth, 99) < sum(plain) / len(plain)
    assert sum(weighted) < 0.75 * sum(plain)


def test_misses_stop_counting_at_the_limit() -> None:
    m, seat = _midgame("infer:d", 40)
    obs = m.observation(seat)
    play = PlayEvidence(obs.deal, Decomposer(RULES, obs.deal.level), 5)
    rng = random.Random(2)
    world = next(w for w in (sample_hands(read(obs), obs.deal.hand, rng) for _ in range(50)) if play.misses(w, 99) > 1)
    assert play.misses(world, 1) == 1
    assert play.misses(world, 0) == 0
    assert PlayEvidence(obs.deal, play.dec, 0).misses(world, 99) == 0


def test_search_with_inference_is_legal_and_deterministic_at_fixed_worlds() -> None:
    def run() -> list[object]:
        m = new_match(RULES, "infer:e", MatchConfig(max_deals=1))
        agents = [SearchAgent(s, None, max_worlds=12, infer=2) if s % 2 == 0 else HeuristicAgent(s)
                  for s in range(4)]
        for s, a in enumerate(agents):
            a.reset(s, RULES)
        chosen = []
        for _ in range(60):
            if m.ended or m.to_move is None:
                break
            seat = m.to_move
            legal = m.legal_actions()
            action = agents[seat].choose(m.observation(seat), legal)
            assert action in legal
            if seat % 2 == 0 and action.kind in (ActionKind.PLAY, ActionKind.PASS):
                chosen.append(action)
            m.apply(action)
        return chosen

    first = run()
    assert len(first) > 5
    assert first == run()
