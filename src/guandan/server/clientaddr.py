"""Whose request is this: the client address every limit is counted against.

The address is the socket's peer unless the operator names the proxies in front of the server
(``guandan serve --forwarded-allow-ips``): only then is ``X-Forwarded-For`` read, and only when the peer
is one of them. The header is walked from the right (the entry the nearest proxy appended) past every
trusted proxy; the first address that is not one is the client. Anything a client writes further left
is its own claim and is never believed.

One ASGI middleware applies the rule to HTTP requests and WebSockets alike by rewriting
``scope["client"]``, so every handler (``Request.client``, ``WebSocket.client``) sees the same address.
uvicorn's own proxy handling is switched off by ``guandan serve`` (it would trust the header from
127.0.0.1 by default).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from starlette.requests import HTTPConnection

from ..core.errors import shown

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
SOCKET_PEER = "guandan.socket_peer"  # the scope key that keeps the socket's peer once "client" is rewritten


def parse_proxies(text: str) -> tuple[str, ...]:
    """A ``--forwarded-allow-ips`` value: comma-separated addresses or networks (``10.0.0.0/8``), or
    ``*`` (every peer is a proxy). An empty string trusts no one. A bad entry raises ValueError naming it."""
    entries = tuple(e.strip() for e in text.split(",") if e.strip())
    TrustedProxies(entries)  # validates
    return entries


class TrustedProxies:
    def __init__(self, entries: Iterable[str] = ()) -> None:
        self.any = False
        self.networks: list[Network] = []
        for entry in entries:
            if entry == "*":
                self.any = True
                continue
            try:
                self.networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                raise ValueError(f"not an IP address or network: {shown(entry)} (e.g. 127.0.0.1, 10.0.0.0/8 or *)") from None

    def __bool__(self) -> bool:
        return self.any or bool(self.networks)

    def trusts(self, host: str) -> bool:
        if self.any:
            return True
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(ip in n for n in self.networks)

    def resolve(self, peer: str, forwarded_for: str | None) -> str:
        """The client's address for a request from ``peer`` carrying ``X-Forwarded-For: forwarded_for``."""
        if not forwarded_for or not self.trusts(peer):
            return peer
        hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
        for hop in reversed(hops):
            if not self.trusts(hop):
                return hop
        return hops[0] if hops else peer  # every hop is a trusted proxy: the first one is the origin


class ClientAddressMiddleware:
    """Rewrites ``scope["client"]`` for HTTP and WebSocket scopes with :meth:`TrustedProxies.resolve`; the
    socket's own peer stays under ``scope[SOCKET_PEER]`` (:func:`socket_peer`)."""

    def __init__(self, app: ASGIApp, proxies: TrustedProxies) -> None:
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if self.proxies and scope["type"] in ("http", "websocket") and scope.get("client"):
            host = scope["client"][0]
            header = b",".join(v for k, v in scope.get("headers", ()) if k == b"x-forwarded-for")
            resolved = self.proxies.resolve(host, header.decode("latin-1") if header else None)
            if resolved != host:
                scope = {**scope, "client": (resolved, 0), SOCKET_PEER: scope["client"]}
        await self.app(scope, receive, send)


def client_address(conn: HTTPConnection) -> str:
    """The address limits are counted against, for a request or a WebSocket (after the middleware)."""
    return conn.client.host if conn.client else "unknown"


def socket_peer(conn: HTTPConnection) -> str | None:
    """The address of the socket's other end, whatever X-Forwarded-For says: what an allow-list of
    addresses is judged on (server/metrics.py)."""
    peer = conn.scope.get(SOCKET_PEER) or conn.scope.get("client")
    return str(peer[0]) if peer else None
