"""The engine core's input errors are catalogued: each carries an English ``msgid`` of the ``cli`` catalogue
and the ``params`` that fill it, and its text is unchanged (the msgid filled in), so a command can say it in
the user's language (guandan.cliutil.said) while the English stays what it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from guandan.cliutil import said
from guandan.core.cards import parse_cards, parse_level
from guandan.core.combos import resolve_combo
from guandan.core.errors import (
    ComboError,
    GuandanError,
    InvalidHandError,
    LevelError,
    NotationError,
    RecordError,
    RuleSetError,
)
from guandan.core.fair import check_deals
from guandan.core.moves import legal_moves
from guandan.core.params import CardList
from guandan.core.record import loads, replay
from guandan.core.rules import RuleSet, preset
from guandan.i18n import translator

RECORD_V1 = Path(__file__).parents[1] / "data" / "record-v1.json"


def _raised(error: type[GuandanError], call: Any, *args: Any, **kwargs: Any) -> GuandanError:
    with pytest.raises(error) as e:
        call(*args, **kwargs)
    return e.value


def test_a_catalogued_error_keeps_its_english_text() -> None:
    e = NotationError.said("bad card token {token} at position {position} ({notation} notation)",
                           token='"XX"', position=2, notation="rules")
    assert isinstance(e, NotationError) and isinstance(e, ValueError)
    assert str(e) == 'bad card token "XX" at position 2 (rules notation)'
    assert e.msgid == "bad card token {token} at position {position} ({notation} notation)"
    assert e.params == {"token": '"XX"', "position": 2, "notation": "rules"}
    plain = GuandanError("an uncatalogued error")
    assert plain.msgid is None and plain.params == {}


@pytest.mark.parametrize(("error", "call", "text", "msgid", "params"), [
    (NotationError, lambda: parse_cards("S3 XX"), 'bad card token "XX" at position 2 (rules notation)',
     "bad card token {token} at position {position} ({notation} notation)",
     {"token": '"XX"', "position": 2, "notation": "rules"}),
    (NotationError, lambda: parse_cards("S3", "braille"), 'unknown card notation "braille" (rules, protocol, display)',
     "unknown card notation {notation} (rules, protocol, display)", {"notation": '"braille"'}),
    (InvalidHandError, lambda: parse_cards("S3 S3 S3"), "S3 appears 3 times; two decks hold only 2",
     "{card} appears {n} times; two decks hold only 2", {"card": "S3", "n": 3}),
    (LevelError, lambda: parse_level("Z"), 'level "Z" is not one of 2 3 4 5 6 7 8 9 10 J Q K A',
     "level {level} is not one of 2 3 4 5 6 7 8 9 10 J Q K A", {"level": '"Z"'}),
    (LevelError, lambda: parse_level(15), "level 15 is outside 2…A (2…14)",
     "level {level} is outside 2…A (2…14)", {"level": 15}),
    (RuleSetError, lambda: preset("nope"),
     'unknown preset "nope"; presets: competition, huaian-traditional, huaian-2009, huopin',
     "unknown preset {name}; presets: {presets}",
     {"name": '"nope"', "presets": "competition, huaian-traditional, huaian-2009, huopin"}),
    (RuleSetError, lambda: preset("competition", max_bomb=None), "max_bomb must be an integer 8…12, not null",
     "max_bomb must be an integer 8…12, not {value}", {"value": "null"}),
    (RuleSetError, lambda: preset("competition", a_pass_results=[5]),
     "a_pass_results must be a non-empty subset of {2, 3, 4}, not [5]",
     "a_pass_results must be a non-empty subset of {{2, 3, 4}}, not {value}", {"value": "[5]"}),
    (RuleSetError, lambda: preset("competition", jiefeng="sideways"),
     'jiefeng must be one of partner, next_player, not "sideways"',
     "{option} must be one of {choices}, not {value}",
     {"option": "jiefeng", "choices": "partner, next_player", "value": '"sideways"'}),
    (RuleSetError, lambda: RuleSet.from_dict([]),  # type: ignore[arg-type]
     "a RuleSet must be a JSON object, not list", "a RuleSet must be a JSON object, not {kind}", {"kind": "list"}),
    (ComboError, lambda: resolve_combo(parse_cards("S3 H4"), 0, preset("competition")), "S3 H4 is not a legal play",
     "{cards} is not a legal play", {"cards": CardList(parse_cards("S3 H4"))}),
    (GuandanError, lambda: legal_moves(parse_cards("S3"), None, 0, preset("competition"), "all"),
     'unknown move mode "all" (complete, canonical)', "unknown move mode {mode} (complete, canonical)",
     {"mode": '"all"'}),
])
def test_input_errors_carry_their_msgid(error: type[GuandanError], call: Any, text: str, msgid: str,
                                        params: dict[str, Any]) -> None:
    e = _raised(error, call)
    assert str(e) == text
    assert e.msgid == msgid and e.params == params


def _record(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORD_V1.read_text(encoding="utf-8"))
    data.update(changes)
    return data


def test_a_record_missing_a_field() -> None:
    data = _record()
    del data["seed"]
    e = _raised(RecordError, loads, json.dumps(data))
    assert str(e) == 'the record has no "seed" field'
    assert e.msgid == "the record has no {key} field" and e.params == {"key": '"seed"'}


def test_a_record_error_holds_the_error_it_reports() -> None:
    data = _record()
    data["deals"][0]["hands"][0][0] = "XX"
    e = _raised(RecordError, lambda: list(replay(data)))
    assert str(e) == 'deal 1, hand of seat 1: bad card token "XX" (rules notation)'
    assert e.msgid == "deal {deal}, hand of seat {seat}: {problem}" and e.params["deal"] == 1
    inner = e.params["problem"]
    assert isinstance(inner, NotationError) and inner.msgid == "bad card token {token} ({notation} notation)"
    e = _raised(RecordError, check_deals, data)
    assert str(e) == 'deal 1: bad card token "XX" (rules notation)'
    assert said(e, "en") == str(e)
    assert said(e, "zh") == "第1副：无效的牌 \"XX\"（rules 记法）"


def test_said_speaks_the_catalogue_and_falls_back_to_the_text() -> None:
    e = _raised(NotationError, parse_cards, "S3 XX")
    assert said(e, "en") == str(e)
    assert said(e, "zh") == translator("cli", "zh").gettext(e.msgid or "").format(**e.params)
    assert said(e, "zh") == '第2张牌 "XX" 无效（rules 记法）'
    plain = GuandanError("an uncatalogued error")
    assert said(plain, "zh") == "an uncatalogued error"
    unknown = GuandanError.said("a message no catalogue holds: {x}", x=1)
    assert said(unknown, "zh") == "a message no catalogue holds: 1"
    assert said(ValueError("not ours"), "zh") == "not ours"
