"""The table and level panels say exactly the public facts."""

from __future__ import annotations

from guandan.core.cards import parse_cards
from guandan.core.combos import classify
from guandan.core.deal import Event, Observation
from guandan.core.match import MatchObservation
from guandan.core.rules import preset
from guandan.i18n import Translator, translator
from guandan.tui.text import combo_text, describe, level_panel, table_lines

RULES = preset("competition")


def play(seat: int, text: str) -> Event:
    cards = tuple(sorted(parse_cards(text)))
    return Event("play", seat, cards, classify(cards, 0, RULES)[0])


def observe(events: list[Event], *, to_move: int, top: Event | None, counts: dict[int, int],
            finish: tuple[int, ...] = (), levels: tuple[int, int] = (0, 0)) -> MatchObservation:
    deal = Observation(seat=0, phase="play", to_move=to_move, level=0, hand=tuple(parse_cards("S4 S4")),
                       public_counts=counts, played_counts=(0, 0, 0, 0),
                       top=(top.seat, top.cards, top.combo) if top is not None and top.seat is not None and top.combo else None,
                       finish=finish, events=tuple(events), prev_finish=None, legal=(), first_leader=0)
    return MatchObservation(deal=deal, deal_index=4, levels=levels, declarer=1, a_failures=(0, 2), points=(0, 0, 0, 0),
                            winner=None, ended=False)


def test_table_mid_round(en: Translator) -> None:
    partner = play(2, "S5")
    events = [Event("first_lead", 0), play(0, "S3"), Event("pass", 1), partner, Event("report", 2, info={"count": 9})]
    lines = table_lines(observe(events, to_move=3, top=partner, counts={0: 2, 2: 9}), en)
    assert lines == [
        "You [2 cards]: ♠3  [single 3]  (leads)",
        "Next opponent [? cards]: pass",
        "Partner [9 cards]: ♠5  [single 5]  (winning the round)",
        "Previous opponent [? cards]:  (to move)",
    ]


def test_table_after_jiefeng(en: Translator) -> None:
    events = [Event("first_lead", 0), play(0, "S3"), Event("out", 0, info={"place": 1}), Event("pass", 1),
              Event("pass", 2), Event("pass", 3), Event("round_won", 0, info={"leader": 2, "jiefeng": True})]
    lines = table_lines(observe(events, to_move=2, top=None, counts={0: 0}, finish=(0,)), en)
    assert lines[0] == "You [0 cards]:  (1st (头游))"
    assert lines[2] == "Partner [? cards]:  (to move, leads (接风))"
    assert describe(events[-1], en) == ["Jiefeng (接风): the lead passes to Partner"]
    assert describe(events[-1], translator("tui", "zh")) == ["接风：对家 出牌"]


def test_level_panel_shows_declarer_and_a_attempts(en: Translator) -> None:
    obs = observe([], to_move=0, top=None, counts={0: 2}, levels=(3, 12))
    assert level_panel(obs, en) == ["Deal 5 · playing level 2", "Your team: 5", "Opponents: A", "Declarer (庄): Opponents",
                                    "Opponents: A attempts failed 2"]


def test_combo_names() -> None:
    zh = translator("tui", "zh")
    bomb = classify(tuple(sorted(parse_cards("S9 H9 C9 D9 S9"))), 0, RULES)[0]
    assert combo_text(bomb, zh) == "炸弹 9×5"
    sf = classify(tuple(sorted(parse_cards("H9 HT HJ HQ HK"))), 0, RULES)[0]
    assert combo_text(sf, translator("tui", "en")) == "straight flush ♥K"
    assert combo_text(classify((53, 53), 0, RULES)[0], zh) == "对子 大王"
