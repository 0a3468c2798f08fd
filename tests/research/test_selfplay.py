"""guandan selfplay: the documented Parquet schema, one row per decision actually made, outcomes
from the deal results, seeded determinism, and refused arguments."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from guandan.agents import make_agent
from guandan.agents.runner import run_match
from guandan.arena.specs import draw_spec
from guandan.core.deal import Action
from guandan.core.events import Event
from guandan.core.match import new_match
from guandan.core.rules import preset
from guandan.core.vocab import MoveMode
from guandan.env.actions import ACTION_SIZE, action_index, index_actions
from guandan.env.encoding import OBS_SIZE, Encoder
from guandan.research.selfplay import schema

from .conftest import invoke

AGENTS = ("heuristic", "random", "greedy", "random")
DOCUMENTED = ["seed", "match", "deal", "decision", "seat", "agent", "preset", "phase", "observation", "legal",
              "action", "action_cards", "action_combo", "illegal", "reward"]


def _selfplay(out: Path, deals: int = 3, seed: int = 7, preset_name: str = "competition",
              extra: tuple[str, ...] = ()) -> dict[str, object]:
    result = invoke("selfplay", "--agents", ",".join(AGENTS), "--deals", str(deals), "--out", str(out),
                    "--seed", str(seed), "--preset", preset_name, "--json", *extra)
    assert result.exit_code == 0, result.output
    figures: dict[str, object] = json.loads(result.output)
    return figures


def _replay(index: int, seed: int, preset_name: str) -> tuple[list[tuple[int, int, list[int], list[int]]], list[int], int]:
    """Deal ``index`` played again by the same agents, outside the self-play code: per decision (seat,
    action index, legal indices, the observation), and the deal's finish and upgrade."""
    rules = preset(preset_name)
    spec = draw_spec(seed, index)
    match = new_match(rules, f"selfplay:{seed}:{index}", spec.config(MoveMode.CANONICAL))
    agents = [make_agent(a, f"selfplay-agent:{seed}:{index}:{s}") for s, a in enumerate(AGENTS)]
    encoders = [Encoder() for _ in range(4)]
    asked: list[tuple[list[int], list[int]]] = []  # (legal indices, observation) per choice, in order
    level: list[int] = []  # the deal's level, as the last chooser saw it
    applied: list[tuple[int, int]] = []  # (seat, action index) per action applied, in order

    def record(action: Action, events: list[Event]) -> None:
        applied.append((action.seat, action_index(action, level[-1])))

    for s, agent in enumerate(agents):
        inner = agent.choose

        def choose(obs, legal, s=s, inner=inner):  # type: ignore[no-untyped-def]
            level.append(obs.deal.level)
            asked.append((sorted(index_actions(legal, obs.deal.level)[0]), encoders[s].encode(obs).tolist()))
            return inner(obs, legal)
        agent.choose = choose  # type: ignore[method-assign]
    run_match(match, agents, on_events=record)
    rows = [(seat, idx, legal, obs) for (seat, idx), (legal, obs) in zip(applied, asked, strict=True)]
    d = match.deals[0]
    return rows, list(d.finish), int(d.settlement.upgrade)


def test_schema_rows_and_outcomes_match_the_deals(tmp_path: Path) -> None:
    figures = _selfplay(tmp_path, deals=3, seed=7, preset_name="competition", extra=("--part-deals", "2"))
    assert [Path(f).name for f in figures["files"]] == ["part-00000.parquet", "part-00001.parquet"]  # type: ignore[union-attr]
    table = pq.read_table(tmp_path)
    assert table.schema.names == DOCUMENTED
    assert table.schema.equals(schema(), check_metadata=False)
    assert table.schema.field("observation").type == pa.list_(pa.int8(), OBS_SIZE)
    assert table.schema.field("legal").type == pa.list_(pa.int16())
    assert table.num_rows == figures["decisions"]
    rows = table.to_pylist()
    for index in range(3):
        mine = [r for r in rows if r["match"] == index]
        replayed, finish, upgrade = _replay(index, 7, "competition")
        assert len(mine) == len(replayed) > 0  # one row per decision made, no more, no fewer
        assert [r["decision"] for r in mine] == list(range(len(mine)))
        for r, (seat, idx, legal, obs) in zip(mine, replayed, strict=True):
            assert (r["seat"], r["action"], r["legal"], r["observation"]) == (seat, idx, legal, obs)
            assert r["agent"] == AGENTS[seat] and r["preset"] == "competition" and r["deal"] == 0
            assert r["action"] in r["legal"] and 0 <= r["action"] < ACTION_SIZE
            assert not r["illegal"]
            winners = finish[0] % 2
            assert r["reward"] == (upgrade if seat % 2 == winners else -upgrade)
        assert upgrade in (1, 2, 3)
        assert {r["phase"] for r in mine} >= {"play"}
        plays = [r for r in mine if r["action_combo"] not in ("pass", "tribute", "return", "choose")]
        assert plays and all(r["action_cards"] for r in plays)
    assert pq.ParquetFile(tmp_path / "part-00000.parquet").metadata.num_rows == sum(r["match"] < 2 for r in rows)


def test_huopin_rewards_are_the_deal_points(tmp_path: Path) -> None:
    _selfplay(tmp_path, deals=1, seed=3, preset_name="huopin")
    rows = pq.read_table(tmp_path).to_pylist()
    per_seat = {r["seat"]: r["reward"] for r in rows}
    assert len(per_seat) == 4 and abs(sum(per_seat.values())) < 1e-6  # zero-sum points, one value per seat


def test_same_command_same_rows_and_seed_changes_them(tmp_path: Path) -> None:
    _selfplay(tmp_path / "a", deals=2, seed=5)
    _selfplay(tmp_path / "b", deals=2, seed=5)
    _selfplay(tmp_path / "c", deals=2, seed=6)
    a, b, c = (pq.read_table(tmp_path / n) for n in "abc")
    assert a.equals(b)
    assert not a.equals(c)


def test_readable_with_pandas(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    _selfplay(tmp_path, deals=1)
    frame = pd.read_parquet(tmp_path)
    assert len(frame) > 0 and len(frame["observation"].iloc[0]) == OBS_SIZE


def test_prints_decisions_per_second(tmp_path: Path) -> None:
    result = invoke("selfplay", "--agents", "random,random,random,random", "--deals", "1", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "decisions/s per core" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["--agents", "random,random,random"], "four specs"),
    (["--agents", "random,random,,random"], "empty agent spec"),
    (["--agents", "random,random,random,nosuch"], "nosuch"),
    (["--deals", "0"], "--deals"),
    (["--preset", "nosuch"], "--preset"),
    (["--part-deals", "0"], "--part-deals"),
    (["--budget", "-1"], "--budget"),
])
def test_bad_arguments_are_refused(tmp_path: Path, args: list[str], message: str) -> None:
    base = {"--agents": "random,random,random,random", "--deals": "1", "--out": str(tmp_path / "o")}
    for k, v in zip(args[::2], args[1::2], strict=True):
        base[k] = v
    result = invoke("selfplay", *[x for kv in base.items() for x in kv])
    assert result.exit_code == 2
    assert message in result.output
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


def test_a_folder_with_parts_is_refused(tmp_path: Path) -> None:
    _selfplay(tmp_path, deals=1)
    before = pq.read_table(tmp_path)
    result = invoke("selfplay", "--agents", "random,random,random,random", "--deals", "1", "--out", str(tmp_path))
    assert result.exit_code == 2 and "already holds self-play parts" in result.output
    assert pq.read_table(tmp_path).equals(before)
