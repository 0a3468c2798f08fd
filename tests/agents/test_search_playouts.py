"""Search playouts that break units to follow (拆牌), and search stopping once its choice is settled."""

from __future__ import annotations

from guandan.agents.decompose import Decomposer, Unit
from guandan.agents.policy import Table, break_unit, follow
from guandan.agents.search import PRIOR, SETTLE_EVERY, SETTLE_MIN, SearchAgent, _Candidate, _prune, _settled
from guandan.core.cards import parse_cards
from guandan.core.combos import PAIR, SINGLE, beats, classify
from guandan.core.deal import Action
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.core.turns import TurnTracker
from guandan.core.vocab import ActionKind

LEVEL = 0  # level 2: none of the cards below is a level card or a wildcard
RULES = preset("competition")


def _unit(text: str) -> Unit:
    cards = tuple(sorted(parse_cards(text)))
    return Unit(cards, classify(cards, LEVEL, RULES)[0])


def _top(text: str):  # type: ignore[no-untyped-def]
    return classify(tuple(parse_cards(text)), LEVEL, RULES)[0]


def _table(top: str, owner: int = 1, counts: tuple[int, ...] = (20, 20, 20, 20)) -> Table:
    return Table(0, list(counts), _top(top), owner)


def test_a_pair_gives_a_single_when_no_whole_single_beats() -> None:
    dec = Decomposer(RULES, LEVEL)
    # a K out of 777+KK would leave a lone K, a play more: over the tolerance while nobody threatens
    units = [_unit("S5"), _unit("S9 H9"), _unit("S7 H7 C7 SK HK")]
    got = follow(units, _table("S8"), dec)
    assert got is not None
    play, source, rest = got
    assert play.combo.type == SINGLE and play.value == 9
    assert source == units[1]
    assert [u.combo.type for u in rest] == [SINGLE] and rest[0].value == 9
    assert sorted(play.cards + rest[0].cards) == sorted(source.cards)  # no card appears or vanishes


def test_a_triple_gives_a_pair_and_keeps_a_single() -> None:
    dec = Decomposer(RULES, LEVEL)
    units = [_unit("S4"), _unit("SQ HQ CQ")]
    got = follow(units, _table("S7 H7"), dec)
    assert got is not None
    play, source, rest = got
    assert play.combo.type == PAIR and play.value == 12 and source == units[1]
    assert [(u.combo.type, u.value) for u in rest] == [(SINGLE, 12)]


def test_no_break_for_the_partner_or_when_a_whole_unit_beats() -> None:
    dec = Decomposer(RULES, LEVEL)
    units = [_unit("S9 H9"), _unit("SK HK CK")]
    assert follow(units, _table("S8", owner=2), dec) is None  # partner's round: let it run
    whole = [_unit("ST"), _unit("S9 H9")]
    got = follow(whole, _table("S8"), dec)
    assert got is not None and got[0] == whole[0] and got[1] == whole[0] and got[2] == ()


def test_a_costly_break_waits_for_a_threat() -> None:
    dec = Decomposer(RULES, LEVEL)
    # any single out of the full house 999+55 costs a play: 99+55 (the cheapest) or 999 and a lone 5
    fh = _unit("S9 H9 C9 S5 H5")
    assert break_unit([fh], _top("S4"), dec, 4.0) is None
    got = break_unit([fh], _top("S4"), dec, 34.0)  # an opponent about to go out: break anyway
    assert got is not None and got[1].combo.type == SINGLE and got[1].value == 9
    assert [u.combo.type for u in got[3]] == [PAIR, PAIR]
    # seat 1 (opponent) has 3 cards left: follow() applies the threat tolerance itself
    threatened = follow([fh], _table("S4", owner=1, counts=(5, 3, 20, 20)), dec)
    calm = follow([fh], _table("S4", owner=1, counts=(5, 20, 20, 20)), dec)
    assert threatened is not None and calm is None


def test_wildcards_are_never_broken_out_of_a_unit() -> None:
    dec = Decomposer(RULES, 7)  # level 9: H9 is the wildcard
    cards = tuple(sorted(parse_cards("H9 SK HK")))
    unit = Unit(cards, classify(cards, 7, RULES)[0])
    assert break_unit([unit], classify(tuple(parse_cards("S8")), 7, RULES)[0], dec, 40.0) is None


def _cand(diffs: list[float]) -> _Candidate:
    c = _Candidate(Action(ActionKind.PASS, 0), [], [], TurnTracker(0, RULES), None, None)
    c.total, c.sq, c.n = sum(diffs), sum(d * d for d in diffs), len(diffs)
    return c


def test_settled_when_no_alternative_can_reach_the_prior() -> None:
    n = 40
    first = _cand([0.0] * n)
    same = _cand([0.0] * n)  # plays out exactly like the first choice
    worse = _cand([-1.0, 0.0] * (n // 2))
    assert _settled([first, same, worse])
    # an alternative a little above the prior on average but noisy could still displace it
    noisy = _cand([PRIOR + 3.0, PRIOR - 3.0] * (n // 2))
    assert not _settled([first, same, noisy])


def test_settled_when_one_alternative_clearly_wins() -> None:
    n = 40
    first = _cand([0.0] * n)
    clear = _cand([2.0] * n)
    other = _cand([0.0, 0.5] * (n // 2))
    assert _settled([first, clear, other])
    close = _cand([2.5, 1.5] * (n // 2))  # as good on average, noisier: keep sampling
    assert not _settled([first, clear, close])


def test_settling_stops_early_and_still_chooses_legally() -> None:
    from guandan.agents.heuristic import HeuristicAgent

    m = new_match(RULES, "settle", MatchConfig(max_deals=1, first_leader=0))
    players = [HeuristicAgent(s) for s in range(4)]
    for s, p in enumerate(players):
        p.reset(s, RULES)
    counts: list[int] = []
    while len(counts) < 12:
        seat = m.to_move
        assert seat is not None
        obs, legal = m.observation(seat), m.legal_actions()
        if legal[0].kind in (ActionKind.PLAY, ActionKind.PASS) and len(legal) > 2:
            agent = SearchAgent(3, None, max_worlds=200)
            agent.reset(seat, RULES)
            assert agent.choose(obs, legal) in legal
            counts.append(agent.last_worlds)
            if len(counts) == 1:  # the opening lead is far from settled: it takes every world it may
                full = SearchAgent(3, None, max_worlds=200, settle=False)
                full.reset(seat, RULES)
                assert full.choose(obs, legal) in legal and full.last_worlds == counts[0] == 200
        m.apply(players[seat].choose(obs, legal))
    assert all(c == 200 or (SETTLE_MIN <= c < 200 and c % SETTLE_EVERY == 0) for c in counts)
    assert sum(c < 200 for c in counts) >= 2  # a few settle well inside the limit


def test_a_late_candidate_keeps_the_choice_open_until_it_has_its_own_worlds() -> None:
    n = 40
    first, same = _cand([0.0] * n), _cand([0.0] * n)
    late = _cand([0.0] * (SETTLE_MIN - 1))  # joined by widening: too few worlds of its own yet
    assert _settled([first, same]) and not _settled([first, same, late])
    late.total, late.sq, late.n = 0.0, 0.0, SETTLE_MIN
    assert _settled([first, same, late])


def test_widening_spends_a_settled_decisions_worlds_on_more_candidates() -> None:
    from guandan.agents.heuristic import HeuristicAgent

    m = new_match(RULES, "widen", MatchConfig(max_deals=1, first_leader=0))
    players = [HeuristicAgent(s) for s in range(4)]
    for s, p in enumerate(players):
        p.reset(s, RULES)
    widened = 0
    plain_worlds: list[int] = []
    for _ in range(40):
        seat = m.to_move
        assert seat is not None
        obs, legal = m.observation(seat), m.legal_actions()
        if legal[0].kind in (ActionKind.PLAY, ActionKind.PASS) and len(legal) > 8:
            plain = SearchAgent(3, None, max_worlds=160, endgame=False)
            wide = SearchAgent(3, None, max_worlds=160, endgame=False, widen=4)
            again = SearchAgent(3, None, max_worlds=160, endgame=False, widen=4)
            for agent in (plain, wide, again):
                agent.reset(seat, RULES)
            choice, wide_choice = plain.choose(obs, legal), wide.choose(obs, legal)
            assert wide_choice in legal and again.choose(obs, legal) == wide_choice  # fixed worlds: deterministic
            assert plain.last_candidates <= 6 and wide.last_worlds >= plain.last_worlds
            if plain.last_settled:  # settled early: the widened search goes on with four more candidates
                plain_worlds.append(plain.last_worlds)
                assert wide.last_candidates == plain.last_candidates + 4
                widened += 1
            else:  # never settled: widening never started, and the search is the plain one
                assert (wide.last_candidates, wide.last_worlds, wide_choice) == (plain.last_candidates, 160, choice)
        m.apply(players[seat].choose(obs, legal))
    assert widened >= 3 and min(plain_worlds) < 160


def test_the_cheapest_bomb_over_an_opponents_play_is_valued_when_the_shortlist_has_none() -> None:
    from guandan.agents.heuristic import HeuristicAgent

    found = 0
    for game in range(6):
        m = new_match(RULES, f"bomb:{game}", MatchConfig(max_deals=1, first_leader=0))
        players = [HeuristicAgent(s) for s in range(4)]
        for s, p in enumerate(players):
            p.reset(s, RULES)
        for _ in range(120):
            if m.ended or m.to_move is None:
                break
            seat = m.to_move
            obs, legal = m.observation(seat), m.legal_actions()
            top = obs.deal.top
            ranked = [r.action for r in players[seat].ranked(obs, legal, 6)]
            plan = players[seat].decomposer(obs.deal.level)(obs.deal.hand).units
            bombs = [u for u in plan if u.is_bomb and top is not None and beats(u.combo, top[2])]
            if (top is not None and top[0] % 2 != seat % 2 and bombs and len(ranked) > 1
                    and not any(a.combo is not None and a.combo.is_bomb for a in ranked)):
                plain = SearchAgent(3, None, max_worlds=8, endgame=False)
                bomber = SearchAgent(3, None, max_worlds=8, endgame=False, bomb=True)
                for agent in (plain, bomber):
                    agent.reset(seat, RULES)
                choice = bomber.choose(obs, legal)
                plain.choose(obs, legal)
                assert choice in legal
                assert bomber.last_candidates == plain.last_candidates + 1
                found += 1
            m.apply(players[seat].choose(obs, legal))
    assert found >= 3, "these games hold follows where a bomb was possible and the heuristic listed none"
    # the partner's play is never bombed, and a listed bomb is not valued twice
    assert SearchAgent._cheapest_bomb([_unit("S5 H5 C5 D5")], _top("S3"), [], LEVEL, []) is None  # not legal here
    four = tuple(sorted(parse_cards("S5 H5 C5 D5")))
    bomb_action = Action(ActionKind.PLAY, 0, four, classify(four, LEVEL, RULES)[0])
    assert SearchAgent._cheapest_bomb([_unit("S5 H5 C5 D5")], _top("S3"), [bomb_action], LEVEL, []) == bomb_action
    assert SearchAgent._cheapest_bomb([_unit("S5 H5 C5 D5")], _top("S3"), [bomb_action], LEVEL, [bomb_action]) is None


def test_racing_drops_what_cannot_be_chosen_and_keeps_the_contenders() -> None:
    n = SETTLE_MIN
    first = _cand([0.0] * n)
    hopeless = _cand([-1.0, 0.0] * (n // 2))  # clearly below the prior: it can no longer be chosen
    noisy = _cand([PRIOR + 3.0, PRIOR - 3.0] * (n // 2))  # might still clear it
    _prune([first, hopeless, noisy])
    assert first.live and not hopeless.live and noisy.live
    # once one alternative clears the prior, another that cannot catch it goes too, however good
    leader, behind, close = _cand([2.0] * n), _cand([0.5, 0.7] * (n // 2)), _cand([2.5, 1.5] * (n // 2))
    _prune([first, leader, behind, close])
    assert leader.live and not behind.live and close.live
    late = _cand([-5.0] * (SETTLE_MIN - 1))  # too few worlds of its own to be judged
    _prune([first, late])
    assert late.live


def test_racing_spends_the_worlds_on_the_contenders_and_chooses_legally() -> None:
    """With a fixed number of worlds and no settling, racing values fewer candidates per world as it
    goes (a plain search values every candidate in every world), and stays deterministic."""
    from guandan.agents.heuristic import HeuristicAgent

    m = new_match(RULES, "race", MatchConfig(max_deals=1, first_leader=0))
    players = [HeuristicAgent(s) for s in range(4)]
    for s, p in enumerate(players):
        p.reset(s, RULES)
    raced = 0
    for _ in range(30):
        seat = m.to_move
        assert seat is not None
        obs, legal = m.observation(seat), m.legal_actions()
        if legal[0].kind in (ActionKind.PLAY, ActionKind.PASS) and len(legal) > 4:
            plain = SearchAgent(3, None, max_worlds=96, endgame=False, settle=False)
            race = SearchAgent(3, None, max_worlds=96, endgame=False, settle=False, prune=True)
            again = SearchAgent(3, None, max_worlds=96, endgame=False, settle=False, prune=True)
            for agent in (plain, race, again):
                agent.reset(seat, RULES)
            plain.choose(obs, legal)
            choice = race.choose(obs, legal)
            assert choice in legal and again.choose(obs, legal) == choice
            assert plain.last_valuations == 96 * plain.last_candidates
            assert race.last_worlds == 96 and race.last_valuations <= plain.last_valuations
            raced += race.last_valuations < plain.last_valuations
        m.apply(players[seat].choose(obs, legal))
    assert raced >= 3
