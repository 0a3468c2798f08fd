"""The search tier's exact endgame (残局精算) and its use of passes as soft evidence."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from guandan.agents.counting import read
from guandan.agents.endgame import EndgameSolver, Exhausted
from guandan.agents.heuristic import HeuristicAgent
from guandan.agents.search import SearchAgent
from guandan.agents.worlds import pass_evidence, sample_weighted, tracker_from, violations
from guandan.core.cards import parse_cards
from guandan.core.combos import classify
from guandan.core.deal import Action
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import PRESET_NAMES, preset
from guandan.core.turns import TurnTracker
from guandan.core.vocab import ActionKind, ComboType, MoveMode

LEVEL = 0  # level 2: no card below is a level card or wildcard


def _cards(text: str) -> list[int]:
    return list(parse_cards(text))


def _after_lead(cards: str, hands: list[list[int]], tracker: TurnTracker, seat: int,
                solver: EndgameSolver) -> float:
    """Value for ``seat``'s team of leading ``cards`` from ``hands[seat]``."""
    rules = preset("competition")
    played = _cards(cards)
    rest = list(hands[seat])
    for c in played:
        rest.remove(c)
    hs = [list(h) for h in hands]
    hs[seat] = rest
    t = tracker.copy()
    t.play(seat, goes_out=not rest)
    combo = classify(played, LEVEL, rules)[0]
    return solver.value(hs, t, combo, seat)


def test_solver_prefers_the_pair_that_nobody_can_beat() -> None:
    # Partner (seat 2) is out first. Seat 0 holds 3 K K; opponents: seat 1 an A, seat 3 Q Q.
    # Lead K K: seat 1 has no pair, Q Q is lower, so seat 0 wins the round, leads 3 and goes out
    # second: 双上, +3. Lead 3: seat 1 passes and seat 3 splits its pair to beat it with a Q; if
    # seat 0 covers with a K, the A takes it, goes out, and 接风 gives seat 3 the lead with its
    # last Q; if seat 0 passes, seat 3 leads that Q and is out. Either way seat 0 is last: +1 (a
    # policy playout would let the A go on the 3 and score +2). Lead a K: the A beats it and goes
    # out, seat 3 gets the lead by 接风 and leads Q Q, which 3 K cannot beat: seat 0 is last, +1.
    rules = preset("competition")
    hands = [_cards("S3 SK HK"), _cards("SA"), [], _cards("SQ HQ")]
    tracker = TurnTracker(0, rules, already_out=[2])
    solver = EndgameSolver(0, LEVEL, rules, node_limit=10_000)
    assert _after_lead("SK HK", hands, tracker, 0, solver) == 3.0
    assert _after_lead("S3", hands, tracker, 0, solver) == 1.0
    assert _after_lead("SK", hands, tracker, 0, solver) == 1.0
    assert solver.value(hands, tracker.copy(), None, None) == 3.0  # the root is the best lead


def test_solver_sees_the_opponents_best_reply() -> None:
    # Seat 1 (opponent of seat 0) is out first. Seat 0 holds 5 5 4, its partner seat 2 holds 9,
    # seat 3 holds 7 7. Seat 0 leads.
    # Lead 5 5: seat 2 passes (single 9), seat 3 beats with 7 7 and goes out second → seat 1's team
    # 双上: −3. Lead 4: seat 2 plays 9 and goes out second; nobody beats 9, 接风 gives the lead to
    # seat 0, which leads 5 5 and goes out third: seat 1's partner is last, −1 (the best possible
    # once seat 1 is first).
    # Best play by seat 0: lead 4 (−1), not the pair (−3).
    rules = preset("competition")
    hands = [_cards("S5 H5 S4"), [], _cards("S9"), _cards("S7 H7")]
    tracker = TurnTracker(0, rules, already_out=[1])
    solver = EndgameSolver(0, LEVEL, rules, node_limit=10_000)
    assert _after_lead("S5 H5", hands, tracker, 0, solver) == -3.0
    assert _after_lead("S4", hands, tracker, 0, solver) == -1.0
    assert solver.value(hands, tracker.copy(), None, None) == -1.0


def test_solver_gives_up_past_its_node_limit() -> None:
    rules = preset("competition")
    hands = [_cards("S3 S4 S5 H6 D8 C9 SJ"), _cards("H3 H4 S7 H7 D9 ST"), _cards("C2 D5 D6"), _cards("SK HK DQ")]
    solver = EndgameSolver(0, LEVEL, rules, node_limit=20)
    with pytest.raises(Exhausted):
        solver.value(hands, TurnTracker(0, rules), None, None)


def _midgame(seed: str, steps: int) -> tuple[object, int]:
    rules = preset("competition")
    m = new_match(rules, seed, MatchConfig(max_deals=1, first_leader=0))
    agents = [HeuristicAgent(s) for s in range(4)]
    for s, a in enumerate(agents):
        a.reset(s, rules)
    for _ in range(steps):
        seat = m.to_move
        assert seat is not None
        m.apply(agents[seat].choose(m.observation(seat), m.legal_actions()))
    seat = m.to_move
    assert seat is not None
    return m, seat


def test_pass_evidence_worlds_still_match_every_public_fact() -> None:
    m, seat = _midgame("evidence", 60)
    obs = m.observation(seat)  # type: ignore[attr-defined]
    know = read(obs)
    evidence = pass_evidence(obs.deal)
    assert evidence, "60 heuristic moves include passes on an opponent's single or pair"
    assert all(s != seat and top.type in (ComboType.SINGLE, ComboType.PAIR) for s, top in evidence)
    truth = m.deal.hands  # type: ignore[attr-defined]
    rng = random.Random(3)
    for _ in range(20):
        hands = sample_weighted(know, obs.deal.hand, rng, evidence, obs.deal.level)
        assert [len(h) for h in hands] == know.counts
        assert Counter(c for h in hands for c in h) == Counter(c for h in truth for c in h)
        assert sorted(hands[seat]) == sorted(obs.deal.hand)
        for s in range(4):
            assert not (know.known[s] - Counter(hands[s]))


def test_violations_count_a_cheap_beat_the_passer_held() -> None:
    rules = preset("competition")
    seven = classify(_cards("S7"), LEVEL, rules)[0]
    pair_seven = classify(_cards("S7 H7"), LEVEL, rules)[0]
    evidence = [(1, seven), (1, pair_seven)]
    # An 8 single beats 7 cheaply; no pair above 7 7 within reach: one contradicted pass.
    assert violations([[], _cards("S8 H3 D3"), [], []], evidence, LEVEL) == 1
    # 9 9 beats both the single and the pair.
    assert violations([[], _cards("S9 H9"), [], []], evidence, LEVEL) == 2
    # Four 8s are a bomb kept whole, an A is far above 7: no contradiction.
    assert violations([[], _cards("S8 H8 C8 D8 SA"), [], []], evidence, LEVEL) == 0


def test_rejection_prefers_worlds_consistent_with_the_passes() -> None:
    m, seat = _midgame("evidence", 12)
    obs = m.observation(seat)  # type: ignore[attr-defined]
    know = read(obs)
    level = obs.deal.level
    jacks = classify(_cards("SJ HJ"), level, preset("competition"))[0]
    other = max((s for s in range(4) if s != seat), key=lambda s: know.counts[s])
    evidence = [(other, jacks)]  # as if that seat had passed on an opponent's J J: Q Q..A A unlikely
    rng_a, rng_b = random.Random(5), random.Random(5)
    plain = [violations(sample_weighted(know, obs.deal.hand, rng_a, evidence, level, tries=1), evidence, level)
             for _ in range(60)]
    weighted = [violations(sample_weighted(know, obs.deal.hand, rng_b, evidence, level), evidence, level)
                for _ in range(60)]
    assert sum(plain) > 10 and sum(weighted) < sum(plain) / 2


def _play_to_endgame(preset_name: str, seed: str) -> tuple[object, list[SearchAgent]]:
    rules = preset(preset_name)
    m = new_match(rules, seed, MatchConfig(max_deals=1, first_leader=0, move_mode=MoveMode.CANONICAL))
    agents = [SearchAgent(s, None, max_worlds=2) for s in range(4)]
    for s, a in enumerate(agents):
        a.reset(s, rules)
    return m, agents


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_search_with_endgame_plays_only_legal_actions(preset_name: str) -> None:
    exact = 0
    for deal in range(6):  # few deals reach a many-way decision with ≤ 14 cards left: play several
        m, agents = _play_to_endgame(preset_name, f"eg:{preset_name}:{deal}")
        while not m.ended:  # type: ignore[attr-defined]
            seat = m.to_move  # type: ignore[attr-defined]
            legal = m.legal_actions()  # type: ignore[attr-defined]
            action = agents[seat].choose(m.observation(seat), legal)  # type: ignore[attr-defined]
            assert action in legal
            exact += agents[seat].last_exact
            m.apply(action)  # type: ignore[attr-defined]
    assert exact > 0, "some late decisions were solved exactly"


def test_search_endgame_is_deterministic_with_fixed_worlds() -> None:
    def run(seed: str) -> tuple[list[object], int]:
        m, agents = _play_to_endgame("competition", seed)
        exact = 0
        while not m.ended:  # type: ignore[attr-defined]
            seat = m.to_move  # type: ignore[attr-defined]
            m.apply(agents[seat].choose(m.observation(seat), m.legal_actions()))  # type: ignore[attr-defined]
            exact += agents[seat].last_exact
        return m.deals[0].state.actions, exact  # type: ignore[attr-defined]

    seeds = [f"eg:det:{i}" for i in range(4)]
    first = [run(s) for s in seeds]
    assert sum(e for _, e in first) > 0, "the endgame solver took part in these deals"
    assert first == [run(s) for s in seeds]


def test_tracker_rebuilt_for_the_solver_matches_the_engine() -> None:
    m, seat = _midgame("evidence", 60)
    obs = m.observation(seat)  # type: ignore[attr-defined]
    t = tracker_from(obs.deal, preset("competition"))
    assert t.turn == seat and t.finish == list(obs.deal.finish)


def test_an_alternative_must_beat_the_first_choice_beyond_noise() -> None:
    from guandan.agents.search import PRIOR, _Candidate, _lower_bound

    rules = preset("competition")

    def cand(diffs: list[float]) -> _Candidate:
        c = _Candidate(Action(ActionKind.PASS, 0), [], [], TurnTracker(0, rules), None, None)
        c.total, c.sq, c.n = sum(diffs), sum(d * d for d in diffs), len(diffs)
        return c

    # Four worlds, +1 level point in each: mean 1, no spread → 1 − PRIOR > 0, it displaces the first choice.
    assert _lower_bound(cand([1.0] * 4)) == pytest.approx(1.0 - PRIOR)
    # Same mean 1 from one lucky +4 world and three 0s: standard error √(3/4)=0.87 → 1 − 0.3 − 0.87 < 0.
    assert _lower_bound(cand([4.0, 0.0, 0.0, 0.0])) < 0.0


def test_endgame_cards_decides_where_worlds_are_solved_exactly() -> None:
    """A decision with 15–17 cards left in all hands is played out by default (the exact endgame
    starts at 14) and solved exactly once ``endgame_cards`` reaches it (a fixed number of worlds,
    so the test is deterministic)."""
    rules = preset("competition")
    found = None
    for deal in range(40):
        m = new_match(rules, f"endgame-cards:{deal}", MatchConfig(max_deals=1))
        players = [HeuristicAgent(s) for s in range(4)]
        for s, p in enumerate(players):
            p.reset(s, rules)
        while not m.ended and found is None:
            seat = m.to_move
            assert seat is not None
            obs, legal = m.observation(seat), m.legal_actions()
            if (legal[0].kind in (ActionKind.PLAY, ActionKind.PASS) and len(legal) >= 3
                    and 15 <= sum(read(obs).counts) <= 17):
                found = (seat, obs, legal)
            m.apply(players[seat].choose(obs, legal))
        if found is not None:
            break
    assert found is not None
    seat, obs, legal = found
    exact = []
    for cards in (14, 20):
        agent = SearchAgent(1, None, max_worlds=4, endgame_cards=cards, endgame_nodes=200_000)
        agent.reset(seat, rules)
        agent.choose(obs, legal)
        exact.append(agent.last_exact)
    assert exact == [0, 4]


def test_a_win_bonus_weighs_the_deals_winner_in_playouts_and_in_the_solver() -> None:
    rules = preset("competition")
    from guandan.agents.worlds import level_points

    assert level_points([0, 2, 1, 3], 0, rules) == 3.0 and level_points([0, 2, 1, 3], 1, rules) == -3.0
    assert level_points([0, 1, 3, 2], 2, rules, win_bonus=1.5) == 2.5  # a win by one level, plus the bonus
    assert level_points([0, 1, 3, 2], 3, rules, win_bonus=1.5) == -2.5
    # the position of the test above: the same choices, each worth the bonus more for a win
    hands = [_cards("S3 SK HK"), _cards("SA"), [], _cards("SQ HQ")]
    tracker = TurnTracker(0, rules, already_out=[2])
    solver = EndgameSolver(0, LEVEL, rules, node_limit=10_000, win_bonus=2.0)
    assert _after_lead("SK HK", hands, tracker, 0, solver) == 5.0
    assert _after_lead("S3", hands, tracker, 0, solver) == 3.0


def test_the_default_win_bonus_is_one_and_a_large_one_changes_choices() -> None:
    rules = preset("competition")
    m = new_match(rules, "win-bonus", MatchConfig(max_deals=1))
    agents = {"plain": SearchAgent(7, max_worlds=16, endgame=False),
              "one": SearchAgent(7, max_worlds=16, endgame=False, win_bonus=1.0),
              # no prior and no confidence margin: the best mean decides, so a change of values shows
              "mean": SearchAgent(7, max_worlds=16, endgame=False, prior=0, confidence=0, win_bonus=0.0),
              "big": SearchAgent(7, max_worlds=16, endgame=False, prior=0, confidence=0, win_bonus=6.0)}
    chosen: dict[str, list[Action]] = {name: [] for name in agents}
    while not m.ended and len(chosen["plain"]) < 60:  # type: ignore[attr-defined]
        seat = m.to_move  # type: ignore[attr-defined]
        obs, legal = m.observation(seat), m.legal_actions()  # type: ignore[attr-defined]
        for name, agent in agents.items():
            agent.reset(seat, rules)
            chosen[name].append(agent.choose(obs, legal))
        m.apply(chosen["plain"][-1])  # type: ignore[attr-defined]
    assert len(chosen["plain"]) == 60 and chosen["one"] == chosen["plain"]
    assert chosen["big"] != chosen["mean"], "the bonus reaches the playouts' values"
