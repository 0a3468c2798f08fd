"""`guandan bench server --soak`: tables play one-deal matches back to back against a real server process,
and the report gives the server's resident memory after the warm-up and at the end, and the errors (a
few seconds here; the figures that matter come from long runs, see docs/web-protocol.md)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import async_support
from guandan.server import bench

pytestmark = pytest.mark.timeout(120)


def test_a_short_soak_finishes_matches_and_reports_memory() -> None:
    r = async_support.call(bench.run_soak, tables=2, seconds=6, think_ms=10, warmup=2)
    assert r["errors"] == 0, r["first_errors"]
    assert r["matches_over"] >= 1 and r["actions"] > 0  # rooms were created, played out and replaced
    assert r["rss_warm_mib"] > 10 and r["rss_end_mib"] > 10 and len(r["samples"]) >= 2
    assert r["samples"][0][0] == 0 and r["samples"][-1][0] >= 6
    assert "server RSS" in bench.format_soak(r) and "warm-up" in bench.format_soak(r)


@pytest.mark.parametrize("args", [["--soak", "0"], ["--soak", "10", "--warmup", "10"], ["--warmup", "5"],
                                  ["--soak", "10", "--abuse", "hints"]])
def test_bad_soak_options_are_refused(args: list[str]) -> None:
    import typer

    from guandan.server.cli import bench_server

    app = typer.Typer()
    app.command()(bench_server)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "error:" in result.output
