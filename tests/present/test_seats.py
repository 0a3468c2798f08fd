"""The seats of a record named for people (present/seats.py): as the web replay page names them where the record
says who was a bot, by their recorded names otherwise; the same words as the web table's, in zh and en."""

from __future__ import annotations

from typing import Any

import pytest

from guandan.present.seats import TIER_NAMES, record_seat_names, seat_kinds, seat_names
from guandan.server.rooms import Seat
from guandan.server.rooms import seat_names as table_names

PLAY_SEATS = [{"kind": "human", "tier": None}, {"kind": "bot", "tier": "greedy"}, {"kind": "bot", "tier": "heuristic"},
              {"kind": "bot", "tier": "search"}]


def _play_record(**meta: Any) -> dict[str, Any]:
    """What `guandan play` saves about its seats: the player unnamed, each bot by its tier."""
    return {"players": ["", "greedy", "heuristic", "search"],
            "meta": {"app": "guandan play", "human_seat": 0, "seats": PLAY_SEATS, **meta}}


def test_a_record_that_says_who_was_a_bot_names_the_player_and_each_bot_by_seat_and_tier() -> None:
    data = _play_record()
    assert record_seat_names(data, "en") == ["Player 1", "Bot 2 · Greedy", "Bot 3 · Heuristic",
                                             "Bot 4 · Search (strongest)"]
    assert record_seat_names(data, "zh") == ["玩家1", "机器人2·贪心", "机器人3·启发式", "机器人4·搜索（最强）"]


def test_a_record_that_does_not_say_who_was_a_bot_has_no_such_names() -> None:
    data = _play_record()
    del data["meta"]["seats"]
    assert record_seat_names(data, "en") is None
    assert record_seat_names({"players": ["a", "b", "c", "d"]}, "zh") is None
    # what is not a seat's kind or tier is not read as one
    odd = {"players": "x", "meta": {"seats": [{"kind": "robot", "tier": 3}, "bot", None, {"kind": "bot", "tier": ""}]}}
    assert seat_kinds(odd["meta"]) == [(None, None), (None, None), (None, None), ("bot", None)]
    assert record_seat_names(odd, "en") == ["Seat 1", "Seat 2", "Seat 3", "Bot 4"]


def test_a_tier_of_no_known_name_keeps_its_own_even_where_it_is_a_word_of_the_game() -> None:
    """A plugin's tier is named as it is, never translated as a word that happens to be a msgid ("pass": 不要)."""
    names = seat_names(["", "", "", ""], [("bot", "pass"), ("bot", "single"), ("human", None), (None, None)])
    assert names("zh") == ["机器人1·pass", "机器人2·single", "玩家3", "座位4"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_names_are_the_web_tables(lang: str) -> None:
    """The review and the replay page name a seat as the table did (server/rooms.py, the web catalogue)."""
    tiers = sorted(TIER_NAMES)
    assert len(tiers) == 4
    at_table = table_names([Seat(kind="bot", tier=t) for t in tiers], lang)
    assert seat_names(["", "", "", ""], [("bot", t) for t in tiers])(lang) == at_table
    unnamed = table_names([Seat(kind="human")] * 4, lang)
    assert seat_names(["", "", "", ""], [("human", None)] * 4)(lang) == unnamed
