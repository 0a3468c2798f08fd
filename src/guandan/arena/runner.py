"""Play duplicate deal pairs (and whole matches) between two agents, in parallel processes.

Each pair plays one :class:`~guandan.arena.specs.DealSpec` twice: agent A at seats {0, 2} then at
{1, 3}, with identical hands, levels, declarer, tribute situation and first leader. Work is split by
pair index and gathered back in index order, so results do not depend on ``jobs``.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, TypeVar

from ..agents import Agent, make_agent
from ..agents.fallback import answer_problem, answer_record, said_problem
from ..agents.runner import RunStats, run_match
from ..core.deal import Action
from ..core.errors import GuandanError
from ..core.match import MatchConfig, MatchObservation, MatchState, new_match
from ..core.record import dumps
from ..core.rules import RuleSet, preset
from ..core.vocab import MoveMode
from ..i18n import N_
from ..protocol.adapter import add_bot_path
from .specs import draw_spec

T = TypeVar("T")
MATCH_DEAL_CAP = 400  # a whole match that has not ended by then is scored as unfinished


@dataclass(frozen=True)
class Setup:
    """What both agents and the deals are: picklable, so workers rebuild everything from it."""

    a: str
    b: str
    preset: str
    seed: int
    budget_a: float | None = None
    budget_b: float | None = None
    move_mode: MoveMode = MoveMode.COMPLETE
    out: str | None = None  # directory for records
    bot_paths: tuple[str, ...] = ()  # where external:module:Class bots are found (--path)

    def rules(self) -> RuleSet:
        return preset(self.preset)


_ILLEGAL_IN = {
    "pair": N_("{agent} (seat {seat}) in deal pair {index}: {answer}; the first legal action was played instead"),
    "match": N_("{agent} (seat {seat}) in match {index}: {answer}; the first legal action was played instead"),
}


@dataclass(frozen=True)
class IllegalAnswer:
    """What an agent answered that was not one of its legal actions (the arena counts such an answer and plays
    the first legal action), for a program and, through :meth:`error`, for the bot's author to read.

    A results file keeps :meth:`to_json`: ``seat``, ``phase``, ``problem`` and ``answer``; ``agent``, ``index``
    and ``where`` are its setup's and its pair's."""

    agent: str  # the agent's spec
    index: int  # the deal pair (or match) it answered in
    seat: int  # 0…3
    phase: str  # the phase it was asked in: tribute, choose, return or play
    problem: str  # what was wrong, one of guandan.agents.fallback.PROBLEMS
    answer: Any  # the answer as JSON (guandan.agents.fallback.answer_record)
    where: str = "pair"  # in a deal pair or a whole match (--mode match)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "phase": self.phase, "problem": self.problem, "answer": self.answer}

    def answer_error(self) -> GuandanError:
        """What was wrong with the answer, in words (``played ♥3 ♥3, which is not in its hand``)."""
        return said_problem(self.problem, self.answer, self.phase)

    def error(self) -> GuandanError:
        """The answer in words a bot's author can act on, with the agent, its seat and the deal pair (or
        match): ``silent (seat 2) in deal pair 0: answered nothing; the first legal action was played instead``."""
        return GuandanError.said(_ILLEGAL_IN[self.where], agent=self.agent, seat=self.seat + 1, index=self.index,
                                 answer=self.answer_error())


@dataclass
class HalfResult:
    a_seats: int  # 0: A sat at {0, 2}; 1: at {1, 3}
    a_won: bool
    a_points: float  # signed levels for A's team (升级数)
    double: bool  # A won 1-2 (双上)
    hands: tuple[tuple[int, ...], ...]  # the dealt hands, to check the duplicate pairing
    finish: list[int]


@dataclass
class PairResult:
    index: int
    halves: list[HalfResult]
    a_times: list[float] = field(default_factory=list)
    b_times: list[float] = field(default_factory=list)
    illegal_a: int = 0
    illegal_b: int = 0
    cpu_seconds: float = 0.0
    bot_failures_a: dict[str, int] = field(default_factory=dict)  # external bots: crashes, timeouts, …
    bot_failures_b: dict[str, int] = field(default_factory=dict)
    # each side's first illegal answer in the pair (results files keep it); left out of comparisons, which
    # set one run's results beside another's, whose files may predate it
    first_illegal_a: IllegalAnswer | None = field(default=None, compare=False)
    first_illegal_b: IllegalAnswer | None = field(default=None, compare=False)

    @property
    def a_score(self) -> float:
        """A's share of the pair's deal wins: 0, ½ or 1."""
        return sum(h.a_won for h in self.halves) / len(self.halves)

    @property
    def a_points(self) -> float:
        return sum(h.a_points for h in self.halves) / len(self.halves)


def _agents(setup: Setup, a_seats: int, tag: str) -> tuple[list[str], list[Agent]]:
    if setup.bot_paths:  # worker processes start fresh: make external bot modules importable here too
        for path in setup.bot_paths:
            add_bot_path(path)
    names = [setup.a if s % 2 == a_seats else setup.b for s in range(4)]
    agents = []
    for s, name in enumerate(names):
        budget = setup.budget_a if s % 2 == a_seats else setup.budget_b
        # agent seeds never feed the deals: those come from draw_spec alone
        agents.append(make_agent(name, f"arena-agent:{setup.seed}:{tag}:{s}", budget))
    return names, agents


def _close(agents: list[Agent], a_seats: int, into: PairResult | MatchResult) -> None:
    """Count external bots' failures (crash, timeout, invalid reply, fallback) per side — reported
    apart from illegal actions, since the adapter replaced them with legal ones — and stop them."""
    for s, agent in enumerate(agents):
        counters = getattr(agent, "stats", None)
        if callable(counters):
            side = into.bot_failures_a if s % 2 == a_seats else into.bot_failures_b
            for k, v in counters().items():
                side[k] = side.get(k, 0) + int(v)
        agent.close()


def _collect(stats: RunStats, a_seats: int, pair: PairResult) -> None:
    for s in range(4):
        if s % 2 == a_seats:
            pair.a_times.extend(stats.per_seat[s])
            pair.illegal_a += stats.illegal[s]
        else:
            pair.b_times.extend(stats.per_seat[s])
            pair.illegal_b += stats.illegal[s]
    pair.cpu_seconds += stats.cpu_seconds


def _play(match: MatchState, agents: list[Agent], names: list[str], stats: RunStats, msgid: str, index: int,
          where: str) -> dict[int, IllegalAnswer]:
    """``run_match``; an agent that raises (a plugin tier's bug: external bots are caught and counted by
    their adapter) stops the run with an error that names the agent, its seat, what it raised and where,
    instead of a traceback through the arena. Returns each seat's first illegal answer (None included)
    (``where``: ``pair`` or ``match``), for the report to show and results files to keep."""
    first: dict[int, IllegalAnswer] = {}

    def heard(seat: int, answer: object, obs: MatchObservation, legal: Sequence[Action]) -> None:
        if seat not in first:
            first[seat] = illegal_answer(names[seat], seat, answer, obs, index, where)

    try:
        run_match(match, agents, stats=stats, on_illegal=heard)
    except Exception as e:
        for a in agents:  # the workers' processes go on to other pairs: stop bot processes here
            a.close()
        seat, place = _raiser(e.__traceback__, agents)
        if seat is None:
            seat = match.to_move if match.to_move is not None else 0
        raise GuandanError.said(msgid, agent=names[seat], seat=seat + 1, error=f"{type(e).__name__}: {e}",
                                place=place, index=index) from e
    return first


def illegal_answer(agent: str, seat: int, answer: object, obs: MatchObservation, index: int,
                   where: str = "pair") -> IllegalAnswer:
    """What ``agent`` at ``seat`` answered that was not one of its legal actions (``obs``): the arena counts
    such an answer and plays the first legal action, and its author must learn more than the count."""
    return IllegalAnswer(agent, index, seat, obs.deal.phase.value, answer_problem(answer, obs), answer_record(answer),
                         where)


def _keep_first(first: dict[int, IllegalAnswer], a_seats: int, into: PairResult | MatchResult) -> None:
    """Each side's first illegal answer in the order they were answered (``first`` keeps it)."""
    for seat in first:
        side = "a" if seat % 2 == a_seats else "b"
        if getattr(into, f"first_illegal_{side}") is None:
            setattr(into, f"first_illegal_{side}", first[seat])


def _raiser(tb: TracebackType | None, agents: list[Agent]) -> tuple[int | None, str]:
    """The seat whose agent's method raised (a frame whose ``self`` is one of ``agents``), if any, and
    where the exception was raised: the innermost frame's file and line."""
    seat, place = None, "?"
    while tb is not None:
        me = tb.tb_frame.f_locals.get("self")
        for s, a in enumerate(agents):
            if seat is None and me is a:
                seat = s
        place = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}"
        tb = tb.tb_next
    return seat, place


def play_pair(setup: Setup, index: int) -> PairResult:
    rules = setup.rules()
    spec = draw_spec(setup.seed, index)
    pair = PairResult(index, [])
    for a_seats in (0, 1):
        match = new_match(rules, f"arena:{setup.seed}:{index}", spec.config(setup.move_mode))
        names, agents = _agents(setup, a_seats, f"{index}:{a_seats}")
        stats = RunStats()
        first = _play(match, agents, names, stats,
                      N_("{agent} (seat {seat}) raised {error} ({place}) in deal pair {index}"), index, "pair")
        _keep_first(first, a_seats, pair)
        d = match.deals[0]
        won = d.finish[0] % 2 == a_seats
        up = float(d.settlement.upgrade)
        pair.halves.append(HalfResult(a_seats, won, up if won else -up, won and d.settlement.partner_place == 2,
                                      d.state.initial_hands, list(d.finish)))
        _collect(stats, a_seats, pair)
        _close(agents, a_seats, pair)
        if setup.out:
            path = Path(setup.out) / f"pair-{index:06d}-{'ab'[a_seats]}.json"
            path.write_text(dumps(match, names), encoding="utf-8")
    return pair


@dataclass
class MatchResult:
    index: int
    a_seats: int
    a_won: bool | None  # None: unfinished within the cap
    deals: int
    a_times: list[float] = field(default_factory=list)
    b_times: list[float] = field(default_factory=list)
    illegal_a: int = 0
    illegal_b: int = 0
    cpu_seconds: float = 0.0
    bot_failures_a: dict[str, int] = field(default_factory=dict)
    bot_failures_b: dict[str, int] = field(default_factory=dict)
    first_illegal_a: IllegalAnswer | None = field(default=None, compare=False)
    first_illegal_b: IllegalAnswer | None = field(default=None, compare=False)


def play_full_match(setup: Setup, index: int) -> MatchResult:
    """Match ``index // 2`` from level 2 to passing A, A at {0, 2} for even indices, {1, 3} for odd.
    Both halves use the same match seed, so their deals are dealt from the same random streams."""
    rules = setup.rules()
    a_seats = index % 2
    match = new_match(rules, f"arena-match:{setup.seed}:{index // 2}",
                      MatchConfig(max_deals=MATCH_DEAL_CAP, move_mode=setup.move_mode))
    names, agents = _agents(setup, a_seats, f"m{index}")
    stats = RunStats()
    first = _play(match, agents, names, stats, N_("{agent} (seat {seat}) raised {error} ({place}) in match {index}"),
                  index, "match")
    won = None if match.winner is None else match.winner == a_seats
    res = MatchResult(index, a_seats, won, len(match.deals))
    _keep_first(first, a_seats, res)
    tmp = PairResult(index, [])
    _collect(stats, a_seats, tmp)
    _close(agents, a_seats, res)
    res.a_times, res.b_times = tmp.a_times, tmp.b_times
    res.illegal_a, res.illegal_b, res.cpu_seconds = tmp.illegal_a, tmp.illegal_b, tmp.cpu_seconds
    if setup.out:
        (Path(setup.out) / f"match-{index:06d}.json").write_text(dumps(match, names), encoding="utf-8")
    return res


def _pairs_chunk(setup: Setup, indices: list[int]) -> list[PairResult]:
    return [play_pair(setup, i) for i in indices]


def _matches_chunk(setup: Setup, indices: list[int]) -> list[MatchResult]:
    return [play_full_match(setup, i) for i in indices]


def _chunks(indices: list[int], parts: int) -> list[list[int]]:
    size = max(1, min(25, len(indices) // (parts * 4) or 1))
    return [indices[i : i + size] for i in range(0, len(indices), size)]


class Pool(Protocol):
    """Somewhere other than this machine's processes to play chunks (``guandan.arena.ray_pool``).

    ``run`` calls ``fn(setup, chunk)`` for every chunk, passes each chunk's result to ``each`` as
    soon as it is done, and returns the results in chunk order, as the process pool does."""

    workers: int

    def run(self, fn: Callable[[Setup, list[int]], list[T]], setup: Setup, chunks: list[list[int]],
            each: Callable[[list[T]], None] | None) -> list[list[T]]: ...


def run_parallel(fn: Callable[[Setup, list[int]], list[T]], setup: Setup, indices: Iterable[int], jobs: int,
                 each: Callable[[list[T]], None] | None = None, pool: Pool | None = None) -> list[T]:
    """``fn`` over chunks of ``indices`` in ``jobs`` spawned processes, or on ``pool`` (its
    ``workers`` then size the chunks); results in index order.

    With ``each`` every index is its own chunk and ``each`` sees its result as soon as it is done,
    in the order they finish: a results file then loses at most the pairs in play when a run stops
    (at 1 s per decision a chunk of 25 pairs was 7 minutes of work)."""
    idx = list(indices)
    chunks = [[i] for i in idx] if each is not None else _chunks(idx, pool.workers if pool else jobs)
    if pool is not None:
        return [r for part in pool.run(fn, setup, chunks, each) for r in part]
    if jobs <= 1 or len(idx) <= 1:
        out1: list[T] = []
        for chunk in chunks if each is not None else [idx]:
            done = fn(setup, chunk)
            if each is not None:
                each(done)
            out1.extend(done)
        return out1
    ctx = multiprocessing.get_context("spawn")
    parts: dict[int, list[T]] = {}
    procs = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)
    try:
        futures = {procs.submit(fn, setup, chunk): n for n, chunk in enumerate(chunks)}
        for future in as_completed(futures):
            part = future.result()
            parts[futures[future]] = part
            if each is not None:
                each(part)
    except BaseException:
        _halt(procs)
        raise
    procs.shutdown()
    return [r for n in range(len(chunks)) for r in parts[n]]


def _halt(procs: ProcessPoolExecutor) -> None:
    """Stop at once (Ctrl-C, a stop signal, a failed chunk): the pool's own exit would wait for every
    queued chunk to be played first. What workers have in play is lost; what ``each`` saw is kept."""
    workers = list((getattr(procs, "_processes", None) or {}).values())  # no public way to end them (3.11)
    procs.shutdown(wait=False, cancel_futures=True)
    for w in workers:
        w.terminate()
    for w in workers:
        w.join(timeout=5)


def run_pairs(setup: Setup, start: int, count: int, jobs: int = 1, pool: Pool | None = None) -> list[PairResult]:
    return play_pairs(setup, range(start, start + count), jobs, pool=pool)


def play_pairs(setup: Setup, indices: Iterable[int], jobs: int = 1,
               each: Callable[[list[PairResult]], None] | None = None, pool: Pool | None = None) -> list[PairResult]:
    """The pairs ``indices`` (any order of distinct deal-spec indices), each passed to ``each`` as it finishes."""
    if setup.out:
        Path(setup.out).mkdir(parents=True, exist_ok=True)
    return run_parallel(_pairs_chunk, setup, indices, jobs, each, pool)


def run_matches(setup: Setup, count: int, jobs: int = 1, pool: Pool | None = None) -> list[MatchResult]:
    if setup.out:
        Path(setup.out).mkdir(parents=True, exist_ok=True)
    return run_parallel(_matches_chunk, setup, range(2 * count), jobs, pool=pool)


__all__ = ["HalfResult", "IllegalAnswer", "MatchResult", "PairResult", "Pool", "Setup", "illegal_answer",
           "play_full_match", "play_pair", "play_pairs", "run_matches", "run_pairs"]
