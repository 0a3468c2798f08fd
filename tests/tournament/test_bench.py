"""`guandan tournament bench` at a tiny size: the shape of its JSON and its table, and refused options.

Speed is what the benchmark prints, never what a test asserts.
"""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from guandan.tournament.bench import play_slip
from guandan.tournament.cli import app
from guandan.tournament.levels import LEVEL_A, level_value

runner = CliRunner()
TIMED = ("pair", "desk_pair", "standings", "replay", "desk_replay")
SPREAD = ("mean_cpu_ms", "max_cpu_ms", "mean_wall_ms", "max_wall_ms")


@pytest.mark.parametrize("per_deal", [False, True])
def test_json_shape(per_deal: bool) -> None:
    mode = "--per-deal" if per_deal else "--per-round"
    res = runner.invoke(app, ["bench", "--teams", "12", "--rounds", "3", "--seed", "5", mode, "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["parameters"] == {"teams": 12, "rounds": 3, "seed": 5, "per_deal": per_deal}
    assert isinstance(out["python"], str) and out["python"].count(".") == 2
    assert [r["round"] for r in out["rounds"]] == [1, 2, 3]
    # one team withdraws after round 1 (rounds // 2): 12, then 11 teams with a bye
    assert [r["teams"] for r in out["rounds"]] == [12, 11, 11]
    assert [r["bye"] for r in out["rounds"]] == [False, True, True]
    assert [r["tables"] for r in out["rounds"]] == [6, 5, 5]
    events = [r["events"] for r in out["rounds"]]
    # created, 12 teams, the pairing, then at least one entry per table (a deal each, or a result)
    assert events == sorted(events) and events[0] > 1 + 12 + 1 + 6
    for r in out["rounds"]:
        for key in TIMED:
            assert set(r[key]) == {"cpu_s", "wall_s"} and all(v >= 0 for v in r[key].values())
        for key in ("desk_report", "desk_confirm"):
            assert set(r[key]) == set(SPREAD)
    assert set(out["worst"]) == {"pair_cpu_s", "desk_pair_cpu_s", "standings_cpu_s", "replay_cpu_s",
                                 "desk_replay_cpu_s", "desk_confirm_max_cpu_ms"}
    assert out["targets"] == {"pair_cpu_s": 2.0, "replay_cpu_s": 1.0}
    assert set(out["met"]) == set(out["targets"]) and all(isinstance(v, bool) for v in out["met"].values())


def test_table_and_summary() -> None:
    res = runner.invoke(app, ["bench", "--teams", "8", "--rounds", "2"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].split()[:2] == ["round", "teams"]
    assert [line.split()[0] for line in lines[1:3]] == ["1", "2"]
    assert lines[3].startswith("8 teams, 2 rounds, seed 1, round results; Python ")
    assert lines[4].startswith("pairing a round, worst: ") and "target ≤ 2 s" in lines[4]
    assert lines[5].startswith("standings from the log, worst: ") and "target ≤ 1 s" in lines[5]


@pytest.mark.parametrize(("args", "message"), [
    (["--teams", "3"], "--teams must be 4…2000, not 3"),
    (["--teams", "5000"], "--teams must be 4…2000, not 5000"),
    (["--teams", "12", "--rounds", "0"], "--rounds must be 1…4 for 12 teams, not 0"),
    (["--teams", "12", "--rounds", "5"], "--rounds must be 1…4 for 12 teams, not 5"),
    (["--seed", "-1"], "--seed must be 0 or more, not -1"),
])
def test_bad_options_refused(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["bench", *args])
    assert res.exit_code == 2
    assert f"error: {message}" in res.output
    assert "Traceback" not in res.output


def test_not_a_number_refused() -> None:
    res = runner.invoke(app, ["bench", "--teams", "many"])
    assert res.exit_code == 2 and "Invalid value for '--teams'" in res.output


@pytest.mark.parametrize("seed", range(30))
def test_played_rounds_follow_the_rules(seed: int) -> None:
    slip = play_slip(random.Random(seed), (3, 2, 1), 8)
    assert slip.levels is not None and slip.deals is not None and 1 <= slip.deals <= 8
    values = [level_value(x) for x in slip.levels]
    assert all(2 <= v <= LEVEL_A for v in values)
    if slip.passed_a is not None:
        assert values[slip.passed_a] == LEVEL_A
    else:
        assert slip.deals == 8
