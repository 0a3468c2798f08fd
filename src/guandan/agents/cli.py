"""`guandan agents`: the tiers an agent spec may name, what each one is, and the options each one takes."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ..cliutil import Messages, cli_lang
from ..i18n import translator
from .base import agent_description, agent_names, agent_options

_ = Messages("cli").gettext


def agents_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object instead of the list")] = False,
) -> None:
    """List the agent tiers and their options; a spec is tier[:key=value…], e.g. search:prior=0.3:shortlist=8."""
    tiers = [n for n in agent_names() if n != "external"]
    words = translator("help", cli_lang()).gettext  # an option's description is help text, as --help's are
    if as_json:  # English, as the options' help is: the catalogue's msgids, a plugin's docstring as written
        out = {n: {"description": agent_description(n),
                   "options": {k: {"type": o.kind.__name__, "default": o.default, "range": o.range(), "help": o.help}
                               for k, o in agent_options(n).items()}} for n in tiers}
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    for n in tiers:
        said = agent_description(n, _)
        typer.echo(_("{tier} — {description}").format(tier=n, description=said) if said else n)
        shown = {k: f"{k}={o.show(o.default)}" for k, o in agent_options(n).items()}
        width = max((len(v) for v in shown.values()), default=0)
        for k, o in agent_options(n).items():
            typer.echo(f"  {shown[k]:<{width}} " + _("{help} ({values})").format(help=words(o.help), values=o.range(_)))
    typer.echo("external:module:Class  " + _("a 2020-protocol bot class (see --path in guandan arena)"))
