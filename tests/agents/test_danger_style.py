"""The ``danger`` style: how few cards make an opponent close to going out (worth a bomb, a costlier
break to stop), carried by the policy's table so one process can hold players of different styles."""

from __future__ import annotations

from guandan.agents import make_agent
from guandan.agents.decompose import Decomposer, Unit
from guandan.agents.heuristic import HeuristicAgent
from guandan.agents.policy import DANGER, Table, bomb_choice, follow
from guandan.agents.search import SearchAgent
from guandan.agents.worlds import playout
from guandan.core.cards import parse_cards
from guandan.core.combos import classify
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.core.turns import TurnTracker

LEVEL = 0  # level 2: none of the cards below is a level card or a wildcard
RULES = preset("competition")
DEC = Decomposer(RULES, LEVEL)


def _unit(text: str) -> Unit:
    cards = tuple(sorted(parse_cards(text)))
    return Unit(cards, classify(cards, LEVEL, RULES)[0])


def _top(text: str):  # type: ignore[no-untyped-def]
    return classify(tuple(parse_cards(text)), LEVEL, RULES)[0]


HAND = [_unit("S5 H5 C5 D5"), _unit("S3"), _unit("S4 H4"), _unit("S7 H7 C7"), _unit("S9")]


def test_an_opponent_with_nine_cards_is_bombed_only_by_a_wary_style() -> None:
    # the next seat, an opponent, leads a K with 9 cards left; the partner holds 20
    calm = Table(0, [13, 9, 20, 20], _top("SK"), 1)
    wary = Table(0, [13, 9, 20, 20], _top("SK"), 1, danger=10)
    assert calm.danger == DANGER == 6
    assert bomb_choice(HAND, calm) is None  # nine cards: not yet a threat
    got = bomb_choice(HAND, wary)
    assert got is not None and got.is_bomb
    assert bomb_choice(HAND, Table(0, [13, 9, 20, 20], _top("SK"), 2, danger=27)) is None  # never the partner
    # the playout's follow asks the same table: nothing else beats a K, so it bombs or passes by style
    assert follow(HAND, calm, DEC) is None
    move = follow(HAND, wary, DEC)
    assert move is not None and move[0].is_bomb


def test_the_spec_sets_the_style_of_the_heuristic_and_of_searchs_shortlist() -> None:
    plain, wary = make_agent("heuristic", 1), make_agent("heuristic:danger=10", 1)
    assert isinstance(plain, HeuristicAgent) and isinstance(wary, HeuristicAgent)
    assert (plain.danger, wary.danger) == (6, 10)
    search = make_agent("search:danger=10", 1)
    assert isinstance(search, SearchAgent) and search.danger == 10 and search.heuristic.danger == 10
    assert search.rival_danger == -1  # the rivals play the same style in its playouts
    split = make_agent("search:danger=10:rival_danger=6", 1)
    assert isinstance(split, SearchAgent) and (split.danger, split.rival_danger) == (10, 6)
    # the two styles differ in real deals, and each choice stays legal
    differ = 0
    for game in range(4):
        m = new_match(RULES, f"danger:{game}", MatchConfig(max_deals=1, first_leader=0))
        players = [HeuristicAgent(s) for s in range(4)]
        bold = HeuristicAgent(9, danger=12)
        bold.reset(1, RULES)
        for s, p in enumerate(players):
            p.reset(s, RULES)
        while not m.ended and m.to_move is not None:
            seat = m.to_move
            obs, legal = m.observation(seat), m.legal_actions()
            choice = players[seat].choose(obs, legal)
            if seat == 1:
                other = bold.choose(obs, legal)
                assert other in legal
                differ += other != choice
            m.apply(choice)
    assert differ >= 1


def test_a_playout_bombs_sooner_in_a_wary_style() -> None:
    # seat 1 has just led a K and holds 8 cards; seat 2 cannot beat it and seat 3 lets its partner run,
    # so seat 0 decides on the third step: its bomb or a pass, by style
    def after_three_steps(danger: int, rivals: int = -1, side: int = 0) -> list[Unit]:
        units = [list(HAND), [_unit("S6 H6 C6 S8 H8"), _unit("S3 H3 C3")],
                 [_unit("D3"), _unit("D4 C4"), _unit("D7"), _unit("D9 C9")], [_unit("HQ CQ"), _unit("HJ CJ DJ SJ")]]
        tracker = TurnTracker(1, RULES)
        tracker.play(1, goes_out=False)
        playout(units, tracker, _top("SK"), 1, max_steps=3, dec=DEC, danger=danger, rivals=rivals, side=side)
        return units[0]

    calm, wary = after_three_steps(6), after_three_steps(10)
    assert calm == HAND  # passed: eight cards are not yet a threat
    assert [u for u in HAND if u not in wary] == [HAND[0]]  # bombed with its four fives
    # one style for the searching team, another for its rivals: seat 0 plays its own team's
    assert after_three_steps(10, rivals=6, side=0) == wary
    assert after_three_steps(10, rivals=6, side=1) == calm
    assert after_three_steps(6, rivals=10, side=1) == wary
