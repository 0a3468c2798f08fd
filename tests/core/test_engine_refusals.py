"""The engine's refusals of an action are catalogued too: their own text keeps the engine's spelling (seats
0…3, RULES.md card notation, combos as the engine prints them) for programs, and a person reads them in
the catalogue's words, seats counted from 1, cards and combos as the presentation layer writes them —
so a bad record's error says the same seat as the replay printed just above it."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from guandan.cliutil import said as plain_said
from guandan.core.cards import parse_cards
from guandan.core.combos import classify, resolve_combo
from guandan.core.deal import Action, DealState, new_deal
from guandan.core.errors import ComboError, GuandanError, IllegalActionError, RecordError
from guandan.core.params import CardList, Listed, SeatNo
from guandan.core.record import replay
from guandan.core.rules import preset
from guandan.core.vocab import ActionKind, Phase
from guandan.present import said

RECORD_V1 = Path(__file__).parents[1] / "data" / "record-v1.json"
RULES = preset("competition")


def _refused(call: Any) -> GuandanError:
    with pytest.raises(GuandanError) as e:
        call()
    assert e.value.msgid is not None  # catalogued
    return e.value


def _deal() -> DealState:
    return new_deal(RULES, random.Random(7), 0, None, first_leader=0)


def test_a_turn_out_of_order_names_the_seats_from_one_for_a_person() -> None:
    state = _deal()
    e = _refused(lambda: state.apply(Action(ActionKind.PLAY, 1, (state.hands[1][0],))))
    assert isinstance(e, IllegalActionError)
    assert e.params == {"seat": 0, "phase": Phase.PLAY, "actor": 1}
    assert type(e.params["seat"]) is SeatNo
    assert str(e) == "it is seat 0's turn (play), not seat 1's"  # the engine's numbering, for programs
    assert said(e, "en") == "it is seat 1's turn (the play), not seat 2's"
    assert said(e, "zh") == "现在轮到座位1（出牌阶段），不是座位2"


def test_cards_and_combos_are_written_for_people() -> None:
    state = _deal()
    not_held = next(c for c in range(52) if c not in state.hands[0] and c >> 2 == 8)  # a 10
    e = _refused(lambda: state.apply(Action(ActionKind.PLAY, 0, (not_held,))))
    assert str(e).startswith("seat 0 does not hold ") and str(e).endswith("T")
    assert said(e, "en").startswith("seat 1 does not hold ") and said(e, "en").endswith("10")
    assert said(e, "zh").startswith("座位1手里没有 ") and "T" not in said(e, "zh")
    assert plain_said(e, "en") == str(e).replace("seat 0", "seat 1").replace("T", "10")  # no presenter: 10 all the same

    high, low = resolve_combo(parse_cards("SA HA"), 0, RULES), resolve_combo(parse_cards("S9 H9"), 0, RULES)
    refusal = IllegalActionError.said("{combo} does not beat {top}", combo=low, top=high)
    assert str(refusal) == f"{low} does not beat {high}"
    assert said(refusal, "en") == "pair 9 does not beat pair A"
    assert said(refusal, "zh") == "对子 9 管不上对子 A"  # a name in Chinese against the Chinese beside it


def test_a_play_of_several_readings_lists_them_in_the_readers_words() -> None:
    cards = parse_cards("H2 S4 H5 S6 S7")  # at level 2 the ♥2 is a wildcard: two straights
    e = _refused(lambda: resolve_combo(cards, 0, preset("competition")))
    assert isinstance(e, ComboError) and isinstance(e.params["options"], Listed)
    assert said(e, "en") == "♥2 ♠4 ♥5 ♠6 ♠7 has several readings (straight 4–8, straight 3–7); declare one"
    assert said(e, "zh").startswith("♥2 ♠4 ♥5 ♠6 ♠7 有多种牌型解读（顺子 4–8，顺子 3–7）")


def test_phases_and_kinds_are_named_in_the_readers_language() -> None:
    state = _deal()
    e = _refused(lambda: state.apply(Action(ActionKind.TRIBUTE, 0, (state.hands[0][0],))))
    assert str(e) == "tribute is not possible during play"
    assert said(e, "en") == "a tribute is not possible during the play"
    assert said(e, "zh") == "出牌阶段不能进贡"


def _record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORD_V1.read_text(encoding="utf-8"))
    return data


def _first_play(data: dict[str, Any]) -> dict[str, Any]:
    return next(a for a in data["deals"][0]["actions"] if a["kind"] == "play")


def test_a_record_action_by_the_wrong_seat_is_told_as_the_replay_tells_the_seats() -> None:
    data = _record()
    action = _first_play(data)
    seat = action["seat"]
    action["seat"] = (seat + 1) % 4
    e = _refused(lambda: list(replay(data)))
    assert isinstance(e, RecordError)
    text = said(e, "en")
    assert f"(seat {(seat + 1) % 4 + 1}: " in text and f"it is seat {seat + 1}'s turn" in text
    assert " as " not in text and "_" not in text  # the move as a person reads it, not the engine's Action text
    zh = said(e, "zh")
    assert f"（座位{(seat + 1) % 4 + 1}：" in zh and "turn" not in zh


def test_a_pass_that_declares_a_combo_is_refused_by_name() -> None:
    data = _record()
    actions = data["deals"][0]["actions"]
    i = next(k for k, a in enumerate(actions) if a["kind"] == "pass")
    actions[i] = {**actions[i], "combo": copy.deepcopy(_first_play(data)["combo"])}
    e = _refused(lambda: list(replay(data)))
    assert str(e) == f"deal 1, action {i + 1}: only a play declares a combo"
    assert said(e, "zh") == f"第1副第{i + 1}个动作：只有出牌才声明牌型"


def test_the_plain_rendering_without_a_presenter() -> None:
    e = IllegalActionError.said("seat {seat} must pay one of {allowed}, not {card}", seat=SeatNo(3),
                                allowed=CardList(parse_cards("HT ST")), card=CardList(parse_cards("S3")))
    assert str(e) == "seat 3 must pay one of HT ST, not S3"
    assert plain_said(e, "en") == "seat 4 must pay one of H10 S10, not S3"
    assert said(e, "en") == "seat 4 must pay one of ♥10 ♠10, not ♠3"
    assert classify(parse_cards("S3"), 0, RULES)  # the notation above is the rules'


def test_a_deal_set_up_wrongly_is_told_in_the_readers_language() -> None:
    e = _refused(lambda: new_deal(RULES, random.Random(0), 0, (0, 0, 1, 2)))
    assert str(e) == "prev_finish must be the four seats in finishing order, not [0, 0, 1, 2]"
    assert said(e, "zh") == "prev_finish 须为按出完顺序排列的四个座位，而不是 [0, 0, 1, 2]"
    e = _refused(lambda: new_deal(RULES, random.Random(0), 0, None, hands=[[0] * 27] * 4, first_leader=0))
    assert said(e, "zh") == "手牌须为四手，恰好是全部108张牌"
