"""Who the client is: the socket's peer, unless the operator names trusted proxies (--forwarded-allow-ips).
Spoofing X-Forwarded-For does not dodge a limit, over the app in-process and over a live uvicorn set up
exactly as `guandan serve` sets it up (uvicorn's own proxy handling, which trusts 127.0.0.1, is off)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from fastapi.testclient import TestClient

from guandan.server.app import create_app
from guandan.server.cli import serve, uvicorn_config
from guandan.server.clientaddr import ClientAddressMiddleware, TrustedProxies, parse_proxies
from guandan.server.table import Settings

from .conftest import free_port

pytestmark = pytest.mark.timeout(120)
BURST = 30  # Settings.join_burst: creates and joins an address may make at once
ROOM = {"bots": [None, "greedy", "greedy", "greedy"], "timer": 0}


def make_app(tmp_path: Path, **kw: Any) -> Any:
    # room caps out of the way (this is about the rate limit's notion of an address) and the clock stopped,
    # so that no bucket refills while the requests go out
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}",
                     Settings(bot_delay_ms=0, next_deal_s=0, max_rooms=10_000, max_rooms_per_address=10_000, **kw))
    app.state.service.clock = lambda: 1000.0
    return app


def create_spoofed(post: Any, n: int, forwarded: Any = lambda i: f"203.0.113.{i % 250}, 198.51.{i}.7") -> list[int]:
    return [post("/api/rooms", json=ROOM, headers={"X-Forwarded-For": forwarded(i)}).status_code for i in range(n)]


def test_spoofed_forwarded_for_is_limited_like_one_address(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    with TestClient(app) as c:
        codes = create_spoofed(c.post, 120)
    assert codes == [201] * BURST + [429] * (120 - BURST)


def test_a_named_proxy_is_believed_and_only_for_the_hop_it_adds(tmp_path: Path) -> None:
    app = make_app(tmp_path, forwarded_allow_ips=("127.0.0.1",))
    with TestClient(app, client=("127.0.0.1", 4000)) as proxy:
        # 120 clients behind the proxy: each its own address, none limited
        assert set(create_spoofed(proxy.post, 120, lambda i: f"198.51.{i}.7")) == {201}
        # one client behind the proxy, inventing addresses on the left: still one address
        codes = create_spoofed(proxy.post, 40, lambda i: f"10.{i}.0.1, 192.0.2.55")
        assert codes == [201] * BURST + [429] * 10
    with TestClient(app, client=("192.0.2.200", 4000)) as direct:  # not a proxy: its header is ignored
        assert create_spoofed(direct.post, 40) == [201] * BURST + [429] * 10


@pytest.mark.parametrize("kind", ["http", "websocket"])
def test_http_and_websocket_scopes_get_the_same_rule(kind: str) -> None:
    seen: list[Any] = []

    async def inner(scope: Any, _receive: Any, _send: Any) -> None:
        seen.append(scope["client"])

    mw = ClientAddressMiddleware(inner, TrustedProxies(["10.0.0.0/8"]))
    for peer, header, expected in [("10.1.2.3", b"1.1.1.1, 2.2.2.2, 10.9.9.9", "2.2.2.2"),  # past the trusted hops
                                   ("10.1.2.3", b"10.5.5.5", "10.5.5.5"),  # every hop trusted: the first
                                   ("8.8.8.8", b"1.1.1.1", "8.8.8.8"),  # an untrusted peer's header is ignored
                                   ("10.1.2.3", None, "10.1.2.3")]:
        headers = [(b"x-forwarded-for", header)] if header else []
        step = mw({"type": kind, "client": (peer, 1), "headers": headers}, None, None)
        with pytest.raises(StopIteration):  # runs straight through (no event loop needed)
            step.send(None)
        assert seen[-1][0] == expected, (peer, header)


def test_bad_proxy_lists_are_refused_naming_the_entry(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_proxies("") == ()
    assert parse_proxies(" 127.0.0.1, 10.0.0.0/8 ,*") == ("127.0.0.1", "10.0.0.0/8", "*")
    with pytest.raises(ValueError, match='"localhost"'):
        parse_proxies("127.0.0.1,localhost")
    with pytest.raises(typer.Exit) as e:
        serve(forwarded_allow_ips="10.0.0.300")  # refused before anything starts
    assert e.value.exit_code == 2
    assert "--forwarded-allow-ips: not an IP address or network: \"10.0.0.300\"" in capsys.readouterr().err


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    import uvicorn

    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")  # uvicorn's own switch: must not matter either
    port = free_port()
    app = make_app(tmp_path)
    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", port))  # exactly as `guandan serve` runs it
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_live_uvicorn_does_not_believe_forwarded_for_from_loopback(live: str) -> None:
    with httpx.Client(base_url=live, timeout=30) as c:
        codes = create_spoofed(c.post, 120)
    assert codes == [201] * BURST + [429] * (120 - BURST)


def test_serve_runs_uvicorn_without_its_proxy_handling_and_without_compression() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover - never called
        raise AssertionError

    config = uvicorn_config(app, "127.0.0.1", 8000)
    assert config.proxy_headers is False and not config.forwarded_allow_ips
    assert config.ws_per_message_deflate is False  # small JSON frames; ~300 KB of zlib state per socket otherwise
    assert config.server_header is False
