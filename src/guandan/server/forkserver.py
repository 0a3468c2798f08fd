"""What the worker pool's fork server imports first: it, and every worker forked from it, dies with the
server process that started it. A server killed outright (SIGKILL, a crash) cannot stop its pool, and a
fork server left behind keeps its workers and their memory for as long as the machine runs."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # linux/prctl.h: the signal this process gets when its parent dies


def die_with_parent() -> None:
    """Ask Linux for SIGKILL when the parent process dies (elsewhere: nothing): for a pool worker, whose parent
    is the fork server's one thread. A parent already gone (this process was adopted before it could ask)
    ends this one now."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def watch_parent(every_s: float = 1.0) -> None:
    """End this process once its parent is gone (it is adopted: its parent process id changes). A thread
    rather than PDEATHSIG: that signal follows the thread that started the process, and the pool may start
    its fork server from a thread that ends before the server does."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every_s)
        os._exit(0)

    threading.Thread(target=watch, name="guandan-parent-watch", daemon=True).start()


watch_parent()
