"""``guandan protocol-server`` and ``guandan protocol-client`` (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import errno
import json
import math
import os
import sys
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

import typer

from ..agents.base import make_agent
from ..cliutil import Messages, choices, ensure_dir, fail, reason_words, said
from ..core.errors import GuandanError
from ..core.rules import PRESET_NAMES, RuleSet, preset
from .errors import ProtocolError
from .seating import SEATING_HELP, Seating, parse_seating

_PRESETS = ", ".join(p for p in PRESET_NAMES if p != "huopin")  # 火拼's hand types have no protocol names


_ = Messages("cli").gettext


def _tally(result: dict[str, Any], seat: int | None) -> tuple[int, int, int] | None:
    """Our team's wins, the other team's and the draws from a gameResult message (four counts per seat, partners'
    equal), or None when the message does not hold them so."""
    wins, draws = result.get("victoryNum"), result.get("draws")
    if seat not in range(4) or not all(
            isinstance(v, list) and len(v) == 4 and all(type(n) is int for n in v) for v in (wins, draws)):
        return None
    assert seat is not None and isinstance(wins, list) and isinstance(draws, list)
    return wins[seat], wins[(seat + 1) % 4], draws[seat]


def _rules(name: str) -> RuleSet:
    try:
        return preset(name)
    except GuandanError as e:
        fail(said(e))


def _log(line: str) -> None:
    typer.echo(line, err=True)


_ERRNO_OF = {ConnectionResetError: errno.ECONNRESET, ConnectionRefusedError: errno.ECONNREFUSED,
             ConnectionAbortedError: errno.ECONNABORTED, BrokenPipeError: errno.EPIPE, TimeoutError: errno.ETIMEDOUT}


def os_reason(e: OSError) -> str:
    """Why the system refused, in the reader's language: asyncio's and the socket module's own wording
    carries Python's address tuples ("… on address ('127.0.0.1', 23456): address already in use"), and a
    connection reset during a TLS handshake comes with no words at all."""
    if e.errno is not None and e.errno < 0:  # a getaddrinfo code (the name is unknown): said as such
        return reason_words(e)
    code = e.errno if e.errno is not None and e.errno > 0 else _ERRNO_OF.get(type(e))
    if not code:
        return e.strerror or str(e) or reason_words(OSError(errno.EIO, os.strerror(errno.EIO)))
    return reason_words(OSError(code, os.strerror(code)))


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
    # off by default: the protocol itself has no time limit, and bots written for it may think long
    move_timeout: Annotated[float | None, typer.Option(
        metavar="SECONDS", help="a seat that has not answered an act message within this many seconds is played for "
        "by the server: PASS when passing is legal, else the choice of the auto-play (托管) bot (default: no limit)")] = None,
    abort_after_timeouts: Annotated[int | None, typer.Option(
        metavar="K", help="with --move-timeout: a seat's K-th timeout in a row aborts its room (0: never; default 3)")] = None,
    max_connections_per_address: Annotated[int, typer.Option(
        metavar="N", help="connections at once from one client address, beyond which the handshake is refused "
        "(HTTP 429); loopback is not counted (0: no limit)")] = 8,  # server.MAX_PER_ADDRESS (a test keeps them equal)
) -> None:
    """Serve the 2020 competition protocol at ws://HOST:PORT/game/{name}.

    As on the platform, the name is ignored by default: each room takes the next four connections (the 1st and 3rd are seats 0 and 2, the 2nd and 4th seats 1 and 3) and starts at the fourth, so the official example clients client1.py … client4.py play unmodified. --seating named makes each name a room of its own.
    """  # noqa: E501 (one paragraph per line: --help wraps it)
    from .server import ABORT_AFTER, ProtocolServer  # here, not at the top: websockets loads only for this command

    if not 0 < port < 65536:
        fail(_("--port must be 1…65535, not {value}").format(value=port))
    if rooms is not None and rooms < 1:
        fail(_("{option} must be at least {minimum}, not {value}").format(option="--rooms", minimum=1, value=rooms))
    if move_timeout is not None and not (math.isfinite(move_timeout) and move_timeout > 0):
        fail(_("{option} must be a positive number of seconds, not {value}").format(option="--move-timeout",
                                                                                   value=move_timeout))
    if abort_after_timeouts is not None and move_timeout is None:
        fail(_("--abort-after-timeouts needs --move-timeout (without it no seat times out)"))
    for option, value in (("--abort-after-timeouts", abort_after_timeouts),
                          ("--max-connections-per-address", max_connections_per_address)):
        if value is not None and value < 0:
            fail(_("{option} must be at least {minimum}, not {value}").format(option=option, minimum=0, value=value))
    try:
        mode = parse_seating(seating)
    except ValueError as e:
        fail(said(e))
    if out is not None:
        ensure_dir(out)  # a folder that cannot be one is said now, not when the first game has ended
    try:
        server = ProtocolServer(_rules(preset_name), games=games, out_dir=out, seed=seed, log=_log, rooms_to_play=rooms,
                                seating=mode, move_timeout=move_timeout,
                                abort_after=ABORT_AFTER if abort_after_timeouts is None else abort_after_timeouts,
                                max_per_address=max_connections_per_address)
    except ProtocolError as e:
        fail(said(e))
    try:
        asyncio.run(server.run(host, port))
    except OSError as e:
        fail(_("cannot listen on {address}: {reason}").format(address=f"{host}:{port}", reason=os_reason(e)))
    except KeyboardInterrupt:
        pass


def _refusal(e: Exception) -> str:
    """A refused handshake in words, with the first line of the server's reason when it gave one
    (ours says what is wrong with the name in /game/{name})."""
    body = getattr(getattr(e, "response", None), "body", None)
    text = bytes(body).decode("utf-8", "replace").strip() if isinstance(body, bytes | bytearray) else ""
    first = "".join(c if c.isprintable() else "?" for c in text.split("\n", 1)[0][:200])  # it reaches a terminal
    return f"{e}: {first}" if first else str(e)


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
    from websockets.uri import parse_uri

    from .client import play

    try:
        parse_uri(url)
        port = urlsplit(url).port  # websockets reads port 0 as "none given" (80)
    except (InvalidURI, ValueError):  # ValueError: a port out of range or not a number, an unclosed [IPv6
        port = 0
    if port == 0:
        fail(_("{url} is not a ws:// URL").format(url=url))
    if time_budget is not None and not time_budget > 0:
        fail(_("{option} must be a positive number of seconds, not {value}").format(option="--time-budget",
                                                                                   value=time_budget))
    rules = _rules(preset_name)
    try:
        bot = make_agent(agent, seed, time_budget)
    except GuandanError as e:
        fail(said(e))
    try:
        report = asyncio.run(play(url, bot, rules, log=_log))
    except InvalidURI:
        fail(_("{url} is not a ws:// URL").format(url=url))
    except OSError as e:
        fail(_("cannot connect to {url}: {reason}").format(url=url, reason=os_reason(e)))
    except InvalidHandshake as e:
        fail(_("cannot connect to {url}: {reason}").format(url=url, reason=_refusal(e)))
    finally:
        bot.close()
    for line in report.errors:
        _log(_("server/client error: {problem}").format(problem=line))
    counts = {"messages": report.messages, "decisions": report.acts, "fallbacks": report.fallbacks}
    if report.result is None:  # the server closed before its gameResult message
        typer.echo(_("messages: {messages}, decisions: {decisions}, fallbacks: {fallbacks}; no result").format(**counts))
    elif (tally := _tally(report.result, report.seat)) is not None:
        ours, theirs, drawn = tally
        typer.echo(_("messages: {messages}, decisions: {decisions}, fallbacks: {fallbacks}; our team won {ours}, "
                     "the other {theirs}, {drawn} drawn").format(ours=ours, theirs=theirs, drawn=drawn, **counts))
    else:  # a gameResult we cannot count from: the message as the wire has it
        typer.echo(_("messages: {messages}, decisions: {decisions}, fallbacks: {fallbacks}; result: {result}").format(
            result=json.dumps(report.result, ensure_ascii=False), **counts))
    sys.stdout.flush()
