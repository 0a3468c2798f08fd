"""Input to actions: every kind of bad selection is refused with its own message; wildcards give
several readings to choose from; tribute accepts only the eligible cards."""

from __future__ import annotations

import pytest

from guandan.core.cards import parse_cards
from guandan.core.combos import classify
from guandan.core.deal import Action
from guandan.core.match import MatchConfig
from guandan.core.moves import legal_moves
from guandan.core.rules import preset
from guandan.i18n import Translator, translator
from guandan.tui.selection import InputProblem, candidates, parse_tokens, pass_action
from guandan.tui.session import Session

from .conftest import hands_with, session_with_hand


def problem(excinfo: pytest.ExceptionInfo[InputProblem], tr: Translator) -> str:
    return excinfo.value.text(tr)


def test_tokens_in_rules_and_display_notation() -> None:
    assert parse_tokens("H3 h3, ♠10 LJ BJ H2*") == parse_cards("H3 H3 ST LJ BJ H2")


def test_unknown_card_names_the_token(en: Translator) -> None:
    with pytest.raises(InputProblem) as e:
        parse_tokens("H3 X9")
    assert problem(e, en) == "Unknown card “X9” (write cards like H3 S10 LJ BJ)"
    assert "无法识别的牌“X9”" in problem(e, translator("tui", "zh"))


def test_bad_selections_each_say_why(en: Translator) -> None:
    s = session_with_hand(parse_cards("S3 H3 S4 S5 S6 S7 H2"))
    d = s.observation().deal
    assert d.to_move == 0 and d.top is None
    cases = {
        "S3 S3": "Not in your hand: S3",
        "S3 S5": "S3 S5 is not a hand type (牌型)",
        "": "Select some cards first",
    }
    for text, message in cases.items():
        with pytest.raises(InputProblem) as e:
            candidates(parse_tokens(text), d.hand, d.legal, d.level, s.rules)
        assert problem(e, en) == message
    with pytest.raises(InputProblem) as e:
        pass_action(d.legal)
    assert problem(e, en) == "You lead: you cannot pass"


def test_a_play_that_does_not_beat_the_table(en: Translator) -> None:
    rules = preset("competition")
    hand = parse_cards("S3 H3 S4 S5")
    top = classify(tuple(sorted(parse_cards("SK HK"))), 0, rules)[0]
    legal = [Action("pass", 0) if m.combo is None else Action("play", 0, m.cards, m.combo)
             for m in legal_moves(hand, top, 0, rules)]
    with pytest.raises(InputProblem) as e:
        candidates(parse_cards("S3 H3"), hand, legal, 0, rules)
    assert problem(e, en) == "S3 H3 does not beat the play on the table"
    assert pass_action(legal).kind == "pass"


def test_wildcard_selection_has_several_readings() -> None:
    s = session_with_hand(parse_cards("H2 S4 H5 S6 S7"))
    d = s.observation().deal
    found = candidates(parse_cards("H2 S4 H5 S6 S7"), d.hand, d.legal, d.level, s.rules)
    assert len(found) >= 2
    assert all(a.kind == "play" and a.combo is not None for a in found)
    assert {a.combo.type for a in found if a.combo} == {"straight"}
    assert len({a.combo for a in found}) == len(found)


def test_without_declaring_the_strongest_reading_is_taken() -> None:
    rules = preset("huopin")
    cards = tuple(sorted(parse_cards("H2 S4 H5 S6 S7")))
    # the legal plays as the engine would list them: every reading classify allows
    legal = [Action("play", 0, cards, c) for c in classify(cards, 0, rules)] + [Action("play", 0, (cards[1],), None)]
    found = candidates(list(cards), hands_with(cards)[0], legal, 0, rules)
    assert len(found) == 1 and found[0].combo == classify(cards, 0, rules)[0]


def test_tribute_accepts_only_an_eligible_single_card(en: Translator) -> None:
    s = Session.new(preset("competition"), 5, "greedy", "greedy", MatchConfig(max_deals=1, start_prev_finish=(1, 2, 3, 0)))
    d = s.observation().deal
    assert d.phase == "tribute" and d.to_move == 0
    eligible = sorted({a.cards[0] for a in d.legal})
    other = next(c for c in d.hand if c not in eligible)
    with pytest.raises(InputProblem) as e:
        candidates([other], d.hand, d.legal, d.level, s.rules)
    assert problem(e, en).startswith("Give exactly one of: ")
    with pytest.raises(InputProblem):
        candidates([eligible[0], eligible[-1]], d.hand, d.legal, d.level, s.rules)
    assert candidates([eligible[0]], d.hand, d.legal, d.level, s.rules)[0].kind == "tribute"
