"""Run a coroutine from a synchronous test, whatever ran before it in this process.

pytest-playwright's sync API leaves an asyncio loop running in the main thread of the xdist worker
that ran the browser tests, and ``asyncio.run`` refuses to start inside a running loop. Tests that
drive asyncio code (the Textual pilot, WebSocket clients) therefore use :func:`run`, which falls
back to a fresh loop in a thread of its own when the current thread already has one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Call a synchronous function that starts its own loop (``asyncio.run`` inside, as the benchmarks
    do) in a thread of its own, so a loop left running in this thread cannot refuse it."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn, *args, **kwargs).result()
