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


def test_the_attackers_counts_read_right_for_one() -> None:
    """Hints and readings sent or answered are given after a colon, so a count of one reads right."""
    from guandan.cliutil import Messages

    abuse = {"sockets": 12, "preset": "huopin", "plays": 84060, "sent": {"hint": 1, "readings": 3},
             "answered": {"hint": 1}, "refused": {}, "refused_total": 0, "errors": 0, "first_errors": [],
             "meta_p50_ms": 1.0, "meta_max_ms": 2.0}
    r = {"tables": 2, "think_ms": 20, "seconds": 5, "actions": 40, "actions_per_s": 8.0, "p50_ms": 1.0,
         "p99_ms": 2.0, "errors": 0, "first_errors": [], "abuse": abuse}
    en = format_report(r, lambda s: Messages("cli").gettext(s, "en"))
    assert "hints: 1, readings: 3" in en and "hints: 1, readings: 0" in en
    zh = format_report(r, lambda s: Messages("cli").gettext(s, "zh"))
    assert "1次提示，3次读牌" in zh and "1次提示，0次读牌" in zh
