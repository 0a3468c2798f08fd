"""`guandan serve` (the web app) and `guandan bench server` (concurrent bot tables over loopback
WebSockets)."""

from __future__ import annotations

import gc
import json
import logging
import os
import re
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..cliutil import Messages, ensure_dir, fail, reason_words, said
from ..core.errors import shown
from ..native import with_build

if TYPE_CHECKING:
    from collections.abc import Callable

    from .bench import ServerFailed  # httpx and websockets load only for the benches
    from .workers import TempDirTooLong

_messages = Messages("cli")
_ = _messages.gettext


def uvicorn_config(app: Any, host: str, port: int, fd: int | None = None, json_logs: bool = False) -> Any:
    """How `guandan serve` runs uvicorn. uvicorn's own proxy handling stays off (it would believe
    X-Forwarded-For from 127.0.0.1 by default): the app decides who the client is, with the proxies the
    operator names (server/clientaddr.py). WebSocket frames go uncompressed. ``json_logs``: uvicorn leaves
    its loggers to the JSON handler (server/logs.py) instead of writing its own lines. uvicorn's access log
    is off: the app writes its own, with route templates and request ids (--access-log)."""
    import uvicorn  # here: uvicorn loads only for `guandan serve`

    # No permessage-deflate: frames are small JSON, and each compressing socket holds about 300 KB of zlib
    # state for as long as it is open (with 400 players, 100 MB), and a soak's memory grows faster with it.
    # a worker of `serve --workers N` accepts on the socket its supervisor bound (fd); a stopping server gives
    # its open connections 5 s to finish before it hands its tables over
    logging: dict[str, Any] = {"log_config": None} if json_logs else {}
    return uvicorn.Config(app, host=host, port=port, fd=fd, log_level="warning", proxy_headers=False,
                          forwarded_allow_ips="", server_header=False, ws_per_message_deflate=False, access_log=False,
                          timeout_graceful_shutdown=5, **logging)


def site_problem(redis: str | None, workers: int, db: str | None, site: str) -> str | None:
    """Why these settings cannot run, or None: several workers share Redis and a PostgreSQL database."""
    if redis is None:
        return _("--workers above 1 needs --redis (the workers share their tables through it)") if workers > 1 else None
    if not re.fullmatch(r"(rediss?|unix)://\S+", redis):
        return _("--redis must be a Redis URL such as redis://127.0.0.1:6379/0, not {value}").format(value=shown(redis))
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", site):
        return _("--site must be 1 to 40 letters, digits, '.', '_' or '-', not {value}").format(value=shown(site))
    if db is None or not db.startswith("postgresql"):
        return _("--redis needs --db with a PostgreSQL URL (postgresql+psycopg://…): the workers share one database, "
                 "and SQLite is one process's")
    return None


def database_url(db: str) -> str:
    """``db`` if it names a SQLite or PostgreSQL database whose driver is installed, else fail naming the
    problem (before anything starts)."""
    from ..db.engine import DatabaseUrlError, checked_url

    try:
        checked_url(db)
    except DatabaseUrlError as e:
        fail(said(e))
    return db


def _shown_db(db: str | None) -> str:
    """The database URL as the errors show it: the default SQLite file's in full, a password never."""
    from sqlalchemy.engine import make_url

    from ..db.engine import default_url

    return make_url(db or default_url()).render_as_string(hide_password=True)


def _app(create_app: Any, db: str | None, settings: Any, dev: bool, cluster: Any, accounts: Any = None) -> Any:
    """The web app on its database, or fail saying why the database cannot be used (it is opened and brought
    up to the newest schema here, before the address is taken)."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..core.errors import GuandanError
    from ..db.engine import driver_problem

    try:
        return create_app(db, settings, dev=dev, cluster=cluster, accounts=accounts)
    except (SQLAlchemyError, OSError, GuandanError) as e:
        reason = (reason_words(e) if isinstance(e, OSError) else said(e) if isinstance(e, GuandanError)
                  else driver_problem(e))
        fail(_("cannot use the database {url}: {reason}").format(url=_shown_db(db), reason=reason), 1)


def _check_database(db: str | None) -> None:
    """Fail, saying why, unless the database answers (the supervisor's check before it starts its workers,
    which would otherwise each fail the same way and be started again and again)."""
    from sqlalchemy import text
    from sqlalchemy.exc import SQLAlchemyError

    from ..db.engine import driver_problem, make_engine

    engine = make_engine(db)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except SQLAlchemyError as e:
        fail(_("cannot use the database {url}: {reason}").format(url=_shown_db(db), reason=driver_problem(e)), 1)
    finally:
        engine.dispose()


def _check_redis(redis: str) -> None:
    """Fail, saying why, unless Redis answers at ``redis`` (before the address is taken or a worker started)."""
    from .cluster import redis_problem, shown_redis

    problem = redis_problem(redis)
    if problem is not None:
        fail(_("cannot use Redis at {url}: {reason}").format(url=shown_redis(redis), reason=problem), 1)


def _check_address(host: str, port: int) -> None:
    """Fail, saying why, if this process cannot listen at ``host:port`` (taken, or no such address here),
    before the database is opened and "serving on" is said; uvicorn would log it in English afterwards."""
    import socket

    try:
        socket.create_server((host, port)).close()  # SO_REUSEADDR, as uvicorn binds
    except OSError as e:
        fail(_("cannot listen on {host}:{port}: {reason}").format(host=host, port=port, reason=reason_words(e)), 1)


def loopback_note(host: str, port: int) -> str | None:
    """What `guandan serve` says after "serving on" when it listens on this machine only (the default
    127.0.0.1): a tournament's phones, or players on the same network, would find nothing there."""
    if not (host in ("localhost", "::1") or host.startswith("127.")):
        return None
    return _("guandan: only this computer can open it; for phones on the venue's network (a tournament's "
             "tables, the players) start with --host 0.0.0.0 and give them this computer's address, e.g. "
             "http://192.168.1.10:{port}").format(port=port)


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
    db: Annotated[str | None, typer.Option(envvar="GUANDAN_DB_URL", help=(
        "database URL (default: SQLite in the data directory); a site of several workers shares one "
        "PostgreSQL database: postgresql+psycopg://user:password@host/name"))] = None,
    data: Annotated[Path | None, typer.Option(help="data directory for the default SQLite database")] = None,
    bot_delay_ms: Annotated[int | None, typer.Option(help="override every room's bot thinking pause (ms)")] = None,
    rate_limits: Annotated[bool, typer.Option(help="rate-limit joins and messages (off only for load tests)")] = True,
    forwarded_allow_ips: Annotated[str, typer.Option(
        help="proxies (addresses or networks, comma-separated, or *) whose X-Forwarded-For names the client; "
             "default: none, the socket's peer is the client")] = "",
    # The limits' defaults live in server/table.py Settings (not imported here: it loads SQLAlchemy); the
    # help repeats them, and tests/server/test_lifecycle.py checks that it says the same.
    max_rooms: Annotated[int | None, typer.Option(
        min=1, help="rooms in the lobby or playing, in all (default 1000)")] = None,
    max_rooms_per_address: Annotated[int | None, typer.Option(
        min=1, help="of those, created from one client address (default 20)")] = None,
    lobby_idle_s: Annotated[float | None, typer.Option(
        min=1, help="a lobby with no change for this long closes, in seconds (default 1800)")] = None,
    unattended_pause_s: Annotated[float | None, typer.Option(
        min=1, help="a table with no human connected for this long pauses until one returns, in seconds "
                    "(default 120)")] = None,
    # matches of four bots to watch (观战): what they may cost, as the table service bounds it (TableService.watch)
    # 0 in either: the server offers no such matches (the start page leaves its button out)
    max_watched_tables: Annotated[int | None, typer.Option(
        min=0, help="matches of four bots playing at once for people to watch, in all; 0: none (default 20)")] = None,
    max_watched_per_address: Annotated[int | None, typer.Option(
        min=0, help="of those, kept going for one client address; 0: none (default 2)")] = None,
    # the room's own pace is 0 to 10 s (rooms.RoomConfig.bot_delay_ms): a least pace beyond it would be no match to follow
    watch_min_bot_delay_ms: Annotated[int | None, typer.Option(
        min=0, max=10_000, help="the least pause before a bot of such a match acts, whatever its room asks, in "
                                "milliseconds (default 500)")] = None,
    # a venue's or a club's phones often all reach the server through one router, as one address: such a
    # site raises it (accounts_service.AccountSettings holds the default, repeated here as the limits' are)
    signups_per_address: Annotated[int | None, typer.Option(
        min=1, envvar="GUANDAN_SIGNUPS_PER_ADDRESS",
        help="accounts made from one client address per hour; raise it where every phone comes through one "
             "router (default 10)")] = None,
    dev: Annotated[bool, typer.Option(help="also serve the API schema and its pages: /openapi.json, /docs, /redoc")] = False,
    redis: Annotated[str | None, typer.Option(envvar="GUANDAN_REDIS_URL", help=(
        "Redis URL (redis://host:port/db): this process is one worker of a site whose workers share it and "
        "one PostgreSQL database; without it, one process holds every table (the default)"))] = None,
    workers: Annotated[int, typer.Option(min=1, max=64, envvar="GUANDAN_WORKERS", help=(
        "worker processes behind this one address (more than 1 needs --redis); a worker that dies is "
        "restarted and its tables taken over by the others; SIGHUP restarts them one at a time"))] = 1,
    site: Annotated[str, typer.Option(envvar="GUANDAN_SITE", help=(
        "the name of the site in Redis: the workers of one site share it (several sites may share a Redis)"))
    ] = "guandan",
    metrics_allow: Annotated[str, typer.Option(
        help="socket peers (addresses or networks, comma-separated, or *) that may read /metrics; judged on the "
             "connection, never on X-Forwarded-For; empty: nobody")] = "127.0.0.1,::1",
    log_format: Annotated[str, typer.Option(metavar="[text|json]", help="the server's log lines: text, or one "
                                                                        "JSON object a line")] = "text",
    access_log: Annotated[bool, typer.Option(help="log one line per HTTP request: method, route, status, "
                                                  "milliseconds")] = False,
) -> None:
    """Run the web app: lobby, tables with bots, replays (http://HOST:PORT)."""
    # here, not at the top: uvicorn, FastAPI and SQLAlchemy load only for `guandan serve`, not for every `guandan` command
    import uvicorn

    from .app import create_app
    from .clientaddr import parse_proxies
    from .cluster import WORKER_FD, WORKER_ID
    from .logs import LOG_FORMATS, announcer, configure, set_worker
    from .table import Settings
    from .workers import TempDirTooLong, prestart

    try:
        proxies = parse_proxies(forwarded_allow_ips)
    except ValueError as e:
        fail(_("{option}: {problem}").format(option="--forwarded-allow-ips", problem=said(e)))
    try:
        metrics_peers = parse_proxies(metrics_allow)
    except ValueError as e:
        fail(_("{option}: {problem}").format(option="--metrics-allow", problem=said(e)))
    if log_format not in LOG_FORMATS:
        fail(_("{option} must be one of {choices}, not {value}").format(
            option="--log-format", choices=", ".join(LOG_FORMATS), value=log_format))
    problem = site_problem(redis, workers, db, site)
    if problem is not None:
        fail(problem)
    if db is not None:
        db = database_url(db)
    worker_fd = os.environ.get(WORKER_FD)
    if worker_fd is None:
        _check_address(host, port)
    if redis is not None:
        _check_redis(redis)
    if workers > 1 and worker_fd is None:  # the supervisor: it binds the address and runs the workers
        from .supervisor import Supervisor

        assert redis is not None
        _check_database(db)
        configure(log_format)
        try:
            code = Supervisor(host, port, workers, redis, site, db, loopback_note(host, port),
                              announcer(log_format)).run()
        except TempDirTooLong as e:
            fail(_temp_dir_too_long(e), 1)
        raise typer.Exit(code)
    if data is not None:
        os.environ["GUANDAN_DATA_DIR"] = str(data)
    if db is None:  # the default SQLite file's folder: a file standing there is named before anything starts
        from ..db.engine import data_dir

        ensure_dir(data_dir())
    limits = {"max_rooms": max_rooms, "max_rooms_per_address": max_rooms_per_address, "lobby_idle_s": lobby_idle_s,
              "unattended_pause_s": unattended_pause_s, "max_watched_tables": max_watched_tables,
              "max_watched_per_address": max_watched_per_address, "watch_min_bot_delay_ms": watch_min_bot_delay_ms}
    settings = Settings(bot_delay_ms=bot_delay_ms, forwarded_allow_ips=proxies, metrics_allow=metrics_peers,
                        **{k: v for k, v in limits.items() if v is not None})  # type: ignore[arg-type]
    if not rate_limits:
        settings.msg_rate = settings.msg_burst = 1e9
        settings.join_rate_per_min = settings.join_burst = 1e9
    configure(log_format, access_log)
    cluster = None
    if redis is not None:
        from .cluster import ClusterSettings, new_worker_id

        cluster = ClusterSettings(redis, worker_id=os.environ.get(WORKER_ID) or new_worker_id(), prefix=site)
        set_worker(cluster.worker_id)
        logging.getLogger("guandan.cluster").setLevel(logging.INFO)  # joins, take-overs, hand-overs
    from .accounts_service import AccountSettings

    accounts = AccountSettings() if signups_per_address is None else AccountSettings(
        signups_per_address=signups_per_address)
    app = _app(create_app, db, settings, dev, cluster, accounts)
    # uvicorn, stopped by SIGTERM, shuts down and then raises the signal again for the handler it found: the
    # default one would end the process there, before the interpreter's exit handlers remove what it made in
    # the temporary folder (the worker pool's fork server's pymp-… folder, one more with every stop); from
    # here, before that folder is made, a SIGTERM exits through them, starting up or serving
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        prestart()  # the worker processes' fork server, before the first client (server/workers.py)
    except TempDirTooLong as e:
        fail(_temp_dir_too_long(e), 1)
    # Every table keeps its match's events alive, so full collections walk a large heap; freezing what
    # start-up built and collecting the young generation less often keeps those pauses out of the
    # action→broadcast tail.
    gc.freeze()
    gc.set_threshold(20_000, 20, 100)
    fd = int(worker_fd) if worker_fd is not None else None
    if fd is None:
        say = announcer(log_format)
        say(_("guandan: serving on {url}").format(url=f"http://{host}:{port}"))
        note = loopback_note(host, port)
        if note is not None:
            say(note)
    config = uvicorn_config(app, host, port, fd, json_logs=log_format == "json")
    if cluster is None:
        uvicorn.Server(config).run()
        return
    site_app = app.state.cluster

    class WorkerServer(uvicorn.Server):
        """Stops taking tables as soon as it is told to stop, before its sockets close (others take them)."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            site_app.begin_drain()
            super().handle_exit(sig, frame)

    WorkerServer(config).run()




def _temp_dir_too_long(e: TempDirTooLong) -> str:
    return _("the temporary folder {path} (TMPDIR) is too long: the worker processes' socket inside it would "
             "pass the {limit} bytes a Unix socket's path may hold, and no shorter folder could be written to; "
             "set TMPDIR to a shorter folder").format(path=e.tempdir, limit=e.limit)


def _exit_on_sigterm(_sig: int, _frame: Any) -> None:
    """A SIGTERM handler: the process exits as Ctrl-C ends it, through its clean-up (``finally`` blocks and
    the interpreter's exit handlers), with the status a shell gives a process SIGTERM ended (143). A second
    SIGTERM meanwhile is ignored: each clean-up is bounded, a server that does not stop in time being killed."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise SystemExit(128 + signal.SIGTERM)


def bench_server(
    tables: Annotated[int, typer.Option(help="concurrent tables (4 bot clients each)")] = 100,
    seconds: Annotated[float, typer.Option(help="how long to measure")] = 20.0,
    think_ms: Annotated[int, typer.Option(help="each bot client's pause before acting")] = 400,
    seed: Annotated[int, typer.Option(help="seeds the bot clients' choices (the server deals from secret seeds)")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
    abuse: Annotated[str | None, typer.Option(
        help="add an attacker beside the tables: 'hints' floods hints and readings from 12 sockets of one seat "
             "in a 火拼 room (84,060 legal leads)")] = None,
    soak: Annotated[float | None, typer.Option(
        help="instead: play one-deal matches back to back at every table for this many seconds and report the "
             "server's resident memory after the warm-up against the end")] = None,
    warmup: Annotated[float | None, typer.Option(
        help="with --soak: seconds of warm-up before memory is compared (default: 300, or half of a shorter soak)")
    ] = None,
    workers: Annotated[str | None, typer.Option(
        help="instead: a site of this many workers behind one address (serve --workers N), or several counts "
             "comma-separated (1,2,4), each run in turn; needs --redis and --db")] = None,
    redis: Annotated[str | None, typer.Option(help="with --workers: the Redis URL the sites use")] = None,
    db: Annotated[str | None, typer.Option(help=(
        "with --workers: a PostgreSQL database's URL; each run creates a database of its own beside it (and drops "
        "it after), so its user needs CREATEDB"))] = None,
    failover: Annotated[bool, typer.Option(
        help="with --workers: then kill the busiest worker of the largest site halfway through and report the "
             "seconds its tables went without service and the actions lost")] = False,
) -> None:
    """N tables of bots playing over real loopback WebSockets: actions/s and action→broadcast latency."""
    # here: httpx and websockets load only for this
    from .bench import format_report, format_soak, run_bench, run_soak, stopping_on_sigterm

    # a SIGTERM stops the bench through Ctrl-C's clean-up: its server, or its site's supervisor and workers,
    # stopped, its temporary database, Redis keys, folders and files removed; it exits with 143, as a shell
    # gives a process SIGTERM ended. Only while it runs: a refusal, or the end, gives SIGTERM back
    with stopping_on_sigterm():
        if workers is not None:
            counts = [int(w) for w in workers.split(",") if w.strip().isdigit() and 1 <= int(w) <= 64]
            problem = (site_problem(redis, max(counts), db, "bench") if counts and len(counts) == len(workers.split(","))
                       else _("--workers takes worker counts from 1 to 64, comma-separated, not {value}").format(
                           value=workers))
            if problem is None and redis is None:
                problem = _("--workers needs --redis")
            if problem is not None or soak is not None or abuse is not None or tables < 1 or seconds <= 0:
                fail(problem or _("--workers goes without --soak and --abuse, with --tables ≥ 1 and --seconds > 0"))
            from .bench_site import DatabaseRefused, format_site_report, run_site_bench

            assert redis is not None and db is not None
            database_url(db)
            _check_redis(redis)
            _check_database(db)
            try:
                site_report = _bench_run(run_site_bench, counts, redis, db, tables, seconds, think_ms, seed, failover)
            except DatabaseRefused as e:
                fail(_("the database server refused to create the bench's database {name} beside {url}: {reason}; each "
                       "run creates a database of its own and drops it after: give the user of --db the right to "
                       "create databases (ALTER ROLE … CREATEDB), or name a database whose user has it").format(
                    name=e.name, url=_shown_db(db), reason=e.reason), 1)
            typer.echo(json.dumps(with_build(site_report)) if json_out else format_site_report(site_report, _))
            bad = any((r["errors"] and "failover" not in r) or r["lost_actions"] for r in site_report["runs"])
            raise typer.Exit(1 if bad else 0)
        if failover or redis is not None or db is not None:
            fail(_("--redis, --db and --failover go with --workers"))

        if tables < 1 or seconds <= 0 or think_ms < 0:
            fail(_("--tables ≥ 1, --seconds > 0 and --think-ms ≥ 0"))
        if soak is not None:
            if soak <= 0 or (warmup is not None and not 0 <= warmup < soak) or abuse is not None:
                fail(_("--soak > 0, --warmup from 0 to less than --soak, and no --abuse with --soak"))
            soaked = _bench_run(run_soak, tables=tables, seconds=soak, think_ms=think_ms, seed=seed, warmup=warmup)
            typer.echo(json.dumps(with_build(soaked)) if json_out else format_soak(soaked, _))
            raise typer.Exit(1 if soaked["errors"] else 0)
        if warmup is not None:
            fail(_("--warmup goes with --soak"))
        if abuse not in (None, "hints"):
            fail(_("{option} must be one of {choices}, not {value}").format(
                option="--abuse", choices="hints", value=abuse))
        report = _bench_run(run_bench, tables=tables, seconds=seconds, think_ms=think_ms, seed=seed, abuse=abuse)
        typer.echo(json.dumps(with_build(report)) if json_out else format_report(report, _))
        raise typer.Exit(1 if report["errors"] or report.get("abuse", {}).get("errors") else 0)


def _bench_run(run: Callable[..., dict[str, Any]], *args: Any, **kwargs: Any) -> dict[str, Any]:
    """``run(*args, **kwargs)``, one of the benches: a SIGTERM that stopped it ends the command, after the bench's
    clean-up, with the status a shell gives a process SIGTERM ended (143); a server of its that failed, in words."""
    from .bench import ServerFailed, Terminated

    try:
        return run(*args, **kwargs)
    except Terminated:
        raise typer.Exit(128 + signal.SIGTERM) from None
    except ServerFailed as e:
        fail(_server_failed(e), 1)


def _server_failed(e: ServerFailed) -> str:
    """What is said of the bench's server that exited or never answered (a bench.ServerFailed), with the end
    of its log."""
    from .bench import START_S
    from .bench_site import SITE_START_S, SiteFailed

    site = isinstance(e, SiteFailed)
    if e.status is None:
        line = (_("the bench's site did not start within {seconds} s") if site
                else _("the bench's server did not answer within {seconds} s")).format(
            seconds=f"{SITE_START_S if site else START_S:g}")
    elif e.status < 0:
        try:
            name = signal.Signals(-e.status).name
        except ValueError:  # a real-time signal has no name
            name = str(-e.status)
        line = (_("the bench's site was killed by signal {signal}") if site
                else _("the bench's server was killed by signal {signal}")).format(signal=name)
    else:
        line = (_("the bench's site exited with status {code}") if site
                else _("the bench's server exited with status {code}")).format(code=e.status)
    log = e.log.strip()
    return f"{line}\n{_('the end of its log:')}\n{log}" if log else line


def bench_page(
    runs: Annotated[int, typer.Option(min=1, help="page loads and taps to measure")] = 10,
    seed: Annotated[int, typer.Option(help="the practice rooms' seed")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """The table page in chromium on loopback: its weight, the time until a started table is usable, and
    tap → selected while plays arrive (median and max)."""
    from .bench_page import format_page_report, run_page_bench  # here: Playwright loads only for this

    try:
        report = run_page_bench(runs=runs, seed=seed)
    except RuntimeError as e:  # no chromium, no Playwright
        fail(said(e), 1)
    typer.echo(json.dumps(with_build(report)) if json_out else format_page_report(report, _))


def bench_accounts(
    db: Annotated[str | None, typer.Option(help="database URL, e.g. an empty PostgreSQL database "
                                                "(default: a temporary SQLite file)")] = None,
    accounts: Annotated[int, typer.Option(min=1, help="accounts to create")] = 1000,
    matches: Annotated[int, typer.Option(min=1, help="rated matches to store")] = 10_000,
    requests: Annotated[int, typer.Option(min=1, help="timed requests per kind")] = 300,
    seed: Annotated[int, typer.Option(help="seeds the accounts' matches and the requests")] = 1,
    fill: Annotated[bool, typer.Option(help="fill the database first (--no-fill: time a database an earlier run "
                                            "filled, with the same --accounts)")] = True,
    json_out: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Accounts and rated matches in a database, then the leaderboard and player pages timed (p50/p99)."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..db.engine import driver_problem
    from .ratings_bench import BenchRefused, format_accounts_report, run_accounts_bench  # here: the app loads only for this

    if not fill and db is None:
        fail(_("--no-fill needs --db (the default database is a new temporary file)"))
    if db is not None:
        db = database_url(db)
    try:
        report = run_accounts_bench(db, accounts=accounts, matches=matches, requests=requests, seed=seed,
                                    progress=lambda n: typer.echo(_("{n} rated matches stored").format(n=n), err=True),
                                    fill_db=fill)
    except BenchRefused as e:
        fail(said(e))
    except SQLAlchemyError as e:  # the database does not answer, refuses the user…
        fail(_("cannot use the database {url}: {reason}").format(url=_shown_db(db), reason=driver_problem(e)), 1)
    typer.echo(json.dumps(with_build(report)) if json_out else format_accounts_report(report, _))


def bench_bot_ratings(
    arena: Annotated[list[Path] | None, typer.Option(
        help="an arena results file of a neighbouring pair of tiers (repeat), e.g. docs/arena/*.jsonl.gz")] = None,
    pairs: Annotated[int, typer.Option(min=1, help="greedy-against-random deal pairs to play")] = 1000,
    seed: Annotated[int, typer.Option(help="the arena seed")] = 1,
    jobs: Annotated[int, typer.Option(min=1, help="processes for the games")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """The bots' fixed ratings: neighbouring tiers' deal-win rates and the mus they give (guandan.ratings)."""
    from .ratings_bench import format_bot_ratings, run_bot_ratings  # here: the arena loads only for this

    report = run_bot_ratings(list(arena or []), pairs=pairs, seed=seed, jobs=jobs)
    typer.echo(json.dumps(with_build(report)) if json_out else format_bot_ratings(report, _))


def screenshots(
    out: Annotated[Path, typer.Option(help="the folder to write the PNGs into")] = Path("docs/screenshots"),
    only: Annotated[list[str] | None, typer.Option(
        metavar="[lobby|table|deal-end|tribute]", help="only these parts (repeat the option); default: all")] = None,
    seed: Annotated[int, typer.Option(help="where the search for the practice room's seed begins")] = 1,
) -> None:
    """Screenshots of the web app (start page, table, deal end, tribute) at phone and desktop sizes, in
    Chinese and English, from a server and chromium this command starts: the README's pictures."""
    from .screenshots import PARTS, run  # here: Playwright loads only for this

    parts = list(dict.fromkeys(only)) if only else list(PARTS)
    if bad := [p for p in parts if p not in PARTS]:
        fail(_("--only takes {choices}, not {values}").format(choices=", ".join(PARTS), values=", ".join(bad)))
    ensure_dir(out)  # a file in its place is named now, not as a traceback once the browser has started
    written: list[Path] = []
    try:
        written = run(out, parts, seed, written)
    except RuntimeError as e:  # a hook the table page lacks (HookMissing), no chromium, no Playwright
        for path in written:
            typer.echo(str(path))
        fail(said(e), 1)
    for path in written:
        typer.echo(str(path))
    total = sum(p.stat().st_size for p in written)
    done = _messages.ngettext("{count} screenshot, {size} KB, in {path}", "{count} screenshots, {size} KB, in {path}",
                              len(written))
    typer.echo(done.format(count=len(written), size=f"{total / 1024:.0f}", path=out), err=True)


def mount(app: typer.Typer, bench_app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.command("screenshots")(screenshots)
    bench_app.command("server")(bench_server)
    bench_app.command("page")(bench_page)
    bench_app.command("accounts")(bench_accounts)
    bench_app.command("bot-ratings")(bench_bot_ratings)
