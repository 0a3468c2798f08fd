"""`guandan simulate` and `guandan replay`."""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from .agents import make_agent
from .agents.runner import RunStats, run_match
from .cliutil import Messages, ensure_dir, reason_words
from .cliutil import fail as _fail
from .core.deal import Action
from .core.errors import GuandanError
from .core.events import Event, Passed, Played, Reported, RoundWon, WentOut
from .core.match import MatchConfig, new_match, team_levels_str
from .core.record import dumps, loads, replay
from .core.rules import PRESET_NAMES, preset
from .core.vocab import MoveMode
from .i18n import LANGUAGES, default_lang, normalize_lang
from .present import Presenter, said


def describe(events: list[Event], p: Presenter) -> list[str]:
    """Readable lines for the events of one action (plays indented under the deal's headings)."""
    lines: list[str] = []
    for e in events:
        indent = "  " if isinstance(e, Played | Passed | Reported | WentOut | RoundWon) else ""
        lines += [indent + line for line in p.event(e)]
    return lines


LANG_HELP = "language of the output: zh or en (default from $LANG)"


def _presenter(lang: str | None) -> Presenter:
    """The output's language: ``--lang``, else the environment's; or exit naming the languages there are."""
    if lang is not None and normalize_lang(lang) not in LANGUAGES:
        _fail(Messages("game").gettext("{option} must be one of {choices}, not {value}").format(
            option="--lang", choices=", ".join(LANGUAGES), value=lang))
    return Presenter(lang or default_lang())


def simulate(
    preset_name: Annotated[str, typer.Option("--preset", help=", ".join(PRESET_NAMES))] = "competition",
    agents: Annotated[str, typer.Option(
        help="four agent specs, for seats 1–4 in order (see guandan agents)")] = "greedy,random,greedy,random",
    deals: Annotated[int, typer.Option(min=1, help="deals to play (matches restart when one ends)")] = 10,
    seed: Annotated[int, typer.Option(help="the seed: same seed, same games")] = 1,
    out: Annotated[Path | None, typer.Option(help="write one record file per match here")] = None,
    match: Annotated[bool, typer.Option("--match", help="play exactly one whole match (2 → passing A)")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", help="print every action")] = False,
    mode: Annotated[MoveMode, typer.Option(help="move generation")] = MoveMode.COMPLETE,
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Bots play deals; prints a summary and writes records."""
    p = _presenter(lang)
    _ = p.tr.gettext
    names = [a.strip() for a in agents.split(",")]
    if len(names) != 4:
        _fail(_("--agents needs four names, got {count}").format(count=len(names)), lang=lang)
    try:
        rules = preset(preset_name)
        seats = [make_agent(n, f"{seed}:{i}") for i, n in enumerate(names)]
    except GuandanError as e:
        _fail(said(e, lang), lang=lang)
    if out is not None:
        ensure_dir(out)
    played, matches, wins, results = 0, 0, Counter[str](), Counter[str]()
    stats = RunStats()
    t0 = time.perf_counter()
    while played < deals or (match and matches == 0):
        remaining = None if match else deals - played
        m = new_match(rules, f"{seed}:{matches}", MatchConfig(max_deals=remaining, move_mode=mode))
        if verbose and m.deal is not None:
            for line in describe([m.deal_start_event(), *m.deal.events], p):
                typer.echo(line)

        def show(action: Action, events: list[Event]) -> None:
            if verbose:
                for line in describe(events, p):
                    typer.echo(line)

        run_match(m, seats, on_events=show, stats=stats)
        played += len(m.deals)
        matches += 1
        wins[p.team(m.winner) if m.winner is not None else _("unfinished")] += 1
        for d in m.deals:
            results[p.result(d.settlement.partner_place)] += 1
        if out is not None:
            (out / f"match-{seed}-{matches - 1}.json").write_text(dumps(m, names), encoding="utf-8")
        if match:
            break
    dt = time.perf_counter() - t0
    def tally(counts: Counter[str]) -> str:
        return _(", ").join(f"{k} {n}" for k, n in sorted(counts.items()))

    typer.echo(_("preset {preset} · agents {agents} · seed {seed}").format(
        preset=rules.name, agents=_(", ").join(names), seed=seed))
    typer.echo(_("deals {deals} · matches {matches}: {wins} · results: {results}").format(
        deals=played, matches=matches, wins=tally(wins), results=tally(results)))
    typer.echo(_("{seconds} s · {rate} deals/s · illegal actions {illegal}").format(
        seconds=f"{dt:.2f}", rate=f"{played / dt:.1f}", illegal=sum(stats.illegal)))
    if out is not None:
        typer.echo(_("records in {path}").format(path=out))


def replay_cmd(
    file: Annotated[Path, typer.Argument(help="a record file written by simulate, the arena or a server")],
    as_json: Annotated[bool, typer.Option("--json", help="only validate and print the result as JSON")] = False,
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Replay a record move by move, with every hand; checks that it reproduces exactly."""
    p = _presenter(lang)
    _ = p.tr.gettext
    try:
        data = loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        _fail(_("cannot read {path}: {reason}").format(path=file, reason=reason_words(e, lang)), lang=lang)
    except UnicodeDecodeError:
        _fail(_("{path}: not a text file").format(path=file), lang=lang)
    except GuandanError as e:
        _fail(_("{path}: {problem}").format(path=file, problem=said(e, lang)), lang=lang)
    final = None
    try:
        for action, events, state in replay(data):
            final = state
            if as_json:
                continue
            if action is None and state.deal is not None:
                for line in describe(events[:1], p):
                    typer.echo(line)
                for s in range(4):
                    typer.echo("  " + _("{who}'s hand: {cards}").format(
                        who=p.seat(s), cards=p.cards(state.deal.initial_hands[s], state.deal.level)))
                events = events[1:]
            for line in describe(events, p):
                typer.echo(line)
    except GuandanError as e:
        _fail(_("{path}: {problem}").format(path=file, problem=said(e, lang)), lang=lang)
    if as_json and final is not None:
        typer.echo(json.dumps({"ended": final.ended, "winner": final.winner, "deals": len(final.deals),
                               "levels": team_levels_str(final.levels)}))
