"""``guandan protocol-server`` and ``guandan protocol-client`` (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..agents.base import make_agent
from ..cliutil import Messages, choices, fail, said
from ..core.errors import GuandanError
from ..core.rules import PRESET_NAMES, RuleSet, preset
from .errors import ProtocolError
from .seating import SEATING_HELP, Seating, parse_seating

_PRESETS = ", ".join(p for p in PRESET_NAMES if p != "huopin")  # 火拼's hand types have no protocol names


_ = Messages("cli").gettext


def _rules(name: str) -> RuleSet:
    try:
        return preset(name)
    except GuandanError as e:
        fail(said(e))


def _log(line: str) -> None:
    typer.echo(line, err=True)


def protocol_server(
    port: Annotated[int, typer.Option(help="TCP port")] = 23456,
    host: Annotated[str, typer.Option(help="interface to listen on")] = "127.0.0.1",
    games: Annotated[int, typer.Option(help="whole games (level 2 to a win at A) per room")] = 1,
    preset_name: Annotated[str, typer.Option("--preset", help=f"one of {_PRESETS}")] = "competition",
    out: Annotated[Path | None, typer.Option(help="write each game's record (JSON) into this folder")] = None,
    # no fixed default: a known seed is every hand known in advance (without one, a random seed is logged)
    seed: Annotated[str | None, typer.Option(help="deals are seeded by this, the room name and the game number")] = None,
    rooms: Annotated[int | None, typer.Option(help="exit after this many rooms have ended (default: serve forever)")] = None,
    seating: Annotated[str, typer.Option(metavar=choices(Seating), help=SEATING_HELP)] = Seating.ORDER.value,
) -> None:
    """Serve the 2020 competition protocol at ws://HOST:PORT/game/{name}.

    As on the platform, the name is ignored by default: each room takes the next four connections (the 1st and 3rd are seats 0 and 2, the 2nd and 4th seats 1 and 3) and starts at the fourth, so the official example clients client1.py … client4.py play unmodified. --seating named makes each name a room of its own.
    """  # noqa: E501 (one paragraph per line: --help wraps it)
    from .server import ProtocolServer  # here, not at the top: websockets loads only for this command

    if not 0 < port < 65536:
        fail(_("--port must be 1…65535, not {value}").format(value=port))
    if rooms is not None and rooms < 1:
        fail(_("{option} must be at least {minimum}, not {value}").format(option="--rooms", minimum=1, value=rooms))
    try:
        mode = parse_seating(seating)
    except ValueError as e:
        fail(said(e))
    try:
        server = ProtocolServer(_rules(preset_name), games=games, out_dir=out, seed=seed, log=_log, rooms_to_play=rooms,
                                seating=mode)
    except ProtocolError as e:
        fail(said(e))
    try:
        asyncio.run(server.run(host, port))
    except OSError as e:
        fail(_("cannot listen on {address}: {reason}").format(address=f"{host}:{port}", reason=e.strerror or e))
    except KeyboardInterrupt:
        pass


def protocol_client(
    url: Annotated[str, typer.Option(help="ws://HOST:PORT/game/NAME")],
    agent: Annotated[str, typer.Option(help="our agent spec: greedy, search, search:prior=0.3, … (guandan agents)")] = "greedy",
    preset_name: Annotated[str, typer.Option("--preset", help="the server's rules (to read its actions)")] = "competition",
    seed: Annotated[int, typer.Option(help="the agent's seed")] = 0,
    time_budget: Annotated[float | None, typer.Option(help="seconds per decision for thinking agents")] = None,
) -> None:
    """Play one seat with our agent on any server that speaks the 2020 protocol."""
    # here, not at the top: websockets loads only for this command, not for every `guandan` command
    from websockets.exceptions import InvalidHandshake, InvalidURI

    from .client import play

    rules = _rules(preset_name)
    try:
        bot = make_agent(agent, seed, time_budget)
    except GuandanError as e:
        fail(said(e))
    try:
        report = asyncio.run(play(url, bot, rules, log=_log))
    except InvalidURI:
        fail(_("{url} is not a ws:// URL").format(url=url))
    except (OSError, InvalidHandshake) as e:
        fail(_("cannot connect to {url}: {reason}").format(url=url, reason=e))
    finally:
        bot.close()
    for line in report.errors:
        _log(_("server/client error: {problem}").format(problem=line))
    counts = {"messages": report.messages, "decisions": report.acts, "fallbacks": report.fallbacks}
    if report.result is None:  # the server closed before its gameResult message
        typer.echo(_("{messages} messages, {decisions} decisions, {fallbacks} fallbacks; no result").format(**counts))
    else:  # the gameResult message as the wire has it
        typer.echo(_("{messages} messages, {decisions} decisions, {fallbacks} fallbacks; result: {result}").format(
            result=json.dumps(report.result, ensure_ascii=False), **counts))
    sys.stdout.flush()
