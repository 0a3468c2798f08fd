"""The store's writer thread: writes run one at a time in the order they were asked for, a write made by
a write runs at once, close() commits everything queued (jobs still waiting included), and a write after
close() starts the thread again, after the old one is done."""

from __future__ import annotations

import threading

import pytest

from guandan.server.store import Writer

pytestmark = pytest.mark.timeout(60)


def test_jobs_run_in_order_in_one_thread() -> None:
    w = Writer()
    seen: list[tuple[int, str]] = []
    futures = [w.submit(lambda i=i: seen.append((i, threading.current_thread().name))) for i in range(200)]
    w.flush()
    assert all(f.done() for f in futures) and w.pending == 0
    assert [i for i, _ in seen] == list(range(200))
    assert {name for _, name in seen} == {w.name}
    w.close()


def test_close_finishes_queued_jobs_even_those_that_write_again() -> None:
    """A job queued before close() that itself asks for a write (Store's sync API does) must not wait on
    a thread that is stopping: it runs at once, in the writer."""
    w = Writer()
    gate = threading.Event()
    order: list[str] = []

    def nested(tag: str) -> None:
        assert w.in_writer()
        order.append(tag)

    def outer(tag: str) -> None:
        gate.wait(10)
        order.append(tag)
        nested(tag + ".inner")

    for tag in ("a", "b", "c"):
        w.submit(outer, tag)
    closing = threading.Thread(target=w.close)
    closing.start()  # close() while all three still wait
    gate.set()
    closing.join(20)
    assert not closing.is_alive()
    assert order == ["a", "a.inner", "b", "b.inner", "c", "c.inner"]
    # a write after close starts the thread again, in order
    assert w.submit(lambda: "again").result(10) == "again"
    assert not w.in_writer()
    w.close()


def test_a_failed_write_is_reported_to_its_caller_and_the_next_one_runs() -> None:
    w = Writer()

    def boom() -> None:
        raise RuntimeError("disk full")

    f = w.submit(boom)
    with pytest.raises(RuntimeError, match="disk full"):
        f.result(10)
    assert w.submit(lambda: 7).result(10) == 7
    w.close()
