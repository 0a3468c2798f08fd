"""Security headers on every HTTP response of the web app.

* ``Content-Security-Policy``: scripts, styles, images and connections (the table's WebSocket included)
  from this origin only, no inline script anywhere, no plugins, no ``<base>``, forms post here only, and
  the app may not be framed (``frame-ancestors 'none'``, and ``X-Frame-Options: DENY`` for old browsers).
  The tournament desk's pages (``/t/…``) carry one inline ``<style>`` block, so their policy also
  allows inline style (never inline script). With ``--dev`` the interactive API pages (``/docs``,
  ``/redoc``: Swagger UI and ReDoc, loaded from a CDN with an inline bootstrap script) get no policy.
* ``Referrer-Policy: no-referrer``: a room link or a replay link never leaks to another site.
* ``X-Content-Type-Options: nosniff``; ``Cross-Origin-Opener-Policy: same-origin``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]

_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'{style}; img-src 'self' data:; "
           "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
           "frame-ancestors 'none'")
CSP = _POLICY.format(style="")
CSP_INLINE_STYLE = _POLICY.format(style=" 'unsafe-inline'")
DEV_PAGES = ("/docs", "/redoc")

COMMON: tuple[tuple[bytes, bytes], ...] = (
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


def policy_for(path: str, dev: bool) -> str | None:
    if dev and any(path == p or path.startswith(p + "/") for p in DEV_PAGES):
        return None
    if path == "/t" or path.startswith("/t/"):
        return CSP_INLINE_STYLE
    return CSP


class SecurityHeadersMiddleware:
    def __init__(self, app: ASGIApp, dev: bool = False) -> None:
        self.app = app
        self.dev = dev

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = policy_for(str(scope.get("path", "")), self.dev)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", ()) if k.lower() not in _OURS]
                headers.extend(COMMON)
                if csp is not None:
                    headers.append((b"content-security-policy", csp.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


_OURS = frozenset({k for k, _ in COMMON} | {b"content-security-policy"})
