"""The server's logs: one JSON object a line (``guandan serve --log-format json``) or plain text, and the
request and table each record belongs to.

Every record says, besides its time (ISO 8601, UTC), level, logger and message, which HTTP request or
WebSocket it was written for (``request_id``), which table (``table``: the room code of an
``/api/rooms/{code}…`` or ``/ws/{code}`` address) and which worker process (``worker``: its pid, or the
name given with :func:`set_worker`). :class:`RequestContextMiddleware` sets the first two for everything a
request's handler does, tasks it starts included (asyncio copies the context into them): an HTTP request
keeps a valid ``X-Request-ID`` it came with (``[A-Za-z0-9._-]``, at most 64) or is given a new one, and the
answer carries it back; a WebSocket gets an id of its own.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import IO, Any

from ..core.errors import shown

REQUEST_ID: ContextVar[str | None] = ContextVar("guandan_request_id", default=None)
TABLE: ContextVar[str | None] = ContextVar("guandan_table", default=None)
VALID_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
# the room code in an address: /api/rooms/{code}… and /ws/{code} (/api/rooms/open is the lobby list)
_TABLE_PATH = re.compile(r"/(?:api/rooms/(?!open(?:/|$))|ws/)([A-Za-z0-9]{1,16})(?:/|$)")
LOG_FORMATS = ("text", "json")
# a record's own fields (LogRecord attributes) are not copied as extra fields into the JSON object
_RECORD_FIELDS = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}

_worker: str | None = None

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Any]]
Send = Callable[[Any], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def set_worker(name: str | None) -> None:
    """Name this process in every record's ``worker`` (None: its pid)."""
    global _worker
    _worker = name


def worker() -> str:
    return _worker if _worker is not None else str(os.getpid())


def table_of(path: str) -> str | None:
    """The room code an address is about (upper-cased, as the service keeps it), if any."""
    m = _TABLE_PATH.match(path)
    return m.group(1).upper() if m else None


def new_request_id() -> str:
    return uuid.uuid4().hex


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line: ``time``, ``level``, ``logger``, ``message``,
    ``request_id``, ``table``, ``worker``, ``exception`` (the traceback, when there is one) and the
    record's extra fields (the access log's ``method``, ``route``, ``status``, ``duration_ms``)."""

    def format(self, record: logging.LogRecord) -> str:
        obj: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or REQUEST_ID.get(),
            "table": getattr(record, "table", None) or TABLE.get(),
            "worker": worker(),
        }
        if record.exc_info:
            obj["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            obj["exception"] = record.exc_text
        if record.stack_info:
            obj["stack"] = self.formatStack(record.stack_info)
        for key, value in vars(record).items():
            if key not in _RECORD_FIELDS and key not in obj:
                obj[key] = value
        return json.dumps(obj, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """``2026-12-02T10:00:00.123Z WARNING guandan.server [request table] message``, then the traceback."""

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        where = " ".join(x for x in (REQUEST_ID.get(), TABLE.get()) if x)
        line = f"{when} {record.levelname} {record.name}{f' [{where}]' if where else ''} {record.getMessage()}"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class _Installed(logging.StreamHandler):  # type: ignore[type-arg]
    """The handler :func:`configure` installed (so that configuring again replaces it)."""


def configure(fmt: str = "text", access_log: bool = False, stream: IO[str] | None = None) -> logging.Handler:
    """Send the server's records to ``stream`` (stderr) as ``fmt``: ``json`` takes every logger's records
    (uvicorn's too, when uvicorn is told not to configure its own), ``text`` those of the ``guandan``
    loggers (uvicorn keeps its own lines). ``access_log``: one line per HTTP request (logger
    ``guandan.access``). Raises ValueError for another format."""
    if fmt not in LOG_FORMATS:
        raise ValueError(f"the log format is one of {', '.join(LOG_FORMATS)}, not {shown(fmt)}")
    handler = _Installed(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    for name in ("", "guandan"):
        target = logging.getLogger(name)
        for old in [h for h in target.handlers if isinstance(h, _Installed)]:
            target.removeHandler(old)
    target = logging.getLogger("" if fmt == "json" else "guandan")
    target.addHandler(handler)
    logging.getLogger("guandan.access").setLevel(logging.INFO if access_log else logging.WARNING)
    return handler


def announcer(fmt: str = "text") -> Callable[[str], None]:
    """How `guandan serve` and its supervisor say what they do (serving on…, a worker started again): a
    plain line on stderr, or with ``json`` a record of the ``guandan.serve`` logger, so that every line
    the server writes is one JSON object (:func:`configure` installs the handler)."""
    if fmt != "json":
        return lambda line: print(line, file=sys.stderr, flush=True)
    log = logging.getLogger("guandan.serve")
    log.setLevel(logging.INFO)
    return log.info


class RequestContextMiddleware:
    """Sets the request id and the table code of every HTTP request and WebSocket for the records written
    while it is handled, and answers an HTTP request's id in its ``X-Request-ID`` header (a WebSocket's
    in the handshake's)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = None
        if scope["type"] == "http":
            for key, value in scope.get("headers", ()):
                if key == b"x-request-id":
                    given = value.decode("latin-1")
                    break
        request_id = given if given is not None and VALID_REQUEST_ID.fullmatch(given) else new_request_id()
        header = (b"x-request-id", request_id.encode("ascii"))

        async def sending(message: Any) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                headers = [(k, v) for k, v in message.get("headers", ()) if k.lower() != b"x-request-id"]
                message = {**message, "headers": [*headers, header]}
            await send(message)

        rid = REQUEST_ID.set(request_id)
        table = TABLE.set(table_of(str(scope.get("path", ""))))
        try:
            await self.app(scope, receive, sending)
        finally:
            TABLE.reset(table)
            REQUEST_ID.reset(rid)
