"""Structured logs: the JSON formatter's one object a line, and the request id and table code the
middleware gives every record written while a request or a WebSocket is handled."""

from __future__ import annotations

import io
import json
import logging
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import WebSocket
from fastapi.testclient import TestClient

from guandan.server import logs
from guandan.server.app import create_app
from guandan.server.table import Settings

HEX_ID = re.compile(r"[0-9a-f]{32}")


def record(message: str, *args: Any, level: int = logging.WARNING, exc: bool = False) -> logging.LogRecord:
    exc_info = None
    if exc:
        try:
            raise RuntimeError("disk full")
        except RuntimeError:
            exc_info = sys.exc_info()
    return logging.LogRecord("guandan.server", level, __file__, 1, message, args, exc_info)


def test_the_json_formatter_writes_one_object_a_line() -> None:
    fmt = logs.JsonFormatter()
    logs.set_worker("w3")
    try:
        line = fmt.format(record("room %s paused", "ABCDE", exc=True))
    finally:
        logs.set_worker(None)
    assert "\n" not in line
    obj = json.loads(line)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", obj["time"])
    assert obj["level"] == "WARNING" and obj["logger"] == "guandan.server" and obj["message"] == "room ABCDE paused"
    assert obj["worker"] == "w3" and obj["request_id"] is None and obj["table"] is None
    assert obj["exception"].startswith("Traceback") and "RuntimeError: disk full" in obj["exception"]
    plain = json.loads(fmt.format(record("no trouble", level=logging.INFO)))
    assert "exception" not in plain and plain["worker"] == str(__import__("os").getpid())
    token = logs.REQUEST_ID.set("req-1")
    try:
        assert json.loads(fmt.format(record("x")))["request_id"] == "req-1"
    finally:
        logs.REQUEST_ID.reset(token)


def test_table_codes_come_from_room_and_table_addresses() -> None:
    assert logs.table_of("/api/rooms/abcde") == "ABCDE"
    assert logs.table_of("/api/rooms/ABCDE/join") == "ABCDE"
    assert logs.table_of("/ws/K7M2Q") == "K7M2Q"
    assert logs.table_of("/api/rooms/open") is None  # the lobby list, not a room
    assert logs.table_of("/api/rooms") is None and logs.table_of("/r/ABCDE") is None


def test_configure_refuses_an_unknown_format() -> None:
    with pytest.raises(ValueError, match="text, json"):
        logs.configure("yaml")


@pytest.fixture
def logged(tmp_path: Path) -> Iterator[tuple[TestClient, io.StringIO]]:
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", Settings(workers=0))
    said = logging.getLogger("guandan.test")

    @app.get("/api/rooms/{code}/probe")
    async def probe(code: str) -> dict[str, str]:
        said.warning("probing %s", code)
        return {"ok": code}

    @app.websocket("/ws/{code}/probe")
    async def ws_probe(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        said.warning("socket for %s", code)
        await websocket.send_text("hi")
        await websocket.close()

    out = io.StringIO()
    handler = logs.configure("json", access_log=True, stream=out)
    try:
        with TestClient(app) as c:
            yield c, out
    finally:
        logging.getLogger().removeHandler(handler)
        logging.getLogger("guandan.access").setLevel(logging.NOTSET)


def lines(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(x) for x in out.getvalue().splitlines() if x.strip()]


def test_a_valid_request_id_is_kept_and_reaches_the_handlers_records(logged: tuple[TestClient, io.StringIO]) -> None:
    c, out = logged
    r = c.get("/api/rooms/abcde/probe", headers={"X-Request-ID": "lb-42.a_b"})
    assert r.status_code == 200 and r.headers["x-request-id"] == "lb-42.a_b"
    probe = [x for x in lines(out) if x["logger"] == "guandan.test"]
    assert probe == [{**probe[0], "message": "probing abcde", "request_id": "lb-42.a_b", "table": "ABCDE"}]
    access = [x for x in lines(out) if x["logger"] == "guandan.access"]
    assert access[-1]["request_id"] == "lb-42.a_b" and access[-1]["table"] == "ABCDE"
    assert access[-1]["method"] == "GET" and access[-1]["route"] == "/api/rooms/{code}/probe"
    assert access[-1]["status"] == 200 and access[-1]["duration_ms"] >= 0
    assert access[-1]["message"].startswith("GET /api/rooms/{code}/probe 200 ")


@pytest.mark.parametrize("bad", ["", "has space", "x" * 65, "semi;colon", "ünï"])
def test_a_bad_request_id_is_replaced_not_echoed(logged: tuple[TestClient, io.StringIO], bad: str) -> None:
    c, out = logged
    r = c.get("/api/rooms/abcde/probe", headers={"X-Request-ID": bad.encode("utf-8")})
    given = r.headers["x-request-id"]
    assert HEX_ID.fullmatch(given) and given != bad
    assert [x["request_id"] for x in lines(out) if x["logger"] == "guandan.test"] == [given]


def test_every_request_and_websocket_gets_its_own_id(logged: tuple[TestClient, io.StringIO]) -> None:
    c, out = logged
    first = c.get("/healthz").headers["x-request-id"]
    second = c.get("/healthz").headers["x-request-id"]
    assert HEX_ID.fullmatch(first) and HEX_ID.fullmatch(second) and first != second
    for _ in range(2):
        with c.websocket_connect("/ws/k7m2q/probe") as ws:
            assert ws.receive_text() == "hi"
    sockets = [x for x in lines(out) if x["logger"] == "guandan.test"]
    assert [x["table"] for x in sockets] == ["K7M2Q", "K7M2Q"]
    ids = {x["request_id"] for x in sockets}
    assert len(ids) == 2 and all(HEX_ID.fullmatch(i) for i in ids) and not ids & {first, second}
    assert [x["route"] for x in lines(out) if x["logger"] == "guandan.access"] == ["/healthz", "/healthz"]
