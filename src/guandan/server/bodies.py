"""Request bodies, checked before any route reads them (ASGI middleware).

* **Size.** A body is read up to its route's limit and no further: a game record (``POST /api/replays``)
  up to :data:`~guandan.server.replays.MAX_RECORD_BYTES`, every other body up to :data:`BODY_LIMIT`, which
  the largest legitimate one (500 seat tokens claimed at sign-up) stays well inside. A larger one is
  refused with 413 before it is parsed: parsing happens on the event loop, where tens of megabytes of
  JSON would hold every table up for a second and more.
* **Text.** A JSON body may spell half of a UTF-16 surrogate pair as an escape (``"\\ud800"``); Python
  decodes it into a string that cannot be encoded again, so it would fail wherever it is written (the
  database, an answer echoing it). Such a body is refused with 422, naming the field that holds it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ..i18n import N_
from .protocol import invalid, say
from .replays import MAX_RECORD_BYTES
from .table import ServiceError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

BODY_LIMIT = 256 * 1024
_SURROGATE = re.compile(rb"(\\+)u[dD]([89abAB]|[c-fC-F])[0-9a-fA-F]{2}")


def limit_for(method: str, path: str) -> int:
    """The most bytes a request's body may have."""
    if method == "POST" and path.rstrip("/") == "/api/replays":
        return MAX_RECORD_BYTES
    return BODY_LIMIT


def lone_surrogate(body: bytes) -> bool:
    """Whether a JSON text escapes half of a surrogate pair without the other half beside it (a backslash
    escaped itself, as in ``"\\\\ud800"``, is no escape)."""
    pending_high = -1  # where the escape after an unpaired high half would have to start
    for m in _SURROGATE.finditer(body):
        if len(m.group(1)) % 2 == 0:
            continue  # an even run of backslashes: text, not an escape
        start = m.end(1) - 1
        high = m.group(2) in b"89abAB"
        if pending_high >= 0:
            if high or start != pending_high:
                return True
            pending_high = -1
            continue
        if not high:
            return True
        pending_high = m.end()
    return pending_high >= 0


def _is_json(scope: Scope) -> bool:
    for key, value in scope.get("headers", ()):
        if key.lower() == b"content-type":
            return b"json" in value.lower()
    return False


def _declared_length(scope: Scope) -> int | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def too_large(limit: int) -> ServiceError:
    return ServiceError(f"the request body is larger than {limit} bytes", 413, "too_large",
                        words=say(N_("The request is too large: at most {n} bytes are taken here."), n=f"{limit:,}"))


def _broken_at(value: Any, where: tuple[str | int, ...] = ()) -> tuple[str | int, ...] | None:
    """Where in a decoded JSON value the first string (a key or a value) with a lone surrogate is."""
    if isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:
            return where
        return None
    if isinstance(value, dict):
        for k, v in value.items():
            found = _broken_at(k, where) if isinstance(k, str) else None  # a broken key: its object is named
            found = found if found is not None else _broken_at(v, (*where, k))
            if found is not None:
                return found
    if isinstance(value, list):
        for i, v in enumerate(value):
            found = _broken_at(v, (*where, i))
            if found is not None:
                return found
    return None


def bad_text(body: bytes) -> ServiceError:
    """The refusal of a body with a lone surrogate, naming the field that holds it as any invalid field is."""
    try:
        where = _broken_at(json.loads(body))
    except ValueError:
        where = None
    loc = ("body", *(where or ()))
    detail = f"{'.'.join(str(x) for x in loc)}: half of a UTF-16 surrogate pair (e.g. \\ud800) is not a character"
    return ServiceError(detail, 422, "bad_request", words=invalid([{"type": "lone_surrogate", "loc": loc}]))


async def _refuse(send: Send, error: ServiceError) -> None:
    payload = json.dumps(error.body()).encode()  # ASCII: whatever the refusal quotes, it encodes
    await send({"type": "http.response.start", "status": error.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": payload})


class BodyGuardMiddleware:
    """Reads each request body (bounded by :func:`limit_for`), refuses an oversized one or a JSON one with
    a lone surrogate, and hands the rest to the app as one message."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = limit_for(str(scope.get("method")), str(scope.get("path", "")))
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            await _refuse(send, too_large(limit))
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client went away: nothing to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _refuse(send, too_large(limit))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if _is_json(scope) and lone_surrogate(body):
            await _refuse(send, bad_text(body))
            return
        handed = False

        async def replay() -> Message:
            nonlocal handed
            if not handed:
                handed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: the disconnect, when it comes

        await self.app(scope, replay, send)
