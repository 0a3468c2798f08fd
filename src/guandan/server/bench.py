"""`guandan bench server`: the web app in its own process on a free loopback port (SQLite in a temporary
directory, the action log committed per action as in production), and N tables of four bot clients
speaking the same WebSocket protocol as the browser. Each client acts on its turn after a thinking
pause; latency is the time from sending an action to receiving the update that broadcasts it.

``--abuse hints`` adds an attacker beside the honest tables: one seat of a 火拼 practice room whose first
lead has 84,060 plays, held by a dozen sockets that each ask for hints and readings as fast as the server
lets one connection send frames; the report adds what it was answered and refused, and the latency of
``GET /api/meta`` during the run. The honest tables' figures are the ones to compare with a run without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import httpx
import websockets

from ..cliutil import figure_table
from ..core.match import MatchConfig, new_match
from ..core.rules import preset
from ..core.vocab import ActionKind
from ..i18n import N_

T = TypeVar("T")


# --- SIGTERM: the bench stops through the same clean-up as Ctrl-C -------------------------------------------
class Terminated(BaseException):  # as KeyboardInterrupt: no `except Exception` on the way takes it
    """A SIGTERM stopped the bench. Raised where the bench stands (a wait for its server or site, or the run's
    event loop, whose main task is cancelled), so that the clean-up that follows is Ctrl-C's: its server or
    site stopped, its database, folders, files and Redis keys removed."""


_TERMINATED: list[bool] = []  # a SIGTERM has arrived (the note a signal handler makes and nothing else)
_STOPS: list[bool] = []  # inside stopping_on_sigterm: the loop's own handler gives SIGTERM back to the note


def _note_sigterm(_sig: int, _frame: Any) -> None:
    # only a note, never a raise: an exception raised in a Python signal handler is lost when the handler runs
    # inside a __del__ (a connection pool's, say), and the bench played on
    _TERMINATED.append(True)


@contextlib.contextmanager
def stopping_on_sigterm() -> Iterator[None]:
    """Inside, a SIGTERM stops the bench through its clean-up (:class:`Terminated`), as Ctrl-C does: the handler
    notes it, the waits outside an event loop look at the note, and each run's event loop in the main thread takes
    the signal itself and cancels its main task (:func:`run_loop`). On leaving, the process's own SIGTERM handling
    is as it was: a command run in a process that goes on (a test's) leaves nothing of the bench's behind."""
    previous = signal.signal(signal.SIGTERM, _note_sigterm)
    _STOPS.append(True)
    try:
        yield
    finally:
        _STOPS.pop()
        signal.signal(signal.SIGTERM, previous)
        _TERMINATED.clear()


def check_terminated() -> None:
    """:class:`Terminated` once a SIGTERM has arrived (:func:`stop_on_sigterm`)."""
    if _TERMINATED:
        raise Terminated


def run_loop(main: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
    """``asyncio.run(main(*args))``; inside :func:`stopping_on_sigterm`, a SIGTERM cancels the main task and
    :class:`Terminated` follows once it has ended (its ``finally`` blocks and context managers run, the other
    tasks are cancelled), as after Ctrl-C; one that arrived before, too."""
    check_terminated()

    async def guarded() -> T:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None

        def stop() -> None:
            _TERMINATED.append(True)
            task.cancel()

        # only the main thread's loop can take a signal: a bench run in another thread (a test's) is stopped by
        # whoever runs it, and one whose caller did not ask keeps the process's own SIGTERM handling
        if not _STOPS or threading.current_thread() is not threading.main_thread():
            return await main(*args)
        loop.add_signal_handler(signal.SIGTERM, stop)
        try:
            check_terminated()  # one that came before the loop took the signal
            return await main(*args)
        except asyncio.CancelledError:
            if _TERMINATED:
                raise Terminated from None
            raise
        finally:
            # SIGTERM held back while the note takes it over again: it can never find the default handler,
            # which would end the process there, leaving everything behind
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
            try:
                loop.remove_signal_handler(signal.SIGTERM)
                signal.signal(signal.SIGTERM, _note_sigterm)
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})

    return asyncio.run(guarded())


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    matches_over: int = 0
    attack: Attack | None = None  # --abuse: what the attacker sent and was answered


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


SERVER_LOG = "server.log"  # the server's standard error, in the bench's data folder (removed with it)
START_S = 60.0  # the server answers within this, or the bench gives up


class ServerFailed(RuntimeError):
    """The bench's server exited (``status``, its return code as subprocess gives it: a negative one is the
    signal that ended it) or, with ``status`` None, did not answer in time; ``log`` is the end of its
    standard error."""

    def __init__(self, status: int | None, log: str) -> None:
        super().__init__(f"the server {'did not answer' if status is None else f'exited ({status})'}: {log}")
        self.status, self.log = status, log


def server_log(data: str, limit: int = 2000) -> str:
    """The end of what the server started in ``data`` wrote on its standard error."""
    try:
        return (Path(data) / SERVER_LOG).read_text(errors="replace")[-limit:]
    except OSError:
        return ""


def start_server(port: int, data: str) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-c", "from guandan.cli import main; main()", "serve", "--port", str(port), "--data", data,
           "--no-rate-limits", "--bot-delay-ms", "0",
           # every bench client is one address (127.0.0.1), and a soak plays thousands of rooms
           "--max-rooms", "100000", "--max-rooms-per-address", "100000"]
    env = {**os.environ, "GUANDAN_DATA_DIR": data}
    # its standard error goes to a file: a pipe nobody reads while the bench runs would fill up and stall it
    with (Path(data) / SERVER_LOG).open("wb") as log:
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=log)
    try:
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            check_terminated()
            if proc.poll() is not None:
                raise ServerFailed(proc.returncode, server_log(data))
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=1)
                return proc
            except httpx.HTTPError:
                time.sleep(0.2)
        raise ServerFailed(None, server_log(data))
    except BaseException:  # not started, or interrupted while it starts (Ctrl-C, SIGTERM): it goes too
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        raise


def stop_server(proc: subprocess.Popen[bytes]) -> int | None:
    """Stop the bench's server: its return code if it had exited on its own meanwhile, else None."""
    died = proc.poll()
    if died is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return died


def _raise_if_died(proc: subprocess.Popen[bytes], data: str) -> None:
    """What a run met (a refused connection, a closed socket) may be its server gone: then a ServerFailed, which
    says why in the server's own words."""
    if proc.poll() is not None:
        raise ServerFailed(proc.returncode, server_log(data)) from None


def client_actions(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The actions a client may send from a seat view it is to move in. A view too long to list whole
    (``legal_complete`` false: a lead of more than wire.LEGAL_INLINE_MAX plays, which 27 ordinary cards
    reach now and then) lists only the other actions, so a lead gets one play of its own: a single, which
    leads always. The browser asks for the plays of a selection instead (a readings frame)."""
    legal = list(view.get("legal") or [])
    if (not view.get("legal_complete", True) and view.get("can_play") and view.get("top") is None
            and view.get("hand") and not any(a["kind"] == ActionKind.PLAY for a in legal)):
        legal.append({"kind": ActionKind.PLAY.value, "cards": [view["hand"][0]], "combo": None})
    return legal


def client_turn(view: dict[str, Any], seat: int) -> bool:
    """Whether a client at ``seat`` is to act on this view."""
    return view["to_move"] == seat and not view["ended"] and bool(client_actions(view))


async def play_one(ws: Any, view: dict[str, Any], seq: int, rng: random.Random, think: float,
                   sent: dict[int, float]) -> None:
    """A bench client's turn: a pause around ``think``, then a legal action (a play 80% of the time when
    there is one), its send time kept in ``sent`` by sequence number."""
    await asyncio.sleep(think * (0.5 + rng.random()))
    legal = client_actions(view)
    plays = [a for a in legal if a["kind"] != ActionKind.PASS]
    choice = rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(legal)
    sent[seq] = time.perf_counter()
    await ws.send(json.dumps({"type": "act", "kind": choice["kind"], "cards": choice["cards"],
                              "combo": choice.get("combo"), "seq": seq}))


class Timed(Protocol):
    """What a bench client's latencies are counted in (:class:`Tally`, bench_site's SiteTally)."""

    latencies: list[float]
    actions: int


async def next_frame(ws: Any, stop: asyncio.Event) -> dict[str, Any] | None:
    """The next frame ``ws`` receives, or None once ``stop`` is set (looked at every half second)."""
    while not stop.is_set():
        try:
            # not asyncio.wait_for: in Python 3.11 it loses a cancellation that comes as the frame does, and
            # a bench stopped (Ctrl-C, SIGTERM) waited for ever for a client that played on
            async with asyncio.timeout(0.5):
                raw = await ws.recv()
        except TimeoutError:
            continue
        frame: dict[str, Any] = json.loads(raw)
        return frame
    return None


def time_reply(frame: dict[str, Any], seat: int, sent: dict[int, float], tally: Timed) -> None:
    """Count the latency of ``seat``'s action that the update ``frame`` answers: the frame at seq N answers what
    was sent at seq N - 1, whose send time ``sent`` holds (and gives up here, whatever the frame)."""
    t0 = sent.pop(frame["seq"] - 1, None)
    if t0 is not None and frame["type"] == "update" and frame["action"]["seat"] == seat:
        tally.latencies.append(time.perf_counter() - t0)
        tally.actions += 1


async def play_frames(ws: Any, seat: int, rng: random.Random, think: float, tally: Tally, stop: asyncio.Event, *,
                      over_ends: bool) -> None:
    """A bench client's play on its open socket until ``stop``: each error frame's message kept, each of its
    actions timed, a turn played (:func:`play_one`) whenever a view is its to act on. A match over ends it
    where ``over_ends``; elsewhere the match goes on, and seat 0 counts it in ``tally.matches_over``."""
    sent: dict[int, float] = {}  # the seq an action was sent at -> send time
    pending: asyncio.Task[None] | None = None
    try:
        while (frame := await next_frame(ws, stop)) is not None:
            kind = frame["type"]
            if kind == "error":
                tally.errors.append(frame["message"])
                continue
            if kind == "room" and frame["room"]["status"] == "over":
                if over_ends:
                    return
                if seat == 0:
                    tally.matches_over += 1
            if kind not in ("update", "snapshot") or frame.get("view") is None:
                continue
            time_reply(frame, seat, sent, tally)
            view = frame["view"]
            if client_turn(view, seat):
                pending = asyncio.create_task(play_one(ws, view, frame["seq"], rng, think, sent))
    finally:
        if pending is not None:
            pending.cancel()


async def bot_client(url: str, seat: int, rng: random.Random, think: float, tally: Tally, stop: asyncio.Event) -> None:
    async with websockets.connect(url, max_size=2**22) as ws:
        await play_frames(ws, seat, rng, think, tally, stop, over_ends=False)


async def open_tables(http: httpx.AsyncClient, base: str, tables: int, *,
                      spread: bool = False) -> list[tuple[str, list[str]]]:
    """``tables`` rooms with a bench client joined at every seat: each room's code and its four seat tokens.
    ``spread``: each room is created from a new connection, as by many players, so that on a site of several
    workers the one that accepts it (and so owns the table) varies."""
    setups = []
    for _ in range(tables):
        # no seed: a chosen one is for practice rooms only, so the server draws each table's deals
        body = {"timer": 0, "bot_delay_ms": 0, "next_deal_s": 0}
        if spread:
            async with httpx.AsyncClient(base_url=base, timeout=30) as once:
                r = await once.post("/api/rooms", json=body)
        else:
            r = await http.post("/api/rooms", json=body)
        r.raise_for_status()
        code = r.json()["code"]
        setups.append((code, await join_seats(http, code)))
    return setups


async def join_seats(http: httpx.AsyncClient, code: str) -> list[str]:
    """A bench client joined at each of room ``code``'s four seats: their tokens, seat by seat."""
    tokens = []
    for s in range(4):
        j = await http.post(f"/api/rooms/{code}/join", json={"seat": s, "name": f"b{s}"})
        j.raise_for_status()
        tokens.append(j.json()["token"])
    return tokens


async def _run(base: str, tables: int, seconds: float, think: float, seed: int,
               abuse: str | None = None) -> tuple[Tally, float]:
    tally = Tally()
    stop = asyncio.Event()
    clients: list[asyncio.Task[None]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        setups = await open_tables(http, base, tables)
        ws_base = base.replace("http", "ws")
        for t, (code, tokens) in enumerate(setups):
            for s, tok in enumerate(tokens):
                rng = random.Random(f"bench:{seed}:{t}:{s}")
                clients.append(asyncio.create_task(bot_client(f"{ws_base}/ws/{code}?token={tok}", s, rng, think, tally, stop)))
        attackers: list[asyncio.Task[None]] = []
        if abuse is not None:
            tally.attack = Attack()
            attackers = await start_attack(http, ws_base, tally.attack, stop, seed)
        await asyncio.sleep(1.0)  # every socket open before the clock starts
        if tally.attack is not None:
            (await http.post(f"/api/rooms/{tally.attack.code}/ready", json={"token": tally.attack.token})).raise_for_status()
            # the attack is in the measured time: on a slow machine the attacked position (its legal list
            # in every socket's first view) can take seconds to reach all of them
            try:
                await asyncio.wait_for(tally.attack.all_armed.wait(), ARMING_S)
            except TimeoutError:
                tally.attack.errors.append(f"{tally.attack.armed} of {ATTACK_SOCKETS} attacking sockets had their hand "
                                           f"after {ARMING_S:g} s")
            attackers.append(asyncio.create_task(probe_meta(http, tally.attack, stop)))
        for code, tokens in setups:
            for tok in tokens:
                (await http.post(f"/api/rooms/{code}/ready", json={"token": tok})).raise_for_status()
        t0 = time.perf_counter()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - t0
        stop.set()
        results = await asyncio.gather(*clients, return_exceptions=True)
        attacked = await asyncio.gather(*attackers, return_exceptions=True)
    tally.errors.extend(f"client failed: {r!r}" for r in results if isinstance(r, BaseException))
    if tally.attack is not None:
        tally.attack.errors.extend(f"attacker failed: {r!r}" for r in attacked if isinstance(r, BaseException))
    return tally, elapsed


# --- --abuse hints: an attacker flooding hints and readings in a 火拼 room ---------------------------
ABUSE_PRESET, ABUSE_SEED = "huopin", 3  # a practice deal whose first lead has 84,060 plays
ATTACK_SOCKETS = 12  # sockets sharing the attacker's one seat token
ATTACK_RATE = 30.0  # frames a second per socket: as many as the server lets one connection send
ARMING_S = 60.0  # the longest the clock waits for every attacking socket to have its hand


@dataclass
class Attack:
    code: str = ""
    token: str = ""
    seat: int = 0
    sent: Counter[str] = field(default_factory=Counter)  # hint, readings
    answered: Counter[str] = field(default_factory=Counter)  # hint, readings
    refused: Counter[str] = field(default_factory=Counter)  # by error code (rate_limited, busy, …)
    errors: list[str] = field(default_factory=list)  # anything unexpected
    plays: int = 0  # the size of the attacked position's legal list, as the bench computed it
    meta_ms: list[float] = field(default_factory=list)  # GET /api/meta while under attack
    armed: int = 0  # attacking sockets that have their hand (and so send)
    all_armed: asyncio.Event = field(default_factory=asyncio.Event)


async def start_attack(http: httpx.AsyncClient, ws_base: str, attack: Attack, stop: asyncio.Event,
                       seed: int) -> list[asyncio.Task[None]]:
    """The attacker's room (its seat is the one that leads; bots on the others, no turn timer, so the
    attacked position stays) and its sockets, open and waiting for the match to start."""
    rules = preset(ABUSE_PRESET)
    match = new_match(rules, ABUSE_SEED, MatchConfig())
    seat = match.to_move
    assert seat is not None
    attack.seat, attack.plays = seat, len(match.legal_actions())
    bots: list[str | None] = ["greedy"] * 4
    bots[seat] = None
    r = await http.post("/api/rooms", json={"preset": ABUSE_PRESET, "seed": ABUSE_SEED, "bots": bots, "timer": 0,
                                            "bot_delay_ms": 0, "name": "attacker"})
    r.raise_for_status()
    attack.code = r.json()["code"]
    j = await http.post(f"/api/rooms/{attack.code}/join", json={"seat": seat, "name": "attacker"})
    j.raise_for_status()
    attack.token = j.json()["token"]
    url = f"{ws_base}/ws/{attack.code}?token={attack.token}"
    return [asyncio.create_task(attacker(url, random.Random(f"attack:{seed}:{i}"), attack, stop))
            for i in range(ATTACK_SOCKETS)]


async def attacker(url: str, rng: random.Random, attack: Attack, stop: asyncio.Event) -> None:
    """One socket: a hint or a readings request (random cards of its hand) every 1/ATTACK_RATE s,
    without waiting for answers; every frame it gets is tallied."""
    async with websockets.connect(url, max_size=2**24) as ws:
        hand: list[str] = []

        async def read() -> None:
            async for raw in ws:
                f = json.loads(raw)
                kind = f["type"]
                if kind in ("hint", "readings"):
                    attack.answered[kind] += 1
                elif kind == "error":
                    if f.get("code") in ("rate_limited", "busy"):
                        attack.refused[f["code"]] += 1
                    elif f.get("code") != "not_your_turn":
                        attack.errors.append(f"{f.get('code')}: {f.get('message')}")
                elif kind in ("snapshot", "update") and f.get("view"):
                    if not hand:
                        attack.armed += 1
                        if attack.armed == ATTACK_SOCKETS:
                            attack.all_armed.set()
                    hand[:] = f["view"]["hand"]
                    if f["view"]["to_move"] != attack.seat:
                        attack.errors.append(f"the attacker's seat {attack.seat} is not to move")

        reader = asyncio.create_task(read())
        try:
            while not stop.is_set():
                await asyncio.sleep(1 / ATTACK_RATE)
                if not hand:
                    continue  # the match has not started yet
                if rng.random() < 0.5:
                    cards = rng.sample(hand, rng.randint(1, len(hand)))
                    await ws.send(json.dumps({"type": "readings", "cards": cards}))
                    attack.sent["readings"] += 1
                else:
                    await ws.send(json.dumps({"type": "hint", "k": 3}))
                    attack.sent["hint"] += 1
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, websockets.ConnectionClosed):
                await reader


async def probe_meta(http: httpx.AsyncClient, attack: Attack, stop: asyncio.Event) -> None:
    """An unrelated request twice a second while the attack runs: how long the server takes to answer."""
    while not stop.is_set():
        t0 = time.perf_counter()
        (await http.get("/api/meta")).raise_for_status()
        attack.meta_ms.append(1000 * (time.perf_counter() - t0))
        await asyncio.sleep(0.5)


def run_bench(tables: int, seconds: float, think_ms: int, seed: int = 1, abuse: str | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="guandan-bench-") as data:
        port = free_port()
        proc = start_server(port, data)
        try:
            gc.freeze()
            gc.set_threshold(20_000, 20, 100)  # the measuring side's own collections would show up as latency
            tally, elapsed = run_loop(_run, f"http://127.0.0.1:{port}", tables, seconds, think_ms / 1000, seed, abuse)
        except Exception:
            _raise_if_died(proc, data)
            raise
        finally:
            died = stop_server(proc)
        if died is not None:  # its clients' errors would tell only that it went away: its own words say why
            raise ServerFailed(died, server_log(data))
    check_terminated()  # one that came as the server stopped: no report
    lat = sorted(tally.latencies)

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    report = {
        "tables": tables, "seconds": round(elapsed, 2), "think_ms": think_ms, "actions": tally.actions,
        "actions_per_s": round(tally.actions / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(pct(0.50), 2), "p99_ms": round(pct(0.99), 2),
        "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else float("nan"),
        "errors": len(tally.errors), "first_errors": tally.errors[:5], "matches_over": tally.matches_over,
    }
    if tally.attack is not None:
        report["abuse"] = attack_report(tally.attack)
    return report


def attack_report(a: Attack) -> dict[str, Any]:
    meta = sorted(a.meta_ms)
    return {
        "kind": "hints", "preset": ABUSE_PRESET, "plays": a.plays, "sockets": ATTACK_SOCKETS,
        "sent": dict(a.sent), "answered": dict(a.answered), "refused": dict(a.refused),
        "refused_total": sum(a.refused.values()), "errors": len(a.errors), "first_errors": a.errors[:5],
        "meta_p50_ms": round(meta[len(meta) // 2], 2) if meta else float("nan"),
        "meta_max_ms": round(meta[-1], 2) if meta else float("nan"),
    }


def _table(rows: list[tuple[str, str]]) -> list[str]:
    """Label and value lines, the values aligned in one column whatever the labels' language."""
    return figure_table(dict(rows), {}).splitlines()


def format_report(r: dict[str, Any], gettext: Callable[[str], str] = str) -> str:
    """The bench's figures as a person reads them, in the language of ``gettext`` (a catalogue's)."""
    _ = gettext
    rows = [
        (_(N_("tables")), _(N_("{tables} (4 bot clients each, think {think} ms)")).format(
            tables=r["tables"], think=r["think_ms"])),
        (_(N_("measured")), _(N_("{seconds} s")).format(seconds=r["seconds"])),
        (_(N_("actions")), _(N_("{actions} ({rate} actions/s)")).format(actions=r["actions"], rate=r["actions_per_s"])),
        (_(N_("latency p50/p99")), _(N_("{p50} / {p99} ms (action sent → its broadcast received)")).format(
            p50=r["p50_ms"], p99=r["p99_ms"])),
        (_(N_("errors")), str(r["errors"])),
    ]
    lines = _table(rows)
    lines.extend(f"  {e}" for e in r["first_errors"])
    a = r.get("abuse")
    if a is not None:
        sent, answered, refused = a["sent"], a["answered"], a["refused"]
        reasons = _(", ").join(f"{k} {v}" for k, v in sorted(refused.items())) or "—"
        lines += _table([
            (_(N_("attacker")), _(N_("{sockets} sockets on one seat of a {preset} room ({plays} legal plays)")).format(
                sockets=a["sockets"], preset=a["preset"], plays=a["plays"])),
            ("  " + _(N_("sent")), _(N_("hints: {hints}, readings: {readings}")).format(
                hints=sent.get("hint", 0), readings=sent.get("readings", 0))),
            ("  " + _(N_("answered")), _(N_("hints: {hints}, readings: {readings}")).format(
                hints=answered.get("hint", 0), readings=answered.get("readings", 0))),
            ("  " + _(N_("refused")), _(N_("{total} ({reasons})")).format(total=a["refused_total"], reasons=reasons)),
            ("  " + _(N_("errors")), str(a["errors"])),
            ("GET /api/meta", _(N_("p50 {p50} ms, max {max} ms (during the attack)")).format(
                p50=a["meta_p50_ms"], max=a["meta_max_ms"])),
        ])
        lines.extend(f"    {e}" for e in a["first_errors"])
    return "\n".join(lines)


# --- --soak SECONDS: tables played over and over, the server's resident memory watched ---------------
SOAK_SAMPLE_S = 10.0  # how often the server's resident memory is read


def rss_kib(pid: int) -> tuple[int, int]:
    """Resident memory (KiB) of the process ``pid`` and of it with its child processes (the worker pool)."""
    def one(p: int) -> int:
        try:
            with open(f"/proc/{p}/status", encoding="ascii") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    children: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
                children += [int(c) for c in f.read().split()]
    except OSError:
        pass
    main = one(pid)
    return main, main + sum(one(c) for c in children)


async def soak_client(url: str, seat: int, rng: random.Random, think: float, tally: Tally, stop: asyncio.Event,
                      opened: asyncio.Event) -> None:
    """A bot client for one match: plays on its turns until the match is over (or the soak ends)."""
    async with websockets.connect(url, max_size=2**22) as ws:
        opened.set()
        await play_frames(ws, seat, rng, think, tally, stop, over_ends=True)


async def soak_table(http: httpx.AsyncClient, ws_base: str, slot: int, think: float, seed: int, tally: Tally,
                     stop: asyncio.Event) -> None:
    """One table's place: a one-deal match of four bot clients, then a new room, until the soak ends."""
    n = 0
    while not stop.is_set():
        r = await http.post("/api/rooms", json={"timer": 0, "bot_delay_ms": 0, "max_deals": 1, "next_deal_s": 0})
        r.raise_for_status()
        code = r.json()["code"]
        tokens = await join_seats(http, code)
        opened = [asyncio.Event() for _ in range(4)]
        clients = [asyncio.create_task(soak_client(f"{ws_base}/ws/{code}?token={tok}", s,
                                                   random.Random(f"soak:{seed}:{slot}:{n}:{s}"), think, tally, stop,
                                                   opened[s]))
                   for s, tok in enumerate(tokens)]
        waits = [asyncio.create_task(e.wait()) for e in opened]
        _done, late = await asyncio.wait(waits, timeout=30)
        for w in late:  # a client that never opened: its failure is reported by gather below
            w.cancel()
        for tok in tokens:
            (await http.post(f"/api/rooms/{code}/ready", json={"token": tok})).raise_for_status()
        results = await asyncio.gather(*clients, return_exceptions=True)
        tally.errors.extend(f"client failed: {x!r}" for x in results if isinstance(x, BaseException))
        if not stop.is_set():
            tally.matches_over += 1
        n += 1


async def _soak(base: str, pid: int, tables: int, seconds: float, think: float, seed: int
                ) -> tuple[Tally, float, list[tuple[float, int, int]]]:
    tally = Tally()
    stop = asyncio.Event()
    samples: list[tuple[float, int, int]] = []  # (seconds since the start, server KiB, with its workers KiB)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        ws_base = base.replace("http", "ws")
        t0 = time.perf_counter()
        places = [asyncio.create_task(soak_table(http, ws_base, i, think, seed, tally, stop)) for i in range(tables)]
        while (elapsed := time.perf_counter() - t0) < seconds:
            samples.append((round(elapsed, 1), *rss_kib(pid)))
            await asyncio.sleep(min(SOAK_SAMPLE_S, seconds - elapsed))
        samples.append((round(time.perf_counter() - t0, 1), *rss_kib(pid)))
        stop.set()
        results = await asyncio.gather(*places, return_exceptions=True)
    tally.errors.extend(f"table failed: {x!r}" for x in results if isinstance(x, BaseException))
    return tally, time.perf_counter() - t0, samples


def run_soak(tables: int, seconds: float, think_ms: int, seed: int = 1, warmup: float | None = None) -> dict[str, Any]:
    """Tables playing one-deal matches back to back for ``seconds``: the server's resident memory after the
    warm-up (default: the first 5 minutes, or the first half of a shorter soak: the first matches end after
    about a minute, and leave memory Settings.finished_linger_s later) against its end."""
    warm = warmup if warmup is not None else min(300.0, seconds / 2)
    with tempfile.TemporaryDirectory(prefix="guandan-soak-") as data:
        port = free_port()
        proc = start_server(port, data)
        try:
            tally, elapsed, samples = run_loop(_soak, f"http://127.0.0.1:{port}", proc.pid, tables, seconds,
                                               think_ms / 1000, seed)
        except Exception:
            _raise_if_died(proc, data)
            raise
        finally:
            died = stop_server(proc)
        if died is not None:
            raise ServerFailed(died, server_log(data))
    check_terminated()  # one that came as the server stopped: no report
    lat = sorted(tally.latencies)

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    at_warm = next((x for x in samples if x[0] >= warm), samples[-1])
    end = samples[-1]

    def growth(i: int) -> float:
        return round(100 * (end[i] - at_warm[i]) / at_warm[i], 2) if at_warm[i] else float("nan")

    return {
        "mode": "soak", "tables": tables, "seconds": round(elapsed, 1), "think_ms": think_ms, "warmup_s": warm,
        "rss_warm_mib": round(at_warm[1] / 1024, 1), "rss_end_mib": round(end[1] / 1024, 1),
        "rss_max_mib": round(max(x[1] for x in samples) / 1024, 1), "rss_growth_pct": growth(1),
        "rss_all_warm_mib": round(at_warm[2] / 1024, 1), "rss_all_end_mib": round(end[2] / 1024, 1),
        "rss_all_growth_pct": growth(2),
        "samples": [[t, round(a / 1024, 1), round(b / 1024, 1)] for t, a, b in samples],
        "actions": tally.actions, "actions_per_s": round(tally.actions / elapsed, 1) if elapsed else 0.0,
        "matches_over": tally.matches_over, "p50_ms": round(pct(0.50), 2), "p99_ms": round(pct(0.99), 2),
        "errors": len(tally.errors), "first_errors": tally.errors[:5],
    }


def format_soak(r: dict[str, Any], gettext: Callable[[str], str] = str) -> str:
    """The soak's figures as a person reads them, in the language of ``gettext`` (a catalogue's)."""
    _ = gettext
    lines = _table([
        (_(N_("tables")), _(N_("{tables} (4 bot clients each, think {think} ms; one-deal matches back to back)")).format(
            tables=r["tables"], think=r["think_ms"])),
        (_(N_("soaked")), _(N_("{seconds} s, {matches} matches finished, {actions} actions ({rate} actions/s)")).format(
            seconds=r["seconds"], matches=r["matches_over"], actions=r["actions"], rate=r["actions_per_s"])),
        (_(N_("server RSS")), _(N_("{warm} MiB after {warmup} s warm-up → {end} MiB at the end ({growth}%), "
                                   "max {max} MiB")).format(
            warm=r["rss_warm_mib"], warmup=f"{r['warmup_s']:.0f}", end=r["rss_end_mib"],
            growth=f"{r['rss_growth_pct']:+}", max=r["rss_max_mib"])),
        ("  " + _(N_("with workers")), _(N_("{warm} → {end} MiB ({growth}%)")).format(
            warm=r["rss_all_warm_mib"], end=r["rss_all_end_mib"], growth=f"{r['rss_all_growth_pct']:+}")),
        (_(N_("latency p50/p99")), _(N_("{p50} / {p99} ms (action sent → its broadcast received)")).format(
            p50=r["p50_ms"], p99=r["p99_ms"])),
        (_(N_("errors")), str(r["errors"])),
    ])
    lines.extend(f"  {e}" for e in r["first_errors"])
    return "\n".join(lines)
