"""The web app in this process on a free loopback port, and Debian's chromium to look at it: what
`guandan screenshots` and `guandan bench page` drive. Playwright is a development dependency, so it is
imported by the functions that need it, never at import time.

A program that starts this server must guard its own start-up with ``if __name__ == "__main__":``: the
server's worker processes come from a fork server, which imports the main module again."""

from __future__ import annotations

import itertools
import json
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import httpx

from .table import Settings

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def counting_seeds(prefix: str) -> Callable[[], str]:
    """Deterministic match seeds (prefix:0, prefix:1, …) for the rooms that get no chosen seed: the same
    command run twice deals the same hands."""
    n = itertools.count()
    return lambda: f"{prefix}:{next(n)}"


class LiveServer:
    """uvicorn serving ``create_app`` in a thread, on SQLite in a temporary directory."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"

    @contextmanager
    def running(self) -> Iterator[LiveServer]:
        import uvicorn  # here: uvicorn loads only for the tools that serve

        from .app import create_app

        with tempfile.TemporaryDirectory(prefix="guandan-live-") as d:
            app = create_app(f"sqlite:///{d}/web.sqlite3", self.settings)
            # as `guandan serve` runs it (server/cli.py uvicorn_config, not imported: cli imports this module),
            # so that what is measured is what it sends: uncompressed frames, no proxy headers
            server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                   proxy_headers=False, forwarded_allow_ips="", server_header=False,
                                                   ws_per_message_deflate=False))
            thread = threading.Thread(target=server.run, name="guandan-live", daemon=True)
            thread.start()
            deadline = time.monotonic() + 60
            while not server.started:
                if not thread.is_alive() or time.monotonic() > deadline:
                    raise RuntimeError("the in-process server did not start")
                time.sleep(0.05)
            try:
                yield self
            finally:
                server.should_exit = True
                thread.join(timeout=15)

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30)


def practice_room(http: httpx.Client, *, seed: int, name: str, ready: bool, **config: Any) -> tuple[str, str]:
    """A room against three heuristic bots with a chosen seed (every hand reproduced), seat 0 taken by
    ``name``: its code and seat 0's token. ``ready``: press ready over the API (the match starts)."""
    body = {"bots": [None, "heuristic", "heuristic", "heuristic"], "seed": seed, "timer": 0, **config}
    r = http.post("/api/rooms", json=body)
    r.raise_for_status()
    code = str(r.json()["code"])
    j = http.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": name})
    j.raise_for_status()
    token = str(j.json()["token"])
    if ready:
        http.post(f"/api/rooms/{code}/ready", json={"token": token}).raise_for_status()
    return code, token


def chromium_path() -> str:
    path = shutil.which("chromium")
    if path is None:
        raise RuntimeError("Debian's chromium is not installed: run scripts/setup.sh (apt-get install chromium)")
    return path


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's chromium under Playwright (never a downloaded browser)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:  # a development dependency: pip install -e '.[dev]'
        raise RuntimeError("Playwright is not installed: it comes with the development dependencies "
                           "(pip install -e '.[dev]')") from e
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def storage_script(values: dict[str, str]) -> str:
    """A page script that puts ``values`` in localStorage before the page's own scripts run (the
    language, a seat's token: what the table page reads at start). Pages without storage (about:blank)
    throw, and are left alone."""
    return ("try { for (const [k, v] of Object.entries(" + json.dumps(values) + ")) localStorage.setItem(k, v); }"
            " catch (e) {}")
