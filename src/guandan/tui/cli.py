"""`guandan play`: one person against three bots (or with a bot partner) in the terminal."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..cliutil import fail as _fail
from ..core.errors import GuandanError
from ..core.rules import PRESET_NAMES, preset
from ..i18n import LANGUAGES, Translator, default_lang, translator
from .session import Session, default_save_path


def play(
    preset_name: Annotated[str | None, typer.Option("--preset", help=", ".join(PRESET_NAMES))] = None,
    partner: Annotated[str | None, typer.Option(help="your partner's bot tier (default heuristic)")] = None,
    opponents: Annotated[str | None, typer.Option(help="the opponents' bot tier (default heuristic)")] = None,
    seed: Annotated[int | None, typer.Option(help="the deal seed (default: random, saved in the record)")] = None,
    lang: Annotated[str | None, typer.Option(help=f"language: {' or '.join(LANGUAGES)} (default from $LANG)")] = None,
    resume: Annotated[Path | None, typer.Option(help="continue the match saved in this record file")] = None,
    save: Annotated[Path | None, typer.Option(help="where to save the record (default: user data dir)")] = None,
    plain: Annotated[bool, typer.Option("--plain", help="line mode for scripts and screen readers")] = False,
    delay: Annotated[float, typer.Option(min=0.0, max=10.0, help="seconds each bot move stays visible")] = 0.6,
) -> None:
    """Play a whole match (level 2 to passing A) against bots: a terminal UI, or --plain line mode."""
    try:
        tr = translator("tui", lang or default_lang())
    except GuandanError as e:
        _fail(f"--lang: {e}")
    try:
        if resume is not None:
            given = [n for n, v in (("--preset", preset_name), ("--partner", partner), ("--opponents", opponents),
                                    ("--seed", seed)) if v is not None]
            if given:
                _fail(f"--resume continues a saved match with its own settings; drop {', '.join(given)}")
            session = Session.resume(resume, save)
        else:
            rules = preset(preset_name or "competition")
            session = Session.new(rules, seed if seed is not None else random.SystemRandom().randrange(10**9),
                                  partner or "heuristic", opponents or "heuristic",
                                  save_path=save or default_save_path())
    except GuandanError as e:
        _fail(str(e))
    if plain:
        raise typer.Exit(_run_plain(session, tr))
    from .app import GuandanApp

    GuandanApp(session, tr, bot_delay=delay).run()
    path = session.save()
    if path:
        typer.echo(tr.gettext("Saved to {path}").format(path=path))


def _run_plain(session: Session, tr: Translator) -> int:
    from .plain import run_plain

    return run_plain(session, tr, sys.stdin, sys.stdout)
