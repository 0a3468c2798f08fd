"""The lobby's REST API: rooms, seats, bots, ready, rate limits, replays, translations, pages."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi.testclient import TestClient

from guandan.agents import make_agent
from guandan.agents.runner import run_match
from guandan.core import record
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.i18n.check import extract_msgids, missing
from guandan.server.app import create_app
from guandan.server.i18n_web import MESSAGES
from guandan.server.table import Settings

from .conftest import join, new_room

STATIC = Path(__file__).resolve().parents[2] / "src" / "guandan" / "server" / "static"


def test_create_room_returns_a_short_code_and_link(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"preset": "huopin", "timer": 15, "counter": False, "bots": [None, None, "random", None]})
    assert r.status_code == 201
    body = r.json()
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{6}", body["code"])
    assert body["link"] == f"/r/{body['code']}"
    room = client.get(f"/api/rooms/{body['code'].lower()}").json()  # codes are case-insensitive
    assert room["preset"] == "huopin" and room["timer"] == 15 and room["counter"] is False
    assert [s["kind"] for s in room["seats"]] == ["empty", "empty", "bot", "empty"]
    assert room["status"] == "lobby"


def test_bad_room_configs_are_refused_with_the_reason(client: TestClient) -> None:
    cases = [
        ({"preset": "nope"}, "preset must be one of"),
        ({"bots": [None, None]}, "one entry per seat"),
        ({"bots": [None, "godlike", None, None]}, "unknown bot tier"),
        ({"timer": -1}, "timer"),
        ({"rules": {"no_such_option": 1}}, "rules"),
        ({"extra": 1}, "extra"),
    ]
    for body, why in cases:
        r = client.post("/api/rooms", json=body)
        assert r.status_code in (400, 422), body
        assert why in r.text, (body, r.text)


def test_rule_overrides_reach_the_room(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"rules": {"report_threshold": 6}})
    assert r.status_code == 201, r.text
    assert r.json()["room"]["rules"]["report_threshold"] == 6


def test_join_seat_taken_and_unknown_room(client: TestClient) -> None:
    code = new_room(client)
    join(client, code, 0)
    r = client.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "x"})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    assert client.post(f"/api/rooms/{code}/join", json={"seat": 1}).status_code == 409  # a bot sits there
    assert client.post(f"/api/rooms/{code}/join", json={"seat": 4}).status_code == 422
    assert client.post("/api/rooms/ZZZZZZ/join", json={"seat": 0}).status_code == 404


def test_bots_need_the_host_or_a_seated_token(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"bots": [None, None, None, None]})
    code, host = r.json()["code"], r.json()["host_token"]
    assert client.post(f"/api/rooms/{code}/bots", json={"token": "forged", "seat": 1, "tier": "greedy"}).status_code == 403
    room = client.post(f"/api/rooms/{code}/bots", json={"token": host, "seat": 1, "tier": "greedy"}).json()
    assert room["seats"][1]["kind"] == "bot"
    assert client.post(f"/api/rooms/{code}/bots", json={"token": host, "seat": 1, "tier": "greedy"}).status_code == 409
    assert client.post(f"/api/rooms/{code}/bots", json={"token": host, "seat": 2, "tier": "nope"}).status_code == 400
    room = client.post(f"/api/rooms/{code}/bots", json={"token": host, "seat": 1, "tier": None}).json()
    assert room["seats"][1]["kind"] == "empty"
    assert client.post(f"/api/rooms/{code}/bots", json={"token": host, "seat": 1, "tier": None}).status_code == 409


def test_ready_starts_the_match_once_every_human_is_ready(client: TestClient) -> None:
    code = new_room(client, bots=[None, "greedy", None, "greedy"])
    a, b = join(client, code, 0), join(client, code, 2)
    assert client.post(f"/api/rooms/{code}/ready", json={"token": a}).json()["status"] == "lobby"
    assert client.post(f"/api/rooms/{code}/ready", json={"token": "nobody"}).status_code == 403
    assert client.post(f"/api/rooms/{code}/ready", json={"token": b}).json()["status"] == "playing"
    # seats are fixed once the match runs
    assert client.post(f"/api/rooms/{code}/leave", json={"token": a}).status_code == 409
    assert client.post(f"/api/rooms/{code}/join", json={"seat": 1}).status_code == 409


def test_leave_frees_the_seat(client: TestClient) -> None:
    code = new_room(client)
    tok = join(client, code, 0)
    assert client.post(f"/api/rooms/{code}/leave", json={"token": tok}).json()["seats"][0]["kind"] == "empty"
    assert client.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 403


def test_joins_are_rate_limited_per_address(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", Settings(join_rate_per_min=1, join_burst=3))
    with TestClient(app) as c:
        codes = [c.post("/api/rooms", json={}).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]


def test_meta_and_translations(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert "greedy" in meta["tiers"] and "competition" in meta["presets"]
    zh, en = client.get("/api/i18n/zh").json(), client.get("/api/i18n/en").json()
    assert zh["Pass"] == "不要" and en["Pass"] == "Pass"
    assert set(zh) == set(MESSAGES)
    assert client.get("/api/i18n/fr").status_code == 404


def test_every_browser_string_is_a_translated_msgid() -> None:
    used: set[str] = set()
    for path in STATIC.glob("*.js"):
        used |= set(re.findall(r'\bt\("([^"]+)"\)', path.read_text()))
    for path in STATIC.glob("*.html"):
        used |= set(re.findall(r'data-t="([^"]+)"', path.read_text()))
    assert len(used) > 40
    assert sorted(used - set(MESSAGES)) == []
    server = Path(__file__).resolve().parents[2] / "src" / "guandan" / "server"
    # the server's commands and benchmarks speak from the cli catalogue (tests/i18n checks it); every other
    # module from web
    by_cli = ("cli.py", "backup_cli.py", "bench.py", "bench_site.py", "bench_page.py", "ratings_bench.py",
              "supervisor.py")
    ids = extract_msgids(sorted(p for p in server.rglob("*.py") if p.name not in by_cli))
    for lang in ("zh", "en"):
        assert missing("web", lang, ids) == []


def test_pages_and_static_assets_are_served(client: TestClient) -> None:
    for path in ("/", "/r/ABCDEF", "/replay/xyz", "/static/table.js", "/static/style.css"):
        assert client.get(path).status_code == 200, path
    icon = client.get("/static/icon.svg")  # every page names it: a tab or a bookmark shows the game's own icon
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    static = Path(__file__).resolve().parents[2] / "src" / "guandan" / "server" / "static"
    for page in static.glob("*.html"):
        assert '<link rel="icon" href="/static/icon.svg" type="image/svg+xml">' in page.read_text(), page.name


def _finished_record() -> str:
    match = new_match(preset("competition"), 11, MatchConfig(max_deals=2))
    run_match(match, [make_agent("greedy", seed=s) for s in range(4)])
    return record.dumps(match, players=["a", "b", "c", "d"])


def test_import_export_and_step_through_a_replay(client: TestClient) -> None:
    text = _finished_record()
    r = client.post("/api/replays", content=text, headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text
    rid = r.json()["id"]
    exported = client.get(f"/api/replays/{rid}/record")
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    assert json.loads(exported.text) == json.loads(text)
    frames = client.get(f"/api/replays/{rid}").json()
    assert len(frames["deals"]) == 2
    first = frames["deals"][0]["steps"]
    assert first[0]["action"] is None and sum(len(h) for h in first[0]["hands"]) == 108
    assert sum(len(h) for h in first[-1]["hands"]) < 108  # cards leave the hands as the deal is played
    data = json.loads(text)
    assert len(first) - 1 == len(data["deals"][0]["actions"])
    owner = r.json()["token"]  # private: listed to whoever imported it
    assert not any(r["id"] == rid for r in client.get("/api/replays").json())
    assert any(r["id"] == rid for r in client.post("/api/replays/mine", json={"tokens": [owner]}).json())


def test_bad_records_are_refused_and_nothing_is_stored(client: TestClient) -> None:
    before = client.get("/api/replays").json()
    data = json.loads(_finished_record())
    data["deals"][0]["actions"][3]["seat"] = (data["deals"][0]["actions"][3]["seat"] + 1) % 4
    for body in ({"format": "other"}, data, [1, 2]):
        r = client.post("/api/replays", json=body)
        assert r.status_code == 422, r.text
    assert client.get("/api/replays").json() == before
    # the refusal says what is wrong in the reader's words: seats counted from 1, as the replay shows them
    seat = data["deals"][0]["actions"][3]["seat"]
    text = client.post("/api/replays", json=data).json()["text"]
    assert text["en"].startswith("This file is not a game record that this server can replay: deal 1, action 4 (seat ")
    assert f"(seat {seat + 1}: " in text["en"] and "not seat " + str(seat + 1) in text["en"]
    assert f"（座位{seat + 1}：" in text["zh"] and "seat" not in text["zh"]
    assert client.get("/api/replays/nope").status_code == 404
    assert client.get("/api/replays/nope/record").status_code == 404


def test_names_with_control_characters_or_direction_marks_are_refused(client: TestClient) -> None:
    code = new_room(client)
    for name in ("a\u0000b", "evil\u202e", "two\nlines", "tab\there", "\u2066x"):
        r = client.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": name})
        assert r.status_code == 422 and r.json()["error"] == "bad_name", name
        assert r.json()["text"]["zh"] == "名字里不能有控制字符、换行或文字方向标记。"
        r = client.post("/api/rooms", json={"name": name})
        assert r.status_code == 422 and r.json()["error"] == "bad_name", name
    assert client.get(f"/api/rooms/{code}").json()["seats"][0]["kind"] == "empty"  # nothing changed
    ok = client.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": " 张三 \U0001f600 "})
    assert ok.status_code == 200 and client.get(f"/api/rooms/{code}").json()["seats"][0]["name"] == "张三 \U0001f600"


def test_a_refusal_never_repeats_a_control_character_of_the_address() -> None:
    from guandan.server.protocol import say
    words = say("There is no replay {id}.", id='x"\r\nX-Evil: 1\u202e')
    for text in words.texts().values():
        assert "\r" not in text and "\n" not in text and "\u202e" not in text and "X-Evil: 1" in text


def test_a_value_of_the_wrong_json_type_is_refused_not_converted(client: TestClient) -> None:
    code = new_room(client)
    for body in ({"seat": True}, {"seat": "0"}, {"seat": 0.0}, {"seat": 0, "name": 7}):
        r = client.post(f"/api/rooms/{code}/join", json=body)
        assert r.status_code == 422 and r.json()["error"] == "bad_request", body
    for body in ({"timer": "15"}, {"seed": "12"}, {"counter": "yes"}, {"listed": "off"}, {"max_deals": True},
                 {"bot_delay_ms": 1.5}, {"name": 3}):
        r = client.post("/api/rooms", json=body)
        assert r.status_code == 422 and r.json()["error"] == "bad_request", body
    assert client.get(f"/api/rooms/{code}").json()["seats"][0]["kind"] == "empty"
