"""`guandan selfplay --ray` and `guandan league --ray`: the same Parquet files and the same rating
report on a Ray cluster as in one process, and the arena's refusals for bad --ray values."""

from __future__ import annotations

import filecmp
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from .conftest import invoke

ray = pytest.importorskip("ray")

pytestmark = pytest.mark.timeout(300)  # a Ray start takes seconds, more on a busy machine

SELFPLAY = ["selfplay", "--agents", "heuristic,random,greedy,random", "--seed", "3", "--json"]
LEAGUE = ["league", "--agents", "heuristic,random,greedy", "--pairs", "2", "--seed", "4", "--json"]


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """One local two-CPU cluster for the module (as tests/arena/test_arena_ray.py has): ``--ray
    local`` finds it running, plays on it and leaves it, so the module pays one Ray start."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def _ok(*args: str) -> dict[str, Any]:
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    out: dict[str, Any] = json.loads(r.stdout)  # stdout alone: Ray may say things on stderr
    return out


def test_selfplay_on_ray_writes_the_same_files(cluster: None, tmp_path: Path) -> None:
    one, spread = tmp_path / "one", tmp_path / "ray"
    # 5 deals, 2 a file: three batches (tasks) on two workers, three parts
    common = ["--deals", "5", "--part-deals", "2"]
    plain = _ok(*SELFPLAY, *common, "--out", str(one))
    on_ray = _ok(*SELFPLAY, *common, "--out", str(spread), "--ray", "local", "--jobs", "2")
    assert on_ray["ray"] == "local" and on_ray["ray_workers"] == 2
    names = [Path(f).name for f in plain["files"]]
    assert names == ["part-00000.parquet", "part-00001.parquet", "part-00002.parquet"]
    assert [Path(f).name for f in on_ray["files"]] == names
    for key in ("deals", "decisions", "illegal"):
        assert on_ray[key] == plain[key]
    for n in names:  # the same rows in the same order and row groups: the very same bytes
        assert pq.read_table(spread / n).equals(pq.read_table(one / n))
        assert filecmp.cmp(spread / n, one / n, shallow=False)
    assert on_ray["decisions_per_second"] > 0 and on_ray["cpu_seconds"] > 0


def test_selfplay_batches_are_row_groups() -> None:
    """A batch (one Ray task) ends where a one-process run ends a row group: every ``row_group_deals``
    deals counted from the start, and at every new part."""
    from guandan.research.selfplay import batches

    assert batches(5, part_deals=2, row_group_deals=50) == [[0, 1], [2, 3], [4]]
    assert batches(7, part_deals=3, row_group_deals=2) == [[0, 1], [2], [3], [4, 5], [6]]
    assert batches(120) == [list(range(0, 50)), list(range(50, 100)), list(range(100, 120))]


def test_league_on_ray_gives_the_same_report(cluster: None, tmp_path: Path) -> None:
    plain = _ok(*LEAGUE, "--out", str(tmp_path / "one"))
    on_ray = _ok(*LEAGUE, "--out", str(tmp_path / "ray"), "--ray", "local", "--jobs", "2")
    assert on_ray == plain
    for name in ("league.json", "league.txt", "league.svg"):
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "one" / name).read_bytes()


@pytest.mark.parametrize("command", ["selfplay", "league"])
@pytest.mark.parametrize(("args", "message"), [
    (["--ray", "bogus"], "--ray must be local, auto, HOST:PORT or ray://HOST:PORT, not \"bogus\""),
    (["--ray", "--json"], "(--ray takes a value: --ray local)"),
    (["--ray", "head:99999"], "the port must be between 1 and 65535"),
    (["--ray", "head:6379", "--jobs", "2"], "uses that cluster's own CPUs: leave --jobs out"),
])
def test_bad_ray_values_are_refused_in_the_arenas_words(command: str, args: list[str], message: str,
                                                        tmp_path: Path) -> None:
    base = (["selfplay", "--agents", "random,random,random,random", "--deals", "1", "--out", str(tmp_path / "o")]
            if command == "selfplay" else ["league", "--agents", "heuristic,random", "--pairs", "1"])
    r = invoke(*base, *args)
    assert r.exit_code == 2 and message in r.output, r.output
    assert not (tmp_path / "o").exists()  # refused before anything is written


def test_selfplay_jobs_without_ray_is_refused(tmp_path: Path) -> None:
    r = invoke("selfplay", "--agents", "random,random,random,random", "--deals", "1", "--out", str(tmp_path / "o"),
               "--jobs", "2")
    assert r.exit_code == 2 and "--jobs sets a local Ray cluster's CPUs: give it with --ray local" in r.output


def test_without_ray_installed_ray_is_refused_clearly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    r = invoke("league", "--agents", "heuristic,random", "--pairs", "1", "--ray", "local")
    assert r.exit_code == 2 and "--ray needs Ray: pip install ray" in r.output, r.output
