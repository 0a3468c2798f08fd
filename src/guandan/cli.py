"""The `guandan` command. Each subsystem owns its sub-commands in its own module; this file only
mounts them, so that bad arguments are reported the same way everywhere."""

from __future__ import annotations

import json
import sys
import typing
from pathlib import Path
from typing import Annotated

import typer
import typer.main
from typer import core as typer_core
from typer._click.core import Command

from .agents.cli import agents_cmd
from .arena.cli import arena_cmd, compare_cmd, summary_cmd
from .bench import app as bench_app
from .clihelp import lang_of, localize, speak
from .clihelp import word as type_word
from .clitable import lay_out_options
from .cliutil import Messages, choices, fail, reason_words
from .core.cards import card_str, parse_cards, parse_level
from .core.combos import resolve_combo
from .core.errors import GuandanError
from .core.moves import MODES, legal_moves
from .core.rules import PRESET_NAMES, preset
from .present import said
from .protocol.cli import protocol_client, protocol_server
from .protocol_names import protocol_action
from .review.cli import mount as mount_review
from .schema import schema_cmd
from .server.backup_cli import mount as mount_backup
from .server.cli import mount as mount_server
from .sim import replay_cmd, simulate
from .tui.cli import play
from .vectors import format_report, load_vectors, run_vectors
from .verify_deal import verify_deal_cmd

app = typer.Typer(help="掼蛋 (Guandan): rules engine, bots, arena, play and tournaments.", no_args_is_help=True,
                  pretty_exceptions_enable=False)


def _readable_help() -> None:
    """Typer 0.29 writes every parameter's Python type in --help (``--plain <bool>``, ``--host <str>``,
    ``--help <bool>``): its one ``display_type`` serves both the plain and the Rich help of every
    command. Here it says what a person types instead, for every command mounted below: nothing
    after a flag (``--plain``, ``--rate-limits/--no-rate-limits``), the values of a choice
    (``[complete|canonical]``), a word otherwise (TEXT, INTEGER, NUMBER, PATH; ``…`` when repeated).
    An option's own ``metavar`` (e.g. ``[zh|en]`` for values checked by the command) still wins."""
    words = {str: "TEXT", int: "INTEGER", float: "NUMBER", bool: "BOOLEAN"}

    def word(annotation: object, desc: typing.Any) -> str:
        if desc.is_path or annotation is Path:
            return type_word("PATH")
        return type_word(words.get(annotation, "VALUE") if isinstance(annotation, type) else "VALUE")

    normalize: typing.Any = typer_core.normalize_choice_value  # type: ignore[attr-defined]

    def display_type(self: typer_core._TyperParameter, ctx: typing.Any) -> str:
        desc = self.type_descriptor
        if desc.is_choice:
            label = "[" + "|".join(normalize(c, desc.case_sensitive, ctx)
                                   for c in desc.choices or ()) + "]"
        elif desc.is_list:
            (inner,) = typing.get_args(desc.annotation) or (str,)
            label = word(inner, desc) + "…"
        elif desc.is_tuple:
            label = " ".join(word(a, desc) for a in typing.get_args(desc.annotation))
        elif desc.is_datetime:
            label = "|".join(desc.parameter_info.formats or (type_word("DATETIME"),))
        else:
            label = word(desc.annotation, desc)
        return label

    def display_type_rich(self: typer_core.TyperOption, ctx: typing.Any) -> str | None:
        if self.metavar is not None:
            return self.metavar
        if self.is_flag or self.count:
            return None  # a flag takes no value: --plain, --x/--no-x
        return display_type(self, ctx)

    typer_core._TyperParameter.display_type = display_type  # type: ignore[method-assign]
    typer_core.TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_readable_help()

_ = Messages("cli").gettext




def get_rules(name: str):  # type: ignore[no-untyped-def]
    try:
        return preset(name)
    except GuandanError as e:
        fail(said(e))


@app.command()
def vectors(path: Annotated[Path, typer.Argument(help="a rules-vectors JSONL file (RULES.md §9)")]) -> None:
    """Run every rules vector this engine covers; print failures and 'N passed, M failed'."""
    try:
        report = run_vectors(load_vectors(path))
    except GuandanError as e:
        fail(said(e))
    typer.echo(format_report(report, _, said))
    raise typer.Exit(1 if report.failed else 0)




@app.command()
def moves(
    hand: Annotated[str, typer.Option(metavar="CARDS", help='the hand in RULES.md notation, e.g. "S3 H3 C3 D4 D4"')],
    level: Annotated[str, typer.Option(metavar="2…A", help="the current level")] = "2",
    preset_name: Annotated[str, typer.Option("--preset", metavar=choices(PRESET_NAMES), help="the rules")] = "competition",
    top: Annotated[str | None, typer.Option(metavar="CARDS", help="the play to beat (its cards); omit when leading")] = None,
    top_as: Annotated[str | None, typer.Option(metavar="JSON", help='declared reading of --top, e.g. {"type":"pair"}')] = None,
    mode: Annotated[str, typer.Option(metavar=choices(MODES), help="which legal moves")] = "complete",
    fmt: Annotated[str, typer.Option("--format", metavar=choices(("json", "protocol")), help="output")] = "json",
) -> None:
    """Print every legal move as JSON (or as 2020-protocol [type, rank, cards] triples)."""
    rules = get_rules(preset_name)
    if mode not in MODES:
        fail(_("{option} must be one of {choices}, not {value}").format(
            option="--mode", choices=", ".join(MODES), value=mode))
    if fmt not in ("json", "protocol"):
        fail(_("{option} must be one of {choices}, not {value}").format(
            option="--format", choices="json, protocol", value=fmt))
    try:
        lvl = parse_level(level)
        cards = parse_cards(hand)
        top_combo = None
        if top:
            spec = json.loads(top_as) if top_as else None
            top_combo = resolve_combo(parse_cards(top), lvl, rules, spec)
        found = legal_moves(cards, top_combo, lvl, rules, mode)
    except json.JSONDecodeError as e:
        fail(_("{option} is not valid JSON: {reason}").format(option="--top-as", reason=reason_words(e)))
    except GuandanError as e:
        fail(said(e))
    out: list[object]
    if fmt == "protocol":
        out = [protocol_action(m.cards, m.combo, lvl) for m in found]
    else:
        out = [{"cards": [card_str(c) for c in m.cards], "combo": m.combo.to_dict() if m.combo else "PASS"}
               for m in found]
    json.dump(out, sys.stdout, ensure_ascii=False)
    typer.echo()


_mounted = False


def main(argv: list[str] | None = None) -> None:
    """Run the command line ``argv`` (default: the process's), its help and Click's own words in the
    language it asks for (:mod:`guandan.clihelp`)."""
    args = sys.argv[1:] if argv is None else argv
    command(lang_of(args))(args, prog_name="guandan")


def command(lang: str | None) -> Command:
    """The whole `guandan` command, every subsystem mounted, speaking ``lang`` (``None``: its texts as
    written, the ``help`` catalogue's msgids): a fresh tree per call."""
    _mount()
    if lang is None:
        return typer.main.get_command(app)
    speak(lang)  # first: building the tree makes the root's --help option
    return localize(typer.main.get_command(app), lang)


def _mount() -> None:
    """Mount every subsystem's commands on ``app`` (``main`` does, before parsing the command line), and lay
    out their option lists (:mod:`guandan.clitable`), once."""
    global _mounted
    if _mounted:
        return
    _mounted = True
    lay_out_options()
    app.add_typer(bench_app, name="bench")
    # Imported here, not at the top: the desk's command tree is large, and `import guandan.cli` (the tests,
    # other tools) need not build it; its heavy libraries load only inside the commands that use them.
    from .tournament.cli import app as tournament_app

    app.add_typer(tournament_app, name="tournament")
    app.command("simulate")(simulate)
    app.command("replay")(replay_cmd)
    app.command("verify-deal")(verify_deal_cmd)
    app.command("schema")(schema_cmd)
    app.command("arena")(arena_cmd)
    app.command("arena-summary")(summary_cmd)
    app.command("arena-compare")(compare_cmd)
    app.command("agents")(agents_cmd)
    app.command("protocol-server")(protocol_server)
    app.command("protocol-client")(protocol_client)
    mount_server(app, bench_app)
    mount_backup(app)  # guandan backup, guandan restore
    mount_review(app, bench_app)
    from .research.cli import mount as mount_research  # here, like the env: its commands load NumPy and pyarrow inside

    mount_research(app)
    app.command("play")(play)


