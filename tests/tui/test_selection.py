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
from guandan.core.vocab import ActionKind, ComboType, Phase
from guandan.i18n import Translator, translator
from guandan.present import Presenter
from guandan.tui.selection import InputProblem, candidates, describe_selection, parse_tokens, pass_action
from guandan.tui.session import Session
from guandan.tui.text import presenter

from .conftest import hands_with, session_with_hand


def problem(excinfo: pytest.ExceptionInfo[InputProblem], tr: Translator, p: Presenter | None = None) -> str:
    return excinfo.value.text(tr, p or presenter("en"))


def test_tokens_in_rules_and_display_notation() -> None:
    assert parse_tokens("H3 h3, ♠10 LJ BJ H2* s10 h10 小王") == parse_cards("H3 H3 ST LJ BJ H2 ST HT LJ")


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
        "S3 S3": "You hold only 1 ♠3",
        "S3 S3 S8 S8": "Not in your hand: ♠8 ♠8",  # what is missing altogether is named first
        "S3 S5": "♠3 ♠5 is not a hand type",
        "": "Select some cards first",
    }
    for text, message in cases.items():
        with pytest.raises(InputProblem) as e:
            candidates(parse_tokens(text), d.hand, d.legal, d.level, s.rules)
        assert problem(e, en) == message
    with pytest.raises(InputProblem) as e:
        candidates(parse_tokens("S3 S5"), d.hand, d.legal, d.level, s.rules)
    assert problem(e, translator("tui", "zh"), presenter("zh")) == "♠3 ♠5 不成牌型"
    assert str(e.value) == "S3 S5 is not a hand type"  # the exception's own text: typed notation, no Python tuple
    with pytest.raises(InputProblem) as e:
        pass_action(d.legal)
    assert problem(e, en) == "You lead: you cannot pass"


def test_a_play_that_does_not_beat_the_table(en: Translator) -> None:
    rules = preset("competition")
    hand = parse_cards("S3 H3 S4 S5")
    top = classify(tuple(sorted(parse_cards("SK HK"))), 0, rules)[0]
    legal = [Action(ActionKind.PASS, 0) if m.combo is None else Action(ActionKind.PLAY, 0, m.cards, m.combo)
             for m in legal_moves(hand, top, 0, rules)]
    with pytest.raises(InputProblem) as e:
        candidates(parse_cards("S3 H3"), hand, legal, 0, rules)
    assert problem(e, en) == "♠3 ♥3 does not beat the play on the table"
    assert pass_action(legal).kind == ActionKind.PASS
    # with the deal's level, the cards are written as the hand and the selected line write them: in level order,
    # the wildcard (♥2 at level 2) starred; the bare code order put ♥2 first, unmarked
    hand = parse_cards("S3 H2 S4 S5")
    legal = [Action(ActionKind.PASS, 0) if m.combo is None else Action(ActionKind.PLAY, 0, m.cards, m.combo)
             for m in legal_moves(hand, top, 0, rules)]
    with pytest.raises(InputProblem) as e:
        candidates(parse_cards("H2 S3"), hand, legal, 0, rules)
    assert e.value.text(en, presenter("en"), 0) == "♠3 ♥2* does not beat the play on the table"
    assert e.value.text(translator("tui", "zh"), presenter("zh"), 0) == "♠3 ♥2* 管不上桌上的牌"
    pen = presenter("en")
    line = describe_selection(parse_cards("S3 H3"), hand, legal, 0, rules, en, pen)
    assert line == "Selected: ♠3 ♥3 — pair 3, which does not beat the play on the table"
    assert describe_selection(parse_cards("S4 S5"), hand, legal, 0, rules, en, pen) == \
        "Selected: ♠4 ♠5 — not a hand type"
    # nothing selected: how to select while there is something to do, and nothing while the others move
    assert describe_selection([], hand, legal, 0, rules, en, pen) == "No cards selected: ←/→ to move, space to select"
    assert describe_selection([], hand, (), 0, rules, en, pen) == ""
    assert describe_selection([], hand, legal, 0, rules, translator("tui", "zh"), presenter("zh")) == \
        "未选牌：←/→ 移动，空格 选牌"


def test_wildcard_selection_has_several_readings() -> None:
    s = session_with_hand(parse_cards("H2 S4 H5 S6 S7"))
    d = s.observation().deal
    found = candidates(parse_cards("H2 S4 H5 S6 S7"), d.hand, d.legal, d.level, s.rules)
    assert len(found) >= 2
    assert all(a.kind == ActionKind.PLAY and a.combo is not None for a in found)
    assert {a.combo.type for a in found if a.combo} == {ComboType.STRAIGHT}
    assert len({a.combo for a in found}) == len(found)
    line = describe_selection(parse_cards("H2 S4 H5 S6 S7"), d.hand, d.legal, d.level, s.rules,
                              translator("tui", "en"), presenter("en"))
    assert line == "Selected: ♥2* ♠4 ♥5 ♠6 ♠7 — several readings (Enter, then pick a number): straight 4–8 or straight 3–7"
    one = describe_selection(parse_cards("S4"), d.hand, d.legal, d.level, s.rules, translator("tui", "zh"),
                             presenter("zh"))
    assert one == "已选：♠4 — 出作单张 4"


def test_without_declaring_the_strongest_reading_is_taken() -> None:
    rules = preset("huopin")
    cards = tuple(sorted(parse_cards("H2 S4 H5 S6 S7")))
    # the legal plays as the engine would list them: every reading classify allows
    legal = [Action(ActionKind.PLAY, 0, cards, c) for c in classify(cards, 0, rules)] + [
        Action(ActionKind.PLAY, 0, (cards[1],), None)]
    found = candidates(list(cards), hands_with(cards)[0], legal, 0, rules)
    assert len(found) == 1 and found[0].combo == classify(cards, 0, rules)[0]


def test_tribute_accepts_only_an_eligible_single_card(en: Translator) -> None:
    s = Session.new(preset("competition"), 5, "greedy", "greedy", MatchConfig(max_deals=1, start_prev_finish=(1, 2, 3, 0)))
    d = s.observation().deal
    assert d.phase == Phase.TRIBUTE and d.to_move == 0
    eligible = sorted({a.cards[0] for a in d.legal})
    other = parse_cards("S3")[0]
    assert other in d.hand and other not in eligible
    with pytest.raises(InputProblem) as e:
        candidates([other], d.hand, d.legal, d.level, s.rules)
    # the card typed is named, and why it cannot go ("give exactly one of" puzzled a player who gave one)
    assert problem(e, en) == "♠3 cannot be paid as tribute: the rules take your highest card (wildcards excepted): ♠2 ♦2"
    assert problem(e, translator("tui", "zh"), presenter("zh")) == "♠3 不能进贡：按规则须进贡最大的牌（逢人配除外）：♠2 ♦2"
    with pytest.raises(InputProblem) as e:
        candidates([eligible[0], eligible[-1]], d.hand, d.legal, d.level, s.rules)
    assert problem(e, en) == "Give exactly one of: ♠2 ♦2"
    assert candidates([eligible[0]], d.hand, d.legal, d.level, s.rules)[0].kind == ActionKind.TRIBUTE
    pen = presenter("en")
    assert describe_selection([eligible[0]], d.hand, d.legal, d.level, s.rules, en, pen).endswith("— Enter gives it")
    assert describe_selection([other], d.hand, d.legal, d.level, s.rules, en, pen).endswith(
        "— you must give exactly one of the highlighted cards")


def test_a_card_that_cannot_go_back_is_named(en: Translator) -> None:
    s = Session.new(preset("competition"), 5, "greedy", "greedy", MatchConfig(max_deals=1, start_prev_finish=(0, 1, 2, 3)))
    s.run_bots()  # the last pays the human tribute
    d = s.observation().deal
    assert d.phase == Phase.RETURN and d.to_move == 0
    allowed = sorted({a.cards[0] for a in d.legal})
    high = next(c for c in d.hand if c not in allowed)
    pen = presenter("en")
    with pytest.raises(InputProblem) as e:
        candidates([high], d.hand, d.legal, d.level, s.rules)
    text = problem(e, en)
    assert text.startswith(f"{pen.card(high)} cannot be given back; these can: ")
    assert text.endswith(pen.cards(allowed, d.level))
    assert problem(e, translator("tui", "zh"), presenter("zh")).startswith(f"{presenter('zh').card(high)} 不能还贡；能还的牌：")


def test_the_tribute_card_to_take_is_not_looked_for_in_the_hand(en: Translator) -> None:
    """Under winners_choose 头游 takes one of the two tribute cards, which are the payers' until then."""
    rules = preset("competition", equal_tribute_assignment="winners_choose")
    ace, king, three = parse_cards("SA HK S3")
    hand = parse_cards("S3 H4 S5")
    legal = [Action(ActionKind.CHOOSE, 0, (ace,)), Action(ActionKind.CHOOSE, 0, (king,))]
    assert candidates([ace], hand, legal, 0, rules) == [legal[0]]
    with pytest.raises(InputProblem) as e:
        candidates([three], hand, legal, 0, rules)
    assert problem(e, en) == "♠3 is not one of the tribute cards; take one of: ♥K ♠A"
