"""guandan league: every pairing plays the arena's duplicate pairs, the table, JSON and SVG agree,
heuristic rates above random, refused arguments; and the docs' training example runs."""

from __future__ import annotations

import itertools
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from guandan.research import linear_example
from guandan.research.league import LeagueSetup, play_league, rate

from .conftest import invoke

AGENTS = ["heuristic", "random", "greedy"]


def test_league_table_json_and_svg_agree(tmp_path: Path) -> None:
    result = invoke("league", "--agents", ",".join(AGENTS), "--pairs", "3", "--seed", "2", "--out", str(tmp_path),
                    "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert json.loads((tmp_path / "league.json").read_text(encoding="utf-8")) == report
    # every pair of agents played, each over the 3 deal pairs (6 deals)
    assert {(p["a"], p["b"]) for p in report["pairings"]} == set(itertools.combinations(AGENTS, 2))
    assert all(p["deal_pairs"] == 3 for p in report["pairings"])
    ratings = {r["agent"]: r for r in report["ratings"]}
    assert set(ratings) == set(AGENTS)
    for r in ratings.values():
        assert r["deals"] == 2 * 3 * (len(AGENTS) - 1)
        assert r["low"] == pytest.approx(r["mu"] - 2 * r["sigma"]) and r["high"] == pytest.approx(r["mu"] + 2 * r["sigma"])
    assert [r["rank"] for r in report["ratings"]] == [1, 2, 3]
    assert [r["mu"] for r in report["ratings"]] == sorted((r["mu"] for r in report["ratings"]), reverse=True)
    # a clearly stronger agent rates above random, intervals apart
    assert ratings["heuristic"]["mu"] > ratings["random"]["mu"]
    assert ratings["heuristic"]["low"] > ratings["random"]["high"]
    assert report["rating"]["library"] == "openskill" and report["rating"]["version"] == "6.2.0"
    # the text table names every agent with its rating, in rank order
    text = (tmp_path / "league.txt").read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln.strip()[:1].isdigit()]
    assert [ln.split()[1] for ln in lines] == [r["agent"] for r in report["ratings"]]
    assert all(f"{r['mu']:.2f}" in ln for ln, r in zip(lines, report["ratings"], strict=True))
    # the SVG: one dot per agent at its mu, one bar per interval, labels in rank order
    svg = ET.parse(tmp_path / "league.svg").getroot()
    ns = "{http://www.w3.org/2000/svg}"
    dots = svg.findall(f"{ns}circle")
    assert [float(d.get("data-mu", "nan")) for d in dots] == pytest.approx([r["mu"] for r in report["ratings"]], abs=1e-4)
    labels = [t.text for t in svg.findall(f"{ns}text") if t.get("class") == "agent"]
    assert labels == [r["agent"] for r in report["ratings"]]
    xs = [float(d.get("cx", "nan")) for d in dots]
    assert xs == sorted(xs, reverse=True)  # higher mu, further right


def test_league_is_seeded_and_uses_the_arena_pairs() -> None:
    setup = LeagueSetup(("heuristic", "random"), pairs=2, seed=4)
    results = play_league(setup)
    (pairs,) = results.values()
    assert [p.index for p in pairs] == [0, 1]
    assert all([h.a_seats for h in p.halves] == [0, 1] for p in pairs)  # seats swapped within a pair
    assert all(p.halves[0].hands == p.halves[1].hands for p in pairs)  # the same cards both times
    assert rate(setup, results) == rate(setup, play_league(setup))
    result = invoke("league", "--agents", "heuristic,random", "--pairs", "2", "--seed", "4")
    assert result.exit_code == 0 and "heuristic" in result.output and "mu ± 2σ" in result.output



def test_a_league_of_one_deal_pair_says_one_pair() -> None:
    result = invoke("league", "--agents", "heuristic,random", "--pairs", "1", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert ", 1 deal pair per pairing; " in result.output and "over 1 deal pair, " in result.output
    assert "1 deal pairs" not in result.output

@pytest.mark.parametrize(("agents", "extra", "message"), [
    ("heuristic", [], "at least two"),
    ("heuristic,heuristic", [], "twice"),
    ("heuristic,nosuch", [], "nosuch"),
    ("heuristic,random", ["--pairs", "0"], "--pairs"),
    ("heuristic,random", ["--preset", "nosuch"], "--preset"),
    ("heuristic,random", ["--jobs", "0"], "--jobs"),
])
def test_bad_league_arguments_are_refused(agents: str, extra: list[str], message: str) -> None:
    result = invoke("league", "--agents", agents, *extra)
    assert result.exit_code == 2
    assert message in result.output


def test_the_docs_training_example_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke("selfplay", "--agents", "heuristic,heuristic,heuristic,heuristic", "--deals", "4",
                    "--out", str(tmp_path), "--seed", "1")
    assert result.exit_code == 0, result.output
    out = linear_example.main(["--data", str(tmp_path), "--epochs", "2", "--eval-deals", "1"])
    assert out["train_decisions"] > 0 and out["test_decisions"] > 0
    assert 0.0 <= out["test_accuracy"] <= 1.0 and out["deal_win_rate_vs_opponent"] in (0.0, 0.5, 1.0)
    assert "test_accuracy" in capsys.readouterr().out
    again = linear_example.main(["--data", str(tmp_path), "--epochs", "2", "--eval-deals", "1"])
    assert again == out  # seeded: the same data and seed train the same policy


def test_the_docs_example_table_is_what_the_command_prints() -> None:
    """docs/research.md's league example (seed 1, 4 pairs per pairing) is the table the command prints now."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    example = docs.split("Example (seed\n1, 4 pairs per pairing):", 1)[1].split("```", 2)[1]
    shown = [ln.split() for ln in example.splitlines() if ln.strip()[:1].isdigit()]
    result = invoke("league", "--agents", "heuristic,greedy,random", "--pairs", "4", "--seed", "1")
    assert result.exit_code == 0, result.output
    printed = [ln.split() for ln in result.output.splitlines() if ln.strip()[:1].isdigit()][:3]
    assert printed == shown
