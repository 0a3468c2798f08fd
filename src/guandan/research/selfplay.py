"""`guandan selfplay`: four agents play seeded deals and every decision is written as Parquet.

Deals are the arena's duplicate deal specs (:func:`guandan.arena.specs.draw_spec`): deal ``i`` of
seed ``S`` is the same hands, levels, declarer, tribute situation and first leader as pair ``i`` of
``guandan arena --seed S``, played once, as a one-deal match. Independent deals (rather than whole
matches) give every level and tribute situation from the first row, make any prefix of a run a
complete data set, and let a later runner hand deals to workers by index.

The game loop is :func:`guandan.agents.runner.run_match`; each agent is wrapped in a
:class:`Recorder` that encodes the observation it is given (the env's 510-value vector) and its legal
action indices, and the runner's ``on_events`` hook fixes the action actually applied (an illegal
choice is replaced by the runner) and collects the events from which the deal's rewards come —
:func:`guandan.env.table.deal_rewards`, exactly the environments' rewards.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..agents import Agent, make_agent
from ..agents.base import Shown
from ..agents.runner import run_match
from ..arena.specs import draw_spec
from ..core.cards import card_str
from ..core.deal import Action
from ..core.errors import GuandanError
from ..core.events import Event
from ..core.match import MatchObservation, new_match
from ..core.rules import RuleSet, preset
from ..core.vocab import ActionKind, MoveMode
from ..env.actions import action_index, index_actions
from ..env.encoding import OBS_SIZE, Encoder
from ..env.table import deal_rewards
from ..i18n import N_

if TYPE_CHECKING:
    import pyarrow as pa

    from ..arena.ray_pool import RayPool

SCHEMA_VERSION = 1
ROW_GROUP_DEALS = 50  # rows are flushed every this many deals: memory stays bounded on long runs
PART_DEALS = 1000  # and a new file starts every this many deals (part-00000.parquet, …)


@dataclass
class Row:
    """One decision, before the deal's outcome is known."""

    seat: int
    phase: str
    observation: npt.NDArray[np.int8]
    legal: list[int]
    chosen: Action | None = None  # what the agent returned
    applied: Action | None = None  # what the runner applied (legal[0] if the choice was illegal)
    level: int = 0


@dataclass
class DealLog:
    rows: list[Row] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


class Recorder(Agent):
    """Wraps an agent: records each observation it sees (encoded as the env does) and its legal indices."""

    name = "recorder"

    def __init__(self, inner: Agent, log: DealLog) -> None:
        super().__init__(inner.seed, inner.time_budget)
        self.inner, self.log, self.encoder = inner, log, Encoder()

    def reset(self, seat: int, rules: RuleSet) -> None:
        super().reset(seat, rules)
        self.inner.reset(seat, rules)
        self.encoder.reset()

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        level = obs.deal.level
        indices, _ = index_actions(legal, level)
        row = Row(self.seat, str(obs.deal.phase), self.encoder.encode(obs), sorted(indices), level=level)
        self.log.rows.append(row)
        row.chosen = self.inner.choose(obs, legal)
        return row.chosen

    def close(self) -> None:
        self.inner.close()


class ListeningRecorder(Recorder):
    """A :class:`Recorder` for agents that need the runner's event hook (external bots): forwards it."""

    def on_events(self, events: Sequence[Event], obs: MatchObservation, shown: Shown = ()) -> None:
        self.inner.on_events(events, obs, shown)


def _wrap(inner: Agent, log: DealLog) -> Recorder:
    listens = getattr(type(inner), "on_events", Agent.on_events) is not Agent.on_events
    return ListeningRecorder(inner, log) if listens else Recorder(inner, log)


def combo_text(action: Action) -> str:
    """The action's kind and combo as text: ``pass``, ``tribute``, ``straight(9, 5)``, …"""
    if action.kind == ActionKind.PLAY and action.combo is not None:
        return str(action.combo)
    return str(action.kind.value)


def schema() -> pa.Schema:
    """The Parquet schema (docs/research.md, "Self-play data")."""
    import pyarrow as pa

    fields = [
        ("seed", pa.int64()), ("match", pa.int64()), ("deal", pa.int16()), ("decision", pa.int32()),
        ("seat", pa.int8()), ("agent", pa.string()), ("preset", pa.string()), ("phase", pa.string()),
        ("observation", pa.list_(pa.int8(), OBS_SIZE)), ("legal", pa.list_(pa.int16())),
        ("action", pa.int16()), ("action_cards", pa.string()), ("action_combo", pa.string()),
        ("illegal", pa.bool_()), ("reward", pa.float32()),
    ]
    return pa.schema([pa.field(n, t, nullable=False) for n, t in fields],
                     metadata={"guandan.selfplay.schema": str(SCHEMA_VERSION)})


@dataclass(frozen=True)
class SelfplaySetup:
    agents: tuple[str, str, str, str]
    deals: int
    preset: str = "competition"
    seed: int = 1
    budget: float | None = None


def play_deal(setup: SelfplaySetup, rules: RuleSet, index: int) -> tuple[DealLog, list[float]]:
    """Deal spec ``index`` played once by the four agents, canonical moves (the env's action space);
    returns every decision and each seat's reward."""
    spec = draw_spec(setup.seed, index)
    match = new_match(rules, f"selfplay:{setup.seed}:{index}", spec.config(MoveMode.CANONICAL))
    log = DealLog()
    agents = [_wrap(make_agent(a, f"selfplay-agent:{setup.seed}:{index}:{s}", setup.budget), log)
              for s, a in enumerate(setup.agents)]
    filled = 0

    def applied(action: Action, events: list[Event]) -> None:
        # the runner asks for one choice before each action it applies, so rows and actions pair up in order
        nonlocal filled
        log.rows[filled].applied = action
        filled += 1
        log.events.extend(events)

    try:
        run_match(match, agents, on_events=applied)
    finally:
        for agent in agents:
            agent.close()
    return log, deal_rewards(log.events, rules)


def _columns(setup: SelfplaySetup, index: int, log: DealLog, rewards: list[float]) -> dict[str, list[Any]]:
    cols: dict[str, list[Any]] = {n: [] for n in schema().names}
    for k, r in enumerate(log.rows):
        assert r.applied is not None
        cols["seed"].append(setup.seed)
        cols["match"].append(index)
        cols["deal"].append(0)
        cols["decision"].append(k)
        cols["seat"].append(r.seat)
        cols["agent"].append(setup.agents[r.seat])
        cols["preset"].append(setup.preset)
        cols["phase"].append(r.phase)
        cols["observation"].append(r.observation)
        cols["legal"].append(r.legal)
        cols["action"].append(action_index(r.applied, r.level))
        cols["action_cards"].append(" ".join(card_str(c) for c in r.applied.cards))
        cols["action_combo"].append(combo_text(r.applied))
        cols["illegal"].append(r.chosen != r.applied)
        cols["reward"].append(rewards[r.seat])
    return cols


def _table(cols: dict[str, list[Any]]) -> pa.Table:
    import pyarrow as pa

    sch = schema()
    arrays = []
    for f in sch:
        if f.name == "observation":
            flat = pa.array(np.concatenate(cols["observation"]) if cols["observation"] else np.zeros(0, np.int8),
                            type=pa.int8())
            arrays.append(pa.FixedSizeListArray.from_arrays(flat, OBS_SIZE))
        else:
            arrays.append(pa.array(cols[f.name], type=f.type))
    return pa.Table.from_arrays(arrays, schema=sch)


@dataclass
class SelfplayReport:
    deals: int = 0
    decisions: int = 0
    illegal: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    files: list[str] = field(default_factory=list)

    @property
    def decisions_per_cpu_second(self) -> float:
        return self.decisions / self.cpu_seconds if self.cpu_seconds > 0 else 0.0


def existing_parts(out: Path) -> list[Path]:
    return sorted(out.glob("part-*.parquet"))


def batches(deals: int, part_deals: int = PART_DEALS, row_group_deals: int = ROW_GROUP_DEALS) -> list[list[int]]:
    """Deal indices ``0 … deals-1`` cut where a row group ends: every ``row_group_deals`` deals and
    at every new part file. A batch is one row group, so however batches are played (here, or as
    Ray tasks) and written in order, the files are the same, row group for row group."""
    cuts = sorted({*range(0, deals, part_deals), *range(0, deals, row_group_deals), deals})
    return [list(range(a, b)) for a, b in itertools.pairwise(cuts)]


@dataclass(frozen=True)
class Batch:
    """One batch's rows, as a Ray task sends them back: an Arrow table travels as Arrow buffers."""

    first: int  # its first deal index
    deals: int
    table: pa.Table
    illegal: int
    cpu_seconds: float  # play, encoding and the table, where it was played


def play_batch(setup: SelfplaySetup, indices: list[int]) -> Batch:
    """Deals ``indices`` played and turned into one Arrow table (the ``fn`` of a Ray task)."""
    c0 = time.process_time()
    rules = preset(setup.preset)
    cols: dict[str, list[Any]] = {}
    illegal = 0
    for index in indices:
        log, rewards = play_deal(setup, rules, index)
        for k, v in _columns(setup, index, log, rewards).items():
            cols.setdefault(k, []).extend(v)
        illegal += sum(r.chosen != r.applied for r in log.rows)
    table = _table(cols or {n: [] for n in schema().names})
    return Batch(indices[0], len(indices), table, illegal, time.process_time() - c0)


def run_selfplay(setup: SelfplaySetup, out: Path, part_deals: int = PART_DEALS,
                 row_group_deals: int = ROW_GROUP_DEALS, pool: RayPool | None = None) -> SelfplayReport:
    """Play ``setup.deals`` deals and write ``out/part-NNNNN.parquet`` (``part_deals`` deals a file,
    a row group every ``row_group_deals`` deals). CPU time covers play, encoding and writing.

    With ``pool`` the batches are Ray tasks and come back to this process, which writes them in
    deal order: the files equal a one-process run's, and a remote cluster needs no shared disk.
    CPU time then adds the tasks' own to this process's."""
    import pyarrow.parquet as pq

    if len(setup.agents) != 4:
        raise GuandanError.said(N_("self-play needs four agents, one per seat"))
    if existing_parts(out):
        raise GuandanError.said(N_("{out} already holds self-play parts (part-*.parquet); choose an empty folder"), out=out)
    report = SelfplayReport()
    t0, c0 = time.perf_counter(), time.process_time()
    chunks = batches(setup.deals, part_deals, row_group_deals)
    played = (pool.ordered(play_batch, setup, chunks) if pool is not None
              else (play_batch(setup, chunk) for chunk in chunks))
    writer: pq.ParquetWriter | None = None
    task_cpu = 0.0
    try:
        for batch in played:
            if batch.first % part_deals == 0:
                if writer is not None:
                    writer.close()
                path = out / f"part-{batch.first // part_deals:05d}.parquet"
                writer = pq.ParquetWriter(path, schema())
                report.files.append(str(path))
            assert writer is not None  # the first batch starts at deal 0, which starts a part
            if batch.table.num_rows:
                writer.write_table(batch.table)
            report.deals += batch.deals
            report.decisions += batch.table.num_rows
            report.illegal += batch.illegal
            if pool is not None:  # played in another process: its CPU time is not in ours
                task_cpu += batch.cpu_seconds
    finally:
        if writer is not None:
            writer.close()
    report.cpu_seconds = time.process_time() - c0 + task_cpu
    report.wall_seconds = time.perf_counter() - t0
    return report


def read_rows(out: Path) -> Iterator[dict[str, Any]]:
    """Every row of a self-play folder, part by part, as dicts (for tests and small tools)."""
    import pyarrow.parquet as pq

    for path in existing_parts(out):
        yield from pq.read_table(path).to_pylist()


__all__ = ["Batch", "Recorder", "SelfplayReport", "SelfplaySetup", "batches", "play_batch", "play_deal", "read_rows",
           "run_selfplay", "schema"]
