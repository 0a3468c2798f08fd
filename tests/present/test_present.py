"""The presentation layer: every event, play and result described in both languages, with no
Python value, no internal name and no "T" for 10 reaching a person."""

from __future__ import annotations

import random
import re

import pytest

from guandan.core import parse_cards, preset
from guandan.core.combos import classify
from guandan.core.events import DealSettled, Event, MatchOver, Note
from guandan.core.match import MatchConfig, new_match
from guandan.core.vocab import ComboType, EventType, SettlementNote
from guandan.present import COMBO_NAMES, Presenter

LEAKS = re.compile(r"None|True|False|\[|\]|\{|\}|'|_|\bT\b|\bLJ\b|\bBJ\b|jkr|JKR")


def _events(name: str, seed: int) -> list[Event]:
    match = new_match(preset(name), seed, MatchConfig(max_deals=3))
    rng = random.Random(seed)
    assert match.deal is not None
    events: list[Event] = [match.deal_start_event(), *match.deal.events]
    while not match.ended:
        legal = match.legal_actions()
        events += match.apply(rng.choice(legal))
    return events


@pytest.fixture(scope="module")
def events() -> list[Event]:
    out: list[Event] = []
    for name in ("competition", "huaian-traditional", "huaian-2009", "huopin"):
        for seed in range(3):
            out += _events(name, seed)
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_event_type_is_told_without_leaking_python_values(events: list[Event], lang: str) -> None:
    seen: set[EventType] = set()
    for viewer in (None, 0):
        p = Presenter(lang, viewer=viewer)
        for e in events:
            lines = p.event(e)
            seen.add(e.type)
            for line in lines:
                assert line and not LEAKS.search(line), (e, line)
    # a random-play sample reaches every type but the rare anti-tribute and winners' choice
    assert seen >= set(EventType) - {EventType.ANTI_TRIBUTE, EventType.TRIBUTE_PAID}


def test_ten_and_jokers_are_written_for_people() -> None:
    rules = preset("competition")
    en, zh = Presenter("en"), Presenter("zh")
    assert en.cards(parse_cards("ST HT LJ BJ")) == "♠10 ♥10 Small Joker Big Joker"
    assert zh.cards(parse_cards("ST LJ BJ")) == "♠10 小王 大王"
    assert en.card(parse_cards("H2")[0], level=0) == "♥2*"  # the wildcard (逢人配) is marked
    tube = classify(parse_cards("S9 D9 ST DT SJ DJ"), 0, rules)
    assert [en.combo(c) for c in tube] == ["tube 9–J"]
    low = classify(parse_cards("SA D2 S3 S4 S5"), 0, rules)
    assert en.combo(low[0]) == "straight A–5"
    assert zh.combo(classify(parse_cards("S9 D9 C9 H9 S9"), 0, rules)[0]) == "炸弹 9 ×5"
    assert en.combo(classify(parse_cards("LJ LJ BJ BJ"), 0, rules)[0]) == "four jokers"
    assert en.combo(classify(parse_cards("BJ BJ"), 0, rules)[0]) == "pair Big Joker"


def test_every_combo_type_has_a_name_in_both_languages() -> None:
    for lang in ("zh", "en"):
        p = Presenter(lang)
        names = {p.combo_type(t) for t in ComboType}
        assert len(names) == len(ComboType)
    assert set(COMBO_NAMES) == set(ComboType)
    assert Presenter("zh").combo_type(ComboType.TUBE) == "木板"


def test_seats_relative_named_or_numbered() -> None:
    assert [Presenter("zh", viewer=0).seat(s) for s in range(4)] == ["你", "下家", "对家", "上家"]
    assert Presenter("en", viewer=1).seat(0) == "Previous opponent"
    assert Presenter("en").seat(0) == "Seat 1"
    assert Presenter("en", names=["Ann", "", "Cy", "Di"]).seat(1) == "Seat 2"


def test_the_match_end_counts_its_deals_in_words() -> None:
    one = MatchOver(winner=None, levels=(1, 0), deals=1, points=(0, 0, 0, 0))
    assert Presenter("en").event(one) == ["Match over after 1 deal (deal limit): no winner · final levels 3\u00a0:\u00a02"]
    three = MatchOver(winner=1, levels=(1, 12), deals=3, points=(0, 0, 0, 0))
    assert Presenter("en").event(three)[0].startswith("Match over after 3 deals: Team 2")
    assert Presenter("zh").event(one)[0].startswith("打满 1 副，比赛结束：无胜方")


def test_settlement_notes_say_what_happened() -> None:
    s = DealSettled(finish=(1, 3, 0, 2), levels=(12, 4), next_declarer=1, upgrade=3, partner_place=2,
                    notes=(Note(SettlementNote.A_FAILED, team=0, amount=2),
                           Note(SettlementNote.A_RESET, team=0, level=0),
                           Note(SettlementNote.STREAK_BONUS, team=1, amount=1, streak=3)),
                    points=(3, -3, 3, -3))
    en = Presenter("en").settlement(s)
    assert en[0] == "Result 1-2 (double win): Team 2 (seats 2 and 4) +3 · levels now A\u00a0:\u00a06"
    assert "failed at A (failure 2)" in en[1] and "back to level 2" in en[2] and "3 times in a row" in en[3]
    assert en[4] == "Points this deal: Seat 1 +3, Seat 2 -3, Seat 3 +3, Seat 4 -3"
    zh = Presenter("zh").settlement(s)
    assert zh[0].startswith("结果 1-2（双上）")
