"""`guandan bench server --abuse hints` end to end on a tiny load: the attacker's 火拼 seat is the one to
lead (84,060 plays), its flood is refused by the budgets, and the honest tables play on without errors."""

from __future__ import annotations

import pytest

import async_support
from guandan.server.bench import format_report, run_bench

pytestmark = pytest.mark.timeout(120)


def test_bench_with_an_attacker_reports_what_it_was_refused() -> None:
    r = async_support.call(run_bench, tables=2, seconds=5, think_ms=20, seed=3, abuse="hints")
    assert r["errors"] == 0, r["first_errors"]
    assert r["actions"] > 20
    a = r["abuse"]
    assert a["errors"] == 0, a["first_errors"]
    assert a["plays"] == 84060 and a["sockets"] == 12
    assert a["sent"]["hint"] > 0 and a["sent"]["readings"] > 0
    assert a["refused_total"] > 0 and set(a["refused"]) <= {"rate_limited", "busy"}
    assert a["refused_total"] + sum(a["answered"].values()) <= sum(a["sent"].values())
    text = format_report(r)
    assert "attacker" in text and "refused" in text and "GET /api/meta" in text
