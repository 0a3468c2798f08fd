"""The table as players live it: the pause after a deal (every hand turned up, 继续, the countdown), the
competition turn timers (40 s for a deal's first play, 15 s after), table talk, 理牌 and the seat names."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from guandan.core.tribute import payers_of
from guandan.core.vocab import Phase
from guandan.server.app import create_app
from guandan.server.rooms import RoomConfig
from guandan.server.table import Settings

from .conftest import counting_seeds, join, new_room
from .test_ws import act_frame, my_turn, recv_until, start

pytestmark = pytest.mark.timeout(90)
Frame = dict[str, Any]


def _client(tmp_path: Path, **settings: Any) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'flow.sqlite3'}",
                                 Settings(bot_delay_ms=0, workers=0, seed_source=counting_seeds("flow"), **settings)))


@pytest.fixture
def waiting_client(tmp_path: Path) -> Iterator[TestClient]:
    """A server whose rooms keep their own deal-end pause (15 s unless the room says otherwise)."""
    with _client(tmp_path) as c:
        yield c


@contextmanager
def seated(c: TestClient, **config: Any) -> Iterator[WebSocketTestSession]:
    """A room against three bots (config as new_room's), seat 0's socket open and the match started."""
    code = new_room(c, **config)
    tok = join(c, code, 0)
    with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        recv_until(ws, lambda f: f["type"] == "snapshot")
        start(c, code, tok)
        yield ws


def _play_to_deal_end(ws: WebSocketTestSession, seat: int = 0) -> Frame:
    """Play the seat's first legal action every turn until an update ends the deal; that update."""
    while True:
        f = recv_until(ws, lambda f: my_turn(seat)(f) or (f["type"] == "update" and "reveal" in f))
        if f["type"] == "update" and "reveal" in f:
            return f
        ws.send_json(act_frame(f["view"]["legal"][0], f["seq"]))


def test_after_a_deal_every_hand_is_shown_and_the_next_waits_for_continue(waiting_client: TestClient) -> None:
    c = waiting_client
    code = new_room(c, max_deals=2)
    tok = join(c, code, 0)
    with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        recv_until(ws, lambda f: f["type"] == "snapshot")
        start(c, code, tok)
        end = _play_to_deal_end(ws)
        reveal = end["reveal"]
        assert len(reveal) == 4 and any(reveal) and not all(reveal)  # the losers' cards, the winners' none
        assert all(isinstance(card, str) for hand in reveal for card in hand)
        assert end["interval"]["waiting"] == [0] and 0 < end["interval"]["left"] <= 15
        assert end["clock"] is None  # no turn runs during the pause
        assert {e["type"] for e in end["events"]} >= {"deal_over", "deal_settled"}
        settled = next(e for e in end["events"] if e["type"] == "deal_settled")
        nxt_view = end["view"]  # the next deal, dealt already: its payers are the core's
        want = payers_of(settled["finish"]) if nxt_view["phase"] in (Phase.TRIBUTE, Phase.CHOOSE) else []
        assert nxt_view["tribute_payers"] == want
        # nothing moves until the player taps 继续: acting is refused, the bots wait
        ws.send_json({"type": "act", "kind": "pass", "cards": []})
        refused = recv_until(ws, lambda f: f["type"] == "error")
        assert refused["code"] == "interval"
        seq = end["seq"]
        ws.send_json({"type": "ping"})
        assert recv_until(ws, lambda f: f["type"] == "pong")["seq"] == seq
        # a page opened now (a refresh) gets the pause with the hands and the result
        with c.websocket_connect(f"/ws/{code}?token={tok}") as again:
            snap = recv_until(again, lambda f: f["type"] == "snapshot")
            assert snap["interval"]["reveal"] == reveal
            assert [e["type"] for e in snap["interval"]["events"]] == ["deal_over", "deal_settled"]
            # the level the hands were played at (their wildcard), where the view is the next deal's
            assert snap["interval"]["level"] == "2" and snap["view"]["level"] != "2"
        ws.send_json({"type": "continue"})
        done = recv_until(ws, lambda f: f["type"] == "interval")
        assert done["done"] is True and done["waiting"] == []
        view = end["view"]  # the next deal, dealt already
        if view["to_move"] == 0:
            ws.send_json(act_frame(view["legal"][0], seq))
        nxt = recv_until(ws, lambda f: f["type"] == "update")
        assert nxt["seq"] == seq + 1  # the table goes on


def test_the_pause_runs_out_by_itself(tmp_path: Path) -> None:
    with _client(tmp_path, next_deal_s=0.4) as c, seated(c, max_deals=2) as ws:
        end = _play_to_deal_end(ws)
        t0 = time.monotonic()
        done = recv_until(ws, lambda f: f["type"] == "interval" and f["done"])
        assert time.monotonic() - t0 < 5 and done["waiting"] == []
        if end["view"]["to_move"] == 0:
            ws.send_json(act_frame(end["view"]["legal"][0], end["seq"]))
        recv_until(ws, lambda f: f["type"] == "update" and f["seq"] == end["seq"] + 1)


def test_no_pause_for_bots_or_for_auto_play(tmp_path: Path) -> None:
    with _client(tmp_path) as c, seated(c, max_deals=2) as ws:
        ws.send_json({"type": "auto", "on": True})  # 托管: nobody to wait for
        end = recv_until(ws, lambda f: f["type"] == "update" and "reveal" in f, limit=20000)
        assert "interval" not in end
        recv_until(ws, lambda f: f["type"] == "room" and f["room"]["status"] == "over", limit=20000)


def test_turn_timers_are_40_seconds_for_a_deals_first_play_and_15_after(waiting_client: TestClient) -> None:
    assert (RoomConfig().first_timer, RoomConfig().timer) == (40, 15)
    c = waiting_client
    code = new_room(c, timer=15, seed=11)
    tok = join(c, code, 0)
    seen: list[tuple[int, bool]] = []
    with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        recv_until(ws, lambda f: f["type"] == "snapshot")
        start(c, code, tok)
        while len(seen) < 3:
            f = recv_until(ws, my_turn(0))
            view = f["view"]
            # the deal's first play: nothing played yet (nobody can pass before the first play)
            first = view["phase"] != "play" or sum(view["played_counts"]) == 0
            clock = f["clock"]
            assert clock["seat"] == 0 and 0 < clock["left"] <= clock["seconds"]
            seen.append((clock["seconds"], first))
            ws.send_json(act_frame(view["legal"][0], f["seq"]))
    assert all(seconds == (40 if first else 15) for seconds, first in seen), seen
    assert any(not first for _, first in seen)


def test_a_bots_turn_and_an_untimed_room_show_no_clock(waiting_client: TestClient) -> None:
    c = waiting_client
    with seated(c, timer=0) as ws:
        f = recv_until(ws, my_turn(0))
        assert f["clock"] is None


def test_table_talk_is_broadcast_checked_and_rate_limited(waiting_client: TestClient) -> None:
    c = waiting_client
    code = new_room(c, bots=[None, "greedy", None, "greedy"])
    tok0, tok2 = join(c, code, 0), join(c, code, 2, "friend")
    with c.websocket_connect(f"/ws/{code}?token={tok0}") as ws, \
            c.websocket_connect(f"/ws/{code}?token={tok2}") as mate, c.websocket_connect(f"/ws/{code}") as watcher:
        for sock in (ws, mate, watcher):
            recv_until(sock, lambda f: f["type"] == "snapshot")
        ws.send_json({"type": "talk", "phrase": "nice"})
        for sock in (ws, mate, watcher):
            assert recv_until(sock, lambda f: f["type"] == "talk") == {"type": "talk", "seat": 0, "phrase": "nice"}
        mate.send_json({"type": "talk", "phrase": "thumbs"})
        assert recv_until(ws, lambda f: f["type"] == "talk")["phrase"] == "thumbs"
        ws.send_json({"type": "talk", "phrase": "you are bad"})
        assert recv_until(ws, lambda f: f["type"] == "error")["code"] == "bad_phrase"
        watcher.send_json({"type": "talk", "phrase": "nice"})
        assert recv_until(watcher, lambda f: f["type"] == "error")["code"] == "spectator"
        for _ in range(2):  # the burst is 3: one was spent above
            ws.send_json({"type": "talk", "phrase": "luck"})
        ws.send_json({"type": "talk", "phrase": "luck"})
        f = recv_until(ws, lambda f: f["type"] == "error")
        assert f["code"] == "rate_limited"
        told = [recv_until(mate, lambda f: f["type"] == "talk") for _ in range(3)]
        assert [(t["seat"], t["phrase"]) for t in told] == [(2, "thumbs"), (0, "luck"), (0, "luck")]


def test_arrange_groups_the_own_hand_exactly(waiting_client: TestClient) -> None:
    c = waiting_client
    with seated(c) as ws:
        snap = recv_until(ws, lambda f: f["type"] == "snapshot" and f["view"] is not None)
        ws.send_json({"type": "arrange"})
        got = recv_until(ws, lambda f: f["type"] == "arrangement")
    cards = [card for g in got["groups"] for card in g["cards"]]
    hand = snap["view"]["hand"]
    assert Counter(cards) == Counter(hand) and len(hand) == 27
    kinds = [g["kind"] for g in got["groups"]]
    order = ["bomb", "straight_flush", "joker_bomb", "straight", "tube", "plate", "triple", "pair", "single"]
    assert all(k in order for k in kinds)
    bands = [0 if k in ("bomb", "straight_flush", "joker_bomb") else 1 if k in ("straight", "tube", "plate")
             else order.index(k) - 4 for k in kinds]
    assert bands == sorted(bands)  # bombs, runs, triples, pairs, singles


def test_bots_are_told_apart_by_seat_and_tier_in_both_languages(waiting_client: TestClient) -> None:
    c = waiting_client
    with seated(c) as ws:
        while True:
            f = recv_until(ws, lambda f: my_turn(0)(f) or (f["type"] == "update" and f["action"]["seat"] == 1))
            if f["type"] == "update" and f["action"]["seat"] == 1:
                break
            ws.send_json(act_frame(f["view"]["legal"][0], f["seq"]))
    text = next(e["text"] for e in f["events"] if e["type"] in ("play", "pass", "tribute"))
    assert text["en"][0].startswith("Bot 2 · Greedy") and text["zh"][0].startswith("机器人2·贪心"), text


def test_a_selection_that_is_no_play_is_told_why_before_it_is_sent(waiting_client: TestClient) -> None:
    c = waiting_client
    with seated(c) as ws:
        f = recv_until(ws, my_turn(0))
        hand = f["view"]["hand"]
        ranks: dict[str, str] = {}
        for card in hand:
            if card not in ("LJ", "BJ") and card != f"H{f['view']['level']}":
                ranks.setdefault(card[1], card)
        two = list(ranks.values())[:2]  # two cards of different ranks: no combination
        ws.send_json({"type": "readings", "cards": two})
        got = recv_until(ws, lambda f: f["type"] == "readings")
    assert got["actions"] == [] and got["why"]["code"] == "no_combination"
    assert got["why"]["text"] == {"zh": "这几张牌组不成牌型。", "en": "These cards make no combination."}


def test_the_verdict_names_the_play_and_the_table() -> None:
    from guandan.core import parse_cards, parse_level, preset
    from guandan.core.combos import classify
    from guandan.server.wire import selection_verdict

    rules, level = preset("competition"), parse_level("2")
    top = classify(parse_cards("SK HK"), level, rules)[0]
    low = selection_verdict(parse_cards("S5 H5"), top, level, rules)
    assert low["code"] == "too_low" and low["text"]["en"] == "pair 5 does not beat pair K."
    assert low["text"]["zh"] == "对子 5管不上对子 K。"
    other = selection_verdict(parse_cards("S5 H5 C5"), top, level, rules)
    assert other["code"] == "other_kind" and other["text"]["en"].startswith("triple 5 cannot follow pair K")
    bomb = classify(parse_cards("SK HK CK DK SK"), level, rules)[0]
    lower = selection_verdict(parse_cards("S5 H5 C5 D5"), bomb, level, rules)
    assert lower["code"] == "too_low" and lower["text"]["en"] == "bomb 5 ×4 does not beat bomb K ×5."


def test_switching_auto_play_on_during_the_pause_stops_waiting_for_that_seat(waiting_client: TestClient) -> None:
    c = waiting_client
    with seated(c, max_deals=2) as ws:
        end = _play_to_deal_end(ws)
        assert end["interval"]["waiting"] == [0]
        ws.send_json({"type": "auto", "on": True})
        done = recv_until(ws, lambda f: f["type"] == "interval")
        assert done["done"] is True
        recv_until(ws, lambda f: f["type"] == "update" and f["seq"] == end["seq"] + 1)  # 托管 plays on at once
