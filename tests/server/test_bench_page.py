"""`guandan bench page` runs end to end (one run of each measurement) and reports figures that make sense:
present, positive, the page weights the same as the static count. How fast they are is the benchmark's
business, not the suite's."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from guandan.server.bench_page import format_page_report, page_weight

CMD = [sys.executable, "-c", "from guandan.cli import main; main()", "bench", "page", "--runs", "1", "--json"]


@pytest.mark.timeout(300)
def test_one_run_reports_positive_figures() -> None:
    r = subprocess.run(CMD, capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.loads(r.stdout)
    assert report["runs"] == 1 and len(report["usable_ms"]) == 1 and len(report["tap_ms"]) == 1
    for key in ("usable_ms_median", "usable_ms_max", "tap_ms_median", "tap_ms_max", "received_kb_median"):
        assert report[key] > 0, key
    assert report["usable_ms_median"] <= report["usable_ms_max"] and report["tap_ms_median"] <= report["tap_ms_max"]
    assert report["weight_kb"] == {p: round(page_weight(p).total / 1024, 1) for p in ("table.html", "index.html")}
    assert report["limit_kb"] == 600
    # the table the command prints without --json, from these figures
    table = format_page_report(report)
    number = r"(\d+\.\d+)"
    for label in (r"usable \(ms\)", r"tap → selected \(ms\)"):
        m = re.search(rf"^{label}\s+{number}\s+{number}$", table, re.M)
        assert m, table
        assert 0 < float(m.group(1)) <= float(m.group(2))
    assert re.search(r"page weight\s+table \d+\.\d KB, start page \d+\.\d KB \(limit 600 KB each\)", table)
