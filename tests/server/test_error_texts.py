"""Every refusal a person can see says why in the page's language: REST answers and WebSocket error frames
carry ``text: {"zh", "en"}`` from the web catalogue beside the machine-readable code and the English
message. The Chinese has no English words of ours, seats are counted from 1, and no Python value (None,
a list, a dict, a quoted repr) reaches either text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from guandan.agents import make_agent
from guandan.agents.runner import run_match
from guandan.core import record
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.i18n import translator
from guandan.i18n.check import extract_msgids, missing
from guandan.server.app import create_app
from guandan.server.i18n_web import MESSAGES
from guandan.server.protocol import SeatNo, invalid, say
from guandan.server.replays import replay_frames
from guandan.server.rooms import Seat, seat_names
from guandan.server.table import Settings

from .conftest import counting_seeds, join, new_room
from .test_lifecycle import App, open_app
from .test_ws import act_frame, current_seq, my_turn, recv_until, start

pytestmark = pytest.mark.timeout(120)
Frame = dict[str, Any]
SERVER = Path(__file__).resolve().parents[2] / "src" / "guandan" / "server"
CJK = re.compile(r"[\u3400-\u9fff]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
REPR = ("None", "[", "]", "{", "}", "'", "True", "False")


def told(text: Any, *, seats: tuple[int, ...] = (), given: tuple[str, ...] = (),
         quoted: tuple[str, ...] = ()) -> dict[str, str]:
    """Check a refusal's ``text``: both languages, Chinese in the zh one and no English word of ours (only
    what the person gave, e.g. a room code, may be Latin), no Python value in either, and ``seats`` (wire
    seats, from 0) shown counted from 1. ``quoted``: what the text quotes of a file as the file writes it
    (a record's field name, a JSON value). Returns the text."""
    assert isinstance(text, dict) and set(text) == {"zh", "en"}, text
    for lang, line in text.items():
        assert isinstance(line, str) and line.strip(), text
        for q in quoted:
            line = line.replace(q, "")
        assert not any(r in line for r in REPR), (lang, line)
        for seat in seats:
            assert str(seat + 1) in line, (lang, line, seat)
    zh = text["zh"]
    assert CJK.search(zh), zh
    rest = zh
    for g in (*quoted, *given):
        rest = rest.replace(g, "")
    assert not LATIN_WORD.search(rest), zh
    assert not CJK.search(text["en"]), text["en"]
    return text


def refused(r: Any, status: int, code: str, **kw: Any) -> dict[str, str]:
    """A REST refusal: its status, its code, its English detail kept, and its text (told)."""
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] == code and body["detail"], body
    return told(body["text"], **kw)


def error(ws: WebSocketTestSession, code: str, **kw: Any) -> dict[str, str]:
    f = recv_until(ws, lambda f: f["type"] == "error")
    assert f["code"] == code and isinstance(f["message"], str) and f["message"], f
    return told(f["text"], **kw)


@pytest.fixture
def web(tmp_path: Path) -> Iterator[App]:
    yield from open_app(f"sqlite:///{tmp_path / 'web.sqlite3'}")


# --- REST -----------------------------------------------------------------------------------------------
def test_lobby_refusals_are_told_in_both_languages(client: TestClient) -> None:
    code = new_room(client, bots=[None, None, "greedy", "greedy"])
    join(client, code, 1)
    text = refused(client.post(f"/api/rooms/{code}/join", json={"seat": 1}), 409, "seat_taken", seats=(1,))
    assert text == {"zh": "座位2已经有人了。", "en": "Seat 2 is taken."}
    refused(client.get("/api/rooms/ZZZZZZ"), 404, "no_room", given=("ZZZZZZ",))
    refused(client.post(f"/api/rooms/{code}/bots", json={"token": "nobody", "seat": 0, "tier": "greedy"}), 403,
            "forbidden")
    refused(client.post("/api/rooms", json={"bots": [None, None, "greedy", "greedy"], "seed": 3}), 400,
            "seed_not_practice")
    host = new_room(client, bots=[None, "greedy", "greedy", "greedy"])
    tok = join(client, host, 0)
    assert client.post(f"/api/rooms/{host}/ready", json={"token": tok}).status_code == 200
    refused(client.post(f"/api/rooms/{host}/join", json={"seat": 1}), 409, "started")


def test_a_bad_body_names_its_field_in_the_pages_language(client: TestClient) -> None:
    """What a person can get wrong from the lobby's forms (a timer out of range, a name too long) is told
    whole in Chinese; a field only a hostile client sends keeps its wire name inside a Chinese sentence."""
    text = refused(client.post("/api/rooms", json={"timer": 900}), 422, "bad_request")
    assert text == {"zh": "“出牌限时”一项无效：不能大于600。",
                    "en": "The field “turn timer” is not valid: it must be at most 600."}
    code = new_room(client)
    text = refused(client.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "x" * 25}), 422, "bad_request")
    assert "名字" in text["zh"] and "24" in text["zh"]
    refused(client.post("/api/rooms", json={"max_deals": 0}), 422, "bad_request")
    text = refused(client.post(f"/api/rooms/{code}/join", json={"seat": 4}), 422, "bad_request")
    assert "5" in text["zh"] and "1" in text["zh"] and "4" in text["zh"]  # the wire's seat 4, bounds 1 to 4
    assert "座位" in refused(client.post(f"/api/rooms/{code}/join", json={}), 422, "bad_request")["zh"]
    refused(client.post("/api/rooms", content=b"{nope", headers={"Content-Type": "application/json"}), 422,
            "bad_request")
    text = refused(client.post("/api/rooms", json={"colour": 1}), 422, "bad_request", given=("colour",))
    assert "colour" in text["zh"]
    # FastAPI's list of errors stays the detail, for programs
    detail = client.post("/api/rooms", json={"timer": 900}).json()["detail"]
    assert detail[0]["loc"] == ["body", "timer"] and detail[0]["msg"]


def test_rate_limits_closed_rooms_and_unknown_addresses(web: App, tmp_path: Path) -> None:
    c = web.client
    code = new_room(c)
    with c.websocket_connect(f"/ws/{code}") as ws:
        recv_until(ws, lambda f: f["type"] == "snapshot")
        web.sweep(web.service.settings.lobby_idle_s + 1)
        error(ws, "room_closed")
    refused(c.get(f"/api/rooms/{code}"), 410, "room_closed")
    refused(c.get("/api/nothing-here"), 404, "not_found")
    refused(c.get("/api/rooms"), 405, "method_not_allowed")
    refused(c.get("/api/replays/nope"), 404, "no_replay", given=("nope",))
    refused(c.post("/api/replays", json={"not": "a record"}), 422, "bad_record", quoted=("'format'", '"guandan-record"'))
    refused(c.get("/api/i18n/fr"), 404, "no_language", given=("fr", "zh", "en"))
    app = create_app(f"sqlite:///{tmp_path / 'rate.sqlite3'}", Settings(join_rate_per_min=1, join_burst=1, workers=0))
    with TestClient(app) as limited:
        assert limited.post("/api/rooms", json={}).status_code == 201
        refused(limited.post("/api/rooms", json={}), 429, "rate_limited")


def test_a_full_review_queue_is_told(tmp_path: Path) -> None:
    match = new_match(preset("competition"), 5, MatchConfig(max_deals=1))
    run_match(match, [make_agent("random", seed=s) for s in range(4)])
    app = create_app(f"sqlite:///{tmp_path / 'review.sqlite3'}", Settings(review_queue=0, workers=0))
    with TestClient(app) as c:
        r = c.post("/api/replays", content=record.dumps(match), headers={"Content-Type": "application/json"})
        assert r.status_code == 201, r.text
        refused(c.post(f"/api/replays/{r.json()['id']}/reviews", json={"seat": 0}), 503, "busy")


# --- WebSocket ------------------------------------------------------------------------------------------
def test_table_refusals_are_told_with_seats_from_one(client: TestClient) -> None:
    code = new_room(client, bots=[None, None, "greedy", "greedy"])
    a, b = join(client, code, 0), join(client, code, 1)
    with client.websocket_connect(f"/ws/{code}?token={a}") as wa, client.websocket_connect(f"/ws/{code}?token={b}") as wb:
        start(client, code, a, b)
        f = recv_until(wa, lambda f: f["type"] in ("update", "snapshot") and f["view"] is not None
                       and f["view"]["to_move"] in (0, 1))
        mover = f["view"]["to_move"]
        waiting, waiter = (wb, 1) if mover == 0 else (wa, 0)
        waiting.send_json({"type": "act", "kind": "pass", "cards": []})
        text = error(waiting, "not_your_turn", seats=(mover, waiter))
        assert text["en"] == f"It is the turn of seat {mover + 1}, not yours: you are at seat {waiter + 1}."
        assert text["zh"] == f"现在轮到座位{mover + 1}，不是你：你在座位{waiter + 1}。"
        waiting.send_json({"type": "talk", "phrase": "x"})
        error(waiting, "bad_phrase")
    with client.websocket_connect(f"/ws/{code}") as spectator:
        spectator.send_json({"type": "auto", "on": True})
        error(spectator, "spectator")
    other = new_room(client)
    with client.websocket_connect(f"/ws/{other}?token={a}") as ws:
        error(ws, "forbidden")
    with client.websocket_connect("/ws/NOROOM") as ws:
        error(ws, "no_room", given=("NOROOM",))


def test_bad_frames_stale_and_illegal_actions_are_told(client: TestClient) -> None:
    code = new_room(client)
    tok = join(client, code, 0)
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        start(client, code, tok)
        f = recv_until(ws, my_turn(0))
        seq, view = f["seq"], f["view"]
        ws.send_text('{"type":"act","kind":"fly"}')
        assert "操作类型" in error(ws, "bad_message")["zh"]
        ws.send_text('{"type":"hint","k":99}')
        assert "10" in error(ws, "bad_message")["zh"]
        ws.send_text("not json")
        error(ws, "bad_message")
        ws.send_text('{"type":"nope"}')
        error(ws, "bad_message")
        ws.send_bytes(b"\x00")
        error(ws, "bad_message")
        ws.send_text(" " * 9000)
        error(ws, "too_large")
        ws.send_json(act_frame(view["legal"][0], seq + 5))
        error(ws, "stale")
        ws.send_json({"type": "resume", "since": seq + 5})
        error(ws, "bad_seq")
        not_mine = next(c for c in ["S3", "H3", "C3", "D3", "S4", "H4", "C4", "D4", "S5", "H5"] if c not in view["hand"])
        ws.send_json({"type": "act", "kind": "play", "cards": [not_mine]})
        frame = recv_until(ws, lambda f: f["type"] == "error")
        assert frame["code"] == "illegal" and "does not hold" in frame["message"]  # the engine's English, for programs
        shown = not_mine.replace("S", "♠").replace("H", "♥").replace("C", "♣").replace("D", "♦")
        assert told(frame["text"], seats=(0,), given=(shown,)) == {
            "zh": f"这步不能走：座位1手里没有 {shown}。", "en": f"This move is not allowed: seat 1 does not hold {shown}."}
        ws.send_json({"type": "readings", "cards": [not_mine]})
        assert error(ws, "illegal", given=(shown,)) == {
            "zh": f"无法列出这些牌的出法：你手里没有 {shown}。",
            "en": f"No plays can be listed for these cards: you do not hold {shown}."}


def test_a_flood_of_frames_is_told(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", Settings(msg_rate=0.001, msg_burst=1, workers=0))
    with TestClient(app) as c:
        code = new_room(c)
        with c.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "ping"})
            ws.send_json({"type": "ping"})
            error(ws, "rate_limited")


def _no_beat(view: Frame) -> list[str] | None:
    """A single card of the seat's hand that does not beat the single on the table, if there is one."""
    top = view["top"]
    if top is None or top["combo"]["type"] != "single":
        return None
    legal = {tuple(a["cards"]) for a in view["legal"] if a["kind"] == "play"}
    return next(([c] for c in view["hand"] if (c,) not in legal), None)


def test_a_move_the_engine_refuses_is_told_why_to_the_seat_alone(client: TestClient) -> None:
    """A play sent by hand at the current sequence (the page offers only legal ones) that does not beat the
    table: the seat is told the engine's reason in both languages, the two plays named as the table names
    them; a spectator hears nothing of it."""
    code = new_room(client)
    tok = join(client, code, 0)
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws, client.websocket_connect(f"/ws/{code}") as watcher:
        start(client, code, tok)
        while True:
            f = recv_until(ws, my_turn(0))
            if (cards := _no_beat(f["view"])) is not None:
                break
            ws.send_json(act_frame(f["view"]["legal"][0], f["seq"]))
        ws.send_json({"type": "act", "kind": "play", "cards": cards, "combo": None, "seq": f["seq"]})
        frame = recv_until(ws, lambda f: f["type"] == "error")
        assert frame["code"] == "illegal" and "does not beat" in frame["message"]
        text = told(frame["text"], given=("A", "J", "Q", "K"))
        assert text["zh"].startswith("这步不能走：单张") and "管不上单张" in text["zh"].replace(" ", ""), text
        assert text["en"].startswith("This move is not allowed: single ") and " does not beat single " in text["en"]
        assert current_seq(ws) == f["seq"]  # nothing changed
        watcher.send_json({"type": "ping"})
        seen = recv_until(watcher, lambda f: f["type"] in ("pong", "error"))
        assert seen["type"] == "pong"


@pytest.mark.parametrize(("rules", "zh", "en"), [
    ({"max_bomb": 20}, "max_bomb 须为 8…12 的整数，而不是 20", "max_bomb must be an integer 8…12, not 20"),
    ({"airplane": "yes"}, 'airplane 须为 true 或 false，而不是 "yes"', 'airplane must be true or false, not "yes"'),
])
def test_an_invalid_rule_names_the_setting_and_its_values(client: TestClient, rules: Frame, zh: str, en: str) -> None:
    """The setting as the request names it, the values it takes and the one given, from the core's words."""
    given = (*rules, *(str(v) for v in rules.values()), "true", "false")
    text = refused(client.post("/api/rooms", json={"rules": rules}), 400, "bad_request", given=given)
    assert text == {"zh": f"规则设置无效，房间没有建成：{zh}。",
                    "en": f"These rule settings are not valid, so the room was not created: {en}."}


def test_acting_during_the_pause_after_a_deal_is_told(tmp_path: Path) -> None:
    settings = Settings(bot_delay_ms=0, workers=0, seed_source=counting_seeds("texts"))
    with TestClient(create_app(f"sqlite:///{tmp_path / 'pause.sqlite3'}", settings)) as c:
        code = new_room(c, max_deals=2)
        tok = join(c, code, 0)
        with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
            start(c, code, tok)
            while True:
                f = recv_until(ws, lambda f: my_turn(0)(f) or (f["type"] == "update" and "reveal" in f))
                if "reveal" in f:  # the deal is over: the pause begins
                    break
                ws.send_json(act_frame(f["view"]["legal"][0], f["seq"]))
            ws.send_json({"type": "act", "kind": "pass", "cards": []})
            text = error(ws, "interval")
            assert "继续" in text["zh"] and "Continue" in text["en"]


# --- the words themselves -------------------------------------------------------------------------------
def test_every_msgid_of_a_refusal_is_a_translated_browser_string() -> None:
    used = extract_msgids([SERVER / f for f in ("protocol.py", "table.py", "app.py", "reviews.py", "rooms.py", "bodies.py")])
    assert len(used) > 60  # the extractor found the refusals
    assert sorted(str(m) for m in used if m not in MESSAGES) == []
    assert missing("web", "zh", used) == [] and missing("web", "en", used) == []
    zh = translator("web", "zh")
    for msgid in used:
        assert isinstance(msgid, str) and CJK.search(zh.gettext(msgid)), msgid


@pytest.mark.parametrize(("err", "zh"), [
    ({"type": "less_than_equal", "loc": ("body", "timer"), "ctx": {"le": 600}}, "“出牌限时”一项无效：不能大于600。"),
    ({"type": "greater_than_equal", "loc": ("body", "max_deals"), "ctx": {"ge": 1.0}}, "“副数”一项无效：不能小于1。"),
    ({"type": "string_too_long", "loc": ("body", "name"), "ctx": {"max_length": 24}}, "“名字”一项无效：最多24个字符。"),
    ({"type": "too_long", "loc": ("body", "tokens"), "ctx": {"max_length": 500}}, "“凭证”一项无效：最多500项。"),
    ({"type": "int_parsing", "loc": ("body", "seed")}, "“种子”一项无效：必须是整数。"),
    ({"type": "bool_type", "loc": ("act", "on")}, "“托管开关”一项无效：只能是“是”或“否”。"),
    ({"type": "list_type", "loc": ("act", "cards")}, "“牌”一项无效：必须是一组值。"),
    ({"type": "string_too_short", "loc": ("act", "cards", 0), "ctx": {"min_length": 2}}, "“牌”一项无效：至少要2个字符。"),
    ({"type": "literal_error", "loc": ("act", "kind"), "ctx": {"expected": "'play'"}}, "“操作类型”一项无效：不是允许的取值。"),
    ({"type": "union_tag_not_found", "loc": ()}, "缺少“消息类型”一项。"),
    ({"type": "missing", "loc": ("resume", "since")}, "缺少“序号”一项。"),
    ({"type": "extra_forbidden", "loc": ("act", "pad")}, "这个请求没有“pad”这一项。"),
    ({"type": "value_error", "loc": ("body", "bots", 1)}, "“机器人”一项无效。"),
    ({"type": "less_than_equal", "loc": ("body", "seat"), "input": 4, "ctx": {"le": 3}}, "没有座位5：牌桌只有座位1到4。"),
    ({"type": "dict_type", "loc": ()}, "服务器无法理解这个请求的格式。"),
    ({"type": "json_invalid", "loc": ("body", 1)}, "无法读取这个请求：格式不对。"),
])
def test_a_validation_error_is_told_by_its_field_and_problem(err: dict[str, Any], zh: str) -> None:
    text = told(invalid([err]).texts(), given=("pad",))
    assert text["zh"] == zh


def test_words_show_seats_from_one_and_nest_in_one_language() -> None:
    words = say("Seat {seat} is taken.", seat=SeatNo(0))
    assert words.texts() == {"zh": "座位1已经有人了。", "en": "Seat 1 is taken."}
    nested = say("The field “{field}” is not valid: {problem}.", field=say("turn timer"),
                 problem=say("it must be at most {limit}", limit=600))
    assert nested.render("zh") == "“出牌限时”一项无效：不能大于600。"


# --- a player without a name ----------------------------------------------------------------------------
def test_a_player_without_a_name_is_player_n_in_each_language(client: TestClient) -> None:
    seats = [Seat(kind="human"), Seat(kind="bot", name="greedy bot", tier="greedy"), Seat(), Seat(kind="human", name="小红")]
    assert seat_names(seats, "en") == ["Player 1", "Bot 2 · Greedy", "", "小红"]
    assert seat_names(seats, "zh") == ["玩家1", "机器人2·贪心", "", "小红"]
    code = new_room(client, bots=[None, "greedy", "greedy", "greedy"])
    r = client.post(f"/api/rooms/{code}/join", json={"seat": 0})
    assert r.status_code == 200 and r.json()["room"]["seats"][0]["name"] == ""  # stored without a name
    tok = r.json()["token"]
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        assert client.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200
        ws.send_json({"type": "auto", "on": True})
        recv_until(ws, lambda f: f["type"] == "room" and f["room"]["status"] == "over", limit=20_000)
    replay_id = client.get(f"/api/rooms/{code}", params={"token": tok}).json()["replay_id"]
    frames = client.get(f"/api/replays/{replay_id}").json()
    assert frames["seats"][0]["name"] == {"zh": "玩家1", "en": "Player 1"}
    assert frames["seats"][1]["name"] == {"zh": "机器人2·贪心", "en": "Bot 2 · Greedy"}


def test_an_old_or_imported_record_keeps_its_names() -> None:
    match = new_match(preset("competition"), 3, MatchConfig(max_deals=1))
    run_match(match, [make_agent("random", seed=s) for s in range(4)])
    frames = replay_frames(record.dumps(match, players=["player 1", "", "Bob", "Ann"]))
    # no seat kinds in the record: an unnamed seat stays "Seat N", a recorded name is kept as it was
    assert [s["name"]["en"] for s in frames["seats"]] == ["player 1", "Seat 2", "Bob", "Ann"]
