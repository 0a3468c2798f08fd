"""`guandan arena`: two agents over duplicate deals, an SPRT A/B test, or whole matches."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from ..agents import agent_names
from ..cliutil import ensure_dir
from ..cliutil import fail as _fail
from ..core.errors import GuandanError
from ..core.rules import PRESET_NAMES, preset
from .report import summarize_matches, summarize_pairs, summarize_sprt, table
from .runner import PairResult, Setup, run_matches, run_pairs

MODES = ("duplicate", "sprt", "match")




def _check_agent(option: str, name: str) -> None:
    if name.startswith("external:"):
        return
    known = [n for n in agent_names() if n != "external"]
    if name not in known:
        _fail(f"{option} {name!r} is not an agent; known: {', '.join(known)}, external:module:Class")


def arena_cmd(
    a: Annotated[str, typer.Option("--a", help="agent A (random, greedy, heuristic, search, …)")] = "heuristic",
    b: Annotated[str, typer.Option("--b", help="agent B")] = "greedy",
    deals: Annotated[int, typer.Option(help="deal pairs (duplicate), the most pairs (sprt), or matches (match)")] = 100,
    preset_name: Annotated[str, typer.Option("--preset", help=", ".join(PRESET_NAMES))] = "competition",
    seed: Annotated[int, typer.Option(help="seeds the deal specs only; same seed, same deals")] = 1,
    jobs: Annotated[int, typer.Option(help="parallel worker processes")] = 1,
    mode: Annotated[str, typer.Option(help="duplicate, sprt or match (whole matches 2→A)")] = "duplicate",
    budget_a: Annotated[float | None, typer.Option(help="seconds per decision for A (search tiers)")] = None,
    budget_b: Annotated[float | None, typer.Option(help="seconds per decision for B")] = None,
    move_mode: Annotated[str, typer.Option(help="legal moves offered: complete or canonical")] = "complete",
    sprt_p1: Annotated[float, typer.Option(help="SPRT: the deal-win share A must reach (H1)")] = 0.55,
    sprt_alpha: Annotated[float, typer.Option(help="SPRT: false-positive rate")] = 0.05,
    sprt_beta: Annotated[float, typer.Option(help="SPRT: false-negative rate")] = 0.05,
    sprt_batch: Annotated[int, typer.Option(help="SPRT: pairs played between checks")] = 20,
    out: Annotated[Path | None, typer.Option(help="write one record file per played deal (or match) here")] = None,
    path: Annotated[list[Path] | None, typer.Option("--path", help="a folder where external:module:Class bots are found")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object instead of the table")] = False,
) -> None:
    """Compare agent A with agent B; every deal is played twice with the teams swapped (复式)."""
    if path:
        from ..protocol.adapter import add_bot_path

        for p in path:
            add_bot_path(str(p.resolve()))
    _check_agent("--a", a)
    _check_agent("--b", b)
    try:
        preset(preset_name)
    except GuandanError as e:
        _fail(str(e))
    if mode not in MODES:
        _fail(f"--mode must be one of {', '.join(MODES)}, not {mode!r}")
    if move_mode not in ("complete", "canonical"):
        _fail(f"--move-mode must be complete or canonical, not {move_mode!r}")
    if deals < 1:
        _fail(f"--deals must be at least 1, not {deals}")
    if jobs < 1:
        _fail(f"--jobs must be at least 1, not {jobs}")
    for name, v in (("--budget-a", budget_a), ("--budget-b", budget_b)):
        if v is not None and not v > 0:
            _fail(f"{name} must be a positive number of seconds, not {v}")
    if not 0.5 < sprt_p1 < 1:
        _fail(f"--sprt-p1 must be above 0.5 and below 1, not {sprt_p1}")
    if not (0 < sprt_alpha < 1 and 0 < sprt_beta < 1):
        _fail("--sprt-alpha and --sprt-beta must be between 0 and 1")
    if sprt_batch < 2:
        _fail(f"--sprt-batch must be at least 2, not {sprt_batch}")
    if out is not None:
        ensure_dir(out)
    bot_paths = tuple(str(p.resolve()) for p in path or ())
    for p in path or ():
        if not p.is_dir():
            _fail(f"--path {p} is not a folder")
    setup = Setup(a, b, preset_name, seed, budget_a, budget_b, move_mode, str(out) if out else None, bot_paths)
    t0 = time.perf_counter()
    summary: dict[str, Any]
    try:
        if mode == "duplicate":
            summary = summarize_pairs(run_pairs(setup, 0, deals, jobs), seed)
        elif mode == "match":
            summary = summarize_matches(run_matches(setup, deals, jobs))
        else:
            pairs: list[PairResult] = []
            summary = {}
            while len(pairs) < deals:
                pairs += run_pairs(setup, len(pairs), min(sprt_batch, deals - len(pairs)), jobs)
                summary = summarize_sprt(pairs, 0.5, sprt_p1, sprt_alpha, sprt_beta, seed)
                if summary["sprt_decision"] != "continue":
                    break
    except GuandanError as e:
        _fail(str(e))
    summary = {"a": a, "b": b, "preset": preset_name, "seed": seed, "mode": mode, **summary,
               "wall_seconds": round(time.perf_counter() - t0, 2)}
    if as_json:
        typer.echo(json.dumps(summary, ensure_ascii=False))
    else:
        typer.echo(table(summary, f"arena {a} vs {b} ({mode}, {preset_name}, seed {seed})"))


__all__ = ["arena_cmd"]
