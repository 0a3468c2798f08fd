"""`guandan arena --ray`: the same games, results file and summary on a Ray cluster as in one process."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from guandan.cli import _mount, app

ray = pytest.importorskip("ray")

BASE = ["arena", "--a", "heuristic", "--b", "greedy", "--seed", "5", "--json"]
# what depends on the machine, not on the games: decision and CPU times
TIMED_PAIR = {"a_times", "b_times", "cpu_seconds"}
TIMED_SUMMARY = {"wall_seconds", "cpu_seconds_per_deal", "ray", "ray_workers", "ray_play_seconds",
                 "ray_pairs_per_second"} | {
    f"{side}_decision_ms_{s}" for side in "ab" for s in ("p50", "p95", "mean")}

pytestmark = pytest.mark.timeout(300)  # a Ray start takes seconds, more on a busy machine


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """One local two-CPU cluster for the module: ``--ray local`` finds it running and uses it
    (and leaves it running), so the tests pay one Ray start, not one each."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def cli() -> CliRunner:
    _mount()
    return CliRunner()


def _run(cli: CliRunner, *args: str) -> dict[str, Any]:
    r = cli.invoke(app, [*BASE, *args])
    assert r.exit_code == 0, r.output
    out: dict[str, Any] = json.loads(r.stdout)  # stdout alone: Ray may say things on stderr
    return out


def _games(path: Path) -> dict[int, dict[str, Any]]:
    """Each line's setup and pair by index, less the timings."""
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    return {d["pair"]["index"]: {"setup": d["setup"], **{k: v for k, v in d["pair"].items() if k not in TIMED_PAIR}}
            for d in lines}


def _untimed(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in TIMED_SUMMARY}


def test_a_ray_run_plays_the_same_games_as_one_process(cluster: None, cli: CliRunner, tmp_path: Path) -> None:
    one, on_ray = tmp_path / "one.jsonl", tmp_path / "ray.jsonl"
    plain = _run(cli, "--deals", "4", "--results", str(one))
    spread = _run(cli, "--deals", "4", "--results", str(on_ray), "--ray", "local", "--jobs", "2")
    assert spread["ray"] == "local" and spread["ray_workers"] == 2 and spread["deal_pairs"] == 4
    assert spread["ray_pairs_per_second"] > 0
    assert _untimed(spread) == _untimed(plain)
    assert _games(on_ray) == _games(one) and sorted(_games(one)) == [0, 1, 2, 3]
    # without a results file too (chunks instead of single pairs)
    assert _untimed(_run(cli, "--deals", "4", "--ray", "local", "--jobs", "2")) == _untimed(_run(cli, "--deals", "4"))
    # whole matches go over the cluster by the same path
    match = ["--mode", "match", "--deals", "1", "--a", "greedy", "--b", "random"]
    assert _untimed(_run(cli, *match, "--ray", "local")) == _untimed(_run(cli, *match))


def test_an_interrupted_ray_run_resumes_to_the_same_results(cluster: None, cli: CliRunner, tmp_path: Path) -> None:
    f, whole = tmp_path / "a.jsonl", tmp_path / "whole.jsonl"
    _run(cli, "--deals", "2", "--results", str(f), "--ray", "local", "--jobs", "2")  # stopped after two pairs
    assert sorted(_games(f)) == [0, 1]
    resumed = _run(cli, "--deals", "4", "--results", str(f), "--ray", "local", "--jobs", "2")
    straight = _run(cli, "--deals", "4", "--results", str(whole))
    assert resumed["resumed_pairs"] == 2 and len(f.read_text(encoding="utf-8").splitlines()) == 4
    assert _games(f) == _games(whole)
    assert {**_untimed(resumed), "resumed_pairs": 0} == _untimed(straight)


@pytest.mark.parametrize(("args", "message"), [
    (["--ray", "bogus"], "--ray must be local, auto, HOST:PORT or ray://HOST:PORT, not \"bogus\""),
    (["--ray", "--json"], "(--ray takes a value: --ray local)"),
    (["--ray", "head:99999"], "the port must be between 1 and 65535"),
    (["--ray", "head:6379", "--jobs", "2"], "uses that cluster's own CPUs: leave --jobs out"),
    (["--ray", "ray://head:10001", "--out", "recs"], "records would be written on the cluster's machines"),
])
def test_bad_ray_values_are_refused(cli: CliRunner, args: list[str], message: str) -> None:
    r = cli.invoke(app, ["arena", "--deals", "1", *args])
    assert r.exit_code == 2 and message in r.output, r.output


def test_an_address_where_nothing_answers_is_refused_at_once() -> None:
    """Ray would retry an unreachable head for minutes, writing its own logs; the arena says so in seconds.
    (A fresh process: in this one another test's cluster may be up, and the pool would play on it.)"""
    import socket

    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [str(Path(sys.executable).parent / "guandan"), "arena", "--deals", "1", "--ray", f"127.0.0.1:{port}"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert f"--ray 127.0.0.1:{port}: nothing answers there" in done.stderr, done.stderr


def test_without_ray_installed_ray_is_refused_clearly(cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    r = cli.invoke(app, ["arena", "--deals", "1", "--ray", "local"])
    assert r.exit_code == 2 and "--ray needs Ray: pip install ray" in r.output, r.output


def test_a_local_cluster_starts_and_stops_in_the_command(tmp_path: Path) -> None:
    """The whole path in a fresh process, as a user runs it: start, play, stop, clean JSON on stdout."""
    cmd = [str(Path(sys.executable).parent / "guandan"), *BASE, "--deals", "2", "--ray", "local", "--jobs", "2",
           "--results", str(tmp_path / "r.jsonl")]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["deal_pairs"] == 2 and out["ray"] == "local"
    assert sorted(_games(tmp_path / "r.jsonl")) == [0, 1]
