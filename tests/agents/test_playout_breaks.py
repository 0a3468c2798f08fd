"""Playout follows that break any unit, weighed as the heuristic agent weighs a break (拆牌管上)."""

from __future__ import annotations

from guandan.agents import make_agent
from guandan.agents.decompose import Decomposer
from guandan.agents.policy import Table, break_any, follow, follow_full
from guandan.agents.worlds import playout, tracker_from
from guandan.arena.specs import draw_spec
from guandan.core.cards import Card, parse_cards
from guandan.core.combos import FULL_HOUSE, STRAIGHT_FLUSH, Combo, classify
from guandan.core.match import MatchObservation, new_match
from guandan.core.rules import preset
from guandan.core.vocab import MoveMode, Phase

LEVEL = 0  # level 2: none of the cards below is a level card or a wildcard
RULES = preset("competition")
DEC = Decomposer(RULES, LEVEL)


def _top(text: str) -> Combo:
    return classify(tuple(parse_cards(text)), LEVEL, RULES)[0]


def _table(top: str, owner: int = 1, counts: tuple[int, ...] = (20, 20, 20, 20)) -> Table:
    return Table(0, list(counts), _top(top), owner)


def test_two_triples_make_a_full_house_to_follow_one() -> None:
    hand = parse_cards("S6 H6 C6 S8 H8 C8 SK")
    units = list(DEC(hand).units)
    assert FULL_HOUSE not in [u.combo.type for u in units]  # the plan holds two triples and a single
    table = _table("S5 H5 C5 S4 H4")
    assert follow(units, table, DEC) is None  # whole units only: nothing beats, so it passes
    got = follow_full(units, table, DEC)
    assert got is not None
    play, source, rest = got
    assert play.combo.type == FULL_HOUSE and play.value == 6  # the lowest that beats, as the heuristic plays
    assert source is None  # weighed on the whole hand: the rest is a new plan
    assert sorted(play.cards + tuple(c for u in rest for c in u.cards)) == sorted(hand)
    assert sorted(str(u.combo) for u in rest) == sorted(str(u.combo) for u in DEC([*parse_cards("S8 SK")]).units)


def test_no_break_in_the_partners_round_or_when_a_whole_unit_beats() -> None:
    units = list(DEC(parse_cards("S6 H6 C6 S8 H8 C8 SK")).units)
    assert follow_full(units, _table("S5 H5 C5 S4 H4", owner=2), DEC) is None
    tube = list(DEC(parse_cards("S8 H8 S9 H9 ST HT SQ")).units)
    table = _table("S3 H3 S4 H4 S5 H5")
    assert follow_full(tube, table, DEC) == follow(tube, table, DEC)
    assert break_any(list(DEC(parse_cards("S9 H9 ST HT SJ HJ SQ")).units), _top("S4 H5 C6 D7 S8"), DEC, 34.0) is None


def test_a_costly_break_waits_for_a_threat_and_a_bomb_outranks_it() -> None:
    # 9TJQK of spades is a straight flush; any plain straight over 34567 breaks it or the 99
    units = list(DEC(parse_cards("S9 H9 C9 ST HT SJ SQ SK")).units)
    top = _top("S3 H4 C5 D6 S7")
    found = break_any(units, top, DEC, 34.0)
    assert found is not None and 4.0 < found[0] <= 34.0
    assert break_any(units, top, DEC, 4.0) is None
    assert follow_full(units, _table("S3 H4 C5 D6 S7"), DEC) is None  # calm: keep the plan
    threatened = follow_full(units, _table("S3 H4 C5 D6 S7", counts=(8, 5, 20, 20)), DEC)
    # under threat the heuristic scores the bomb 12 and this break 15 − its cost, below 12
    assert threatened is not None and threatened[0].combo.type == STRAIGHT_FLUSH


def _heuristic_deals(count: int) -> list[tuple[list[int], list[list[Card]], MatchObservation]]:
    """(the real finishing order, each seat's hand, the first play observation) of heuristic deals."""
    out = []
    for i in range(count):
        m = new_match(RULES, f"arena:1:{i}", draw_spec(1, i).config(MoveMode.COMPLETE))
        agents = [make_agent("heuristic", f"{i}:{s}") for s in range(4)]
        for s, a in enumerate(agents):
            a.reset(s, RULES)
        start: tuple[list[list[Card]], MatchObservation] | None = None
        while not m.ended:
            seat = m.to_move
            assert seat is not None
            obs = m.observation(seat)
            if start is None and obs.deal.phase == Phase.PLAY:
                assert m.deal is not None
                start = ([sorted(h) for h in m.deal.hands], obs)
            m.apply(agents[seat].choose(obs, m.legal_actions()))
        assert start is not None
        out.append((list(m.deals[0].finish), start[0], start[1]))
    return out


def test_playouts_that_break_any_unit_replay_heuristic_deals_more_faithfully() -> None:
    """From the true hands at the first play, a playout is the heuristic's own game where it makes
    the heuristic's choices: breaking any unit, it names the winning team more often."""
    right = {0: 0, 1000: 0}
    deals = _heuristic_deals(150)
    for finish, hands, obs in deals:
        for full in right:
            dec = Decomposer(RULES, obs.deal.level)
            units = [list(dec(h).units) for h in hands]
            top = obs.deal.top
            got = playout(units, tracker_from(obs.deal, RULES), top[2] if top else None, top[0] if top else None,
                          dec=dec, full=full)
            assert sorted(got) == [0, 1, 2, 3]
            right[full] += got[0] % 2 == finish[0] % 2
    assert right[1000] >= right[0] + 8, right  # 135 against 121 of 150 deals


def test_search_plays_out_with_breaks_when_asked_and_stays_deterministic() -> None:
    m = new_match(RULES, "arena:1:0", draw_spec(1, 0).config(MoveMode.COMPLETE))
    while m.to_move is not None and m.observation(m.to_move).deal.phase != Phase.PLAY:
        m.apply(m.legal_actions()[0])
    seat = m.to_move
    assert seat is not None
    legal = m.legal_actions()
    chosen = []
    for spec in ("search:max_worlds=12:break_any=6", "search:max_worlds=12:break_any=6", "search:max_worlds=12"):
        agent = make_agent(spec, 5)
        agent.reset(seat, RULES)
        chosen.append(agent.choose(m.observation(seat), legal))
        assert agent.break_any == (6 if "break_any" in spec else 0)  # type: ignore[attr-defined]
    assert chosen[0] == chosen[1] and chosen[0] in legal and chosen[2] in legal
