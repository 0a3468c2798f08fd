"""A record whose fields are null or of the wrong kind is refused with a RecordError that names the field
and where it is (deal, action, seat counted from 1), in English and Chinese: never a TypeError or
AttributeError from inside the engine (a compiled one for a card given as a number), and never a bad
value taken quietly (a level beyond A that failed deals later)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from guandan.cliutil import said
from guandan.core.errors import RecordError
from guandan.core.match import MatchConfig, new_match
from guandan.core.record import dumps, loads, replay
from guandan.core.rules import preset


@cache
def _record() -> str:
    """A finished one-deal match, every action the first legal one (deterministic)."""
    match = new_match(preset("competition"), 11, MatchConfig(max_deals=1))
    while not match.ended:
        match.apply(match.legal_actions()[0])
    return dumps(match, players=["a", "b", "c", "d"])


def _first_play(d: dict[str, Any]) -> dict[str, Any]:
    return next(a for a in d["deals"][0]["actions"] if a["kind"] == "play")


def _set(path: Callable[[dict[str, Any]], dict[str, Any]], key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        path(d)[key] = value
    return change


def _top(d: dict[str, Any]) -> dict[str, Any]:
    return d


def _deal(d: dict[str, Any]) -> dict[str, Any]:
    return d["deals"][0]  # type: ignore[no-any-return]


def _config(d: dict[str, Any]) -> dict[str, Any]:
    return d["config"]  # type: ignore[no-any-return]


def _hand_card(d: dict[str, Any]) -> None:
    d["deals"][0]["hands"][1][0] = 5


CASES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("config null", _set(_top, "config", None), "'config' must be an object, not null"),
    ("rules null", _set(_top, "rules", None), "'rules' must be an object, not null"),
    ("rules a list", _set(_top, "rules", [1]), "'rules' must be an object, not [1]"),
    ("meta a list", _set(_top, "meta", [1]), "'meta' must be an object, not [1]"),
    ("players a text", _set(_top, "players", "abc"), "'players' must be a list, not \"abc\""),
    ("seed null", _set(_top, "seed", None), "'seed' must be an integer or a string, not null"),
    ("hands null", _set(_deal, "hands", None), "deal 1: 'hands' must be four lists of cards, not null"),
    ("actions null", _set(_deal, "actions", None), "deal 1: 'actions' must be a list, not null"),
    ("a hand card a number", _hand_card,
     "deal 1, hand of seat 2: a card is written as text such as \"H3\" or \"BJ\", not 5"),
    ("start levels beyond A", _set(_config, "start_levels", [99, -5]),
     "config: 'start_levels' must be two levels, each 0…12 (2…A), not [99, -5]"),
    ("start levels null", _set(_config, "start_levels", None),
     "config: 'start_levels' must be two levels, each 0…12 (2…A), not null"),
    ("max deals a text", _set(_config, "max_deals", "3"),
     "config: 'max_deals' must be null or a number of deals from 1, not \"3\""),
    ("declarer a seat", _set(_config, "start_declarer", 3),
     "config: 'start_declarer' must be null or a team, 0 or 1, not 3"),
    ("finish order short", _set(_config, "start_prev_finish", [0, 1]),
     "config: 'start_prev_finish' must be null or the seats 0…3 in finishing order, not [0, 1]"),
    ("a failures negative", _set(_config, "start_a_failures", [0, -1]),
     "config: 'start_a_failures' must be two counts from 0, not [0, -1]"),
    ("first hands texts", _set(_config, "first_hands", [["H3"]] * 4),
     "config: 'first_hands' must be null or four lists of card codes 0…53, not"),
    ("first leader 4", _set(_config, "first_leader", 4), "config: 'first_leader' must be null or a seat 0…3, not 4"),
]

ACTION_CASES: list[tuple[str, str, object, str]] = [
    ("cards null", "cards", None, "'cards' must be a list of cards such as \"H3\", not null"),
    ("cards numbers", "cards", [1], "a card is written as text such as \"H3\" or \"BJ\", not 1"),
    ("combo a list", "combo", [1], "'combo' must be an object (type, key, size), not [1]"),
]


def _corrupted(change: Callable[[dict[str, Any]], None]) -> str:
    data = copy.deepcopy(json.loads(_record()))
    change(data)
    return json.dumps(data)


def _refusal(text: str) -> RecordError:
    with pytest.raises(RecordError) as e:
        list(replay(loads(text)))
    return e.value


def test_the_unchanged_record_replays() -> None:
    assert list(replay(loads(_record())))


@pytest.mark.parametrize(("name", "change", "message"), CASES, ids=[c[0] for c in CASES])
def test_a_field_of_the_wrong_kind_is_named(name: str, change: Callable[[dict[str, Any]], None], message: str) -> None:
    error = _refusal(_corrupted(change))
    assert str(error).startswith(message)
    assert said(error, "zh") != str(error)  # the Chinese catalogue says it too


@pytest.mark.parametrize(("name", "key", "value", "message"), ACTION_CASES, ids=[c[0] for c in ACTION_CASES])
def test_an_action_field_of_the_wrong_kind_is_named(name: str, key: str, value: object, message: str) -> None:
    data = json.loads(_record())
    play = _first_play(data)
    play[key] = value
    n = data["deals"][0]["actions"].index(play) + 1
    error = _refusal(json.dumps(data))
    assert str(error) == f"deal 1, action {n}: {message}"
    assert said(error, "zh") != str(error)


def test_replay_checks_a_record_that_did_not_come_through_loads() -> None:
    data = json.loads(_record())
    data["config"] = None
    with pytest.raises(RecordError, match="'config' must be an object"):
        list(replay(data))


def test_a_chinese_reader_is_told_the_field_in_chinese() -> None:
    error = _refusal(_corrupted(_set(_deal, "actions", None)))
    assert said(error, "zh") == "第1副：'actions' 须为列表，而不是 null"
