"""A value written in Chinese takes no space between it and the Chinese beside it, in every sentence a person reads:
the presenter's, an engine refusal said on the command line or the terminal (guandan.cliutil.said) and the web's
refusals (guandan.server.protocol.Words), as the browser's own (common.js fmt, tests/js/fmt.test.mjs). A value in
Latin letters, figures or card symbols keeps its space: 大王不是合法的出牌, ♠3 ♥4 不是合法的出牌, 没有名为 ann 的玩家."""

from __future__ import annotations

from guandan.cliutil import said
from guandan.core.cards import BIG_JOKER, parse_cards
from guandan.core.errors import GuandanError
from guandan.core.params import CardList
from guandan.i18n import N_, fill
from guandan.present import said as present_said
from guandan.server.protocol import say


def test_fill_joins_a_chinese_value_at_the_edge_beside_chinese() -> None:
    assert fill("等待 {who}", who="座位2") == "等待座位2"
    assert fill("等待 {who}", who="Alice") == "等待 Alice"
    assert fill("{who} 进贡", who="你") == "你进贡"
    assert fill("{who} 进贡", who="♠3") == "♠3 进贡"
    assert fill("Waiting for {who}", who="座位2") == "Waiting for 座位2"


def test_an_engine_refusal_joins_a_card_named_in_chinese() -> None:
    joker = GuandanError.said(N_("{cards} is not a legal play"), cards=CardList([BIG_JOKER]))
    assert present_said(joker, "zh") == "大王不是合法的出牌"
    assert said(joker, "zh") == "BJ 不是合法的出牌"  # no presenter: the card's code, a value in Latin letters
    pair = GuandanError.said(N_("{cards} is not a legal play"), cards=CardList(parse_cards("S3 H4")))
    assert present_said(pair, "zh") == "♠3 ♥4 不是合法的出牌"
    assert present_said(joker, "en") == "Big Joker is not a legal play"


def test_a_web_refusal_joins_a_name_in_chinese() -> None:
    assert say(N_("There is no player called {name}."), name="张三").render("zh") == "没有名为张三的玩家。"
    assert say(N_("There is no player called {name}."), name="ann").render("zh") == "没有名为 ann 的玩家。"
