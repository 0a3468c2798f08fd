"""Plays are shown as their combination reads, the wildcard (逢人配) starred in the place it stands for."""

from __future__ import annotations

from guandan.core import parse_cards, preset
from guandan.core.cards import RANKS, Card
from guandan.core.combos import Combo, classify
from guandan.core.deal import Action
from guandan.core.events import DealStart, Played
from guandan.core.vocab import ActionKind, ComboType
from guandan.present import Presenter
from guandan.present.order import play_order

FIVE = RANKS.index("5")  # at level 5 the wildcard is ♥5


def _reading(text: str, level: int, type_: ComboType, key: str, rules: str = "competition") -> tuple[list[Card], Combo]:
    cards = sorted(parse_cards(text))
    combo = next(c for c in classify(cards, level, preset(rules)) if c.type == type_ and c.key == key)
    return cards, combo


def test_a_wildcard_in_a_straight_stands_in_the_place_of_the_card_it_replaces() -> None:
    cards, combo = _reading("ST CJ SQ H5 SA", FIVE, ComboType.STRAIGHT, "A")
    p = Presenter("en", deal_level=FIVE)
    assert p.play(cards, combo) == "straight 10–A: ♠10 ♣J ♠Q ♥5* ♠A"
    assert Presenter("zh").play(cards, combo, FIVE) == "顺子 10–A：♠10 ♣J ♠Q ♥5* ♠A"
    low, combo = _reading("SA C2 S3 H5 D4", FIVE, ComboType.STRAIGHT, "5")
    assert Presenter("en").played_cards(low, combo, FIVE) == "♠A ♣2 ♠3 ♦4 ♥5*"  # A-2-3-4-5: the ace first


def test_a_full_house_shows_its_triple_then_its_pair() -> None:
    p = Presenter("en", deal_level=FIVE)
    nines = _reading("S3 S3 S9 C9 H5", FIVE, ComboType.FULL_HOUSE, "9")
    threes = _reading("S3 S3 S9 C9 H5", FIVE, ComboType.FULL_HOUSE, "3")
    assert p.played_cards(*nines) == "♠9 ♣9 ♥5* ♠3 ♠3"
    assert p.played_cards(*threes) == "♠3 ♠3 ♥5* ♠9 ♣9"
    assert p.played_cards(*_reading("D2 S2 H2 SK CK", FIVE, ComboType.FULL_HOUSE, "2")) == "♠2 ♥2 ♦2 ♠K ♣K"


def test_tubes_plates_and_airplanes_run_in_rank_order() -> None:
    p = Presenter("en", deal_level=FIVE)
    assert p.played_cards(*_reading("SA DA S2 C2 S3 H5", FIVE, ComboType.TUBE, "3")) == "♠A ♦A ♠2 ♣2 ♠3 ♥5*"
    assert p.played_cards(*_reading("SA DA CA S2 C2 D2", FIVE, ComboType.PLATE, "2")) == "♠A ♣A ♦A ♠2 ♣2 ♦2"
    airplane = _reading("S3 C3 H5 S4 C4 D4 S9 C9 ST CT", FIVE, ComboType.AIRPLANE, "4", "huopin")
    assert p.played_cards(*airplane) == "♠3 ♣3 ♥5* ♠4 ♣4 ♦4 ♠9 ♣9 ♠10 ♣10"


def test_a_wildcard_standing_for_itself_or_in_a_bomb_is_starred_in_place() -> None:
    p = Presenter("en", deal_level=FIVE)
    assert p.played_cards(*_reading("S5 H5", FIVE, ComboType.PAIR, "5")) == "♠5 ♥5*"
    assert p.played_cards(*_reading("S9 C9 H9 D9 H5", FIVE, ComboType.BOMB, "9")) == "♠9 ♥9 ♣9 ♦9 ♥5*"
    assert play_order(parse_cards("BJ LJ BJ LJ"), classify(parse_cards("BJ LJ BJ LJ"), FIVE, preset("competition"))[0],
                      FIVE) == parse_cards("LJ LJ BJ BJ")


def test_the_log_follows_each_deal_level_from_its_start() -> None:
    p = Presenter("en", viewer=0)
    cards, combo = _reading("ST CJ SQ H5 SA", FIVE, ComboType.STRAIGHT, "A")
    # no level told yet: nothing can be starred
    assert p.event(Played(1, tuple(cards), combo)) == ["Next opponent: straight 10–A: ♠10 ♣J ♠Q ♥5 ♠A"]
    p.event(DealStart(1, FIVE, 0, (FIVE, 0)))
    assert p.event(Played(1, tuple(cards), combo)) == ["Next opponent: straight 10–A: ♠10 ♣J ♠Q ♥5* ♠A"]
    p.event(DealStart(2, RANKS.index("3"), 1, (FIVE, RANKS.index("3"))))
    assert p.event(Played(1, tuple(cards), combo)) == ["Next opponent: straight 10–A: ♠10 ♣J ♠Q ♥5 ♠A"]
    action = Action(ActionKind.PLAY, 1, tuple(cards), combo)
    assert p.action(action, FIVE) == "straight 10–A: ♠10 ♣J ♠Q ♥5* ♠A"
