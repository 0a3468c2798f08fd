"""`guandan serve` (the web app) and `guandan bench server` (concurrent bot tables over loopback
WebSockets)."""

from __future__ import annotations

import gc
import json
import os
from pathlib import Path
from typing import Annotated

import typer


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
    db: Annotated[str | None, typer.Option(help="database URL (default: SQLite in the data directory)")] = None,
    data: Annotated[Path | None, typer.Option(help="data directory for the default SQLite database")] = None,
    bot_delay_ms: Annotated[int | None, typer.Option(help="override every room's bot thinking pause (ms)")] = None,
    rate_limits: Annotated[bool, typer.Option(help="rate-limit joins and messages (off only for load tests)")] = True,
) -> None:
    """Run the web app: lobby, tables with bots, replays (http://HOST:PORT)."""
    # here, not at the top: uvicorn, FastAPI and SQLAlchemy load only for `guandan serve`, not for every `guandan` command
    import uvicorn

    from .app import create_app
    from .table import Settings

    if data is not None:
        os.environ["GUANDAN_DATA_DIR"] = str(data)
    settings = Settings(bot_delay_ms=bot_delay_ms)
    if not rate_limits:
        settings.msg_rate = settings.msg_burst = 1e9
        settings.join_rate_per_min = settings.join_burst = 1e9
    app = create_app(db, settings)
    # Every table keeps its match's events alive, so full collections walk a large heap; freezing what
    # start-up built and collecting the young generation less often keeps those pauses out of the
    # action→broadcast tail.
    gc.freeze()
    gc.set_threshold(20_000, 20, 100)
    typer.echo(f"guandan: serving on http://{host}:{port}", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def bench_server(
    tables: Annotated[int, typer.Option(help="concurrent tables (4 bot clients each)")] = 100,
    seconds: Annotated[float, typer.Option(help="how long to measure")] = 20.0,
    think_ms: Annotated[int, typer.Option(help="each bot client's pause before acting")] = 400,
    seed: Annotated[int, typer.Option(help="seeds the deals and the bots' choices")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """N tables of bots playing over real loopback WebSockets: actions/s and action→broadcast latency."""
    from .bench import format_report, run_bench  # here, not at the top: httpx and websockets load only for this

    if tables < 1 or seconds <= 0 or think_ms < 0:
        typer.echo("error: --tables ≥ 1, --seconds > 0 and --think-ms ≥ 0", err=True)
        raise typer.Exit(2)
    report = run_bench(tables=tables, seconds=seconds, think_ms=think_ms, seed=seed)
    typer.echo(json.dumps(report) if json_out else format_report(report))
    raise typer.Exit(1 if report["errors"] else 0)


def mount(app: typer.Typer, bench_app: typer.Typer) -> None:
    app.command("serve")(serve)
    bench_app.command("server")(bench_server)
