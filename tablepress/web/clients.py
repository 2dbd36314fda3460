"""Who a request comes from: the one place the server decides a client's address.

A peer's `X-Forwarded-For` is believed only when the peer is one of the proxies the operator named
(`--forwarded-allow-ips`); uvicorn's ProxyHeadersMiddleware then puts the forwarded address in the ASGI
scope. Everything that keys on a client (quotas, logs) asks `client_address`.
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.applications import Starlette
from starlette.requests import HTTPConnection
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware


def trust_proxies(app: Starlette, proxies: Sequence[str]) -> None:
    """Believe `X-Forwarded-For` (and `X-Forwarded-Proto`) from `proxies` only; with none, from nobody."""
    if proxies:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(proxies))


def client_address(connection: HTTPConnection) -> str | None:
    """The client's address as far as the server can trust it: the peer's, or the one a trusted proxy forwarded."""
    return connection.client.host if connection.client else None
