"""The table service's shutdown: a room task that does not stop when cancelled is left behind after a grace
period (and logged), so the queued commits are still written and the process can exit."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

import async_support
from guandan.db import make_engine
from guandan.db.migrate import upgrade_to_head
from guandan.server import table as table_module
from guandan.server.store import Store
from guandan.server.table import Settings, TableService


def test_a_room_task_deaf_to_its_cancellation_does_not_hold_up_the_shutdown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    upgrade_to_head(engine)
    service = TableService(Store(engine), Settings())
    monkeypatch.setattr(table_module, "CLOSE_GRACE_S", 0.2)

    async def scenario() -> float:
        release = asyncio.Event()

        async def deaf() -> None:  # swallows every cancellation until released
            while not release.is_set():
                try:
                    await asyncio.sleep(3600)
                except asyncio.CancelledError:
                    continue

        async def failed() -> None:
            raise RuntimeError("a room task that had failed before the shutdown")

        stuck = asyncio.create_task(deaf())
        service.tasks["DEAF01"] = stuck
        service.tasks["FAIL01"] = asyncio.create_task(failed())
        await asyncio.sleep(0.01)
        start = time.monotonic()
        await service.close()
        took = time.monotonic() - start
        assert not stuck.done()  # still running: close did not wait for it
        release.set()
        stuck.cancel()
        await asyncio.wait([stuck], timeout=1)
        assert stuck.done()
        return took

    with caplog.at_level(logging.WARNING, logger="guandan.server"):
        took = async_support.run(scenario())
    assert took < 2, took
    assert service.tasks == {} and service.pool.closed
    assert any("1 room task(s) had not stopped" in r.getMessage() for r in caplog.records), caplog.records
    engine.dispose()
