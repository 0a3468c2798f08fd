from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from guandan.db import make_engine
from guandan.tournament.desk import Desk
from guandan.tournament.errors import TournamentError
from guandan.tournament.model import EventConfig

SECRET = "test-secret-key"


@pytest.fixture(autouse=True)
def _output_to_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """The desk's listings as a file gets them, a table's line whole, unless a test says how wide its terminal
    is: pytest-xdist's workers set COLUMNS=80, which the desk's tables fit themselves to."""
    monkeypatch.delenv("COLUMNS", raising=False)


@pytest.fixture
def desk() -> Iterator[Desk]:
    engine = make_engine("sqlite://")
    yield Desk(engine)
    engine.dispose()


@pytest.fixture
def new_event(desk: Desk) -> Callable[..., int]:
    """An event with teams "T1"… registered (clubs C0/C1/C2 in turn, ratings falling with the number)."""

    def make(teams: int, rounds: int = 3, **config: Any) -> int:
        tid = desk.create(EventConfig(name="Test Cup", rounds=rounds, **config), secret=SECRET)
        for i in range(1, teams + 1):
            desk.register(tid, f"T{i}", [f"P{i}a", f"P{i}b"], club=f"C{i % 3}", rating=float(100 - i))
        return tid

    return make


def unchanged(desk: Desk, tid: int, action: Callable[[], object], match: str) -> None:
    """The action is refused with a message matching ``match``, the log does not grow and the stored
    projections still agree with a replay of it."""
    before = len(desk.events(tid))
    with pytest.raises(TournamentError, match=match):
        action()
    assert len(desk.events(tid)) == before
    desk.verify(tid)
