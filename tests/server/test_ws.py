"""The table WebSocket: every client message type, malformed and out-of-turn frames, 托管, resume,
spectators, tokens and rate limits. Bots are greedy with no pause so deals run fast."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from guandan.agents import base as agents_base
from guandan.agents.base import Agent
from guandan.agents.hints import HintReason
from guandan.core.deal import Action
from guandan.core.match import MatchObservation
from guandan.server.app import create_app
from guandan.server.table import Settings
from wire_schema import check

from .conftest import join, new_room

pytestmark = pytest.mark.timeout(60)
Frame = dict[str, Any]


def recv_until(ws: WebSocketTestSession, pred: Callable[[Frame], bool], limit: int = 5000) -> Frame:
    for _ in range(limit):
        f: Frame = ws.receive_json()
        if pred(f):
            return f
    raise AssertionError("the expected frame never came")


def my_turn(seat: int) -> Callable[[Frame], bool]:
    return lambda f: f["type"] in ("update", "snapshot") and f["view"] is not None and f["view"]["to_move"] == seat \
        and bool(f["view"].get("legal"))


def start(c: TestClient, code: str, *tokens: str) -> None:
    for tok in tokens:
        assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200


def act_frame(action: Frame, seq: int | None = None) -> Frame:
    f = {"type": "act", "kind": action["kind"], "cards": action["cards"], "combo": action.get("combo")}
    if seq is not None:
        f["seq"] = seq
    return f


def current_seq(ws: WebSocketTestSession) -> int:
    ws.send_json({"type": "ping"})
    return int(recv_until(ws, lambda f: f["type"] == "pong")["seq"])


def test_a_player_finishes_a_deal_against_bots_and_a_replay_is_kept(client: TestClient) -> None:
    code = new_room(client)
    tok = join(client, code, 0)
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        assert ws.receive_json() == {"type": "welcome", "role": "player", "seat": 0}
        assert ws.receive_json()["type"] == "snapshot"
        start(client, code, tok)
        acted = 0
        while True:
            f = recv_until(ws, lambda f: my_turn(0)(f) or (f["type"] == "room" and f["room"]["status"] == "over"))
            if f["type"] == "room":
                break
            view = f["view"]
            assert len(view["hand"]) >= 1 and "hands" not in view
            ws.send_json(act_frame(view["legal"][0], f["seq"]))
            acted += 1
    room = client.get(f"/api/rooms/{code}", params={"token": tok}).json()  # the replay's link: for its players
    assert acted > 0 and room["status"] == "over" and room["replay_id"]
    assert client.get(f"/api/rooms/{code}").json()["replay_id"] is None
    frames = client.get(f"/api/replays/{room['replay_id']}").json()
    assert len(frames["deals"]) == 1 and len(frames["deals"][0]["steps"]) == room["seq"] + 1


MALFORMED: list[tuple[str, str]] = [
    ("not json", "bad_message"),
    ('{"type": "dance"}', "bad_message"),
    ('{"kind": "pass"}', "bad_message"),
    ('{"type": "act"}', "bad_message"),
    ('{"type": "act", "kind": "steal", "cards": []}', "bad_message"),
    ('{"type": "act", "kind": "play", "cards": "S3"}', "bad_message"),
    ('{"type": "act", "kind": "play", "cards": [3]}', "bad_message"),
    ('{"type": "act", "kind": "pass", "cards": [], "extra": 1}', "bad_message"),
    ('{"type": "auto", "on": "yes"}', "bad_message"),
    ('{"type": "resume", "since": -1}', "bad_message"),
    ('{"type": "hint", "k": 99}', "bad_message"),
    ('[1, 2, 3]', "bad_message"),
    ('{"type": "ping", "pad": "' + "x" * 9000 + '"}', "too_large"),
]


def test_malformed_frames_are_answered_with_an_error_and_change_nothing(client: TestClient) -> None:
    code = new_room(client)
    tok = join(client, code, 0)
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        start(client, code, tok)
        f = recv_until(ws, my_turn(0))
        seq, hand = f["seq"], f["view"]["hand"]
        for text, code_ in MALFORMED:
            ws.send_text(text)
            err = recv_until(ws, lambda f: f["type"] == "error")
            assert err["code"] == code_, text
            assert err["message"]
        ws.send_bytes(b"\x00\x01")
        assert recv_until(ws, lambda f: f["type"] == "error")["code"] == "bad_message"
        assert current_seq(ws) == seq
        ws.send_json({"type": "resume", "since": 0})
        catch = recv_until(ws, lambda f: f["type"] in ("catchup", "snapshot"))
        assert catch["view"]["hand"] == hand


def test_illegal_actions_name_the_problem_and_change_nothing(client: TestClient) -> None:
    code = new_room(client)
    tok = join(client, code, 0)
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        start(client, code, tok)
        f = recv_until(ws, my_turn(0))
        seq, view = f["seq"], f["view"]
        not_mine = next(c for c in ["S3", "H3", "C3", "D3", "S4", "H4", "C4", "D4", "S5", "H5"] if c not in view["hand"])
        leading = view["top"] is None
        cases: list[tuple[Frame, str]] = [
            ({"type": "act", "kind": "play", "cards": [not_mine]}, "does not hold"),
            ({"type": "act", "kind": "play", "cards": ["S3", "BJ"]}, ""),
            ({"type": "act", "kind": "play", "cards": ["XX"]}, ""),
            ({"type": "act", "kind": "tribute", "cards": [view["hand"][0]]}, ""),
            ({"type": "act", "kind": "pass", "cards": [view["hand"][0]]}, "no cards"),
            ({"type": "act", "kind": "pass", "cards": [], "combo": {"type": "single"}}, "no combo"),
            ({"type": "act", "kind": "play", "cards": [view["hand"][0]], "combo": {"type": "bomb"}}, "cannot be declared"),
        ]
        if leading:
            cases.append(({"type": "act", "kind": "pass", "cards": []}, "leader must play"))
        for frame, why in cases:
            ws.send_json(frame)
            err = recv_until(ws, lambda f: f["type"] == "error")
            assert err["code"] == "illegal", (frame, err)
            assert why in err["message"], (frame, err)
        ws.send_json(act_frame(view["legal"][0], seq + 5))
        assert recv_until(ws, lambda f: f["type"] == "error")["code"] == "stale"
        assert current_seq(ws) == seq


def test_out_of_turn_and_forged_seats_are_refused(client: TestClient) -> None:
    code = new_room(client, bots=[None, None, "greedy", "greedy"])
    a, b = join(client, code, 0), join(client, code, 1)
    with client.websocket_connect(f"/ws/{code}?token={a}") as wa, client.websocket_connect(f"/ws/{code}?token={b}") as wb:
        start(client, code, a, b)
        waiting, mover, mover_ws = None, None, None
        f = recv_until(wa, lambda f: f["type"] in ("update", "snapshot") and f["view"] is not None
                       and f["view"]["to_move"] in (0, 1))
        mover = f["view"]["to_move"]
        mover_ws, waiting = (wa, wb) if mover == 0 else (wb, wa)
        seq = f["seq"]
        waiting.send_json({"type": "act", "kind": "pass", "cards": []})
        err = recv_until(waiting, lambda f: f["type"] == "error")
        assert err["code"] == "not_your_turn"
        waiting.send_json({"type": "hint"})
        assert recv_until(waiting, lambda f: f["type"] == "error")["code"] == "not_your_turn"
        assert current_seq(mover_ws) == seq
    # a token is only good for its own room and seat
    other = new_room(client)
    with client.websocket_connect(f"/ws/{other}?token={a}") as ws:
        assert ws.receive_json()["code"] == "forbidden"
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4403
    with client.websocket_connect("/ws/NOROOM") as ws:
        assert ws.receive_json()["code"] == "no_room"


def test_a_seat_left_takes_its_sockets_with_it(client: TestClient) -> None:
    code = new_room(client, bots=[None, "greedy", "greedy", "greedy"])
    a = join(client, code, 0, "a")
    with client.websocket_connect(f"/ws/{code}?token={a}") as old:
        recv_until(old, lambda f: f["type"] == "snapshot")
        assert client.post(f"/api/rooms/{code}/leave", json={"token": a}).status_code == 200
        with pytest.raises(WebSocketDisconnect) as exc:  # ended: it neither sees nor plays the next occupant's hand
            recv_until(old, lambda f: False)
        assert exc.value.code == 4403
    b = join(client, code, 0, "b")
    with client.websocket_connect(f"/ws/{code}?token={b}") as ws:
        start(client, code, b)
        f = recv_until(ws, lambda f: f["type"] == "room" and f["room"]["status"] == "playing")
        assert f["room"]["seats"][0]["online"] is True


def test_hint_suggests_legal_actions(client: TestClient) -> None:
    code = new_room(client)
    tok = join(client, code, 0)
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        start(client, code, tok)
        f = recv_until(ws, my_turn(0))
        ws.send_json({"type": "hint", "k": 2})
        h = recv_until(ws, lambda f: f["type"] == "hint")
        legal = f["view"]["legal"]
        assert 1 <= len(h["hints"]) <= 2
        for hint in h["hints"]:
            assert hint["action"] in legal and hint["reason"] in set(HintReason)
            assert len(hint["text"]["zh"]) == 2 and len(hint["text"]["en"]) == 2  # the play, and why
        ws.send_json(act_frame(h["hints"][0]["action"], f["seq"]))
        upd = recv_until(ws, lambda f: f["type"] == "update")
        assert upd["seq"] == f["seq"] + 1 and upd["action"]["seat"] == 0


def test_auto_play_takes_over_and_can_be_switched_off(client: TestClient) -> None:
    # seat 2 is a second human who holds the table at its turns, so the switch-off lands mid-deal
    code = new_room(client, bots=[None, "greedy", None, "greedy"])
    a, b = join(client, code, 0), join(client, code, 2)
    with client.websocket_connect(f"/ws/{code}?token={a}") as ws, client.websocket_connect(f"/ws/{code}?token={b}") as w2:
        ws.send_json({"type": "auto", "on": True})
        assert recv_until(ws, lambda f: f["type"] == "error")["code"] == "not_playing"
        start(client, code, a, b)
        f = recv_until(ws, lambda f: f["type"] in ("update", "snapshot") and f["view"] is not None
                       and f["view"]["to_move"] in (0, 2))
        if f["view"]["to_move"] == 2:
            g = recv_until(w2, my_turn(2))
            w2.send_json(act_frame(g["view"]["legal"][0], g["seq"]))
            recv_until(ws, my_turn(0))
        ws.send_json({"type": "auto", "on": True})
        recv_until(ws, lambda f: f["type"] == "room" and f["room"]["seats"][0]["auto"])
        # the bot now plays seat 0 through the same path as everyone
        recv_until(ws, lambda f: f["type"] == "update" and f["action"]["seat"] == 0)
        ws.send_json({"type": "auto", "on": False})  # seat 2 has not acted: still the same round
        recv_until(ws, lambda f: f["type"] == "room" and not f["room"]["seats"][0]["auto"])
        g = recv_until(w2, my_turn(2))
        w2.send_json(act_frame(g["view"]["legal"][0], g["seq"]))
        f = recv_until(ws, lambda f: my_turn(0)(f) or (f["type"] == "room" and f["room"]["status"] == "over"))
        if f["type"] != "room":
            assert current_seq(ws) == f["seq"]  # nobody plays for seat 0 any more: the table waits


def test_switching_auto_play_is_budgeted_per_seat(tmp_path: Path) -> None:
    """Each switch of 托管 is a commit and a frame to every socket: a seat gets Settings.auto_burst of them
    at once; switching to what it already is costs and sends nothing."""
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", Settings(bot_delay_ms=0, next_deal_s=0, auto_rate=0.001,
                                                                         auto_burst=4))
    with TestClient(app) as c:
        code = new_room(c, bots=[None, "greedy", None, "greedy"])
        a, b = join(c, code, 0), join(c, code, 2)
        with c.websocket_connect(f"/ws/{code}?token={a}") as ws, c.websocket_connect(f"/ws/{code}?token={b}") as other:
            start(c, code, a, b)
            recv_until(ws, lambda f: f["type"] == "snapshot" and f["view"] is not None)
            recv_until(other, lambda f: f["type"] == "snapshot" and f["view"] is not None)
            frames: list[Frame] = []
            for on in (False, False, True, False, True, False, True, False):  # the first two: already off
                ws.send_json({"type": "auto", "on": on})
            ws.send_json({"type": "ping"})
            while (f := ws.receive_json())["type"] != "pong":
                frames.append(f)
            other.send_json({"type": "ping"})
            told = []  # what every other socket of the room was sent
            while (f := other.receive_json())["type"] != "pong":
                told.append(f)
    answers = [f["room"]["seats"][0]["auto"] for f in frames if f["type"] == "room"]
    refused = [f for f in frames if f["type"] == "error"]
    # the asker hears every answer: the state as it already was (twice), four switches, the last as it is
    assert answers == [False, False, True, False, True, False, False]
    assert [f["code"] for f in refused] == ["rate_limited"]  # the seventh: past the budget of four
    assert [f["room"]["seats"][0]["auto"] for f in told if f["type"] == "room"] == [True, False, True, False]
    assert refused[0]["text"]["en"] == "Auto-play was switched on and off too often from your seat: wait a moment."


def test_timer_expiry_hands_the_seat_to_a_bot(client: TestClient) -> None:
    code = new_room(client, timer=1)
    tok = join(client, code, 0)
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        start(client, code, tok)
        f = recv_until(ws, my_turn(0))
        room = recv_until(ws, lambda g: g["type"] == "room" and g["room"]["seats"][0]["auto"])
        assert room["room"]["seats"][0]["auto"]
        upd = recv_until(ws, lambda g: g["type"] == "update" and g["action"]["seat"] == 0)
        assert upd["seq"] == f["seq"] + 1


def test_resume_catches_up_from_a_sequence_number(client: TestClient) -> None:
    code = new_room(client)
    tok = join(client, code, 0)
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        start(client, code, tok)
        f = recv_until(ws, my_turn(0))
        ws.send_json(act_frame(f["view"]["legal"][0], f["seq"]))
        f = recv_until(ws, my_turn(0))
        seq = f["seq"]
        assert seq >= 4
        ws.send_json({"type": "resume", "since": seq - 1})
        c = recv_until(ws, lambda g: g["type"] == "catchup")
        assert [u["seq"] for u in c["updates"]] == [seq] and c["view"]["hand"] == f["view"]["hand"]
        ws.send_json({"type": "resume", "since": seq + 3})
        assert recv_until(ws, lambda g: g["type"] == "error")["code"] == "bad_seq"
        ws.send_json({"type": "resume", "since": 0})
        c = recv_until(ws, lambda g: g["type"] == "catchup")
        assert [u["seq"] for u in c["updates"]] == list(range(1, seq + 1))


def test_catching_up_is_charged_by_what_it_carries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A catch-up is built on the loop: one from far back costs by the updates it carries, and a refusal
    says so; a recent one costs next to nothing."""
    from guandan.server import table
    monkeypatch.setattr(table, "RESUME_UPDATES_PER_UNIT", 1)
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}",
                     Settings(bot_delay_ms=0, next_deal_s=0, work_rate=0.001, work_burst=3.0))
    with TestClient(app) as c:
        code = new_room(c)
        tok = join(c, code, 0)
        with c.websocket_connect(f"/ws/{code}?token={tok}") as ws, c.websocket_connect(f"/ws/{code}") as spectator:
            start(c, code, tok)
            f = recv_until(ws, my_turn(0))
            ws.send_json(act_frame(f["view"]["legal"][0], f["seq"]))
            seq = recv_until(ws, my_turn(0))["seq"]
            assert seq >= 4

            def resume(since: int) -> Frame:
                spectator.send_json({"type": "resume", "since": since})
                return recv_until(spectator, lambda g: g["type"] in ("catchup", "error"))

            for _ in range(5):  # nothing to carry: a tenth of a unit each
                assert resume(seq)["type"] == "catchup"
            refused = resume(0)  # seq units, more than the 2.5 left
            assert refused["code"] == "rate_limited"
            assert refused["text"]["en"] == "This page asked to catch up with the table too often: wait a moment."
            assert resume(seq - 1)["type"] == "catchup"  # one update: one unit, still there
            ws.send_json({"type": "resume", "since": seq - 2})  # another connection's budget is its own
            assert recv_until(ws, lambda g: g["type"] in ("catchup", "error"))["type"] == "catchup"


def _cards_in(obj: Any, out: set[str]) -> None:
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("cards", "hand") and isinstance(v, list):
                out.update(x for x in v if isinstance(x, str))
            elif k in ("result",) and isinstance(v, list):
                out.update(x[-1] for x in v if isinstance(x, list) and x)
            else:
                _cards_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _cards_in(v, out)


def test_spectators_see_public_information_only(client: TestClient) -> None:
    code = new_room(client, max_deals=2, seed=3)
    tok = join(client, code, 0)
    with client.websocket_connect(f"/ws/{code}") as spec, client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        assert spec.receive_json()["role"] == "spectator"
        start(client, code, tok)
        public: set[str] = set()
        reported: set[int] = set()
        frames = 0
        while True:
            f = recv_until(ws, lambda g: my_turn(0)(g) or (g["type"] == "room" and g["room"]["status"] == "over"))
            # drain the spectator up to the same sequence number
            while True:
                s = spec.receive_json()
                if s["type"] in ("update", "snapshot") and s["view"] is not None:
                    frames += 1
                    assert "hand" not in s["view"] and "legal" not in s["view"]
                    check("PublicView", s["view"])
                    for e in s.get("events", []):
                        check("Event", e)
                    # a count is public only once its seat has reported (报牌)
                    for e in s.get("events", []) + s["view"].get("events", []):
                        if e["type"] == "deal_start":
                            reported.clear()
                        elif e["type"] == "report":
                            reported.add(e["seat"])
                    assert {int(k) for k in s["view"]["reported"]} <= reported
                    for e in s.get("events", []) + s["view"].get("events", []):
                        _cards_in(e, public)
                    if s["view"]["top"]:
                        _cards_in(s["view"]["top"], public)
                    seen: set[str] = set()
                    _cards_in(s, seen)
                    assert seen <= public, seen - public  # every card a spectator sees was shown publicly
                    if f["type"] == "room" or s["seq"] >= f["seq"]:
                        break
                elif s["type"] == "room" and s["room"]["status"] == "over":
                    break
            if f["type"] == "room":
                break
            check("SeatView", f["view"])
            ws.send_json(act_frame(f["view"]["legal"][-1], f["seq"]))
        spec.send_json({"type": "act", "kind": "pass", "cards": []})
        assert recv_until(spec, lambda g: g["type"] == "error")["code"] == "spectator"
    assert frames > 20


def test_message_rate_limit(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", Settings(bot_delay_ms=0, next_deal_s=0, msg_rate=0.001, msg_burst=3))
    with TestClient(app) as c:
        code = new_room(c)
        with c.websocket_connect(f"/ws/{code}") as ws:
            for _ in range(4):
                ws.send_json({"type": "ping"})
            kinds = [recv_until(ws, lambda f: f["type"] in ("pong", "error"))["type"] for _ in range(4)]
    assert kinds == ["pong", "pong", "pong", "error"]
    with TestClient(app) as c:  # binary frames are charged too
        code = new_room(c)
        with c.websocket_connect(f"/ws/{code}") as ws:
            for _ in range(4):
                ws.send_bytes(b"{}")
            codes = [recv_until(ws, lambda f: f["type"] == "error")["code"] for _ in range(4)]
    assert codes == ["bad_message"] * 3 + ["rate_limited"]


class _Sleepy(Agent):
    """A stand-in for a thinking tier: half a second per decision."""

    name = "sleepy"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        time.sleep(0.5)
        return legal[0]


@contextmanager
def _first_play_against(client: TestClient, bot: str) -> Iterator[tuple[WebSocketTestSession, Frame]]:
    """Seat 0 is a person, seats 1–3 are ``bot``: start, make seat 0's first play, and hand over the
    socket with the frame that play answered."""
    code = new_room(client, bots=[None, bot, bot, bot])
    tok = join(client, code, 0)
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        start(client, code, tok)
        f = recv_until(ws, my_turn(0))
        ws.send_json(act_frame(f["view"]["legal"][0], f["seq"]))
        yield ws, f


def test_a_thinking_bot_does_not_hold_the_event_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(agents_base._REGISTRY, "sleepy", lambda seed, budget: _Sleepy(seed, budget))
    with _first_play_against(client, "sleepy") as (ws, f):
        recv_until(ws, lambda g: g["type"] == "update" and g["seq"] == f["seq"] + 1)
        t0 = time.perf_counter()
        assert current_seq(ws) == f["seq"] + 1  # seat 1 is still thinking, yet the server answers at once
        assert time.perf_counter() - t0 < 0.3
        upd = recv_until(ws, lambda g: g["type"] == "update")
        assert upd["action"]["seat"] == 1


class _Faulty(Agent):
    """A bot whose every decision raises."""

    name = "faulty"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        raise RuntimeError("bot bug")


def _unbuildable(seed: int | str, budget: float | None) -> Agent:
    raise RuntimeError("cannot build this bot")


@pytest.mark.parametrize("bot", ["faulty", "unbuildable"])
def test_a_faulty_or_unbuildable_bot_does_not_stall_the_table(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                                            bot: str) -> None:
    """The server plays the first legal action for a bot that raises, or cannot even be built."""
    monkeypatch.setitem(agents_base._REGISTRY, "faulty", lambda seed, budget: _Faulty(seed, budget))
    monkeypatch.setitem(agents_base._REGISTRY, "unbuildable", _unbuildable)
    with _first_play_against(client, bot) as (ws, _):
        seats = [recv_until(ws, lambda g: g["type"] == "update")["action"]["seat"] for _ in range(4)]
    assert seats == [0, 1, 2, 3]  # seat 0's play, then every bot seat in turn


def test_readings_answer_the_plays_of_a_selection(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A view too long to send whole (火拼 leads reach 80,000 plays) lists no plays and sets
    legal_complete false; the client asks for the plays of its selection with a readings frame."""
    from guandan.server import wire

    monkeypatch.setattr(wire, "LEGAL_INLINE_MAX", 1)
    code = new_room(client)
    tok = join(client, code, 0)
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        start(client, code, tok)
        f = recv_until(ws, lambda f: f["type"] in ("update", "snapshot") and f["view"] is not None
                       and f["view"]["to_move"] == 0 and f["view"].get("can_play"))
        view = f["view"]
        assert view["legal_complete"] is False and not any(a["kind"] == "play" for a in view["legal"])
        pair = next((c for c in view["hand"] if view["hand"].count(c) == 2 and c not in ("LJ", "BJ")), None)
        single = [view["hand"][-1]]
        ws.send_json({"type": "readings", "cards": single})
        r = recv_until(ws, lambda f: f["type"] == "readings")
        assert r["cards"] == single and r["seq"] == f["seq"]
        assert all(a["kind"] == "play" and a["cards"] == single for a in r["actions"])
        if view["top"] is None:  # leading: any single is a play
            assert [a["combo"]["type"] for a in r["actions"]] == ["single"]
        if pair is not None and view["top"] is None:
            ws.send_json({"type": "readings", "cards": [pair, pair]})
            r2 = recv_until(ws, lambda f: f["type"] == "readings")
            assert [a["combo"]["type"] for a in r2["actions"]] == ["pair"]
        not_held = next(c for c in (f"{s}{k}" for s in "SHCD" for k in "23456789TJQKA") if c not in view["hand"])
        ws.send_json({"type": "readings", "cards": [not_held]})
        err = recv_until(ws, lambda f: f["type"] == "error")
        assert "do not hold" in err["message"]
        ws.send_json({"type": "readings", "cards": ["ZZ"]})
        assert "ZZ" in recv_until(ws, lambda f: f["type"] == "error")["message"]
        if r["actions"]:  # an answered reading is a real action
            ws.send_json(act_frame(r["actions"][0], f["seq"]))
            upd = recv_until(ws, lambda f: f["type"] == "update")
            assert upd["action"]["seat"] == 0 and upd["action"]["cards"] == single


def test_views_carry_the_whole_legal_list_when_it_fits(client: TestClient) -> None:
    code = new_room(client)
    tok = join(client, code, 0)
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        start(client, code, tok)
        f = recv_until(ws, my_turn(0))
        assert f["view"]["legal_complete"] is True
        assert f["view"]["can_play"] == any(a["kind"] == "play" for a in f["view"]["legal"])


def test_a_declared_reading_takes_only_the_fields_of_a_combo(client: TestClient) -> None:
    code = new_room(client)
    tok = join(client, code, 0)
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        start(client, code, tok)
        f = recv_until(ws, my_turn(0))
        play = next(a for a in f["view"]["legal"] if a["kind"] == "play")
        for combo in ({**play["combo"], "bogus": "x"}, {"bogus": 1}, {**play["combo"], "type": None},
                      {**play["combo"], "key": [3, 3]}, {**play["combo"], "size": "5"}):
            ws.send_json({**act_frame(play, f["seq"]), "combo": combo})
            err = recv_until(ws, lambda g: g["type"] == "error")
            assert err["code"] == "bad_message", combo
            assert "None" not in err["text"]["en"] and "[3, 3]" not in err["text"]["en"]
        assert current_seq(ws) == f["seq"]  # nothing was played
        ws.send_json(act_frame(play, f["seq"]))
        assert recv_until(ws, lambda g: g["type"] in ("update", "error"))["type"] == "update"
