"""The table's log as a page reads it: every play tells its cards as the combination reads, and a wildcard
(逢人配, the ♥ card of the deal's level) is starred, in the deal it was played in — also in a later deal at
another level, and in the snapshot of a page that opens in the middle of a deal; and both teams' levels are
each after its team's name, as the replay writes them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from guandan.core.cards import RANKS
from guandan.core.events import DealSettled, DealStart, MatchOver
from guandan.server.wire import event_json, texts_for

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


NAMED = {"zh": "队\u20601\u00a0{a}\u00a0: 队\u20602\u00a0{b}", "en": "Team\u00a01\u00a0{a}\u00a0: Team\u00a02\u00a0{b}"}
BARE_LEVELS = re.compile(r"(?<![\w:])(?:[2-9JQKA]|10):(?:[2-9JQKA]|10)\b")  # "2:5", "10:A": a level pair with no team


def test_the_table_names_each_team_beside_its_level() -> None:
    """The live table's lines that give both teams' levels (a deal's opening, its result, the match's end) write each
    after its team's name, Team 1's first, in the words of the page's corner and of the replay: "队1 2 : 队2 5",
    no-break spaces bar the one after the colon and a word joiner holding 队 to its number, never a bare "2:5" beside
    a line that names the declarer's team."""
    texts = texts_for(["Ann", "Bob", "Cy", "Di"])
    start = event_json(DealStart(index=1, level=RANKS.index("5"), declarer=1, levels=(0, 3)), texts)
    settled = event_json(DealSettled(finish=(1, 3, 0, 2), levels=(0, 6), next_declarer=1, upgrade=3,
                                     partner_place=2), texts)
    over = event_json(MatchOver(winner=None, levels=(8, 12), deals=2, points=(0, 0, 0, 0)), texts)
    assert start["text"] == {
        "en": ["Deal 2 · playing level 5 · levels " + NAMED["en"].format(a=2, b=5) + " · declarer Team 2 (seats 2 and 4)"],
        "zh": ["第2副 · 打5 · 级数：" + NAMED["zh"].format(a=2, b=5) + " · 庄家：第2队（座位2、4）"]}
    for lang, words in NAMED.items():
        assert settled["text"][lang][0].endswith(words.format(a=2, b=8)), settled["text"]
        # the match's end in two lines, who won and then the final levels (the table's panel shows the first alone)
        assert len(over["text"][lang]) == 2 and over["text"][lang][1].endswith(words.format(a=10, b="A")), over["text"]
        for line in (*start["text"][lang], *settled["text"][lang], *over["text"][lang]):
            assert not BARE_LEVELS.search(line), line


def test_the_table_log_of_a_match_names_each_team_beside_its_level(web: App) -> None:
    """What the table's page is sent as a match of bots is played, deal by deal, names each team beside its level
    in both languages wherever a line gives the two levels: the table writes them as the replay does."""
    c = web.client
    r = c.post("/api/rooms", json={"bots": ["greedy"] * 4, "max_deals": 2, "timer": 0, "listed": False,
                                   "watch": True, "seed": 4})
    assert r.status_code == 201, r.text
    told: dict[str, list[dict[str, Any]]] = {"deal_start": [], "deal_settled": [], "match_over": []}
    with c.websocket_connect(f"/ws/{r.json()['code']}") as ws:
        snap = recv_until(ws, lambda f: f["type"] == "snapshot")
        events = list(snap["view"]["events"]) if snap["view"] is not None else []
        while True:
            f = ws.receive_json()
            if f["type"] == "update":
                events += f["events"]
            if f["type"] == "room" and f["room"]["status"] == "over":
                break
    for e in events:
        if e["type"] in told:
            told[e["type"]].append(e)
    assert len(told["deal_settled"]) == 2 and len(told["match_over"]) == 1, {k: len(v) for k, v in told.items()}
    for kind, said in told.items():
        for e in said:
            for lang, words in NAMED.items():
                a, b = ("10" if lv == "T" else lv for lv in e["levels"])
                assert words.format(a=a, b=b) in e["text"][lang][-1], (kind, e["text"])
                assert not [line for line in e["text"][lang] if BARE_LEVELS.search(line)], (kind, e["text"])
