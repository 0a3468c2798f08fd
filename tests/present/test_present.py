"""The presentation layer: every event, play and result described in both languages, with no
Python value, no internal name and no "T" for 10 reaching a person."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from guandan.core import parse_cards, preset
from guandan.core.combos import classify
from guandan.core.deal import Action
from guandan.core.events import DealSettled, Event, MatchOver, Note
from guandan.core.match import MatchConfig, new_match
from guandan.core.vocab import ActionKind, ComboType, EventType, SettlementNote
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
    assert zh.combo(classify(parse_cards("S9 D9 C9 H9 S9"), 0, rules)[0]) == "炸弹 9×5"
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
    assert Presenter("en").event(one) == ["Match over after 1 deal (deal limit): no winner · final levels 3:2"]
    three = MatchOver(winner=1, levels=(1, 12), deals=3, points=(0, 0, 0, 0))
    assert Presenter("en").event(three)[0].startswith("Match over after 3 deals: Team 2")
    assert Presenter("zh").event(one)[0].startswith("打满1副，比赛结束：无胜方")


def test_settlement_notes_say_what_happened() -> None:
    s = DealSettled(finish=(1, 3, 0, 2), levels=(12, 4), next_declarer=1, upgrade=3, partner_place=2,
                    notes=(Note(SettlementNote.A_FAILED, team=0, amount=2),
                           Note(SettlementNote.A_RESET, team=0, level=0),
                           Note(SettlementNote.STREAK_BONUS, team=1, amount=1, streak=3)),
                    points=(3, -3, 3, -3))
    en = Presenter("en").settlement(s)
    assert en[0] == "Result 1-2 (double win): Team 2 (seats 2 and 4) +3 · levels now A:6"
    assert "failed at A (failure 2)" in en[1] and "back to level 2" in en[2] and "3 times in a row" in en[3]
    assert en[4] == "Points this deal: Seat 1 +3, Seat 2 -3, Seat 3 +3, Seat 4 -3"
    zh = Presenter("zh").settlement(s)
    assert zh[0] == "结果 1-2（双上）：第2队（座位2、4）升3级 · 现在级数：A:6"
    # 打A as 打2 is written, a level against the words before it
    assert zh[1] == "第1队（座位1、3）打A失败（第2次）" and zh[2] == "第1队（座位1、3）打A失败次数已满，退回2"


def test_a_streak_of_one_deal_is_counted_as_one_time() -> None:
    """A rule set may count a streak from its first deal (threshold 1): "1 time in a row", not "1 times"."""
    one, five = Note(SettlementNote.STREAK_BONUS, team=1, amount=1, streak=1), Note(
        SettlementNote.STREAK_PENALTY, team=1, amount=2, streak=5)
    en = Presenter("en")
    assert en.note(one) == "Team 2 (seats 2 and 4) +1 for finishing first 1 time in a row"
    assert en.note(five) == "Team 2 (seats 2 and 4) −2 for finishing last 5 times in a row"
    assert en.note(replace(one, kind=SettlementNote.STREAK_PENALTY)).endswith("for finishing last 1 time in a row")
    assert Presenter("zh").note(one).endswith("连续1次头游，加1级")


def test_the_deal_that_passes_a_says_no_level_gained() -> None:
    s = DealSettled(finish=(1, 3, 0, 2), levels=(8, 12), next_declarer=1, upgrade=0, partner_place=2,
                    notes=(Note(SettlementNote.PASSED_A, team=1),))
    en = Presenter("en").settlement(s)
    assert en[0] == "Result 1-2 (double win) · levels now 10:A"  # not "+0": nothing is gained, the match is won
    assert en[1].startswith("Team 2 (seats 2 and 4) passed A")
    assert Presenter("zh").settlement(s)[0] == "结果 1-2（双上） · 现在级数：10:A"


def _subject_events(seat: int) -> list[Event]:
    """One event of every kind whose sentence has ``seat`` as its subject."""
    from guandan.core.events import AntiTribute, FirstLead, Lead, Reported, RoundWon, WentOut

    return [FirstLead(leader=seat, flipped=parse_cards("D5")[0]), FirstLead(leader=seat), AntiTribute(seats=(seat, seat)),
            Lead(leader=seat), Reported(player=seat, count=9), Reported(player=seat, count=1),
            WentOut(player=seat, place=1), RoundWon(winner=seat, leader=seat, jiefeng=False),
            RoundWon(winner=(seat + 2) % 4, leader=seat, jiefeng=True)]


def _team_events(team: int) -> list[Event]:
    notes = tuple(Note(kind, team=team, amount=1, level=0, streak=2) for kind in SettlementNote)
    return [MatchOver(winner=team, levels=(12, 12), deals=10, points=(0, 0, 0, 0)),
            DealSettled(finish=(team, 1 - team, team + 2, 3 - team), levels=(12, 12), next_declarer=team, upgrade=1,
                        partner_place=3, notes=notes)]


def test_sentences_about_you_are_in_the_second_person() -> None:
    en = [line for e in _subject_events(0) for line in Presenter("en", viewer=0).event(e)]
    assert en == ["You lead first (flipped card ♦5)", "You lead first",
                  "Anti-tribute: you hold both Big Jokers; no tribute", "You lead",
                  "Report: you have 9 cards left", "Report: you have 1 card left", "You are out: 1st",
                  "You win the round and lead", "Jiefeng: you take the lead"]
    zh = [line for e in _subject_events(0) for line in Presenter("zh", viewer=0).event(e)]
    assert zh[2] == "抗贡：你握有两张大王，不进贡" and zh[3] == "你先出" and zh[6] == "你出完：头游"


def test_one_player_holding_both_big_jokers_is_named_once() -> None:
    from guandan.core.events import AntiTribute

    assert Presenter("en", viewer=0).event(AntiTribute(seats=(3, 3))) == [
        "Anti-tribute: Previous opponent holds both Big Jokers; no tribute"]
    assert Presenter("zh", viewer=0).event(AntiTribute(seats=(3, 3))) == ["抗贡：上家握有两张大王，不进贡"]
    assert Presenter("en", viewer=0).event(AntiTribute(seats=(1, 3))) == [
        "Anti-tribute: Next opponent, Previous opponent hold both Big Jokers; no tribute"]


# a verb that does not agree with its subject: "You leads", "Opponents wins"
_DISAGREES = re.compile(r"\b(You|you) (leads|wins|is|has|takes|holds)\b|\b[Oo]pponents (wins|is|has|goes|leads)\b"
                        r"|[Oo]pponents (passed|went past) A and wins")


@pytest.mark.parametrize("viewer", [None, 0, 1, 2, 3])
def test_every_sentence_agrees_with_its_subject(viewer: int | None) -> None:
    p = Presenter("en", viewer=viewer)
    lines = [line for seat in range(4) for e in _subject_events(seat) for line in p.event(e)]
    lines += [line for team in (0, 1) for e in _team_events(team) for line in p.event(e)]
    assert lines and not [line for line in lines if _DISAGREES.search(line)]


def test_the_opponents_win_in_the_plural() -> None:
    p = Presenter("en", viewer=0)
    over, settled = (line for e in _team_events(1) for line in p.event(e)[:1]), _team_events(1)[1]
    assert next(over).startswith("Match over after 10 deals: the opponents win · ")
    notes = p.event(settled)
    assert "The opponents passed A and win the match" in notes
    assert "The opponents go back to level 2 after too many failures at A" in notes
    ours = [line for e in _team_events(0) for line in p.event(e)]
    assert ours[0].startswith("Match over after 10 deals: Your team wins")
    assert "Your team passed A and wins the match" in ours


def test_a_chinese_seat_name_runs_into_the_words_after_it() -> None:
    from babel.messages.pofile import read_po

    from guandan.core.events import Reported
    from guandan.i18n import catalogue_path

    assert Presenter("zh", viewer=0).event(Reported(3, 9)) == ["上家报牌：剩9张"]
    assert Presenter("zh", viewer=0).event(Reported(0, 9)) == ["你报牌：剩9张"]
    # Chinese sets no space between a seat or team name and the words that follow it
    for domain in ("game", "tui"):
        with catalogue_path(domain, "zh").open("rb") as f:
            catalog = read_po(f)
        for message in catalog:
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in texts:
                assert not re.search(r"\{(who|team|giver|receiver)\} [\u4e00-\u9fff]", text or ""), (domain, text)


def test_a_single_or_a_pair_of_jokers_names_the_joker_once() -> None:
    """"single Small Joker: Small Joker" said the joker twice (the combination, then its card): a joker's single
    or pair is its combination alone, in the log, the table and the web log (which shows these lines)."""
    from guandan.core.events import Played
    from guandan.server.wire import event_json, texts_for

    rules = preset("competition")
    en, zh = Presenter("en", viewer=0), Presenter("zh", viewer=0)
    for cards, en_text, zh_text in (("LJ", "single Small Joker", "单张 小王"), ("BJ", "single Big Joker", "单张 大王"),
                                    ("LJ LJ", "pair Small Joker", "对子 小王"), ("BJ BJ", "pair Big Joker", "对子 大王")):
        codes = tuple(parse_cards(cards))
        combo = classify(codes, 0, rules)[0]
        assert en.play(codes, combo) == en_text and zh.play(codes, combo) == zh_text
        assert en.event(Played(1, codes, combo)) == [f"Next opponent: {en_text}"]
        assert zh.event(Played(3, codes, combo)) == [f"上家：{zh_text}"]
        wire = event_json(Played(2, codes, combo), texts_for(["Ann", "Bo", "Cai", "Dee"]))
        assert wire["text"] == {"zh": [f"Cai：{zh_text}"], "en": [f"Cai: {en_text}"]}
    # other plays still show their cards, the jokers' bombs among them (which jokers they are)
    bomb, pair = parse_cards("LJ LJ BJ BJ"), parse_cards("S9 H9")
    assert en.play(bomb, classify(bomb, 0, rules)[0]) == "four jokers: Small Joker Small Joker Big Joker Big Joker"
    assert en.play(pair, classify(pair, 0, rules)[0]) == "pair 9: ♠9 ♥9"


def test_the_first_deal_has_no_declarer_yet_in_the_words_of_the_terminal_table() -> None:
    """The deal's first line said "declarer none yet" (庄家 暂无) where the terminal's table said "declarer: no
    declarer yet" (庄家：暂无): both now say "no declarer yet" (暂无庄家), in the log, the table and the web."""
    from guandan.core.events import DealStart
    from guandan.i18n import translator
    from guandan.server.wire import event_json, texts_for

    first, later = DealStart(0, 0, None, (0, 0)), DealStart(1, 2, 0, (2, 0))
    assert Presenter("en", viewer=0).event(first) == ["Deal 1 · playing level 2 · Your team 2 : Opponents 2 · no declarer yet"]
    assert Presenter("zh", viewer=0).event(first) == ["第1副 · 打2 · 我方 2 : 对方 2 · 暂无庄家"]
    assert Presenter("en", viewer=0).event(later)[0].endswith(" · declarer Your team")
    assert Presenter("zh", viewer=0).event(later) == ["第2副 · 打4 · 我方 4 : 对方 2 · 庄家：我方"]
    for lang in ("en", "zh"):
        assert Presenter(lang).event(first)[0].endswith(" · " + translator("tui", lang).gettext("no declarer yet"))
    wire = event_json(first, texts_for(["Ann", "Bo", "Cai", "Dee"]))
    assert wire["text"]["en"][0].endswith(" · no declarer yet") and wire["text"]["zh"][0].endswith(" · 暂无庄家")


def test_chinese_sets_no_space_between_a_card_name_and_the_words_beside_it() -> None:
    """进贡大王 and 小王现在不能出, as Chinese writes two words side by side; a card written in symbols and figures keeps
    its space (进贡 ♠A), and a bomb's size is written as the card counter writes a count (炸弹 3×5)."""
    from guandan.core.cards import BIG_JOKER
    from guandan.present import fill

    zh, en = Presenter("zh"), Presenter("en")
    assert zh.action(Action(ActionKind.TRIBUTE, 0, (BIG_JOKER,))) == "进贡大王"
    assert zh.action(Action(ActionKind.TRIBUTE, 0, tuple(parse_cards("SA")))) == "进贡 ♠A"
    assert zh.action(Action(ActionKind.RETURN, 0, tuple(parse_cards("S3")))) == "还 ♠3"
    assert en.action(Action(ActionKind.TRIBUTE, 0, (BIG_JOKER,))) == "pay Big Joker as tribute"
    assert fill("{cards} 现在不能出", cards="♠3 小王") == "♠3 小王现在不能出"
    assert fill("{cards} 现在不能出", cards="小王 ♠3") == "小王 ♠3 现在不能出"
    assert fill("{who} 和 {who2}", who="上家", who2="♠3") == "上家和 ♠3"
    bomb = classify(parse_cards("S3 H3 C3 D3 S3"), 0, preset("competition"))[0]
    assert zh.combo(bomb) == "炸弹 3×5" and en.combo(bomb) == "bomb 3 ×5"
