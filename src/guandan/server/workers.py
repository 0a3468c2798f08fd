"""The worker pool (工作进程): the web app's CPU-heavy work, off the event loop.

What runs here: hints (提示), the decisions of bots that think (heuristic, search: every tier but the
instant ones) and of every bot under 火拼 rules, reviews (复盘, server/reviews.py), ``readings`` answers,
and the legal actions of a seat's view where generating them can take seconds — under 火拼 rules (``wild_resolution =
strongest``: big jokers are wildcards too) a 27-card lead has tens of thousands of plays (84,060 in
one deal, 247,363 in another). Everything else stays on the loop: it is microseconds.

**Processes**, not threads: a thread's move generation would hold the GIL, and so the loop, for as
long as it runs. The workers run at a lower CPU priority (``nice``) than the server process, so that
when the cores are busy the loop (every table's broadcasts) goes first.

**What is sent** is small: a :class:`Position` — the seat's observation without its legal list, the
rules and the move mode — never the ``MatchState``. A worker generates the legal moves itself (with
its own move-generator cache); a bot travels with its state (its random generator) and comes back
with it.

**Scheduling**: the pool keeps its own queue, in priority order (:class:`Priority`: what a table
needs to move on, then readings, then hints, then the bots of tables of four bots that people watch,
then reviews), and hands a job to a process only when one is free, so a queue of hints delays a bot's
move by at most the job already running. Hints, watched tables' bots and review decisions together may
occupy all but one process (when there are two or more), and at most ``queue_limit`` readings, hints
and review jobs wait: beyond that :meth:`WorkerPool.run` raises :class:`Busy`. Work a table needs is
never refused (a watched table's neither: each has one decision at a time, and they are capped).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import heapq
import itertools
import logging
import multiprocessing
import os
import tempfile
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, fields, replace
from enum import IntEnum
from multiprocessing.synchronize import Event as EventType
from typing import Any, TypeVar

from ..agents.base import Agent
from ..agents.fallback import action_without_listing
from ..agents.hints import Hint, best_actions
from ..core.cards import Card
from ..core.combos import Combo, beats, classify
from ..core.deal import Action, DealView, Observation
from ..core.errors import GuandanError
from ..core.match import MatchObservation, MatchState
from ..core.moves import legal_moves
from ..core.rules import RuleSet
from ..core.vocab import ActionKind, MoveMode, Phase
from .wire import legal_fields

log = logging.getLogger("guandan.server")
T = TypeVar("T")
JSON = dict[str, Any]
WORKER_NICE = 10  # how much lower the workers' CPU priority is than the server's


def default_workers() -> int:
    """Two worker processes, or one per core up to four on a larger machine."""
    return max(2, min(4, os.cpu_count() or 1))


# A Unix socket's path holds at most 107 bytes (Linux's sun_path: 108, the last a NUL). multiprocessing binds
# its fork server's at <temporary folder>/pymp-XXXXXXXX/listener-XXXXXXXX (8 random characters each).
SOCKET_PATH_MAX = 107
_LISTENER = len("/listener-") + 8
_PYMP = len("/pymp-") + 8
SHORT_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm")  # where the fork server's folder goes when TMPDIR's path is too long


class TempDirTooLong(Exception):
    """No folder here is short enough for the fork server's socket: ``tempdir`` is the temporary folder given
    (TMPDIR), ``limit`` the bytes a socket's path may hold."""

    def __init__(self, tempdir: str, limit: int = SOCKET_PATH_MAX) -> None:
        super().__init__(tempdir, limit)
        self.tempdir, self.limit = tempdir, limit


def _fits(folder: str, tail: int) -> bool:
    return len(os.fsencode(folder)) + tail <= SOCKET_PATH_MAX


def fork_server_folder() -> str:
    """The folder multiprocessing binds the fork server's socket in (made here if it is not yet: a
    ``pymp-…`` folder, removed as the process exits). Under a temporary folder whose path is too long for
    that socket it is made in the first of :data:`SHORT_FOLDERS` this process may write to; with none,
    :class:`TempDirTooLong`."""
    from multiprocessing import util

    given = tempfile.gettempdir()
    if not _fits(given, _PYMP + _LISTENER):
        for short in SHORT_FOLDERS:
            if _fits(short, _PYMP + _LISTENER) and os.path.isdir(short) and os.access(short, os.W_OK | os.X_OK):
                saved, tempfile.tempdir = tempfile.tempdir, short
                try:  # multiprocessing keeps the first folder it makes for the rest of the process
                    util.get_temp_dir()
                except OSError:
                    continue
                finally:
                    tempfile.tempdir = saved
                break
    folder = util.get_temp_dir()
    if not _fits(folder, _LISTENER):
        raise TempDirTooLong(given)
    return folder


def check_fork_server_folder() -> None:
    """:class:`TempDirTooLong` where :func:`fork_server_folder` would raise it in a process started from this
    one with the same environment: the temporary folder is too long for the fork server's socket and none of
    :data:`SHORT_FOLDERS` takes a folder. Leaves nothing behind (the folder each short one is tried with is
    removed): the supervisor of ``serve --workers`` asks before it starts workers that would each refuse."""
    given = tempfile.gettempdir()
    if _fits(given, _PYMP + _LISTENER):
        return
    for short in SHORT_FOLDERS:
        if _fits(short, _PYMP + _LISTENER) and os.path.isdir(short) and os.access(short, os.W_OK | os.X_OK):
            try:
                os.rmdir(tempfile.mkdtemp(prefix="pymp-", dir=short))
            except OSError:
                continue
            return
    raise TempDirTooLong(given)


def prestart() -> None:
    """Start the fork server the worker processes come from (a fresh interpreter that imports this module
    once). ``guandan serve`` calls it before serving, so that the first hint only forks a small process;
    otherwise the pool starts it itself, in a thread, on its first job. The program's main module must be
    safe to import (``if __name__ == "__main__"``), as multiprocessing requires. :class:`TempDirTooLong`
    when no folder is short enough for its socket (:func:`fork_server_folder`)."""
    fork_server_folder()
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([f"{__package__}.forkserver", __name__])  # first: it dies with the server
    from multiprocessing import forkserver

    forkserver.ensure_running()


# the keys that decide which plays a hand has, hence how long its legal list takes to generate
_MOVE_KEYS = ("straight_len", "tube_pairs", "plate_triples", "airplane", "max_bomb", "chain_bombs", "three_joker_bomb",
              "big_joker_wild", "wild_resolution", "full_house_joker_pair", "sf_forced", "allow_wild_underdeclare")
_LIGHT = RuleSet()  # the hand shapes of competition, huaian-traditional and huaian-2009 (measured: milliseconds)


def heavy_rules(rules: RuleSet) -> bool:
    """Rules whose legal-move lists can take seconds to generate: any hand shapes but the three light
    presets' (火拼's longer runs and big-joker wildcards, or a room's own overrides, e.g. big jokers as
    wildcards with declared readings: 100,000 plays and more). Under them every legal list (views, bots,
    hints) is generated by a worker; under the others a list takes at most milliseconds and the loop
    builds views and fast bots' moves itself."""
    return any(getattr(rules, key) != getattr(_LIGHT, key) for key in _MOVE_KEYS)


# --- what travels to a worker ------------------------------------------------------------------
@dataclass(frozen=True)
class Position:
    """A seat's turn as a worker needs it: ``obs`` is the seat's observation with an empty legal list
    when ``legal`` is None (the play phase: the worker generates the moves from the hand, the top and
    the level); outside the play phase ``legal`` holds the few legal actions."""

    obs: MatchObservation
    rules: RuleSet
    mode: MoveMode
    legal: tuple[Action, ...] | None = None


def observation_without_legal(match: MatchState, seat: int) -> MatchObservation:
    """``match.observation(seat)`` with no legal actions, without generating them: the public view
    plus the seat's own hand (the same fields the core's observation holds)."""
    deal = match.deal
    if deal is None:
        raise GuandanError("no deal in progress")
    pub = match.public_view()
    own = Observation(**{f.name: getattr(pub.deal, f.name) for f in fields(DealView)}, seat=seat,
                      hand=tuple(sorted(deal.hands[seat])), legal=())
    return replace(pub, deal=own)  # type: ignore[return-value]


def position(match: MatchState, seat: int) -> Position:
    """The :class:`Position` of ``seat`` (no legal actions unless it is to move), built without generating
    its plays."""
    deal = match.deal
    if deal is None:
        raise GuandanError("no deal in progress")
    obs = observation_without_legal(match, seat)
    if match.to_move != seat:
        legal: tuple[Action, ...] | None = ()
    elif deal.phase == Phase.PLAY:
        legal = None  # the worker generates the plays
    else:
        legal = tuple(match.legal_actions())  # tribute, return, choose: a few cards
    return Position(obs, match.rules, deal.move_mode, legal)


def legal_of(pos: Position) -> list[Action]:
    """The seat's legal actions, in the order ``DealState.legal_actions`` lists them."""
    if pos.legal is not None:
        return list(pos.legal)
    d = pos.obs.deal
    top = d.top[2] if d.top is not None else None
    return [Action(ActionKind.PASS, d.seat) if m.combo is None else Action(ActionKind.PLAY, d.seat, m.cards, m.combo)
            for m in legal_moves(d.hand, top, d.level, pos.rules, pos.mode)]


def fallback_legal_fields(pos: Position) -> JSON:
    """The legal fields of a view when the worker could not answer: no plays listed (the client asks
    for the readings of its selection), PASS when following."""
    d = pos.obs.deal
    listed = [] if pos.legal is None else [a for a in pos.legal if a.kind != ActionKind.PLAY]
    if pos.legal is None and d.top is not None:
        listed = [Action(ActionKind.PASS, d.seat)]
    return legal_fields(listed, complete=False, can_play=True)


def fallback_action(pos: Position) -> Action:
    """A legal action found without generating the moves (the rule of :mod:`guandan.agents.fallback`):
    the first listed one outside the play phase, else PASS when following, else the lowest card led as a single."""
    d = pos.obs.deal
    return action_without_listing(d.seat, pos.legal, d.hand, d.top is not None, d.level, pos.rules)


# --- the jobs (module functions: a process pool pickles them by name) ------------------------------
def view_legal_job(pos: Position) -> JSON:
    """The legal fields of the seat's view (``legal``, ``legal_complete``, ``can_play``)."""
    return legal_fields(legal_of(pos))


def hint_job(pos: Position, k: int) -> list[Hint]:
    return best_actions(pos.obs, k, pos.rules, legal_of(pos))


def bot_job(agent: Agent, pos: Position) -> tuple[Action, Agent]:
    """The bot's choice and the bot itself afterwards (its random generator moved on)."""
    return agent.choose(pos.obs, legal_of(pos)), agent


def readings_job(seat: int, cards: tuple[Card, ...], top: Combo | None, level: int, rules: RuleSet) -> list[Action]:
    """The plays of exactly ``cards`` (sorted codes the seat holds): each reading that beats ``top``."""
    return [Action(ActionKind.PLAY, seat, cards, c) for c in classify(cards, level, rules) if beats(c, top, rules)]


_started: EventType | None = None  # in a worker: the pool's start-up gate, set once all are asked for
START_WAIT_S = 60.0  # a worker that is not joined by the others in this time lets its pool start short


def _init_worker(nice: int, started: EventType | None = None) -> None:
    from .forkserver import die_with_parent

    global _started
    _started = started
    die_with_parent()  # forked from the fork server: it goes when that does
    with contextlib.suppress(OSError, AttributeError):
        os.nice(nice)


def _ready() -> None:
    """Submitted once per worker at start-up: it holds its worker until every one has been asked
    for, because the executor starts a process for a job only when no worker is idle."""
    if _started is not None:
        _started.wait(START_WAIT_S)


# --- the pool -----------------------------------------------------------------------------------
class Priority(IntEnum):
    TABLE = 0  # a table cannot move on without it: a bot's decision, a view's legal actions
    READINGS = 1  # a player choosing cards
    HINT = 2
    WATCHED = 3  # a bot's decision at a table of four bots that people watch (TableService.watch)
    REVIEW = 4  # a 复盘 decision, one at a time: after everything a person is waiting for


BACKGROUND = (Priority.HINT, Priority.WATCHED, Priority.REVIEW)  # together they may take all but one worker
# never refused as Busy: a table waits for each (one at a time per table), and the tables are capped
UNREFUSED = (Priority.TABLE, Priority.WATCHED)


class Busy(Exception):
    """The pool's queue for this kind of work is full: the request is refused, nothing waits."""


@dataclass(order=True)
class _Job:
    priority: int
    order: int
    fn: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    future: asyncio.Future[Any] = field(compare=False)


class WorkerPool:
    """``workers`` processes (0: one thread, for tests and embedding) started on first use."""

    def __init__(self, workers: int, *, queue_limit: int = 32, nice: int = WORKER_NICE) -> None:
        if workers < 0:
            raise ValueError(f"workers must be 0 or more, not {workers}")
        self.workers = workers
        self.slots = max(1, workers)
        self.hint_slots = max(1, self.slots - 1)  # one process stays free for the tables' own work
        self.queue_limit = queue_limit
        self.nice = nice
        self._executor: Executor | None = None
        self._starting: asyncio.Future[Executor] | None = None  # the processes being started, in a thread
        self.closed = False
        self._queue: list[_Job] = []
        self._order = itertools.count()
        self.running = 0
        self.running_hints = 0  # hints and review decisions running
        self.done = 0
        self.refused = 0

    def _make(self) -> Executor:
        """The executor with every worker started (run in a thread: starting a process can take a second,
        the first time the fork server imports the engine, and must not hold the loop)."""
        if self.workers == 0:
            return ThreadPoolExecutor(1, thread_name_prefix="guandan-work")
        # forkserver: the workers fork from a clean process that imported this module once (a fork of the
        # server itself would copy its threads' locks; spawn would import everything per worker)
        fork_server_folder()
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([f"{__package__}.forkserver", __name__])  # first: it dies with the server
        started = ctx.Event()
        ex = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_init_worker,
                                 initargs=(self.nice, started))
        try:
            try:  # each submit starts one more process while the earlier ones wait at the gate (busy, not idle)
                ready = [ex.submit(_ready) for _ in range(self.workers)]
            finally:
                started.set()
            for f in ready:
                f.result()
        except BaseException:
            _stop(ex)  # a pool that could not start whole leaves no process behind
            raise
        return ex

    def _start(self) -> None:
        if self._starting is None:
            self._starting = asyncio.get_running_loop().run_in_executor(None, self._make)
            self._starting.add_done_callback(self._started)

    def _started(self, starting: asyncio.Future[Executor]) -> None:
        self._starting = None
        if starting.cancelled():
            return
        err = starting.exception()
        if err is not None:  # no worker could start: what waits is failed, the next job tries again
            log.error("the worker processes did not start", exc_info=err)
            for job in self._queue:
                if not job.future.done():
                    job.future.set_exception(err)
            self._queue.clear()
            return
        if self.closed:
            _stop(starting.result())
            return
        self._executor = starting.result()
        self._dispatch()

    def waiting(self, priority: Priority | None = None) -> int:
        return sum(1 for j in self._queue if priority is None or j.priority == priority)

    async def run(self, priority: Priority, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker, after every job of higher priority. Raises :class:`Busy` (readings,
        hints, reviews) when ``queue_limit`` jobs of those kinds already wait; whatever ``fn`` raises; and
        ``BrokenProcessPool`` when a worker died (the next job starts a fresh pool)."""
        if priority not in UNREFUSED and sum(1 for j in self._queue if j.priority not in UNREFUSED) >= self.queue_limit:
            self.refused += 1
            raise Busy(f"{len(self._queue)} requests are waiting for the workers")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        job = _Job(int(priority), next(self._order), fn, args, future)
        heapq.heappush(self._queue, job)
        self._dispatch()
        try:
            return await future
        except asyncio.CancelledError:
            if job in self._queue:  # not started: it never runs
                self._queue.remove(job)
                heapq.heapify(self._queue)
            raise

    def _dispatch(self) -> None:
        if self._executor is None:
            if self._queue and not self.closed:
                self._start()
            return
        while self._queue and self.running < self.slots:
            job = self._queue[0]
            if job.priority in BACKGROUND and self.running_hints >= self.hint_slots:
                return  # the most urgent job waiting is a hint (or a review) and those have their share
            heapq.heappop(self._queue)
            if job.future.cancelled():
                continue
            try:
                cf = self._executor.submit(job.fn, *job.args)
            except (BrokenProcessPool, RuntimeError) as e:
                self._reset()
                job.future.set_exception(e)
                self._dispatch()
                return
            self.running += 1
            if job.priority in BACKGROUND:
                self.running_hints += 1
            cf.add_done_callback(functools.partial(self._wake, job))

    def _wake(self, job: _Job, cf: Future[Any]) -> None:
        """In the executor's thread: hand the result to the loop."""
        with contextlib.suppress(RuntimeError):  # the loop is gone (shutting down): nobody waits any more
            job.future.get_loop().call_soon_threadsafe(self._finished, job, cf)

    def _finished(self, job: _Job, cf: Future[Any]) -> None:
        self.running -= 1
        self.done += 1
        if job.priority in BACKGROUND:
            self.running_hints -= 1
        err = asyncio.CancelledError() if cf.cancelled() else cf.exception()
        if not job.future.done():
            if err is not None:
                job.future.set_exception(err)
            else:
                job.future.set_result(cf.result())
        if isinstance(err, BrokenProcessPool):
            self._reset()
        self._dispatch()

    def _reset(self) -> None:
        """A worker died (killed, out of memory): the pool is replaced on the next job."""
        if self._executor is not None:
            log.error("a worker process died: starting a fresh pool")
            _stop(self._executor)
            self._executor = None

    def close(self) -> None:
        """Refuse what waits, stop the processes (a job still running is abandoned)."""
        self.closed = True
        for job in self._queue:
            if not job.future.done():
                job.future.cancel()
        self._queue.clear()
        ex, self._executor = self._executor, None
        if ex is not None:
            _stop(ex)


def _stop(ex: Executor) -> None:
    processes: dict[int, Any] = getattr(ex, "_processes", None) or {}  # ProcessPoolExecutor's, by pid
    running = list(processes.values())
    ex.shutdown(wait=False, cancel_futures=True)
    for p in running:  # a hint of several seconds must not hold the server's exit
        with contextlib.suppress(Exception):
            p.terminate()
