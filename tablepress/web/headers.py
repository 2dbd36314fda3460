"""Two checks every HTTP request passes, as plain ASGI middleware (no task group per request or per body read,
which Starlette's `BaseHTTPMiddleware` costs: measured about 0.2 ms of CPU a request, a third of the server's
work on an action under load).

- `HeadLimits`: a request target or headers over `max_head` bytes is refused (414, 431) before any route sees it.
- `SafeHeaders`: API answers (views hold a seat's private cards) are never cached (`Cache-Control: no-store`
  under /api/); no page may be framed, sniffed or tell where it was opened from.

WebSockets pass through both untouched.
"""

from __future__ import annotations

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The headers every HTTP answer carries (replacing any the route set).
SAFE = ((b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"))
NO_STORE = ((b"cache-control", b"no-store"),)


class HeadLimits:
    """Refuse a request whose target (path and query) or headers are over `max_head` bytes: 414, 431."""

    def __init__(self, app: ASGIApp, max_head: int):
        self.app, self.max_head = app, max_head

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or answer 414/431 in its place."""
        if scope["type"] == "http":
            if len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"") > self.max_head:
                refusal = JSONResponse({"detail": f"the request line is over {self.max_head} bytes"}, status_code=414)
                await refusal(scope, receive, send)
                return
            if sum(len(name) + len(value) for name, value in scope["headers"]) > self.max_head:
                refusal = JSONResponse({"detail": f"the request headers are over {self.max_head} bytes"}, status_code=431)
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


class SafeHeaders:
    """Set SAFE on every HTTP answer, and NO_STORE on those under /api/."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, adding the headers to its answer's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = SAFE + NO_STORE if scope["path"].startswith("/api/") else SAFE
        names = {name for name, _ in extra}

        async def send_safely(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(name, value) for name, value in message.get("headers", ()) if name.lower() not in names]
                message = {**message, "headers": [*kept, *extra]}
            await send(message)

        await self.app(scope, receive, send_safely)
