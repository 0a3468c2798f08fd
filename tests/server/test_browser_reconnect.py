"""The table in Debian's chromium while its connection is down: every action control disabled and
"重新连接中…" / "Reconnecting…" shown, no click lost (none can be made), and the table resumed exactly
when the connection is back — after the server itself was stopped and started again, and after the
socket alone was dropped while the table played on without the page."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from guandan.server.app import create_app
from guandan.server.cli import uvicorn_config
from guandan.server.table import Settings

from .conftest import counting_seeds, free_port
from .test_browser import errors, seq, sit_and_ready, take_turn, wait_turn_or_over  # noqa: F401

pytestmark = pytest.mark.timeout(240)
CONTROLS = ["#play", "#pass", "#hint", "#auto"]


class Server:
    """The web app under uvicorn, set up as `guandan serve` runs it, on a given port: it can be stopped and
    started again on the same database, as a restarted server is."""

    def __init__(self, db_url: str, port: int, **settings: Any) -> None:
        import uvicorn

        app = create_app(db_url, Settings(next_deal_s=0, seed_source=counting_seeds("reconnect"), **settings))
        config = uvicorn_config(app, "127.0.0.1", port)
        config.timeout_graceful_shutdown = 1
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
        assert not self.thread.is_alive()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture
def started() -> Iterator[list[Server]]:
    servers: list[Server] = []
    yield servers
    for s in servers:
        if s.thread.is_alive():
            s.stop()


def practice_room(url: str, **config: Any) -> str:
    body = {"bots": [None, "greedy", "greedy", "greedy"], "timer": 0, "max_deals": 1, "seed": 3, **config}
    r = httpx.post(url + "/api/rooms", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def expect_offline(page: Page, banner: str) -> None:
    expect(page.locator("#reconnecting")).to_be_visible()
    expect(page.locator("#reconnecting strong")).to_have_text(banner)
    assert page.evaluate("document.body.dataset.online") == "0"
    for control in CONTROLS:
        expect(page.locator(control)).to_be_disabled()


def hand(page: Page) -> list[str]:
    return sorted(page.locator("#hand .card").evaluate_all("n => n.map(x => x.dataset.card)"))


def test_the_server_stops_mid_turn_and_the_table_resumes_when_it_is_back(
        page: Page, db_url: str, started: list[Server], errors: list[str]) -> None:  # noqa: F811
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    started.append(Server(db_url, port, bot_delay_ms=0))
    code = practice_room(url)
    page.set_viewport_size({"width": 844, "height": 390})  # a phone held in landscape, in Chinese
    page.add_init_script("localStorage.setItem('guandan:lang', 'zh')")
    sent: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(str(payload)))))
    sit_and_ready(page, f"{url}/r/{code}")
    for _ in range(2):
        wait_turn_or_over(page)
        take_turn(page, prefer_pass=False)
    wait_turn_or_over(page)  # seat 0 to move, its controls live
    expect(page.locator("#reconnecting")).to_be_hidden()
    page.locator("#hand .card").first.click()  # a card selected, not yet played
    selected = page.locator("#hand .card.selected").evaluate_all("n => n.map(x => x.dataset.card)")
    at, cards = seq(page), hand(page)

    started[0].stop()  # the server goes away mid-turn
    expect_offline(page, "重新连接中…")
    expect(page.locator("#msg")).to_have_text("连接恢复后即可继续操作")
    asked = [f for f in sent if f["type"] in ("act", "hint")]
    page.locator("#pass").click(force=True)  # a click on a disabled control does nothing
    page.locator("#hint").click(force=True)
    assert [f for f in sent if f["type"] in ("act", "hint")] == asked and seq(page) == at
    expect(page.locator("#reconnecting")).to_be_visible()

    started.append(Server(db_url, port, bot_delay_ms=0))  # the same database: every table restored
    page.wait_for_function("document.body.dataset.online === '1'", timeout=30_000)
    expect(page.locator("#reconnecting")).to_be_hidden()
    assert seq(page) == at and hand(page) == cards
    assert page.locator("#hand .card.selected").evaluate_all("n => n.map(x => x.dataset.card)") == selected
    assert any(f["type"] == "resume" and f["since"] == at for f in sent)  # it caught up from where it was
    expect(page.locator("#hint")).to_be_enabled()
    page.locator("#hand .card.selected").first.click()  # unselect, then play on through the controls
    take_turn(page, prefer_pass=False)
    assert seq(page) > at
    assert errors == []


class Cable:
    """A TCP relay standing for the network between the browser and the server: ``cut()`` drops every
    connection through it (the server sees its socket close, the browser its WebSocket fail) and refuses
    new ones until ``mend()``."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.down = threading.Event()
        self.lock = threading.Lock()
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return
            if self.down.is_set():
                near.close()
                continue
            far = socket.create_connection(("127.0.0.1", self.target))
            with self.lock:
                self.open += [near, far]
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for sock in (src, dst):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.down.set()
        with self.lock:
            socks, self.open = self.open, []
        for sock in socks:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def mend(self) -> None:
        self.down.clear()

    def close(self) -> None:
        self.cut()
        self.listener.close()


def test_a_dropped_connection_catches_up_on_what_the_table_played_meanwhile(
        page: Page, db_url: str, started: list[Server], errors: list[str]) -> None:  # noqa: F811
    port = free_port()
    server = f"http://127.0.0.1:{port}"
    # bots think 150 ms and a seat whose player is gone is taken over (托管) after half a second, so the table
    # moves on while the page is cut off
    started.append(Server(db_url, port, disconnect_grace_s=0.5))
    cable = Cable(port)
    url = f"http://127.0.0.1:{cable.port}"  # the browser's way to the server
    try:
        code = practice_room(server, bot_delay_ms=150)
        page.set_viewport_size({"width": 1280, "height": 800})
        page.add_init_script("localStorage.setItem('guandan:lang', 'en')")
        sit_and_ready(page, f"{url}/r/{code}")
        wait_turn_or_over(page)
        take_turn(page, prefer_pass=False)
        wait_turn_or_over(page)
        at = seq(page)
        token = page.evaluate(f"localStorage.getItem('guandan:token:{code}')")

        cable.cut()
        expect_offline(page, "Reconnecting…")
        deadline = time.monotonic() + 60
        while httpx.get(f"{server}/api/rooms/{code}", params={"token": token}).json()["seq"] < at + 6:
            assert time.monotonic() < deadline, "the table did not move on without the page"
            time.sleep(0.2)
        assert seq(page) == at  # the page saw none of it…
        expect_offline(page, "Reconnecting…")

        cable.mend()  # …and catches up when the connection is back
        page.wait_for_function("document.body.dataset.online === '1'", timeout=30_000)
        expect(page.locator("#reconnecting")).to_be_hidden()
        expect(page.locator("#auto-banner")).to_be_visible()  # 托管 took the seat while it was away
        page.click("#auto-off")
        expect(page.locator("#auto-banner")).to_be_hidden()
        room = httpx.get(f"{server}/api/rooms/{code}", params={"token": token}).json()
        page.wait_for_function(f"Number(document.body.dataset.seq) >= {room['seq']}")
        assert seq(page) > at + 5
        if wait_turn_or_over(page) != "over":  # the player plays on through the controls
            before = seq(page)
            take_turn(page, prefer_pass=False)
            assert seq(page) > before
    finally:
        cable.close()
    assert errors == []
