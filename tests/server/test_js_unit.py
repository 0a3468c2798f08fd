"""The browser modules' unit tests (tests/js/, Node's built-in runner) run inside pytest as well, so a
plain pytest run covers the table's client logic too. Without Node they are skipped on a developer's
machine, but on CI (the CI variable set, to anything) a missing Node is a failure: the tests must run somewhere."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS_TESTS = ROOT / "tests" / "js"


def test_the_javascript_unit_tests_pass() -> None:
    node = shutil.which("node")
    if node is None:
        if "CI" in os.environ:
            pytest.fail("Node.js is not on PATH, and on CI the tests in tests/js/ must run (scripts/setup.sh installs it)")
        pytest.skip("Node.js is not on PATH: the tests in tests/js/ need it (scripts/setup.sh installs it)")
    # files, not the folder: from Node 21 on, `node --test DIR` takes DIR for a test file
    files = sorted(str(p.relative_to(ROOT)) for p in JS_TESTS.glob("*.test.mjs"))
    assert len(files) >= 2
    proc = subprocess.run([node, "--test", *files], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-4000:]
    summary = dict(line[2:].split(" ", 1) for line in proc.stdout.splitlines() if line.startswith("# ") and " " in line[2:])
    assert int(summary["fail"]) == 0 and int(summary["pass"]) > 50
