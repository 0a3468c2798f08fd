"""`guandan play`: one person against three bots (or with a bot partner) in the terminal."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..cliutil import Messages, choices
from ..cliutil import fail as _fail
from ..core.errors import GuandanError
from ..core.rules import PRESET_NAMES, preset
from ..i18n import LANGUAGES, default_lang, normalize_lang
from ..present import said
from .session import Session, check_save_path, default_save_path, play_tiers
from .text import saved_lines

TIERS = play_tiers()

_ = Messages("tui").gettext


def play(
    preset_name: Annotated[str | None, typer.Option("--preset", metavar=choices(PRESET_NAMES),
                                                    help="the rules (default competition)")] = None,
    partner: Annotated[str | None, typer.Option(metavar=choices(TIERS),
                                                help="your partner's bot (default heuristic)")] = None,
    opponents: Annotated[str | None, typer.Option(metavar=choices(TIERS),
                                                  help="the opponents' bots (default heuristic)")] = None,
    seed: Annotated[int | None, typer.Option(metavar="NUMBER",
                                             help="the deal seed (default: random, saved in the record)")] = None,
    lang: Annotated[str | None, typer.Option(metavar=choices(LANGUAGES),
                                             help="language (default from $LANG)")] = None,
    resume: Annotated[Path | None, typer.Option(metavar="FILE", help="continue the match saved in this file")] = None,
    save: Annotated[Path | None, typer.Option(metavar="FILE", help=(
        "where to save the match (default: a new file for each match, named by time and seed, in "
        "guandan/matches of the user data folder; the path is shown at the start)"))] = None,
    plain: Annotated[bool, typer.Option("--plain", help="line mode for scripts and screen readers")] = False,
    delay: Annotated[float, typer.Option(min=0.0, max=10.0, metavar="SECONDS",
                                         help="how long each bot move stays visible")] = 0.6,
) -> None:
    """Play a whole match (level 2 to passing A) against bots: a terminal UI, or --plain line mode."""
    if lang is not None and normalize_lang(lang) not in LANGUAGES:
        _fail(_("{option} must be one of {choices}, not {value}").format(
            option="--lang", choices=", ".join(LANGUAGES), value=lang))
    language = normalize_lang(lang or default_lang())
    try:
        if resume is not None:
            given = [n for n, v in (("--preset", preset_name), ("--partner", partner), ("--opponents", opponents),
                                    ("--seed", seed)) if v is not None]
            if given:
                _fail(_("--resume continues a saved match with its own settings; drop {options}", language).format(
                    options=", ".join(given)), lang=language)
            if save is not None:  # before the (slow) replay: a path that cannot be written is said first
                check_save_path(save)
            session = Session.resume(resume, save)
            if save is None:
                check_save_path(resume)
        else:
            rules = preset(preset_name or "competition")
            number = seed if seed is not None else random.SystemRandom().randrange(10**9)
            # a match that could not be saved would be lost at the first deal's end or at q: refuse it now
            target = save or default_save_path(number)
            check_save_path(target, make_folder=save is None)
            session = Session.new(rules, number, partner or "heuristic", opponents or "heuristic", save_path=target)
    except GuandanError as e:
        _fail(said(e, language, "tui"), lang=language)
    if plain:
        raise typer.Exit(_run_plain(session, language))
    from .app import GuandanApp  # here, not at the top: Textual loads only for the full-screen client

    game = GuandanApp(session, language, bot_delay=delay)
    game.run()
    # the app saves at q; if it ended any other way (an error inside Textual), save on the way out
    saved = game.saved if game.saved is not None else session.save_somewhere()
    for line in saved_lines(saved, language, unfinished=not session.ended):
        typer.echo(line)
    if saved[0] is None and saved[1] is not None:
        raise typer.Exit(1)

def _run_plain(session: Session, lang: str) -> int:
    from .plain import run_plain  # here, not at the top: its review screen loads Textual, which every other command would pay for

    return run_plain(session, lang, sys.stdin, sys.stdout, columns=terminal_columns)


def terminal_columns() -> int | None:
    """The terminal's width now, or None when the output is not a terminal (a pipe, a file: a script reads
    it line by line, so its lines stay whole)."""
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns if sys.stdout.isatty() else None
    except (OSError, ValueError):  # no file descriptor (a replaced stdout), or no size to tell
        return None
