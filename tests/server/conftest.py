"""Fixtures of the web-app tests: an in-process app (TestClient), a live uvicorn server for the browser,
a real PostgreSQL server, and Playwright pointed at Debian's chromium (no browser download)."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import profiles
from fastapi.testclient import TestClient
from playwright.sync_api import Page

from guandan.server.accounts_service import AccountSettings
from guandan.server.app import create_app
from guandan.server.table import Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def counting_seeds(prefix: str = "test") -> Callable[[], str]:
    """A deterministic stand-in for the server's secret match seeds (tests only): test:0, test:1, …"""
    n = itertools.count()
    return lambda: f"{prefix}:{next(n)}"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(bot_delay_ms=0, next_deal_s=0, seed_source=counting_seeds())  # deals follow each other at once
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", settings)
    with TestClient(app) as c:
        yield c


def new_room(c: TestClient, **config: Any) -> str:
    body = {"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 1, "seed": 7, "timer": 0, **config}
    if "seed" not in config and sum(t is None for t in body["bots"]) > 1:
        del body["seed"]  # a seed is for practice rooms only: the server's (deterministic in tests) one deals
    r = c.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def join(c: TestClient, code: str, seat: int = 0, name: str = "me") -> str:
    r = c.post(f"/api/rooms/{code}/join", json={"seat": seat, "name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


# --- a live server for the browser --------------------------------------------------------------
class LiveServer:
    def __init__(self, db_url: str, **settings: Any) -> None:
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # reviews at the fewest worlds per decision: a browser test waits seconds for one, not minutes; deals
        # follow each other at once unless a test asks for the deal-end pause (next_deal_s=None: the room's)
        wanted: dict[str, Any] = {"bot_delay_ms": 0, "next_deal_s": 0, "join_rate_per_min": 1e6, "join_burst": 1e6,
                                  "seed_source": counting_seeds("live"), "review_budget": 0.02, **settings}
        # every browser test signs its accounts up from 127.0.0.1: the per-address sign-up limit is lifted; and
        # hashes at argon2's cheapest profile, since the real one's 64 MiB and three passes per sign-up, log-in or
        # password change took seconds on a loaded machine (what is tested here is the pages, not the hash's cost)
        self.app = create_app(db_url, Settings(**wanted), accounts=AccountSettings(
            signups_per_address=1_000_000, password_parameters=profiles.CHEAPEST))
        # uvicorn's proxy handling off, as `guandan serve` has it: a test cannot pose as another address
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    proxy_headers=False))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the live server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    with tempfile.TemporaryDirectory(prefix="guandan-web-") as d, LiveServer(f"sqlite:///{d}/web.sqlite3") as srv:
        yield srv


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    path = shutil.which("chromium")
    if path is None:
        pytest.fail("Debian's chromium is not installed: run scripts/setup.sh (apt-get install chromium)")
    return {**browser_type_launch_args, "executable_path": path,
            "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run"]}


@pytest.fixture(scope="session")
def base_url() -> None:
    """The browser tests open absolute addresses of their own live servers: no base address. Defined here, so
    pytest-playwright's own fallback fixture (an instance method, which pytest 9 warns of) is not used."""
    return None


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    # Playwright's wait_for_function evaluates its predicate with eval, which the app's Content-Security-Policy
    # forbids (no 'unsafe-eval'): the tests' pages ignore the policy. tests/server/test_browser_csp.py loads
    # every page with the policy enforced and checks that nothing of the app's own is refused.
    return {**browser_context_args, "bypass_csp": True}


def resize(page: Page, width: int, height: int) -> None:
    """The viewport at ``width`` × ``height``, once the page has drawn itself at that size: its media-query listeners
    have run (the table draws itself anew when a phone turns: which facts it lists, where the review link sits) and
    the frame after is laid out, however slow the machine (after a fixed wait it may be measured half redrawn)."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(f"innerWidth === {width} && innerHeight === {height}")
    # the listeners run before the frame's animation callbacks: the second callback sees their drawing laid out
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def sign_up(page: Page, username: str, password: str = "a long enough password", display: str | None = None) -> None:
    """Send the sign-up form of the account page ``page`` shows, once its guest part is (account.js has run)."""
    page.wait_for_selector("#guest:not(.hidden)")
    page.fill("#signup-username", username)
    if display is not None:
        page.fill("#signup-display", display)
    page.fill("#signup-password", password)
    page.click("#signup-btn")


# --- a real PostgreSQL server -------------------------------------------------------------------
def _pg_bin() -> Path:
    found = shutil.which("pg_ctl")
    if found:
        return Path(os.path.realpath(found)).parent
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not dirs:
        pytest.fail("PostgreSQL server binaries (pg_ctl, initdb) are missing: run scripts/setup.sh "
                    "(apt-get install postgresql)")
    return Path(dirs[-1])


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """initdb into a temporary directory and start a server on a free loopback port, as the postgres
    user (the server refuses to run as root)."""
    bindir = _pg_bin()
    root = Path(tempfile.mkdtemp(prefix="guandan-pg-"))
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
    port = free_port()

    def run(*cmd: str) -> None:
        r = subprocess.run([*as_user, *cmd], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            pytest.fail(f"{cmd[0]} failed: {r.stdout}{r.stderr}")

    run(str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
    run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-w", "-t", "60", "start",
        "-o", f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


# --- a real Redis server (a site of several workers shares one) ----------------------------------
@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """Debian's redis-server on a free loopback port, nothing saved to disk."""
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.fail("redis-server is missing: run scripts/setup.sh (apt-get install redis-server)")
    root = Path(tempfile.mkdtemp(prefix="guandan-redis-"))
    port = free_port()
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(root), "--daemonize", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    import redis

    client = redis.Redis(port=port, socket_timeout=1)
    try:
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"redis-server did not start: {proc.stderr.read().decode() if proc.stderr else ''}")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        client.close()
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(root, ignore_errors=True)
