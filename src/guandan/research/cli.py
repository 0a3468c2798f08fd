"""`guandan selfplay` and `guandan league` (docs/research.md). The work itself — NumPy, the
environments' encoding, pyarrow, openskill — is imported inside the commands, so mounting them
costs `guandan`'s start-up nothing."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..agents.base import canonical_spec
from ..cliutil import Messages, ensure_dir, fail
from ..core.errors import GuandanError
from ..core.rules import PRESET_NAMES
from ..present import said

if TYPE_CHECKING:
    from ..arena.ray_pool import RayPool

_messages = Messages("cli")
_ = _messages.gettext

RAY_HELP = ("play on a Ray cluster, as guandan arena --ray does: local (started here with --jobs CPUs, "
            "stopped at the end), or auto, HOST:PORT, ray://HOST:PORT (a running cluster: its CPUs)")

AGENTS_HELP = ("comma-separated agent specs, as the arena takes them: random, greedy, heuristic, "
               "search:prior=0.3, … (see guandan agents)")


def _specs(text: str, option: str = "--agents") -> list[str]:
    """The comma-separated specs of ``text``, each written canonically, or exit naming the bad one."""
    parts = [p.strip() for p in text.split(",")]
    if any(not p for p in parts):
        fail(_("{option}: an empty agent spec in “{text}” (write specs separated by commas)").format(
            option=option, text=text))
    out = []
    for p in parts:
        try:
            out.append(canonical_spec(p))
        except GuandanError as e:
            fail(_("{option}: {problem}").format(option=option, problem=said(e)))
    return out


def _check_common(preset_name: str, budget: float | None) -> None:
    if preset_name not in PRESET_NAMES:
        fail(_("{option} must be one of {choices}, not {value}").format(
            option="--preset", choices=", ".join(PRESET_NAMES), value=preset_name))
    if budget is not None and budget <= 0:
        fail(_("{option} must be a positive number of seconds, not {value}").format(option="--budget", value=budget))


def _at_least_1(*options: tuple[str, int]) -> None:
    for option, value in options:
        if value < 1:
            fail(_("{option} must be at least {minimum}, not {value}").format(option=option, minimum=1, value=value))


def _check_ray(ray: str, jobs: int) -> None:
    """The arena's ``--ray`` checks and messages (:func:`guandan.arena.ray_pool.check_options`)."""
    from ..arena.ray_pool import check_options  # the arena's runner with it: only for --ray

    try:
        check_options(ray, jobs)
    except GuandanError as e:
        fail(said(e))


def _cluster(ray: str | None, jobs: int) -> AbstractContextManager[RayPool | None]:
    """The command's Ray cluster (one for the whole command), or nothing: Ray is imported in the pool's ``__enter__``."""
    if ray is None:
        return nullcontext()
    from ..arena.ray_pool import RayPool

    return RayPool(ray, jobs)


def selfplay_cmd(
    agents: Annotated[str, typer.Option("--agents", help=AGENTS_HELP + "; four, for seats 1–4 in order")],
    deals: Annotated[int, typer.Option(help="deals to play (the arena's duplicate deal specs 0 … N-1, each once)")],
    out: Annotated[Path, typer.Option(help="folder for part-NNNNN.parquet files (must hold none yet)")],
    preset_name: Annotated[str, typer.Option("--preset", help=", ".join(PRESET_NAMES))] = "competition",
    seed: Annotated[int, typer.Option(help="seeds the deals and the agents; same seed, same rows")] = 1,
    budget: Annotated[float | None, typer.Option(help="seconds per decision for search tiers (wall time: "
                                                       "not reproducible)")] = None,
    part_deals: Annotated[int, typer.Option(help="deals per Parquet file")] = 1000,
    jobs: Annotated[int, typer.Option(help="with --ray local: the local Ray cluster's CPUs")] = 1,
    ray: Annotated[str | None, typer.Option("--ray", metavar="local|ADDRESS", help=RAY_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object instead of lines")] = False,
) -> None:
    """Four agents play seeded deals; every decision is written as Parquet (docs/research.md)."""
    specs = _specs(agents)
    if len(specs) != 4:
        fail(_("--agents needs four specs, one per seat, not {count} (“{agents}”)").format(
            count=len(specs), agents=agents))
    _check_common(preset_name, budget)
    _at_least_1(("--deals", deals), ("--part-deals", part_deals), ("--jobs", jobs))
    if ray is None and jobs != 1:
        # one process plays every deal; only a Ray cluster spreads them
        fail(_("--jobs sets a local Ray cluster's CPUs: give it with --ray local"))
    if ray is not None:
        _check_ray(ray, jobs)
    if out.exists() and not out.is_dir():
        fail(_("--out {path} is a file, not a folder").format(path=out))
    from .selfplay import SelfplaySetup, existing_parts, run_selfplay

    if out.is_dir() and existing_parts(out):
        fail(_("--out {path} already holds self-play parts (part-*.parquet); choose an empty folder").format(path=out))
    ensure_dir(out)
    setup = SelfplaySetup((specs[0], specs[1], specs[2], specs[3]), deals, preset_name, seed, budget)
    cluster = _cluster(ray, jobs)
    try:
        with cluster as pool:
            report = run_selfplay(setup, out, part_deals=part_deals, pool=pool)
    except GuandanError as e:
        fail(said(e))
    figures: dict[str, object] = {
        "deals": report.deals, "decisions": report.decisions, "illegal": report.illegal,
        "cpu_seconds": report.cpu_seconds, "wall_seconds": report.wall_seconds,
        "decisions_per_cpu_second": report.decisions_per_cpu_second,
        # wall time of the play and writing, without a Ray cluster's start and stop: the scaling figure
        "decisions_per_second": report.decisions / report.wall_seconds if report.wall_seconds > 0 else 0.0,
        "files": report.files}
    if pool is not None:
        figures.update(ray=ray, ray_workers=pool.workers)
    if as_json:
        typer.echo(json.dumps(figures))
        return
    typer.echo(_("under {path}: deals {deals}, decisions {decisions} ({illegal} illegal, replaced), files "
                 "{files}").format(deals=report.deals, decisions=report.decisions, illegal=report.illegal,
                                  files=len(report.files), path=out))
    speed = _("{rate} decisions/s per core (CPU time: play, encoding and writing), {seconds} s wall").format(
        rate=f"{report.decisions_per_cpu_second:,.0f}", seconds=f"{report.wall_seconds:.2f}")
    if pool is not None:
        speed = _messages.ngettext("{speed}, {rate} decisions/s on {workers} Ray worker",
                                   "{speed}, {rate} decisions/s on {workers} Ray workers", pool.workers).format(
            speed=speed, rate=f"{figures['decisions_per_second']:,.0f}", workers=pool.workers)
    typer.echo(speed)


def league_cmd(
    agents: Annotated[str, typer.Option("--agents", help=AGENTS_HELP + "; two or more, distinct")],
    pairs: Annotated[int, typer.Option(help="duplicate deal pairs per pairing of agents")] = 20,
    preset_name: Annotated[str, typer.Option("--preset", help=", ".join(PRESET_NAMES))] = "competition",
    seed: Annotated[int, typer.Option(help="seeds the deal specs (every pairing plays the same deals)")] = 1,
    budget: Annotated[float | None, typer.Option(help="seconds per decision for search tiers")] = None,
    jobs: Annotated[int, typer.Option(help="parallel worker processes (the arena's; with --ray: the local Ray "
                                           "cluster's CPUs)")] = 1,
    out: Annotated[Path | None, typer.Option(help="write league.json, league.txt and league.svg here")] = None,
    ray: Annotated[str | None, typer.Option("--ray", metavar="local|ADDRESS", help=RAY_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object instead of the table")] = False,
) -> None:
    """Every pair of agents over duplicate deals with seats swapped; an openskill rating table with intervals."""
    specs = _specs(agents)
    if len(specs) < 2:
        fail(_("--agents needs at least two specs, not {count} (“{agents}”)").format(count=len(specs), agents=agents))
    if len(set(specs)) != len(specs):
        dup = next(s for s in specs if specs.count(s) > 1)
        fail(_("--agents names {spec} twice (specs are compared written canonically)").format(spec=dup))
    _check_common(preset_name, budget)
    _at_least_1(("--pairs", pairs), ("--jobs", jobs))
    if ray is not None:
        _check_ray(ray, jobs)
    if out is not None:
        if out.exists() and not out.is_dir():
            fail(_("--out {path} is a file, not a folder").format(path=out))
        ensure_dir(out)
    from .league import LeagueSetup, play_league, rate, svg, text_table

    setup = LeagueSetup(tuple(specs), pairs, preset_name, seed, budget, jobs)
    try:
        with _cluster(ray, jobs) as pool:  # one cluster for every pairing, as the arena's SPRT has
            results = play_league(setup, pool)
    except GuandanError as e:
        fail(said(e))
    report = rate(setup, results)
    text = text_table(report, _)
    if out is not None:
        (out / "league.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        (out / "league.txt").write_text(text + "\n", encoding="utf-8")
        (out / "league.svg").write_text(svg(report, _), encoding="utf-8")
    typer.echo(json.dumps(report, ensure_ascii=False) if as_json else text)


def mount(app: typer.Typer) -> None:
    """Add ``selfplay`` and ``league`` to ``guandan``."""
    app.command("selfplay")(selfplay_cmd)
    app.command("league")(league_cmd)


__all__ = ["league_cmd", "mount", "selfplay_cmd"]
