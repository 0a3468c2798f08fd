"""The replay viewer's data (server/replays.py, GET /api/replays/{id}): seats told apart in every text,
each deal's result and levels, the match's summary, and only the presenter's words — never an event's
type name or a Python value — in zh and en."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from guandan.agents import make_agent
from guandan.agents.runner import run_match
from guandan.core import record
from guandan.core.combos import beats
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.core.vocab import RANKS, ActionKind, EventType
from guandan.present import Presenter, level_text
from guandan.present.seats import seat_names
from guandan.server.replays import replay_frames

from .conftest import join, new_room
from .test_lifecycle import play_out

pytestmark = pytest.mark.timeout(60)

BOT_SEATS = [{"kind": "human", "tier": None}, {"kind": "bot", "tier": "greedy"}, {"kind": "bot", "tier": "greedy"},
             {"kind": "bot", "tier": "heuristic"}]
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")


def _record(rules: str = "competition", seed: int = 11, deals: int = 2, players: list[str] | None = None,
            meta: dict[str, Any] | None = None) -> str:
    match = new_match(preset(rules), seed, MatchConfig(max_deals=deals))
    run_match(match, [make_agent("greedy", seed=s) for s in range(4)])
    return record.dumps(match, players=players or ["Alice", "greedy bot", "greedy bot", "greedy bot"], meta=meta)


def _frames(client: TestClient, text: str) -> dict[str, Any]:
    r = client.post("/api/replays", content=text, headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text
    got = client.get(f"/api/replays/{r.json()['id']}")
    assert got.status_code == 200, got.text
    return dict(got.json())


def _texts(frames: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(language, line) for every line the page shows from the server, but the fair-deal check's."""
    def of(texts: dict[str, list[str]]) -> Iterator[tuple[str, str]]:
        assert set(texts) == {"zh", "en"}
        for lang, lines in texts.items():
            assert isinstance(lines, list) and all(isinstance(x, str) and x for x in lines), lines
            yield from ((lang, line) for line in lines)

    for seat in frames["seats"]:
        yield from ((lang, name) for lang, name in seat["name"].items())
    for team in frames["teams"]:
        yield from of(team)
    yield from of(frames["summary"]["text"])
    for deal in frames["deals"]:
        yield from of(deal["title"])
        yield from of(deal["header"])
        yield from of(deal["result"]["text"])
        for step in deal["steps"]:
            for e in step["events"]:
                yield from of(e["text"])


def test_each_deal_says_its_result_and_levels_and_the_match_its_end(client: TestClient) -> None:
    frames = _frames(client, _record(deals=3))
    deals = frames["deals"]
    assert len(deals) == 3 and frames["summary"]["deals"] == 3
    for i, deal in enumerate(deals):
        result = deal["result"]
        assert sorted(result["finish"]) == [0, 1, 2, 3] and result["partner_place"] in (2, 3, 4)
        assert result["winners"] == result["finish"][0] % 2 and result["points"] is None  # levels, not 火拼 points
        settled = next(e for e in deal["steps"][-1]["events"] if e["type"] == EventType.DEAL_SETTLED)
        assert result["levels"] == settled["levels"] and result["text"] == settled["text"]
        # the header: the deal's opening (the levels before it), then its result (the levels after), each team's
        # level after its name, Team 1's first (a replay is no seat's)
        before, after = (f"Team 1 {level_text(RANKS.index(lv[0]))} : Team 2 {level_text(RANKS.index(lv[1]))}"
                         .replace(" ", "\u00a0").replace(":\u00a0", ": ") for lv in (deal["levels"], result["levels"]))
        assert deal["header"]["en"][0] == deal["title"]["en"][0]
        assert deal["title"]["en"][0].startswith(
            f"Deal {i + 1} · playing level {level_text(RANKS.index(deal['level']))} · levels {before} · ")
        assert deal["header"]["en"][1].startswith("Result 1-") and deal["header"]["zh"][1].startswith("结果 1-")
        assert deal["header"]["en"][1].endswith(f"levels now {after}")
        if i + 1 < len(deals):
            assert deals[i + 1]["levels"] == result["levels"]  # after one deal, before the next
    summary = frames["summary"]
    assert summary["ended"] and summary["levels"] == deals[-1]["result"]["levels"] and summary["points"] is None
    over = next(e for e in deals[-1]["steps"][-1]["events"] if e["type"] == EventType.MATCH_OVER)
    assert summary["text"] == over["text"]
    assert summary["text"]["en"][0].startswith("Match over after 3 deals")


def test_every_line_that_gives_both_levels_names_each_teams() -> None:
    """A replay is no seat's: where a deal's opening, its result or the match's end gives both teams' levels, each
    follows its team's name, Team 1's first, as the page's corner and the replay lists write them ("队1 2 : 队2 5"), never
    a bare "2:5" beside a line that names the declarer's team; no-break spaces but the one after the colon, so a
    line that wraps never parts a team from its level (nor, with a word joiner, 队 from its number)."""
    frames = replay_frames(_record(deals=2))
    first, second = frames["deals"]
    assert [first["levels"], second["levels"]] == [["2", "2"], ["2", "5"]]
    named = {"zh": "队\u20601\u00a0{a}\u00a0: 队\u20602\u00a0{b}",
             "en": "Team\u00a01\u00a0{a}\u00a0: Team\u00a02\u00a0{b}"}
    for lang, words in named.items():
        assert first["title"][lang][0] == first["header"][lang][0]
        assert words.format(a=2, b=2) in first["title"][lang][0], first["title"][lang]
        opening = second["header"][lang][0]
        assert words.format(a=2, b=5) in opening and ("庄家：第2队" if lang == "zh" else "declarer Team 2") in opening
        assert second["header"][lang][1].endswith(words.format(a=3, b=5)), second["header"][lang]
        assert first["result"]["text"][lang][0].endswith(words.format(a=2, b=5))
        settled = next(e for e in first["steps"][-1]["events"] if e["type"] == EventType.DEAL_SETTLED)
        assert settled["text"][lang] == first["result"]["text"][lang]  # the log and the deal-end panel say the same
        assert frames["summary"]["text"][lang][1].endswith(words.format(a=3, b=5)), frames["summary"]["text"]
        lines = [line for said, line in _texts(frames) if said == lang]
        assert not [line for line in lines if re.search(r"\b[2-9TJQKA]:[2-9TJQKA0]", line)], lang  # no bare "3:5"


def test_huopin_points_per_deal_and_in_all(client: TestClient) -> None:
    frames = _frames(client, _record("huopin", seed=3, deals=2))
    totals = [0, 0, 0, 0]
    for deal in frames["deals"]:
        points = deal["result"]["points"]
        assert len(points) == 4 and sum(points) == 0
        totals = [a + b for a, b in zip(totals, points, strict=True)]
        names = [s["name"]["en"] for s in frames["seats"]]
        line = "Points: " + ", ".join(f"{n} {p:+d}" for n, p in zip(names, points, strict=True))
        assert deal["header"]["en"][-1] == line and deal["header"]["zh"][-1].startswith("得分：")
    assert frames["summary"]["points"] == totals
    assert frames["summary"]["text"]["en"][-1].startswith("Points in the match: Alice ")
    assert frames["summary"]["text"]["zh"][-1].startswith("全场得分：Alice ")


def test_three_bots_are_told_apart_by_seat_and_tier(client: TestClient) -> None:
    frames = _frames(client, _record(meta={"source": "web", "room": "ABCDEF", "seats": BOT_SEATS}))
    assert [s["name"]["en"] for s in frames["seats"]] == ["Alice", "Bot 2 · Greedy", "Bot 3 · Greedy", "Bot 4 · Heuristic"]
    assert [s["name"]["zh"] for s in frames["seats"]] == ["Alice", "机器人2·贪心", "机器人3·贪心", "机器人4·启发式"]
    assert [s["team"] for s in frames["seats"]] == [0, 1, 0, 1]
    assert [s["kind"] for s in frames["seats"]] == ["human", "bot", "bot", "bot"]
    assert frames["teams"][0] == {"zh": ["第1队（座位1、3）"], "en": ["Team 1 (seats 1 and 3)"]}
    # every text names the seats so: a play of seat 2 (index 1) is told by "Bot 2 · Greedy"
    plays = [e for d in frames["deals"] for st in d["steps"] for e in st["events"] if e["type"] == EventType.PLAY]
    by_bot = next(e for e in plays if e["seat"] == 1)
    assert by_bot["text"]["en"][0].startswith("Bot 2 · Greedy: ") and by_bot["text"]["zh"][0].startswith("机器人2·贪心：")
    assert not any("greedy bot" in line for _, line in _texts(frames))


def test_a_bot_of_no_known_tier_is_named_by_its_seat() -> None:
    names = seat_names(["x", "y", "y", ""], [("human", None), ("bot", None), ("bot", "my-plugin"), (None, None)])
    assert names("en") == ["x", "Bot 2", "Bot 3 · my-plugin", "Seat 4"]
    assert names("zh") == ["x", "机器人2", "机器人3·my-plugin", "座位4"]


def test_a_record_that_does_not_say_who_was_a_bot_numbers_the_seats_that_share_a_name(client: TestClient) -> None:
    frames = _frames(client, _record(players=["Alice", "greedy bot", "greedy bot", ""]))
    assert [s["name"]["en"] for s in frames["seats"]] == ["Alice", "greedy bot (2)", "greedy bot (3)", "Seat 4"]
    assert [s["name"]["zh"] for s in frames["seats"]] == ["Alice", "greedy bot (2)", "greedy bot (3)", "座位4"]
    assert [s["kind"] for s in frames["seats"]] == [None, None, None, None]
    over = next(e for e in frames["deals"][0]["steps"][-1]["events"] if e["type"] == EventType.DEAL_OVER)
    order = Presenter("en", names=[s["name"]["en"] for s in frames["seats"]]).order(over["finish"])
    assert over["text"]["en"] == [f"Finishing order: {order}"]


def test_a_terminal_clients_save_names_its_seats_as_the_web_does(client: TestClient, tmp_path: Path) -> None:
    """A match saved by `guandan play` and opened here: the player unnamed as at a web table, each bot by its
    seat and tier, in the page's language (not the tier names the save keeps for resuming)."""
    from typer.testing import CliRunner

    from guandan.cli import _mount, app

    _mount()
    save = tmp_path / "m.json"
    args = ["play", "--plain", "--lang", "en", "--partner", "heuristic", "--opponents", "greedy", "--seed", "4"]
    result = CliRunner().invoke(app, [*args, "--save", str(save)], input="1\n" * 3 + "quit\n")
    assert result.exit_code == 0, result.output
    frames = _frames(client, save.read_text(encoding="utf-8"))
    assert [s["name"]["en"] for s in frames["seats"]] == ["Player 1", "Bot 2 · Greedy", "Bot 3 · Heuristic",
                                                          "Bot 4 · Greedy"]
    assert [s["name"]["zh"] for s in frames["seats"]] == ["玩家1", "机器人2·贪心", "机器人3·启发式", "机器人4·贪心"]
    assert [s["kind"] for s in frames["seats"]] == ["human", "bot", "bot", "bot"]


def test_no_type_name_or_python_value_in_any_text(client: TestClient) -> None:
    frames = _frames(client, _record("huopin", seed=5, deals=2, players=["Alice", "Bob", "Carol", "Dan"]))
    type_names = {t.value for t in EventType}
    lines = list(_texts(frames))
    assert len(lines) > 100
    for lang, line in lines:
        assert not any(name in line for name in type_names if "_" in name), line
        assert line not in type_names, line
        assert not re.search(r"\bNone\b|\bTrue\b|\bFalse\b|\[|\]|\{|\}|'|\bT\b", line), line
        if lang == "en":
            assert not CJK.search(line), line
        else:  # Chinese but the players' names and the cards' letters (J Q K A)
            rest = re.sub(r"Alice|Bob|Carol|Dan", "", line)
            assert not re.search(r"[A-Za-z]{2,}", rest), line
    # an event is listed by its lines: every event has them in both languages, and most say something
    events = [e for d in frames["deals"] for st in d["steps"] for e in st["events"]]
    assert all(set(e["text"]) == {"zh", "en"} for e in events)


def test_a_web_match_with_three_bots_names_them_apart(client: TestClient) -> None:
    code = new_room(client)  # seat 0 for a person, three greedy bots
    tok = join(client, code, 0, "me")
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        rid = play_out(ws, client, code, tok)["room"]["replay_id"]
    frames = client.get(f"/api/replays/{rid}").json()
    for lang in ("zh", "en"):
        names = [s["name"][lang] for s in frames["seats"]]
        assert names[0] == "me" and len(set(names)) == 4, names
    assert frames["deals"][0]["result"] is not None and frames["summary"]["ended"]


def test_a_replay_is_re_run_by_a_worker_once_and_then_kept(client: TestClient) -> None:
    from guandan.server.app import REPLAYS_KEPT
    pool = client.app.state.service.pool  # type: ignore[attr-defined]
    ids = [client.post("/api/replays", content=_record(seed=s, deals=1), headers={"Content-Type": "application/json"})
           .json()["id"] for s in range(REPLAYS_KEPT + 1)]
    before = pool.done
    first = client.get(f"/api/replays/{ids[0]}").json()
    assert pool.done == before + 1  # not on the event loop the tables share
    assert client.get(f"/api/replays/{ids[0]}").json() == first and pool.done == before + 1
    for rid in ids[1:]:
        assert client.get(f"/api/replays/{rid}").status_code == 200
    assert pool.done == before + REPLAYS_KEPT + 1
    client.get(f"/api/replays/{ids[0]}")  # the oldest opened left the memory: re-run
    assert pool.done == before + REPLAYS_KEPT + 2


def test_each_step_names_the_play_the_next_move_must_beat() -> None:
    """A step's ``top`` is the step whose play the next move must beat: every pass and every play that follows
    answers it (the play beats it, by the engine's own rule), a round won or the deal's end clears it, and a play
    that leads has none. The page shows it beside the move, so that a pass is seen against what it passed on."""
    text = _record(seed=11, deals=2)
    frames = replay_frames(text)
    actions = [a for a, _, _ in record.replay(record.loads(text))]
    assert len(actions) == sum(len(d["steps"]) for d in frames["deals"])
    rules = preset("competition")
    counted = {"lead": 0, "follow": 0, "pass": 0}
    first = 0
    for deal in frames["deals"]:
        steps = deal["steps"]
        assert steps[0]["top"] is None
        for n in range(1, len(steps)):
            action, before = actions[first + n], steps[n - 1]["top"]
            assert action is not None
            if before is not None:
                assert 0 < before < n and steps[before]["action"]["kind"] == "play"
                top = actions[first + before]
                assert top is not None and top.combo is not None and top.seat != action.seat
            if action.kind == ActionKind.PASS:
                assert before is not None
                counted["pass"] += 1
            elif action.kind == ActionKind.PLAY and before is None:
                counted["lead"] += 1
            elif action.kind == ActionKind.PLAY:
                assert action.combo is not None and top.combo is not None and beats(action.combo, top.combo, rules)
                counted["follow"] += 1
            types = {e["type"] for e in steps[n]["events"]}
            if types & {EventType.ROUND_WON, EventType.DEAL_OVER}:
                assert steps[n]["top"] is None
            elif action.kind == ActionKind.PLAY:
                assert steps[n]["top"] == n
            elif action.kind == ActionKind.PASS:
                assert steps[n]["top"] == before
        first += len(steps)
    assert min(counted.values()) > 5, counted
