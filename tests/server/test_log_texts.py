"""The table's log as a page reads it: every play tells its cards as the combination reads, and a wildcard
(逢人配, the ♥ card of the deal's level) is starred, in the deal it was played in — also in a later deal at
another level, and in the snapshot of a page that opens in the middle of a deal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from guandan.core.cards import RANKS

from .test_lifecycle import App, open_app
from .test_ws import recv_until

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def web(tmp_path: Path) -> Iterator[App]:
    yield from open_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", watch_min_bot_delay_ms=0)


def starred_plays(events: list[dict[str, Any]], level: str | None) -> tuple[int, str | None]:
    """How many plays among ``events`` hold a wildcard (each checked to be starred, and nothing else),
    and the level the events leave the table at."""
    found = 0
    for e in events:
        if e["type"] == "deal_start":
            level = e["level"]
        elif e["type"] == "play":
            assert level is not None
            wild = "H" + level
            shown = "♥" + ("10" if level == "T" else level) + "*"
            en = " ".join(e["text"]["en"])
            assert en.count("*") == e["cards"].count(wild), (en, e["cards"])
            if wild in e["cards"]:
                assert shown in en and shown in " ".join(e["text"]["zh"]), (e["text"], e["cards"])
                found += 1
    return found, level


def test_played_wildcards_are_starred_in_the_log_of_every_deal(web: App) -> None:
    c = web.client
    r = c.post("/api/rooms", json={"bots": ["greedy"] * 4, "max_deals": 3, "timer": 0, "listed": False,
                                   "watch": True, "seed": 4})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    levels: set[str] = set()
    found, level = 0, None
    with c.websocket_connect(f"/ws/{code}") as ws:
        snap = recv_until(ws, lambda f: f["type"] == "snapshot")  # the deal may be under way: its level is told
        if snap["view"] is not None:
            level = snap["view"]["level"]
            n, level = starred_plays(snap["view"]["events"], level)
            found += n
        while True:
            f = ws.receive_json()
            if f["type"] == "update":
                n, level = starred_plays(f["events"], level)
                found += n
                levels.add(str(level))
            if f["type"] == "room" and f["room"]["status"] == "over":
                break
    assert len(levels) > 1 and found >= 2, (levels, found)  # wildcards played at more than one level
    assert {lv in RANKS for lv in levels} == {True}
