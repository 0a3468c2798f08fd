"""`guandan review RECORD` and `guandan bench review`."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..cliutil import Messages, cell, choices, fail, pad, read_record, reason_words, width
from ..core.errors import GuandanError
from ..i18n import LANGUAGES, default_lang, normalize_lang
from ..native import with_build
from ..present import Presenter, said
from ..present.seats import record_seat_names
from .bench import DEFAULT_TIERS, review_figures
from .engine import DEFAULT_BUDGET, Settings, worlds_for
from .html import review_html
from .report import Review, review_record
from .verdict import Label
from .words import LABEL_PLURALS, review_json, review_lines

_ = Messages("game").gettext


def _progress(label: str) -> Progress:
    console = Console(stderr=True)
    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                    transient=True, disable=not console.is_terminal)


def default_seat(data: dict[str, Any]) -> int:
    """The seat reviewed when none is named: the human's in a `guandan play` record, else seat 1."""
    meta = data.get("meta")
    seat = meta.get("human_seat") if isinstance(meta, dict) else None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) and seat in range(4) else 0


def player_names(data: dict[str, Any]) -> list[str] | None:
    """The players' names when the record gives four (a `guandan play` record names bot tiers instead)."""
    players = data.get("players")
    meta = data.get("meta")
    if isinstance(meta, dict) and meta.get("app") == "guandan play":
        return None
    if isinstance(players, list) and len(players) == 4 and all(isinstance(x, str) and x.strip() for x in players):
        return [x.strip() for x in players]
    return None


def seat_names(data: dict[str, Any], lang: str) -> list[str] | None:
    """The seats' names in the review, in ``lang``: where the record says who was a bot (``meta["seats"]``, as
    `guandan play` and the web app save it) as the web replay page names them ("Player 1", "Bot 2 · Greedy",
    :mod:`guandan.present.seats`), else the players' names (:func:`player_names`); ``None``: "Seat N"."""
    named = record_seat_names(data, lang)
    return named if named is not None else player_names(data)


def run_review(data: dict[str, Any], seats: list[int], deal: int | None, settings: Settings, jobs: int,
               show_progress: bool = True) -> Review:
    if not show_progress:
        return review_record(data, seats, None if deal is None else [deal], settings, jobs)
    with _progress("复盘 review") as bar:
        task = bar.add_task("review", total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return review_record(data, seats, None if deal is None else [deal], settings, jobs, step)


def review_cmd(
    record: Annotated[Path, typer.Argument(help="a record file (simulate, the arena, `guandan play`, a server's export)")],
    seat: Annotated[int | None, typer.Option(min=1, max=4, help="the seat to review, 1–4 (default: the human's in a "
                                                              "`guandan play` record, else 1)")] = None,
    all_seats: Annotated[bool, typer.Option("--all", help="review all four seats")] = False,
    deal: Annotated[int | None, typer.Option(min=1, help="review only this deal (counted from 1)")] = None,
    budget: Annotated[float, typer.Option(metavar="SECONDS", help=(
        "effort per decision: a fixed number of sampled worlds (400 per second, about a CPU second here), "
        "not wall time, so the review is the same on any machine"))] = DEFAULT_BUDGET,
    jobs: Annotated[int, typer.Option(min=1, max=64, help="worker processes (decisions in parallel)")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="print the review as JSON (docs/review-format.md)")] = False,
    html: Annotated[Path | None, typer.Option("--html", metavar="OUT", help="also write a self-contained HTML report")] = None,
    lang: Annotated[str | None, typer.Option(metavar=choices(LANGUAGES), help="language (default from $LANG)")] = None,
    seed: Annotated[int, typer.Option(help="seed of the sampled worlds: same record, seat, budget and seed, same review")] = 0,
    hindsight: Annotated[bool, typer.Option("--hindsight", help=(
        "also show what was best with every hand known (clearly labelled; never part of the verdict)"))] = False,
) -> None:
    """复盘: the engine's review of every decision of a seat — the loss of each move against the best found,
    its label (good, inaccuracy, mistake, blunder), the accuracy, the costliest decisions."""
    if lang is not None and normalize_lang(lang) not in LANGUAGES:
        fail(_("{option} must be one of {choices}, not {value}").format(
            option="--lang", choices=", ".join(LANGUAGES), value=lang))
    language = normalize_lang(lang or default_lang())
    if all_seats and seat is not None:
        fail(_("give --seat or --all, not both", language), lang=language)
    if not math.isfinite(budget) or budget <= 0:
        fail(_("{option} must be a positive number of seconds, not {value}", language).format(
            option="--budget", value=budget), lang=language)
    try:
        worlds_for(budget)
    except GuandanError as e:
        fail(said(e, language, "game"), lang=language)
    data = read_record(record, language)
    p = Presenter(language, names=seat_names(data, language))
    seats = [0, 1, 2, 3] if all_seats else [seat - 1 if seat is not None else default_seat(data)]
    settings = Settings(budget=budget, seed=seed, hindsight=hindsight)
    try:
        review = run_review(data, seats, None if deal is None else deal - 1, settings, jobs)
    except GuandanError as e:
        fail(_("{path}: {problem}", language).format(path=record, problem=said(e, language, "game")), lang=language)
    if html is not None:
        try:
            html.write_text(review_html(p, review), encoding="utf-8")
        except OSError as e:
            fail(_("cannot write {path}: {reason}", language).format(path=html, reason=reason_words(e, language)), lang=language)
    if as_json:
        typer.echo(json.dumps(review_json(p, review, single=not all_seats), ensure_ascii=False, indent=1))
        return
    for line in review_lines(p, review):
        typer.echo(line)


def bench_review_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object")] = False,
    deals: Annotated[int, typer.Option(min=1, help="one-deal matches to play and review")] = 100,
    tiers: Annotated[str, typer.Option(help="agent specs, comma-separated, rotated over the seats")] = ",".join(DEFAULT_TIERS),
    budget: Annotated[float, typer.Option(min=0.01, metavar="SECONDS", help="review effort per decision")] = 0.25,
    jobs: Annotated[int, typer.Option(min=1, max=64, help="worker processes for the reviews")] = 1,
    seed: int = 1,
) -> None:
    """Accuracy per bot tier by the review (bootstrap 95% intervals) and the review's seconds per decision."""
    names = [t.strip() for t in tiers.split(",") if t.strip()]
    if not names:
        fail(_("--tiers needs at least one agent spec"))
    try:
        with _progress("bench review") as bar:
            task = bar.add_task("deals", total=deals)
            figures = review_figures(deals, names, budget, seed, jobs,
                                     progress=lambda done, _total: bar.update(task, completed=done))
    except GuandanError as e:
        fail(said(e, domain="game"))
    if as_json:
        typer.echo(json.dumps(with_build(figures)))
        return
    typer.echo(_("deals {deals} · review effort {budget} s ({worlds} worlds) · seed {seed} · worker processes {jobs}").format(
        deals=deals, budget=f"{budget:g}", worlds=figures["worlds"], seed=seed, jobs=jobs))
    cols = max(width(t) for t in names) + 2
    for t in names:
        f = figures[t]
        acc = f["accuracy"]
        lo, hi = f["ci95"]
        shown = (_("accuracy —") if acc is None else _("accuracy {accuracy}, 95% interval [{low}, {high}]").format(
            accuracy=f"{acc:6.2f}", low=f"{lo:.2f}", high=f"{hi:.2f}"))
        counts = _(" · ").join(_(LABEL_PLURALS[Label(k)]).format(n=n) for k, n in f["labels"].items())
        typer.echo(pad(t, cols) + _(" · ").join([
            shown, _("seat-deals {n}").format(n=f["seat_deals"]),
            _("mean loss {loss}").format(loss=cell(f["mean_loss"], ".3f")), counts]))
    spd = figures["seconds_per_decision"]
    typer.echo(_("decisions reviewed {decisions} · review {review} s · {per} s per decision · play {play} s").format(
        decisions=figures["decisions"], review=f"{figures['review_seconds']:.1f}",
        per="—" if spd is None else f"{spd:.3f}", play=f"{figures['play_seconds']:.1f}"))


def mount(app: typer.Typer, bench_app: typer.Typer) -> None:
    app.command("review")(review_cmd)
    bench_app.command("review")(bench_review_cmd)


__all__ = ["bench_review_cmd", "mount", "review_cmd"]
