"""`guandan arena`: two agents over duplicate deals, an SPRT A/B test, or whole matches."""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Annotated, Any

import typer

from ..agents.base import canonical_spec
from ..cliutil import Messages, ensure_dir, reason_words
from ..cliutil import fail as _fail
from ..core.errors import GuandanError
from ..core.rules import PRESET_NAMES, preset
from ..core.vocab import MoveMode, parse_choice
from ..present import said
from ..protocol.adapter import add_bot_path, check_loads
from .ray_pool import LOCAL, RayPool, check_address
from .report import compare_pairs, first_illegal_words, summarize_matches, summarize_pairs, summarize_sprt, table
from .results import OPTION_KEYS, append_pairs, read_results, recorded_options, setup_diff, setup_key, show_options
from .runner import MatchResult, PairResult, Pool, Setup, play_pairs, run_matches, run_pairs

MODES = ("duplicate", "sprt", "match")

_messages = Messages("cli")
_ = _messages.gettext


def _interrupted(signum: int, frame: object) -> None:
    """SIGTERM as Ctrl-C: the run stops the same way, its workers with it."""
    raise KeyboardInterrupt


def _check_agent(option: str, spec: str) -> str:
    """``spec`` written canonically (see :func:`canonical_spec`), or exit naming what is wrong."""
    try:
        return canonical_spec(spec)
    except GuandanError as e:
        _fail(_("{option}: {problem}").format(option=option, problem=said(e)))


def arena_cmd(
    a: Annotated[str, typer.Option("--a", help="agent A: random, greedy, heuristic, search, a tier with options "
                                                 "(search:prior=0.3:shortlist=8; see guandan agents) or "
                                                 "external:module:Class")] = "heuristic",
    b: Annotated[str, typer.Option("--b", help="agent B")] = "greedy",
    deals: Annotated[int, typer.Option(help="deal pairs (duplicate), the most pairs (sprt), or matches (match)")] = 100,
    preset_name: Annotated[str, typer.Option("--preset", help=", ".join(PRESET_NAMES))] = "competition",
    seed: Annotated[int, typer.Option(help="seeds the deal specs only; same seed, same deals")] = 1,
    jobs: Annotated[int, typer.Option(help="parallel worker processes (with --ray: the local Ray cluster's CPUs)")] = 1,
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
    first: Annotated[int, typer.Option(help="duplicate: index of the first deal pair (split a run over machines)")] = 0,
    results: Annotated[Path | None, typer.Option(help="duplicate: append each finished pair here as a JSON line "
                                                      "(gzipped when the name ends in .gz); pairs already in the file "
                                                      "are not played again")] = None,
    ray: Annotated[str | None, typer.Option("--ray", metavar="local|ADDRESS",
                                            help="play on a Ray cluster: local (started here with --jobs CPUs, "
                                                 "stopped at the end), or auto, HOST:PORT, ray://HOST:PORT "
                                                 "(a running cluster: its CPUs)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object instead of the table")] = False,
) -> None:
    """Compare agent A with agent B; every deal is played twice with the teams swapped (复式)."""
    if path:
        for p in path:
            add_bot_path(str(p.resolve()))
    a = _check_agent("--a", a)
    b = _check_agent("--b", b)
    try:
        preset(preset_name)
    except GuandanError as e:
        _fail(said(e))
    if mode not in MODES:
        _fail(_("{option} must be one of {choices}, not {value}").format(
            option="--mode", choices=", ".join(MODES), value=mode))
    try:
        moves = parse_choice(MoveMode, move_mode, "--move-mode")
    except GuandanError as e:
        _fail(said(e))
    for option, value, minimum in (("--deals", deals, 1), ("--jobs", jobs, 1), ("--sprt-batch", sprt_batch, 2)):
        if value < minimum:
            _fail(_("{option} must be at least {minimum}, not {value}").format(
                option=option, minimum=minimum, value=value))
    for option, v in (("--budget-a", budget_a), ("--budget-b", budget_b)):
        if v is not None and not v > 0:
            _fail(_("{option} must be a positive number of seconds, not {value}").format(option=option, value=v))
    if not 0.5 < sprt_p1 < 1:
        _fail(_("--sprt-p1 must be above 0.5 and below 1, not {value}").format(value=sprt_p1))
    if not (0 < sprt_alpha < 1 and 0 < sprt_beta < 1):
        _fail(_("--sprt-alpha and --sprt-beta must be between 0 and 1"))
    if first < 0:
        _fail(_("--first must be 0 or more, not {value}").format(value=first))
    if (first or results is not None) and mode != "duplicate":
        _fail(_("--first and --results apply to --mode duplicate only"))
    if ray is not None:
        try:
            check_address(ray)
        except GuandanError as e:
            _fail(said(e))
        if ray != LOCAL and jobs != 1:
            _fail(_("--jobs sets a local Ray cluster's CPUs; --ray {address} uses that cluster's own CPUs: "
                    "leave --jobs out").format(address=ray))
        if ray != LOCAL and out is not None:
            _fail(_("--out with --ray {address}: records would be written on the cluster's machines, not here").format(
                address=ray))
    if out is not None:
        ensure_dir(out)
    bot_paths = tuple(str(p.resolve()) for p in path or ())
    for p in path or ():
        if not p.is_dir():
            _fail(_("--path {path} is not a folder").format(path=p))
    setup = Setup(a, b, preset_name, seed, budget_a, budget_b, moves, str(out) if out else None, bot_paths)
    for spec in dict.fromkeys(s for s in (a, b) if s.startswith("external:")):
        try:
            check_loads(spec)  # a wrong module, class or --path: said once, before any deal
        except GuandanError as e:
            _fail(said(e))
    t0 = time.perf_counter()
    summary: dict[str, Any]
    # one cluster for the whole command: an SPRT's batches must not each pay for a Ray start
    cluster: AbstractContextManager[Pool | None] = nullcontext() if ray is None else RayPool(ray, jobs)
    main = threading.current_thread() is threading.main_thread()  # only the main thread may set a handler
    previous = signal.signal(signal.SIGTERM, _interrupted) if main else None
    try:
        finished: list[PairResult] | list[MatchResult] = []  # what this run played (not what it resumed)
        if mode == "duplicate" and (first or results is not None):
            done = _load_results(setup, first, deals, results)  # a refused file is refused before Ray starts
            fresh: list[PairResult] = []
            with cluster as pool:
                summary = _resumable(setup, first, deals, jobs, results, pool, done, fresh)
            finished = fresh
        elif mode == "duplicate":
            with cluster as pool:
                finished = run_pairs(setup, 0, deals, jobs, pool)
            summary = summarize_pairs(finished, seed)
        elif mode == "match":
            with cluster as pool:
                finished = run_matches(setup, deals, jobs, pool)
            summary = summarize_matches(finished)
        else:
            pairs: list[PairResult] = []
            finished = pairs
            summary = {}
            with cluster as pool:
                while len(pairs) < deals:
                    pairs += run_pairs(setup, len(pairs), min(sprt_batch, deals - len(pairs)), jobs, pool)
                    summary = summarize_sprt(pairs, 0.5, sprt_p1, sprt_alpha, sprt_beta, seed)
                    if summary["sprt_decision"] != "continue":
                        break
    except GuandanError as e:
        _fail(said(e))
    except KeyboardInterrupt:
        stopped = (_("stopped; every finished pair is in {path}: the same command resumes from there").format(
                       path=results) if results is not None
                   else _("stopped; nothing was kept (--results keeps every finished pair and resumes)")
                   if mode == "duplicate" else _("stopped"))
        _fail(stopped, code=130)
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
    _say_illegal(finished)
    summary = {"a": a, "b": b, "preset": preset_name, "seed": seed, "mode": mode, **summary,
               "wall_seconds": round(time.perf_counter() - t0, 2)}
    if isinstance(cluster, RayPool):  # the wall time then includes the cluster's start and stop; this not
        summary.update(ray=ray, ray_workers=cluster.workers, ray_play_seconds=round(cluster.play_seconds, 2))
        played = summary.get("deal_pairs", 0) - summary.get("resumed_pairs", 0)
        if played and cluster.play_seconds > 0:  # the benchmark figure (README): pairs per second on the cluster
            summary["ray_pairs_per_second"] = round(played / cluster.play_seconds, 2)
    if as_json:
        typer.echo(json.dumps(summary, ensure_ascii=False))
    else:
        typer.echo(table(first_illegal_words(summary, said), _("arena: {a} vs {b} ({mode}, {preset}, seed {seed})").format(
            a=a, b=b, mode=mode, preset=preset_name, seed=seed), _))


def _say_illegal(played: Sequence[PairResult] | Sequence[MatchResult]) -> None:
    """Each side's first illegal answer (None included) on stderr, in words: the table only counts them, and
    a bot's author needs to know what the bot answered, where, to find the bug."""
    for side in ("a", "b"):
        first = next((e for r in played if (e := getattr(r, f"first_illegal_{side}")) is not None), None)
        if first is not None:
            count = sum(getattr(r, f"illegal_{side}") for r in played)
            typer.echo(_messages.ngettext("warning: {problem} ({count} illegal action by this agent in all)",
                                          "warning: {problem} ({count} illegal actions by this agent in all)",
                                          count).format(problem=said(first.error()), count=count), err=True)


def _load_results(setup: Setup, first: int, deals: int, results: Path | None) -> dict[int, PairResult]:
    """The pairs ``first`` … ``first + deals − 1`` that ``results`` already holds for this setup;
    exits if the file holds another setup or cannot be written."""
    done: dict[int, PairResult] = {}
    if results is not None:
        if results.exists():
            old_setup, old = read_results([results], _)
            mine = setup_key(setup)
            if old_setup is not None and old_setup != mine:
                if not recorded_options(old_setup) and not setup_diff(old_setup, mine, note_unrecorded=False):
                    _fail(_("--results {path} was written before results files recorded every option value of "
                            "the agents, and the defaults behind its specs may have changed since, so it cannot be "
                            "resumed; use another file (guandan arena-compare pairs the two runs deal by deal)"
                            ).format(path=results))
                diff = setup_diff(old_setup, mine, "file", gettext=_)
                _fail(_("--results {path} holds another setup ({difference}); use another file").format(
                    path=results, difference=diff))
            done = {i: p for i, p in old.items() if first <= i < first + deals}
        else:
            ensure_dir(results.parent)
        try:
            results.open("a", encoding="utf-8").close()  # unwritable: say so now, not after hours of play
        except OSError as e:
            _fail(_("cannot write --results {path}: {reason}").format(path=results, reason=reason_words(e)))
    return done


def _resumable(setup: Setup, first: int, deals: int, jobs: int, results: Path | None, pool: Pool | None = None,
               done: dict[int, PairResult] | None = None, new: list[PairResult] | None = None) -> dict[str, Any]:
    """Pairs ``first`` … ``first + deals − 1``, skipping those ``results`` already holds for this
    setup (``done``, read here when not given) and appending each new pair to it as soon as it is played
    (and to ``new``, for the caller)."""
    if done is None:
        done = _load_results(setup, first, deals, results)
    todo = [i for i in range(first, first + deals) if i not in done]
    each = None if results is None else (lambda part: append_pairs(results, setup, part))
    played = play_pairs(setup, todo, jobs, each, pool)
    if new is not None:
        new.extend(played)
    pairs = sorted([*done.values(), *played], key=lambda p: p.index)
    return {**summarize_pairs(pairs, setup.seed), "first_pair": first, "resumed_pairs": len(done)}


def _read_files(files: list[Path], flag: str = "") -> tuple[dict[str, Any], dict[int, PairResult]]:
    """The setup and pairs of one run's results files, or fail naming the file (and ``flag``) at fault."""
    for f in files:
        if not f.is_file():
            _fail(_("{path} is not a file").format(path=f))
    try:
        setup, pairs = read_results(files, _)
    except GuandanError as e:
        _fail(said(e))
    if setup is None:
        none = _("the files hold no deal pairs")
        _fail(_("{option}: {problem}").format(option=flag, problem=none) if flag else none)
    return setup, pairs


def summary_cmd(
    files: Annotated[list[Path], typer.Argument(help="arena --results files (one run split over machines, or resumed)")],
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object instead of the table")] = False,
) -> None:
    """Summarize arena results files together: the same numbers as `guandan arena`, over every pair they hold."""
    setup, pairs = _read_files(files)
    idx = sorted(pairs)
    missing = idx[-1] - idx[0] + 1 - len(idx)
    summary = {**setup, "mode": "duplicate", **summarize_pairs([pairs[i] for i in idx], setup["seed"]),
               "first_pair": idx[0], "last_pair": idx[-1], "missing_pairs": missing}
    if as_json:
        typer.echo(json.dumps(summary, ensure_ascii=False))
    else:
        for k in OPTION_KEYS:  # spelled as a spec spells them, not as a Python dict
            if k in summary:
                summary[k] = show_options(summary[k])
        title = _messages.ngettext("arena: {a} vs {b} ({n} results file)", "arena: {a} vs {b} ({n} results files)",
                                   len(files)).format(a=setup["a"], b=setup["b"], n=len(files))
        typer.echo(table(first_illegal_words(summary, said), title, _))


# what must agree for two runs to be compared deal by deal: the deals and the opponent; agent A and
# its budget are what is compared
_SAME_DEALS = ("b", "preset", "seed", "budget_b", "move_mode")


def compare_cmd(
    first: Annotated[list[Path], typer.Option("--first", help="results file(s) of the first run (repeatable)")],
    second: Annotated[list[Path], typer.Option("--second", help="results file(s) of the second run (repeatable)")],
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object instead of the table")] = False,
) -> None:
    """Compare two arena runs played on the same deals against the same opponent, deal pair by deal
    pair: the difference in A's deal wins and level points (first − second) with a 95% interval."""
    s1, p1 = _read_files(first, "--first")
    s2, p2 = _read_files(second, "--second")
    # B's option values are compared where both runs recorded them (older files did not)
    diff = setup_diff(s1, s2, "first", keys=_SAME_DEALS, note_unrecorded=False, gettext=_)
    if diff:
        _fail(_("the runs were not played on the same deals against the same opponent: {difference}").format(
            difference=diff))
    shared = sorted(set(p1) & set(p2))
    if not shared:
        _fail(_("the runs hold no deal pair in common (see --first in guandan arena)"))
    for i in shared:  # the same index of one seed is the same deal: hands that differ mean a damaged file
        if p1[i].halves[0].hands != p2[i].halves[0].hands:
            _fail(_("deal pair {index} was dealt different hands in the two runs").format(index=i))
    summary = {"first": s1["a"], "second": s2["a"], "first_budget": s1["budget_a"], "second_budget": s2["budget_a"],
               "b": s1["b"], "preset": s1["preset"], "seed": s1["seed"], **compare_pairs(p1, p2, s1["seed"])}
    if as_json:
        typer.echo(json.dumps(summary, ensure_ascii=False))
    else:
        typer.echo(table(summary, _("arena: {first} and {second}, each against {b}, deal pair by deal pair").format(
            first=s1["a"], second=s2["a"], b=s1["b"]), _))


__all__ = ["arena_cmd", "compare_cmd", "summary_cmd"]
