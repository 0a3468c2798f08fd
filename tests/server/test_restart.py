"""Kill the real server process (SIGKILL) mid-deal, start it again, finish the deal: every action a
client saw acknowledged is still there, and the table carries on from it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from guandan.server import bench

from .conftest import free_port

pytestmark = pytest.mark.timeout(120)


def start_server(port: int, data: Path) -> subprocess.Popen[bytes]:
    return bench.start_server(port, str(data))  # the same start-up the server benchmark uses


def next_turn(ws: ClientConnection) -> dict[str, Any]:
    while True:
        f = json.loads(ws.recv(timeout=30))
        if f["type"] == "room" and f["room"]["status"] == "over":
            return dict(f)
        if f["type"] in ("update", "snapshot") and f["view"] and f["view"]["to_move"] == 0 and f["view"]["legal"]:
            return dict(f)


def act(ws: ClientConnection, f: dict[str, Any]) -> None:
    a = f["view"]["legal"][0]
    ws.send(json.dumps({"type": "act", "kind": a["kind"], "cards": a["cards"], "combo": a.get("combo"), "seq": f["seq"]}))


def test_kill_mid_deal_restart_and_finish(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(port, tmp_path)
    try:
        code = httpx.post(f"{base}/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 1,
                                                     "seed": 5, "timer": 0}).json()["code"]
        tok = httpx.post(f"{base}/api/rooms/{code}/join", json={"seat": 0, "name": "me"}).json()["token"]
        with connect(f"ws://127.0.0.1:{port}/ws/{code}?token={tok}") as ws:
            httpx.post(f"{base}/api/rooms/{code}/ready", json={"token": tok}).raise_for_status()
            for _ in range(6):
                act(ws, next_turn(ws))
            last = next_turn(ws)  # the broadcast of everything up to here has been received
            assert last["type"] == "update"
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    proc = start_server(port, tmp_path)
    try:
        room = httpx.get(f"{base}/api/rooms/{code}").json()
        assert room["status"] == "playing" and room["seq"] == last["seq"]
        with connect(f"ws://127.0.0.1:{port}/ws/{code}?token={tok}") as ws:
            f = next_turn(ws)
            assert f["type"] == "snapshot" and f["seq"] == last["seq"]
            assert f["view"]["hand"] == last["view"]["hand"] and f["view"]["legal"] == last["view"]["legal"]
            while f["type"] != "room":
                act(ws, f)
                f = next_turn(ws)
        room = httpx.get(f"{base}/api/rooms/{code}", params={"token": tok}).json()
        steps = httpx.get(f"{base}/api/replays/{room['replay_id']}").json()["deals"][0]["steps"]
        assert len(steps) == room["seq"] + 1 and room["seq"] > last["seq"]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
