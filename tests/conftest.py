from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

# ../shared: the folder beside the repository with RULES.md, rules-vectors.jsonl, PROTOCOL-2020.md and
# the seeds. The project stands without it: a test that reads it is skipped with the reason, unless
# GUANDAN_REQUIRE_SHARED=1 (CI sets it in .ci/run), and then a missing file fails the test.
SHARED = Path(__file__).resolve().parents[1].parent / "shared"
REQUIRE_SHARED = "GUANDAN_REQUIRE_SHARED"


def shared_file(name: str) -> Path:
    """``../shared/<name>``, or skip (fail, under ``GUANDAN_REQUIRE_SHARED=1``) when it is not there."""
    path = SHARED / name
    if path.exists():
        return path
    reason = f"{path} is missing: this test needs the shared folder beside the repository (../shared)"
    if os.environ.get(REQUIRE_SHARED) == "1":
        pytest.fail(f"{reason}, and {REQUIRE_SHARED}=1 says it must be there", pytrace=False)
    pytest.skip(f"{reason}; set {REQUIRE_SHARED}=1 to make that a failure")


@pytest.fixture(autouse=True)
def english_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands speak the language the environment asks for (guandan.i18n.default_lang); a test reads
    their English whatever the machine's locale, unless it sets LANGUAGE itself, and measures lines as a
    terminal does by default whatever GUANDAN_AMBIGUOUS_WIDE the machine sets."""
    for key in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANGUAGE", "en")
    # nor the terminal's: lines are broken with ambiguous symbols (♠ · ×) one column wide unless a test says two
    monkeypatch.delenv("GUANDAN_AMBIGUOUS_WIDE", raising=False)


@pytest.fixture(scope="session")
def shared() -> Callable[[str], Path]:
    """The lookup of files in ../shared (see :func:`shared_file`), for tests that need one."""
    return shared_file


@pytest.fixture(scope="session")
def vectors_path(shared: Callable[[str], Path]) -> Path:
    return shared("rules-vectors.jsonl")
