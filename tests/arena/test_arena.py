"""The arena: statistics on cases with a known answer, duplicate pairing, reproducibility, CLI."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from guandan.arena.report import summarize_pairs
from guandan.arena.runner import HalfResult, PairResult, Setup, run_pairs
from guandan.arena.specs import draw_spec
from guandan.arena.stats import bootstrap_ci, percentile, sprt, wilson_ci
from guandan.cli import _mount, app


def _pair_scores(p: float, n: int, rng: random.Random) -> list[float]:
    return [((rng.random() < p) + (rng.random() < p)) / 2 for _ in range(n)]


def test_bootstrap_interval_covers_the_true_win_probability() -> None:
    rng = random.Random(5)
    covered = 0
    trials = 60
    for t in range(trials):
        scores = _pair_scores(0.7, 150, rng)
        lo, hi = bootstrap_ci(scores, seed=t, rounds=300)
        assert lo < sum(scores) / len(scores) < hi
        covered += lo <= 0.7 <= hi
    assert covered / trials >= 0.85  # nominal 95 %; a few misses are expected at this size


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_ci(7, 10)
    assert lo == pytest.approx(0.3968, abs=1e-3) and hi == pytest.approx(0.8922, abs=1e-3)
    assert wilson_ci(0, 0) == (0.0, 1.0)


def test_sprt_accepts_the_true_hypothesis() -> None:
    rng = random.Random(9)
    assert sprt(_pair_scores(0.65, 800, rng), 0.5, 0.55).decision == "H1"
    assert sprt(_pair_scores(0.45, 800, rng), 0.5, 0.55).decision == "H0"
    with pytest.raises(ValueError):
        sprt([0.5, 1.0], 0.6, 0.5)


def test_percentile_nearest_rank() -> None:
    xs = [float(x) for x in range(1, 101)]
    assert percentile(xs, 50) == 50.0 and percentile(xs, 95) == 95.0 and percentile([], 95) == 0.0


def test_decision_times_are_summarized_per_side() -> None:
    half = HalfResult(0, True, 1.0, False, (), [0, 1, 2, 3])
    pairs = [PairResult(0, [half, half], a_times=[0.1, 0.3], b_times=[0.002]),
             PairResult(1, [half, half], a_times=[0.2], b_times=[0.004, 0.006])]
    s = summarize_pairs(pairs)
    assert s["a_decision_ms_mean"] == pytest.approx(200.0) and s["b_decision_ms_mean"] == pytest.approx(4.0)
    assert s["a_decision_ms_p50"] == pytest.approx(200.0) and s["a_decision_ms_p95"] == pytest.approx(300.0)


def test_identical_deterministic_agents_split_every_pair_exactly() -> None:
    # greedy ignores its seed, so both halves of a pair are the same game with the teams' agents
    # exchanged: A wins exactly one deal of every pair — a known win probability of ½ with no noise.
    pairs = run_pairs(Setup("greedy", "greedy", "competition", seed=4), 0, 6)
    s = summarize_pairs(pairs)
    assert s["a_deal_win_rate"] == 0.5 and s["a_deal_win_ci95"] == [0.5, 0.5]
    assert s["a_points_per_deal"] == 0.0 and s["illegal_actions"] == 0


def test_duplicate_halves_have_identical_deals() -> None:
    pairs = run_pairs(Setup("random", "greedy", "competition", seed=11), 0, 4)
    for p in pairs:
        first, second = p.halves
        assert first.hands == second.hands
        assert first.a_seats == 0 and second.a_seats == 1
        spec = draw_spec(11, p.index)
        assert first.hands == spec.hands
    assert draw_spec(11, 0) == draw_spec(11, 0) and draw_spec(11, 0) != draw_spec(12, 0)


def test_tribute_specs_start_with_a_tribute() -> None:
    spec = next(draw_spec(3, i) for i in range(20) if draw_spec(3, i).prev_finish is not None)
    assert spec.declarer == spec.prev_finish[0] % 2  # type: ignore[index]
    pairs = run_pairs(Setup("greedy", "random", "huaian-traditional", seed=3), spec.index, 1)
    assert pairs[0].halves[0].hands == spec.hands


def test_runs_are_reproducible_and_independent_of_jobs() -> None:
    setup = Setup("heuristic", "random", "competition", seed=21)
    one = run_pairs(setup, 0, 4, jobs=1)
    two = run_pairs(setup, 0, 4, jobs=2)
    key = [(p.index, [(h.a_won, h.a_points, h.finish) for h in p.halves]) for p in one]
    assert key == [(p.index, [(h.a_won, h.a_points, h.finish) for h in p.halves]) for p in two]


@pytest.fixture(scope="module")
def cli() -> CliRunner:
    _mount()
    return CliRunner()


def test_cli_json_has_the_documented_fields(cli: CliRunner, tmp_path: object) -> None:
    r = cli.invoke(app, ["arena", "--a", "heuristic", "--b", "greedy", "--deals", "3", "--seed", "2", "--json",
                         "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    for k in ("deal_pairs", "a_deal_win_rate", "a_deal_win_ci95", "a_points_per_deal", "illegal_actions",
              "a_decision_ms_p95"):
        assert k in data
    assert data["deal_pairs"] == 3 and 0 <= data["a_deal_win_rate"] <= 1 and data["illegal_actions"] == 0
    from pathlib import Path

    from guandan.core.record import loads, replay

    files = sorted(Path(str(tmp_path)).glob("*.json"))
    assert len(files) == 6
    for _ in replay(loads(files[0].read_text(encoding="utf-8"))):
        pass


def test_cli_sprt_and_match_modes(cli: CliRunner) -> None:
    r = cli.invoke(app, ["arena", "--a", "greedy", "--b", "random", "--mode", "sprt", "--deals", "40",
                         "--sprt-batch", "10", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["sprt_decision"] in ("H0", "H1", "continue") and data["deal_pairs"] <= 40
    r = cli.invoke(app, ["arena", "--a", "greedy", "--b", "random", "--mode", "match", "--deals", "1", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["matches"] == 2 and len(data["a_match_win_ci95"]) == 2


@pytest.mark.parametrize("args, message", [
    (["--a", "nobody"], "--a: unknown agent \"nobody\""),
    (["--b", "x"], "--b: unknown agent \"x\""),
    (["--preset", "nope"], "unknown preset"),
    (["--deals", "0"], "--deals must be at least 1"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--mode", "swiss"], "--mode must be one of"),
    (["--budget-a", "-1"], "--budget-a must be a positive"),
])
def test_cli_bad_input_exits_2(cli: CliRunner, args: list[str], message: str) -> None:
    r = cli.invoke(app, ["arena", *args])
    assert r.exit_code == 2
    assert message in r.output
