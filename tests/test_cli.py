"""The `guandan` command: vectors, moves, simulate/replay, bench — including bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.cli import _mount, app

_mount()
runner = CliRunner()


def test_vectors_command(vectors_path: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["vectors", str(vectors_path)])
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.endswith(" 0 failed") and int(last.split()[0]) >= 162
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "X-1", "kind": "classify", "preset": "competition", "level": "2", "cards": "S3", '
                   '"expect": "invalid"}\nnot json\n', encoding="utf-8")
    result = runner.invoke(app, ["vectors", str(bad)])  # a damaged line is its own failure; the run goes on
    assert result.exit_code == 1 and "bad.jsonl:2" in result.output and "not valid JSON" in result.output
    assert "0 passed, 2 failed" in result.output
    bad.write_text('{"id": "X-1", "kind": "classify", "preset": "competition", "level": "2", "cards": "S3", '
                   '"expect": "invalid"}\n', encoding="utf-8")
    result = runner.invoke(app, ["vectors", str(bad)])
    assert result.exit_code == 1 and "FAIL X-1" in result.output and "0 passed, 1 failed" in result.output


def test_moves_command() -> None:
    result = runner.invoke(app, ["moves", "--hand", "S3 H3 C3 D4 D4 H2", "--level", "2"])
    assert result.exit_code == 0, result.output
    moves = json.loads(result.output)
    assert {"cards": ["S3", "H3", "C3", "D4", "D4"], "combo": {"type": "full_house", "key": "3", "size": 5}} in moves
    result = runner.invoke(app, ["moves", "--hand", "S3 H3 C3", "--top", "D4 C4", "--format", "protocol"])
    assert result.exit_code == 0
    assert json.loads(result.output) == [["PASS", "PASS", "PASS"]]
    result = runner.invoke(app, ["moves", "--hand", "S3 XX"])
    assert result.exit_code == 2 and '"XX" at position 2' in result.output
    result = runner.invoke(app, ["moves", "--hand", "S3", "--preset", "nope"])
    assert result.exit_code == 2 and "unknown preset" in result.output
    result = runner.invoke(app, ["moves", "--hand", "S3", "--level", "1"])
    assert result.exit_code == 2 and "level" in result.output


def test_simulate_and_replay(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--agents", "greedy,random,greedy,random", "--deals", "3",
                                 "--seed", "5", "--out", str(tmp_path), "--mode", "canonical"])
    assert result.exit_code == 0, result.output
    assert "deals 3" in result.output and "illegal actions 0" in result.output
    record = tmp_path / "match-5-0.json"
    result = runner.invoke(app, ["replay", str(record), "--lang", "zh"])
    assert result.exit_code == 0, result.output
    assert "第1副" in result.output and "结果 1-" in result.output and "座位1" in result.output
    result = runner.invoke(app, ["replay", str(record), "--lang", "en"])
    assert "Deal 1 · playing level 2" in result.output and "Result 1-" in result.output
    assert not re.search(r"None|\[\d|\{'|\bT\b", result.output)  # no Python value, 10 is written 10
    result = runner.invoke(app, ["replay", str(record), "--lang", "fr"])
    assert result.exit_code == 2 and "--lang must be one of zh, en, not fr" in result.output
    result = runner.invoke(app, ["replay", str(record), "--json"])
    assert json.loads(result.output.strip().splitlines()[-1])["deals"] == 3
    broken = tmp_path / "broken.json"
    broken.write_text(record.read_text(encoding="utf-8").replace('"version": 2', '"version": 99'), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(broken)])
    assert result.exit_code == 2 and "version" in result.output
    result = runner.invoke(app, ["simulate", "--agents", "greedy,random"])
    assert result.exit_code == 2 and "four" in result.output


def test_bench_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    result = runner.invoke(app, ["bench", "movegen", "--json", "--hands", "10"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    for key in ("lead_complete_mean_ms", "lead_complete_p99_ms", "lead_complete_moves_mean", "lead_canonical_mean_ms",
                "follow_mean_us", "classify_per_s"):
        assert figures[key] > 0
    result = runner.invoke(app, ["bench", "deals", "--json", "--deals", "2"])
    figures = json.loads(result.output)
    assert figures["deals_per_s_complete"] > 0 and figures["deals_per_s_canonical"] > 0
    # the plain table says the build's truth value in words, never as Python's True/False
    result = runner.invoke(app, ["bench", "deals", "--deals", "2"])
    assert result.exit_code == 0 and "True" not in result.output and "False" not in result.output, result.output
    assert re.search(rf"^compiled +{'yes' if figures['compiled'] else 'no'}$", result.output, re.M), result.output


def test_bench_search_json() -> None:
    result = runner.invoke(app, ["bench", "search", "--json", "--positions", "3", "--worlds", "4", "--budget", "0.02"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["positions"] == 3 and figures["worlds_per_cpu_s"] > 0
    # how many worlds a 20 ms budget buys depends on the machine's load: only that the figures are sane
    assert figures["worlds_per_decision_mean"] >= 0 and 0 <= figures["settled_share"] <= 1
    assert 0 < figures["decision_p50_ms"] <= figures["decision_p95_ms"]
    result = runner.invoke(app, ["bench", "search", "--budget", "0"])
    assert result.exit_code == 2 and "--budget" in result.output


def test_bench_playouts_json() -> None:
    result = runner.invoke(app, ["bench", "playouts", "--json", "--deals", "6", "--break-any", "8"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["deals"] == 6 and figures["break_any"] == 8
    for name in ("plain", "break_any"):
        # a share of six deals, and an exact outcome is also the right winner
        assert 0 <= figures[f"{name}_outcome_agrees"] <= figures[f"{name}_winner_agrees"] <= 1
        assert figures[f"{name}_winner_agrees"] * 6 == round(figures[f"{name}_winner_agrees"] * 6)
        assert figures[f"{name}_playout_ms"] >= 0
    result = runner.invoke(app, ["bench", "playouts", "--break-any", "-1"])
    assert result.exit_code == 2 and "--break-any" in result.output
