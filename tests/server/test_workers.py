"""The worker pool (server/workers.py): what travels to a worker stands for the match exactly, jobs run
in priority order in other processes at a lower CPU priority, and a full queue refuses instead of
waiting."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import pickle
import random
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest

from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.core.vocab import ActionKind
from guandan.server import workers
from guandan.server.wire import legal_fields
from guandan.server.workers import Busy, Priority, WorkerPool

pytestmark = pytest.mark.timeout(120)
T = TypeVar("T")


def run(main: Callable[[], Awaitable[T]]) -> T:
    """``asyncio.run(main())`` in a thread of its own (the browser tests keep an event loop running in this one)."""
    out: list[T] = []
    errors: list[BaseException] = []

    def go() -> None:
        try:
            out.append(asyncio.run(main()))  # type: ignore[arg-type]
        except BaseException as e:
            errors.append(e)

    t = threading.Thread(target=go)
    t.start()
    t.join()
    if errors:
        raise errors[0]
    return out[0]


@pytest.mark.parametrize("preset_name", ["competition", "huopin"])
def test_a_position_stands_for_the_match(preset_name: str) -> None:
    """Without generating a single play on the loop, a Position gives the worker the seat's observation
    and, regenerated there, exactly the legal actions the match lists, in the same order."""
    rules = preset(preset_name)
    rng = random.Random(7)
    checked = 0
    for seed in range(2):
        m = new_match(rules, seed, MatchConfig(max_deals=1))
        for _ in range(120):
            if m.ended:
                break
            seat = m.to_move
            assert seat is not None
            pos = pickle.loads(pickle.dumps(workers.position(m, seat)))
            full = m.observation(seat)
            assert pos.obs == dataclasses.replace(full, deal=dataclasses.replace(full.deal, legal=()))
            legal = m.legal_actions()
            assert workers.legal_of(pos) == legal
            assert workers.view_legal_job(pos) == legal_fields(legal)
            checked += 1
            plays = [a for a in legal if a.kind != ActionKind.PASS]
            m.apply(rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal))
    assert checked > 100


def test_the_fallbacks_are_legal_without_listing_the_plays() -> None:
    rules = preset("huopin")
    m = new_match(rules, 3, MatchConfig(max_deals=1))
    for _ in range(40):
        seat = m.to_move
        assert seat is not None
        pos = workers.position(m, seat)
        action = workers.fallback_action(pos)
        assert action in m.legal_actions()
        fields = workers.fallback_legal_fields(pos)
        assert fields["legal_complete"] is False and fields["can_play"] is True
        assert all(a["kind"] != ActionKind.PLAY for a in fields["legal"])
        m.apply(action)


def _blocker(started: threading.Event, release: threading.Event) -> str:
    started.set()
    release.wait(30)
    return "blocker"


def _tag(tag: str) -> str:
    return tag


async def _queued_behind_a_table_job(pool: WorkerPool, jobs: list[tuple[Priority, str]]
                                     ) -> tuple[asyncio.Task[str], threading.Event, list[asyncio.Task[None]], list[str]]:
    """Hold the pool's one worker with a table's job, then queue ``jobs`` (priority, tag) behind it: the holding
    job, the event that releases it, the queued tasks and the list their tags are appended to as they run."""
    started, release = threading.Event(), threading.Event()
    order: list[str] = []

    async def job(priority: Priority, tag: str) -> None:
        order.append(await pool.run(priority, _tag, tag))

    first = asyncio.create_task(pool.run(Priority.TABLE, _blocker, started, release))
    await asyncio.to_thread(started.wait, 30)
    tasks = [asyncio.create_task(job(p, t)) for p, t in jobs]
    await asyncio.sleep(0)
    return first, release, tasks, order


def test_jobs_run_by_priority_and_hints_keep_to_their_share() -> None:
    """One thread (workers=0): while it is busy, a review decision, a hint, readings and a table job
    queue up; the table's job runs first, then the readings, then the hint, and the review last."""

    async def main() -> list[str]:
        pool = WorkerPool(0)
        first, release, tasks, order = await _queued_behind_a_table_job(pool, [
            (Priority.REVIEW, "review"), (Priority.HINT, "hint"), (Priority.READINGS, "readings"),
            (Priority.TABLE, "table")])
        assert pool.waiting() == 4 and pool.running == 1
        release.set()
        assert await first == "blocker"
        await asyncio.gather(*tasks)
        pool.close()
        return order

    assert run(main) == ["table", "readings", "hint", "review"]


def test_a_watched_tables_bots_wait_for_players_work_and_keep_to_the_background_share() -> None:
    """A bot of a table of four bots that people watch (Priority.WATCHED) runs after what tables with players,
    readings and hints need and before reviews; it shares the background's workers (all but one) with hints
    and reviews, so a table with players always has a worker; and a full queue never refuses it."""

    async def main() -> None:
        pool = WorkerPool(0, queue_limit=2)
        first, release, tasks, order = await _queued_behind_a_table_job(pool, [
            (Priority.REVIEW, "review"), (Priority.WATCHED, "watched"), (Priority.HINT, "hint"),
            (Priority.WATCHED, "watched 2"), (Priority.TABLE, "table")])
        # the hint and the review fill the queue's two places: the watched bots wait all the same
        assert pool.waiting() == 5 and pool.waiting(Priority.WATCHED) == 2 and pool.refused == 0
        with pytest.raises(Busy):
            await pool.run(Priority.READINGS, _tag, "one too many")
        release.set()
        assert await first == "blocker"
        await asyncio.gather(*tasks)
        assert order == ["table", "hint", "watched", "watched 2", "review"]
        # two workers: while a watched bot thinks in one, the next waits and a table's job takes the other
        pool.slots, pool.hint_slots = 2, 1
        started, release = threading.Event(), threading.Event()
        thinking = asyncio.create_task(pool.run(Priority.WATCHED, _blocker, started, release))
        await asyncio.to_thread(started.wait, 30)
        waiting = asyncio.create_task(pool.run(Priority.WATCHED, _tag, "waits"))
        table = asyncio.create_task(pool.run(Priority.TABLE, _tag, "table"))
        await asyncio.sleep(0)
        assert pool.running == 2 and pool.running_hints == 1
        assert pool.waiting(Priority.WATCHED) == 1 and pool.waiting(Priority.TABLE) == 0
        release.set()
        assert await thinking == "blocker" and await table == "table" and await waiting == "waits"
        pool.close()

    run(main)


def test_a_full_queue_refuses_readings_and_hints_but_never_a_table() -> None:
    async def main() -> None:
        pool = WorkerPool(0, queue_limit=2)
        started, release = threading.Event(), threading.Event()
        first = asyncio.create_task(pool.run(Priority.TABLE, _blocker, started, release))
        await asyncio.to_thread(started.wait, 30)
        queued = [asyncio.create_task(pool.run(Priority.HINT, _tag, str(i))) for i in range(2)]
        await asyncio.sleep(0)
        with pytest.raises(Busy):
            await pool.run(Priority.READINGS, _tag, "one too many")
        table = asyncio.create_task(pool.run(Priority.TABLE, _tag, "table"))  # still queued
        cancelled = asyncio.create_task(pool.run(Priority.TABLE, _tag, "gone"))
        await asyncio.sleep(0)
        cancelled.cancel()  # a job given up before it starts never runs
        await asyncio.sleep(0)
        assert pool.waiting() == 3 and pool.refused == 1
        release.set()
        assert await first == "blocker" and await table == "table"
        assert sorted(await asyncio.gather(*queued)) == ["0", "1"]
        assert pool.done == 4
        pool.close()

    run(main)


def _whoami() -> tuple[int, int]:
    return os.getpid(), os.nice(0)


def test_workers_are_other_processes_at_a_lower_cpu_priority() -> None:
    async def main() -> tuple[int, int]:
        pool = WorkerPool(1)
        try:
            return await pool.run(Priority.HINT, _whoami)
        finally:
            pool.close()

    pid, nice = run(main)
    assert pid != os.getpid()
    assert nice >= min(19, os.nice(0) + workers.WORKER_NICE)


def _pids_now(seconds: float) -> int:

    time.sleep(seconds)
    return os.getpid()


def test_every_worker_starts_with_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool of two has two processes from its first job, even where the first worker is free again
    before the second is asked for (a busy machine): ProcessPoolExecutor hands a job to an idle worker
    rather than start another, so a pool started one job at a time could stay at one process."""
    from concurrent.futures import ProcessPoolExecutor

    submit = ProcessPoolExecutor.submit

    def slow_submit(self: ProcessPoolExecutor, fn: Callable[..., object], /, *args: object) -> object:
        f = submit(self, fn, *args)
        time.sleep(1.0)  # long enough for a worker to start, run a trivial job and be idle again
        return f

    monkeypatch.setattr(ProcessPoolExecutor, "submit", slow_submit)

    async def main() -> tuple[int, set[int]]:
        pool = WorkerPool(2)
        try:
            await pool.run(Priority.TABLE, _whoami)
            assert pool._executor is not None
            processes = len(getattr(pool._executor, "_processes", {}))
            # two jobs at once run in two processes
            pids = await asyncio.gather(*(pool.run(Priority.TABLE, _pids_now, 0.5) for _ in range(2)))
            return processes, set(pids)
        finally:
            pool.close()

    processes, pids = run(main)
    assert processes == 2
    assert len(pids) == 2


def test_a_pool_that_cannot_start_whole_fails_its_jobs_and_leaves_no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second process cannot start: the job waiting for the pool gets the error, the first process
    is stopped rather than left waiting at the start-up gate, and the next job tries again."""
    from concurrent.futures import ProcessPoolExecutor

    submit = ProcessPoolExecutor.submit
    calls: list[int] = []
    started: list[object] = []  # the processes of the pool that failed to start

    def failing_submit(self: ProcessPoolExecutor, fn: Callable[..., object], /, *args: object) -> object:
        calls.append(1)
        if len(calls) == 2:
            started.extend(getattr(self, "_processes", {}).values())
            raise OSError("no more processes")
        return submit(self, fn, *args)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", failing_submit)

    async def main() -> int:
        pool = WorkerPool(2)
        try:
            with pytest.raises(OSError, match="no more processes"):
                await pool.run(Priority.TABLE, _whoami)
            assert pool._executor is None
            pid, _nice = await pool.run(Priority.TABLE, _whoami)  # a fresh start, whole this time
            return pid
        finally:
            pool.close()

    assert run(main) != os.getpid()
    assert len(started) == 1
    deadline = time.monotonic() + 10
    while any(p.is_alive() for p in started):  # type: ignore[attr-defined]
        assert time.monotonic() < deadline, "the first process of the failed pool outlived it"
        time.sleep(0.1)


def test_a_killed_server_leaves_no_pool_behind(tmp_path: Path) -> None:
    """SIGKILL the server: its fork server (started before the first client) and the pool's workers go too."""
    import os
    import signal

    import httpx

    from guandan.server import bench

    port = bench.free_port()
    proc = bench.start_server(port, str(tmp_path))

    def children(pid: int) -> list[int]:
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
        return found

    try:
        # a table of thinking bots: their moves start the pool's workers under the fork server
        base = f"http://127.0.0.1:{port}"
        code = httpx.post(f"{base}/api/rooms", json={"bots": [None, "heuristic", "heuristic", "heuristic"],
                                                      "timer": 0}).json()["code"]
        tok = httpx.post(f"{base}/api/rooms/{code}/join", json={"seat": 0}).json()["token"]
        httpx.post(f"{base}/api/rooms/{code}/ready", json={"token": tok}).raise_for_status()
        deadline = time.monotonic() + 60
        while len(forks := [p for c in children(proc.pid) for p in (c, *children(c))]) < 4:
            assert time.monotonic() < deadline, f"the pool did not start: {forks}"
            time.sleep(0.1)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    deadline = time.monotonic() + 10
    while left := [pid for pid in forks if Path(f"/proc/{pid}").exists()
                   and b"multiprocessing" in Path(f"/proc/{pid}/cmdline").read_bytes()]:
        assert time.monotonic() < deadline, f"{left} outlived the killed server"
        time.sleep(0.2)


def test_only_the_light_presets_hand_shapes_are_listed_on_the_loop() -> None:
    from guandan.core.rules import RuleSet
    assert [workers.heavy_rules(preset(n)) for n in ("competition", "huaian-traditional", "huaian-2009", "huopin")] == [
        False, False, False, True]
    assert not workers.heavy_rules(RuleSet.from_dict({"report_threshold": 6, "jiefeng": "next_player"}))  # no new plays
    # a room's own overrides that add plays: big jokers as wildcards with declared readings list 100,000 and more
    for override in ({"big_joker_wild": True}, {"name": "huopin", "wild_resolution": "declare"},
                     {"straight_len": [5, 8]}, {"allow_wild_underdeclare": True}):
        assert workers.heavy_rules(RuleSet.from_dict(override)), override
    names = {f.name for f in dataclasses.fields(RuleSet)}
    assert set(workers._MOVE_KEYS) <= names
