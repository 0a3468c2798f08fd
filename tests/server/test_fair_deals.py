"""Fair deals in the web app: a creator's seed only for a practice room, every deal committed from its
first frame to every seat and spectator, the secret seed in no frame or REST answer before the match
is over, and the replay revealing it with a check anyone can repeat (``guandan verify-deal``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from typer.testing import CliRunner

from guandan.cli import _mount, app
from guandan.server.app import create_app
from guandan.server.i18n_web import MESSAGES
from guandan.server.rooms import secret_seed
from guandan.server.table import Settings
from wire_schema import check

from .conftest import join, new_room

pytestmark = pytest.mark.timeout(120)
SECRET = "5eed" * 8  # what the server draws for these tests' rooms: 32 hex digits, like secrets.token_hex(16)
Frame = dict[str, Any]
REFUSAL = "A seed is only accepted for a practice room: every seat but yours must be a bot"


def commitment(seed: str | int, index: int) -> str:
    return hashlib.sha256(f"guandan:{seed}:{index}".encode()).hexdigest()


@pytest.fixture
def secret_client(tmp_path: Path) -> Iterator[TestClient]:
    application = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}",
                             Settings(bot_delay_ms=0, next_deal_s=0, seed_source=lambda: SECRET))
    with TestClient(application) as c:
        yield c


def test_a_seed_is_refused_unless_every_other_seat_is_a_bot(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    before = len(service.rooms)
    for bots in ([None, None, "greedy", "greedy"], [None, None, None, None], [None, "greedy", None, "random"]):
        r = client.post("/api/rooms", json={"bots": bots, "seed": 42})
        assert r.status_code == 400, r.text
        body = r.json()
        assert body["error"] == "seed_not_practice"
        assert "practice room" in body["detail"] and f"{bots.count(None)} open seats" in body["detail"]
    assert len(service.rooms) == before  # a refused request creates nothing
    # the lobby shows the rule in the page's language (common.js maps the code to this msgid)
    assert REFUSAL in MESSAGES
    assert client.get("/api/i18n/zh").json()[REFUSAL] == "只有练习房间可以指定种子：除你之外的座位都必须是机器人"
    assert client.get("/api/i18n/en").json()[REFUSAL] == REFUSAL
    # practice rooms: the creator's seat and bots, or bots only; without a seed any room is fine
    practice = new_room(client, bots=[None, "greedy", "greedy", "greedy"], seed=42)
    assert client.get(f"/api/rooms/{practice}").json()["practice"] is True
    watch = client.post("/api/rooms", json={"bots": ["greedy"] * 4, "seed": 3})
    assert watch.status_code == 201 and watch.json()["room"]["practice"] is True
    open_room = client.post("/api/rooms", json={"bots": [None, None, None, None]})
    assert open_room.status_code == 201 and open_room.json()["room"]["practice"] is False


def test_a_practice_room_keeps_its_bots(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"bots": ["greedy"] * 4, "seed": 3})
    code, host = r.json()["code"], r.json()["host_token"]
    # all four bots: one may make way for the creator…
    assert client.post(f"/api/rooms/{code}/bots", json={"token": host, "seat": 0, "tier": None}).status_code == 200
    # …but no second seat opens: another human would play against a host who knows every hand
    r = client.post(f"/api/rooms/{code}/bots", json={"token": host, "seat": 1, "tier": None})
    assert r.status_code == 409 and r.json()["error"] == "practice_keeps_bots"
    assert [s["kind"] for s in client.get(f"/api/rooms/{code}").json()["seats"]] == ["empty", "bot", "bot", "bot"]
    assert client.get("/api/i18n/zh").json()["A practice room with a chosen seed keeps its bots"] == \
        "指定了种子的练习房间不能移除机器人"


def _recv(ws: WebSocketTestSession, texts: list[str]) -> Frame:
    text = ws.receive_text()
    texts.append(text)
    frame: Frame = json.loads(text)
    return frame


def _until_seq(ws: WebSocketTestSession, seq: int, texts: list[str]) -> Frame:
    """Read until the frame (snapshot or update) that shows the table at ``seq``."""
    for _ in range(500):
        f = _recv(ws, texts)
        if f["type"] in ("snapshot", "update") and f.get("view") is not None and f["seq"] == seq:
            return f
        assert f["type"] != "error", f
    raise AssertionError(f"no frame at seq {seq}")


def test_every_deal_is_committed_from_its_first_frame_and_the_seed_stays_secret(
        secret_client: TestClient, tmp_path: Path) -> None:
    c = secret_client
    rest: list[str] = []  # every REST answer before the match is over

    def call(method: str, path: str, body: Any = None) -> Any:
        r = c.request(method, path, json=body)
        rest.append(r.text)
        assert r.status_code < 400, r.text
        return r.json()

    created = call("POST", "/api/rooms", {"bots": [None] * 4, "max_deals": 2, "timer": 0})
    code = created["code"]
    tokens = [call("POST", f"/api/rooms/{code}/join", {"seat": s, "name": f"p{s}"})["token"] for s in range(4)]
    call("GET", f"/api/rooms/{code}")
    texts: dict[int | None, list[str]] = {s: [] for s in (0, 1, 2, 3, None)}
    socks: dict[int | None, WebSocketTestSession] = {}
    with c.websocket_connect(f"/ws/{code}?token={tokens[0]}") as w0, \
            c.websocket_connect(f"/ws/{code}?token={tokens[1]}") as w1, \
            c.websocket_connect(f"/ws/{code}?token={tokens[2]}") as w2, \
            c.websocket_connect(f"/ws/{code}?token={tokens[3]}") as w3, \
            c.websocket_connect(f"/ws/{code}") as spectator:
        socks = {0: w0, 1: w1, 2: w2, 3: w3, None: spectator}
        for tok in tokens:
            call("POST", f"/api/rooms/{code}/ready", {"token": tok})
        seq = 0
        views = {who: _until_seq(ws, 0, texts[who])["view"] for who, ws in socks.items()}
        while not views[None]["ended"]:
            mover = views[None]["to_move"]
            action = views[mover]["legal"][0]
            if seq % 25 == 5:  # the other frames a client can ask for: a hint, a catch-up after a gap, a pong
                socks[mover].send_json({"type": "hint"})
                spectator.send_json({"type": "resume", "since": seq - 3})
                socks[(mover + 1) % 4].send_json({"type": "ping"})
            socks[mover].send_json({"type": "act", "kind": action["kind"], "cards": action["cards"],
                                    "combo": action.get("combo"), "seq": seq})
            seq += 1
            views = {who: _until_seq(ws, seq, texts[who])["view"] for who, ws in socks.items()}
            call("GET", f"/api/rooms/{code}")  # mid-match REST answers hold no seed either
        over = seq
    assert over > 100
    kinds = {json.loads(t)["type"] for frames in texts.values() for t in frames}
    assert {"welcome", "room", "snapshot", "update", "catchup", "hint", "pong"} <= kinds
    deals_seen: dict[int, str] = {}
    for who, frames in texts.items():
        for text in frames:
            assert SECRET not in text, f"the seed leaked to {'a spectator' if who is None else f'seat {who}'}"
            f = json.loads(text)
            view = f.get("view")
            if not view:
                continue
            check("PublicView" if who is None else "SeatView", view)
            index = min(view["deal_index"], 1)  # a finished match's view shows its last deal
            assert view["commitment"] == commitment(SECRET, index), (who, f["type"], f["seq"])
            deals_seen.setdefault(index, view["commitment"])
            if f["type"] == "update" and any(e["type"] == "deal_start" for e in f["events"]):
                assert view["deal_index"] == 1 and view["commitment"] == commitment(SECRET, 1)
    assert sorted(deals_seen) == [0, 1] and deals_seen[0] != deals_seen[1]
    for text in rest:
        assert SECRET not in text
    # the match is over: the replay reveals the seed and checks every deal against it
    room = c.get(f"/api/rooms/{code}", params={"token": tokens[0]}).json()
    replay = c.get(f"/api/replays/{room['replay_id']}").json()
    fair = replay["fair"]
    assert fair["seed"] == SECRET and fair["verified"] is True
    assert fair["text"]["en"][0] == "Verified: the hands of every deal (2) follow from the revealed seed"
    assert fair["text"]["zh"][0] == "已验证：全部2副牌的手牌都由公布的种子洗出"
    for n, deal in enumerate(replay["deals"]):
        assert deal["commitment"] == deals_seen[n] and deal["check"]["verified"] is True
        assert deal["check"]["text"]["en"][0].startswith(f"Deal {n + 1}: verified")
    # and anyone can check the exported record offline
    record = tmp_path / "match.json"
    record.write_text(c.get(f"/api/replays/{room['replay_id']}/record").text, encoding="utf-8")
    _mount()
    result = CliRunner().invoke(app, ["verify-deal", str(record), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "Deal 1: verified" in result.output and "Deal 2: verified" in result.output
    assert commitment(SECRET, 1)[:12] in result.output


def test_the_server_draws_a_fresh_128_bit_seed_per_room(client: TestClient) -> None:
    seeds = {secret_seed() for _ in range(50)}
    assert len(seeds) == 50 and all(len(s) == 32 and int(s, 16) >= 0 for s in seeds)
    # a room created without a seed gets one from the settings' source, never a small integer
    code = new_room(client, bots=[None, None, "greedy", "greedy"])
    seed = client.app.state.service.rooms[code].seed  # type: ignore[attr-defined]
    assert isinstance(seed, str) and seed.startswith("test:")
    assert join(client, code, 0)


def test_a_secret_seed_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    seen: list[str] = []
    for boot in range(2):
        with TestClient(create_app(url, Settings(bot_delay_ms=0, next_deal_s=0, seed_source=lambda: SECRET))) as c:
            if boot == 0:
                code = new_room(c, bots=[None, None, "greedy", "greedy"], timer=0)
                a, b = join(c, code, 0), join(c, code, 1)
                for tok in (a, b):
                    assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200
            with c.websocket_connect(f"/ws/{code}") as ws:
                texts: list[str] = []
                f = _recv(ws, texts)
                while f["type"] != "snapshot":
                    f = _recv(ws, texts)
                assert f["view"]["deal_index"] == 0  # the bots stop at the first human's turn
                seen.append(f["view"]["commitment"])
                assert all(SECRET not in t for t in texts)
    assert seen == [commitment(SECRET, 0)] * 2  # the same deal, from the stored secret seed


def test_a_version_1_record_imports_and_replays_with_its_check(client: TestClient) -> None:
    text = (Path(__file__).resolve().parents[1] / "data" / "record-v1.json").read_text(encoding="utf-8")
    r = client.post("/api/replays", json=json.loads(text))
    assert r.status_code == 201, r.text
    replay = client.get(f"/api/replays/{r.json()['id']}").json()
    assert replay["fair"]["verified"] is True and replay["fair"]["seed"] == 1234567
    assert [d["commitment"] for d in replay["deals"]] == [None, None]
    assert "version-1" in replay["deals"][0]["check"]["text"]["en"][0]
    # a record whose commitment does not match its seed is refused, naming the deal
    forged = json.loads(text)
    forged["version"] = 2
    forged["deals"][0]["commitment"] = "0" * 64
    r = client.post("/api/replays", json=forged)
    assert r.status_code == 422 and "deal 1: the recorded commitment" in r.json()["detail"]
