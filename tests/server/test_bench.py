"""`guandan bench server` end to end on a tiny load: a real server process, bot clients over loopback
WebSockets, figures that add up."""

from __future__ import annotations

import pytest

import async_support
from guandan.server.bench import format_report, run_bench

pytestmark = pytest.mark.timeout(120)


def test_bench_server_plays_over_real_websockets() -> None:
    r = async_support.call(run_bench, tables=2, seconds=3, think_ms=20, seed=3)
    assert r["errors"] == 0, r["first_errors"]
    assert r["actions"] > 20
    assert 0 < r["p50_ms"] <= r["p99_ms"]
    assert r["actions_per_s"] == pytest.approx(r["actions"] / r["seconds"], rel=0.05)
    text = format_report(r)
    assert "actions/s" in text and "p50/p99" in text
