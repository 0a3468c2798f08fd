"""Values quoted in error messages read as the JSON they came from, never as Python's repr."""

from __future__ import annotations

from enum import Enum
from pathlib import PurePosixPath

import pytest

from guandan.core.errors import RuleSetError, shown
from guandan.core.rules import preset


class Colour(Enum):
    RED = "red"


@pytest.mark.parametrize(("value", "text"), [
    (None, "null"), (True, "true"), ("x", '"x"'), ("掼蛋", '"掼蛋"'), ([3, 3], "[3, 3]"), ((1, 2), "[1, 2]"),
    ({"a": None}, '{"a": null}'), (frozenset({4, 2}), "[2, 4]"), (Colour.RED, '"red"'), (2.5, "2.5"),
    (PurePosixPath("/tmp/x"), "/tmp/x"), (object(), "object"),
])
def test_shown_writes_json_not_repr(value: object, text: str) -> None:
    assert shown(value) == text


@pytest.mark.parametrize(("overrides", "words"), [
    ({"max_bomb": None}, "max_bomb must be an integer 8…12, not null"),
    ({"a_max_failures": "3"}, 'a_max_failures must be null or a positive integer, not "3"'),
    ({"a_pass_results": [5]}, "a_pass_results must be a non-empty subset of {2, 3, 4}, not [5]"),
])
def test_a_config_error_quotes_the_value_as_written(overrides: dict[str, object], words: str) -> None:
    with pytest.raises(RuleSetError) as e:
        preset("competition", **overrides)
    assert words in str(e.value)
    assert "None" not in str(e.value) and "'" not in str(e.value)
