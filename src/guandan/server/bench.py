"""`guandan bench server`: the web app in its own process on a free loopback port (SQLite in a temporary
directory, the action log committed per action as in production), and N tables of four bot clients
speaking the same WebSocket protocol as the browser. Each client acts on its turn after a thinking
pause; latency is the time from sending an action to receiving the update that broadcasts it.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from ..core.vocab import ActionKind


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    matches_over: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, data: str) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-c", "from guandan.cli import main; main()", "serve", "--port", str(port), "--data", data,
           "--no-rate-limits", "--bot-delay-ms", "0"]
    env = {**os.environ, "GUANDAN_DATA_DIR": data}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start within 60 s")


async def bot_client(url: str, seat: int, rng: random.Random, think: float, tally: Tally, stop: asyncio.Event) -> None:
    sent: dict[int, float] = {}  # the seq an action was sent at -> send time
    async with websockets.connect(url, max_size=2**22) as ws:
        pending: asyncio.Task[None] | None = None

        async def act(view: dict[str, Any], seq: int) -> None:
            await asyncio.sleep(think * (0.5 + rng.random()))
            legal = view["legal"]
            plays = [a for a in legal if a["kind"] != ActionKind.PASS]
            choice = rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(legal)
            sent[seq] = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "kind": choice["kind"], "cards": choice["cards"],
                                      "combo": choice.get("combo"), "seq": seq}))

        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            frame = json.loads(raw)
            kind = frame["type"]
            if kind == "error":
                tally.errors.append(frame["message"])
                continue
            if kind == "room" and frame["room"]["status"] == "over" and seat == 0:
                tally.matches_over += 1
            if kind not in ("update", "snapshot") or frame.get("view") is None:
                continue
            seq = frame["seq"]
            t0 = sent.pop(seq - 1, None)
            if t0 is not None and kind == "update" and frame["action"]["seat"] == seat:
                tally.latencies.append(time.perf_counter() - t0)
                tally.actions += 1
            view = frame["view"]
            if view["to_move"] == seat and view["legal"] and not view["ended"]:
                pending = asyncio.create_task(act(view, seq))
        if pending is not None:
            pending.cancel()


async def _run(base: str, tables: int, seconds: float, think: float, seed: int) -> tuple[Tally, float]:
    tally = Tally()
    stop = asyncio.Event()
    clients: list[asyncio.Task[None]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        setups = []
        for t in range(tables):
            r = await http.post("/api/rooms", json={"seed": seed * 10_000 + t, "timer": 0, "bot_delay_ms": 0})
            r.raise_for_status()
            code = r.json()["code"]
            tokens = []
            for s in range(4):
                j = await http.post(f"/api/rooms/{code}/join", json={"seat": s, "name": f"b{s}"})
                j.raise_for_status()
                tokens.append(j.json()["token"])
            setups.append((code, tokens))
        ws_base = base.replace("http", "ws")
        for t, (code, tokens) in enumerate(setups):
            for s, tok in enumerate(tokens):
                rng = random.Random(f"bench:{seed}:{t}:{s}")
                clients.append(asyncio.create_task(bot_client(f"{ws_base}/ws/{code}?token={tok}", s, rng, think, tally, stop)))
        await asyncio.sleep(1.0)  # every socket open before the clock starts
        for code, tokens in setups:
            for tok in tokens:
                (await http.post(f"/api/rooms/{code}/ready", json={"token": tok})).raise_for_status()
        t0 = time.perf_counter()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - t0
        stop.set()
        results = await asyncio.gather(*clients, return_exceptions=True)
    tally.errors.extend(f"client failed: {r!r}" for r in results if isinstance(r, BaseException))
    return tally, elapsed


def run_bench(tables: int, seconds: float, think_ms: int, seed: int = 1) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="guandan-bench-") as data:
        port = free_port()
        proc = start_server(port, data)
        try:
            gc.freeze()
            gc.set_threshold(20_000, 20, 100)  # the measuring side's own collections would show up as latency
            tally, elapsed = asyncio.run(_run(f"http://127.0.0.1:{port}", tables, seconds, think_ms / 1000, seed))
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    lat = sorted(tally.latencies)

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    return {
        "tables": tables, "seconds": round(elapsed, 2), "think_ms": think_ms, "actions": tally.actions,
        "actions_per_s": round(tally.actions / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(pct(0.50), 2), "p99_ms": round(pct(0.99), 2),
        "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else float("nan"),
        "errors": len(tally.errors), "first_errors": tally.errors[:5], "matches_over": tally.matches_over,
    }


def format_report(r: dict[str, Any]) -> str:
    lines = [
        f"tables            {r['tables']} (4 bot clients each, think {r['think_ms']} ms)",
        f"measured          {r['seconds']} s",
        f"actions           {r['actions']}  ({r['actions_per_s']} actions/s)",
        f"latency p50/p99   {r['p50_ms']} / {r['p99_ms']} ms  (action sent -> its broadcast received)",
        f"errors            {r['errors']}",
    ]
    lines.extend(f"  {e}" for e in r["first_errors"])
    return "\n".join(lines)
