"""RuleSet: the presets of RULES.md §8.1, JSON round trips, overrides and validation (§7)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from guandan.core import PRESET_NAMES, RuleSet, RuleSetError, Streaks, preset


def test_there_are_exactly_the_four_presets() -> None:
    assert set(PRESET_NAMES) == {"competition", "huaian-traditional", "huaian-2009", "huopin"}


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_each_preset_loads_under_its_name(name: str) -> None:
    rules = preset(name)
    assert isinstance(rules, RuleSet)
    assert rules.name == name
    assert rules == preset(name), "presets are values"


# §8.1, one row per key: competition, huaian-traditional, huaian-2009, huopin
PRESET_TABLE: dict[str, tuple[Any, Any, Any, Any]] = {
    "straight_len": ((5, 5), (5, 5), (5, 5), (5, 13)),
    "tube_pairs": ((3, 3), (3, 3), (3, 3), (3, 13)),
    "airplane": (False, False, False, True),
    "max_bomb": (10, 10, 10, 12),
    "chain_bombs": (False, False, False, True),
    "three_joker_bomb": (False, False, False, True),
    "big_joker_wild": (False, False, False, True),
    "wild_resolution": ("declare", "declare", "declare", "strongest"),
    "bomb_order": ("size_ladder", "size_ladder", "size_ladder", "stars"),
    "upgrade_table": ((3, 2, 1), (3, 2, 1), (4, 2, 1), (3, 2, 1)),
    "a_pass_results": (frozenset({2, 3}), frozenset({2, 3}), frozenset({2}), frozenset({2, 3})),
    "a_max_failures": (3, None, None, None),
    "jiefeng": ("partner", "next_player", "partner", "partner"),
    "return_rule": ("le10", "any", "any", "any"),
    "equal_tribute_assignment": ("left", "left", "left", "left"),
    "double_tribute_leader": ("payer_to_first", "last_place", "last_place", "last_place"),
    "report_threshold": (10, 10, 10, 10),
    "scoring": ("levels", "levels", "levels", "huopin_points"),
    "sf_forced": (True, True, True, True),
    "full_house_joker_pair": (True, True, True, True),
    "allow_wild_underdeclare": (False, False, False, False),
}


@pytest.mark.parametrize("key", sorted(PRESET_TABLE))
def test_preset_values_follow_the_difference_table(key: str) -> None:
    got = tuple(getattr(preset(name), key) for name in ("competition", "huaian-traditional", "huaian-2009", "huopin"))
    assert got == PRESET_TABLE[key]


def test_only_huaian_traditional_has_streaks() -> None:
    assert preset("huaian-traditional").streaks == Streaks(first_threshold=3, last_threshold=3, mode="escalating", scope="player")
    assert [preset(n).streaks for n in ("competition", "huaian-2009", "huopin")] == [None, None, None]


# ---------------------------------------------------------------------------------------------
# JSON


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_json_round_trip(name: str) -> None:
    rules = preset(name)
    text = rules.to_json()
    assert json.loads(text)["name"] == name
    back = RuleSet.from_json(text)
    assert back == rules
    assert back.to_json() == text
    assert RuleSet.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    "overrides",
    [
        {"jiefeng": "next_player"},
        {"return_rule": "le10_if_partner", "a_max_failures": None},
        {"streaks": {"first_threshold": 4, "last_threshold": 3, "mode": "flat", "scope": "team"}},
        {"upgrade_table": {"2": 4, "3": 2, "4": 1}, "a_pass_results": [2]},
        {"straight_len": [5, 7], "sf_forced": False, "report_threshold": None},
    ],
)
def test_json_round_trip_with_overrides(overrides: dict[str, Any]) -> None:
    rules = preset("competition", **overrides)
    assert RuleSet.from_json(rules.to_json()) == rules


def test_from_json_with_only_some_keys_starts_from_the_named_preset() -> None:
    rules = RuleSet.from_json('{"name": "huopin", "jiefeng": "next_player"}')
    assert rules == preset("huopin", jiefeng="next_player")
    assert RuleSet.from_json("{}") == preset("competition")


# ---------------------------------------------------------------------------------------------
# overrides


def test_override_changes_only_that_key() -> None:
    base = preset("competition")
    rules = preset("competition", jiefeng="next_player")
    assert rules.jiefeng == "next_player"
    assert rules != base
    assert rules.to_dict() | {"jiefeng": "partner"} == base.to_dict()
    assert base.with_overrides(jiefeng="next_player") == rules


def test_overrides_accept_json_shapes() -> None:
    rules = preset("huaian-2009", upgrade_table={"2": 5, "3": 3, "4": 1}, straight_len=[5, 6], a_pass_results=[2, 3])
    assert rules.upgrade_table == (5, 3, 1)
    assert rules.upgrade(2) == 5 and rules.upgrade(4) == 1
    assert rules.straight_len == (5, 6)
    assert rules.a_pass_results == frozenset({2, 3})
    assert preset("competition", streaks={"mode": "flat"}).streaks == Streaks(mode="flat")


# ---------------------------------------------------------------------------------------------
# errors


def test_unknown_preset() -> None:
    with pytest.raises(RuleSetError, match="klondike"):
        preset("klondike")
    with pytest.raises(RuleSetError, match="klondike"):
        RuleSet.from_json('{"name": "klondike"}')


@pytest.mark.parametrize("key", ["jie_feng", "max_bombs", "wildcards"])
def test_unknown_key_is_named(key: str) -> None:
    with pytest.raises(RuleSetError, match=key):
        preset("competition", **{key: 1})
    with pytest.raises(RuleSetError, match=key):
        RuleSet.from_json(json.dumps({"name": "huopin", key: 1}))


def test_unknown_streaks_key_is_named() -> None:
    with pytest.raises(RuleSetError, match="bonus"):
        preset("competition", streaks={"bonus": 2})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("jiefeng", "nobody"),
        ("return_rule", "le9"),
        ("wild_resolution", "weakest"),
        ("bomb_order", "alphabetical"),
        ("equal_tribute_assignment", "right"),
        ("double_tribute_leader", None),
        ("scoring", "goals"),
        ("max_bomb", 13),
        ("max_bomb", "10"),
        ("straight_len", [6, 5]),
        ("straight_len", [4, 5]),
        ("tube_pairs", "3"),
        ("plate_triples", [1, 2]),
        ("sf_forced", "yes"),
        ("airplane", 1),
        ("upgrade_table", {"2": 1}),
        ("upgrade_table", [1, 2]),
        ("a_pass_results", [5]),
        ("a_pass_results", []),
        ("a_max_failures", 0),
        ("a_fail_reset_to", "1"),
        ("report_threshold", -1),
        ("report_threshold", 28),
        ("match_points", [2, 1]),
        ("streaks", "yes"),
    ],
)
def test_bad_value_is_named(key: str, value: Any) -> None:
    with pytest.raises(RuleSetError, match=key):
        preset("competition", **{key: value})
    with pytest.raises(RuleSetError, match=key):
        RuleSet.from_json(json.dumps({"name": "competition", key: value}))


@pytest.mark.parametrize("text", ["{", "[1, 2]", '"competition"', "null"])
def test_malformed_json(text: str) -> None:
    with pytest.raises(RuleSetError):
        RuleSet.from_json(text)


def test_a_ruleset_is_immutable_and_hashable() -> None:
    rules = preset("competition")
    with pytest.raises(AttributeError):
        rules.jiefeng = "next_player"  # type: ignore[misc]
    assert len({preset("competition"), preset("competition"), preset("huopin")}) == 2


def test_name_cannot_be_overridden() -> None:
    import pytest

    from guandan.core.errors import RuleSetError
    from guandan.core.rules import preset

    with pytest.raises(RuleSetError, match="'name'"):
        preset("competition", name="huopin")
