"""The server's connections: uvicorn's HTTP/1.1 and WebSocket protocols with the limits an open port needs.

A connection must send a complete request head within HEAD_TIMEOUT seconds of opening (or of its first
byte after a keep-alive pause) and its whole body within BODY_TIMEOUT seconds after that; an idle
keep-alive connection closes after KEEPALIVE_TIMEOUT. A late head or body is answered 408 and closed
(a connection that sent nothing is just closed). A WebSocket handshake is a request head like any other;
one over MAX_HEAD bytes is answered 431. Past MAX_CONNECTIONS open connections (HTTP and WebSocket
together) a new one is answered 503 at once. Every refusal is JSON `{"detail": ...}` with
`connection: close`. On shutdown a WebSocket is closed with code 1001 (going away).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

#: The most bytes of a request target (path and query) and of all headers together.
MAX_HEAD = 8 * 1024
#: Seconds a connection has to send a complete request line and headers (slow-header attacks, idle sockets).
HEAD_TIMEOUT = 10.0
#: Seconds a request has to send its whole body once its head is in (slow or stalled bodies, chunked too).
BODY_TIMEOUT = 30.0
#: Seconds an idle keep-alive connection stays open after a response.
KEEPALIVE_TIMEOUT = 5.0
#: Open connections (HTTP and WebSocket) at most; a new one past this is answered 503 and closed.
MAX_CONNECTIONS = 2000
#: How long a refused connection keeps reading (and dropping) what the client still sends, in seconds.
LINGER = 2.0
#: The WebSocket close code a server going away sends (RFC 6455).
GOING_AWAY = 1001


@dataclass(frozen=True)
class Limits:
    """The time and connection limits of one server (the module's constants unless a test shortens them)."""

    head_timeout: float = HEAD_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    keepalive_timeout: float = KEEPALIVE_TIMEOUT
    max_connections: int = MAX_CONNECTIONS


def refusal(status: int, detail: str) -> bytes:
    """A whole HTTP/1.1 response `status` with JSON `{"detail": detail}` that closes the connection."""
    body = json.dumps({"detail": detail}).encode()
    return (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


def head_size(event: h11.Request) -> int:
    """Bytes of a request's target and headers, as the app's own limit counts them."""
    return len(event.target) + sum(len(name) + len(value) for name, value in event.headers)


class Http(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the module's limits (see the module's docstring).

    A request it cannot parse is answered with JSON: 414 or 431 for a request line or headers over MAX_HEAD
    bytes, else 400. After any refusal it reads and drops what the client still sends for LINGER seconds
    before closing, so the answer is not lost to a connection reset while the client is still sending.
    """

    limits = Limits()
    refused = False
    deadline: asyncio.TimerHandle | None = None

    @classmethod
    def with_limits(cls, limits: Limits) -> type[Http]:
        """This protocol with other limits (what uvicorn's `http=` takes)."""
        return type(cls.__name__, (cls,), {"limits": limits})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Take the connection, or refuse it (503) when the server has as many as it takes."""
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:
            self.refuse(503, "the server has as many connections as it takes; try again shortly")
            return
        self.arm(self.limits.head_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the connection's deadline."""
        self.disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Parse requests (a new one starts its head's deadline), or drop what arrives after a refusal."""
        if self.refused:
            return
        if self.deadline is None and (self.cycle is None or self.cycle.response_complete):
            self.arm(self.limits.head_timeout)
        super().data_received(data)

    def handle_events(self) -> None:
        """Parse what arrived, then move the deadline: a head that is in stops the head's clock and starts the
        body's; a body that is in stops the clock."""
        before = self.cycle
        super().handle_events()
        if self.refused or self.transport.is_closing() or self.transport.get_protocol() is not self:
            self.disarm()  # refused, closed, or now a WebSocket
            return
        cycle = self.cycle
        if cycle is not None and cycle is not before:
            self.disarm()
            if cycle.more_body:
                self.arm(self.limits.body_timeout)
        elif cycle is not None and not cycle.response_complete and not cycle.more_body:
            self.disarm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        """Hand the connection to the WebSocket protocol, unless the handshake is over MAX_HEAD bytes (431)."""
        if head_size(event) > MAX_HEAD:
            self.refuse(431, f"the WebSocket handshake's headers are over {MAX_HEAD} bytes")
            return
        super().handle_websocket_upgrade(event)

    def send_400_response(self, msg: str) -> None:
        """Answer an unparsable request head and stop reading requests on this connection."""
        buffered = self.conn.trailing_data[0]
        if len(buffered) <= MAX_HEAD:
            self.refuse(400, "malformed HTTP request")
        elif b"\r\n" in buffered:
            self.refuse(431, f"the request headers are over {MAX_HEAD} bytes")
        else:
            self.refuse(414, f"the request line is over {MAX_HEAD} bytes")

    def refuse(self, status: int, detail: str) -> None:
        """Answer `status` with `detail`, read and drop for LINGER seconds, then close."""
        self.disarm()
        self.refused = True
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # the app's own answer, if it comes, goes nowhere
            self.cycle.message_event.set()
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(refusal(status, detail))
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER, self.transport.close)

    def arm(self, seconds: float) -> None:
        """Start (or restart) the clock: `expire` runs in `seconds` unless disarmed."""
        self.disarm()
        self.deadline = self.loop.call_later(seconds, self.expire)

    def disarm(self) -> None:
        """Stop the clock."""
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def expire(self) -> None:
        """The head or body did not arrive in time: 408, or a plain close if nothing of a request came."""
        self.deadline = None
        if self.transport.is_closing() or self.refused:
            return
        between = self.cycle is None or self.cycle.response_complete
        if between and self.conn.their_state is h11.IDLE and not self.conn.trailing_data[0]:
            self.transport.close()
            return
        part = "headers" if between else "body"
        seconds = self.limits.head_timeout if between else self.limits.body_timeout
        self.refuse(408, f"the request {part} did not arrive within {seconds:g} seconds")


class WebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, closing with 1001 (going away) when the server shuts down."""

    def shutdown(self) -> None:
        """Tell the app and the client the server is going away, then close."""
        if self.close_sent or not self.handshake_complete:
            super().shutdown()
            return
        self.stop_keepalive()
        self.queue.put_nowait({"type": "websocket.disconnect", "code": GOING_AWAY})
        self.conn.send_close(GOING_AWAY, "the server is shutting down")
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.transport.close()


def protocols(limits: Limits) -> dict[str, Any]:
    """uvicorn.Config's arguments for these protocols under `limits`."""
    return {"http": Http.with_limits(limits), "ws": WebSocket, "timeout_keep_alive": limits.keepalive_timeout,
            "h11_max_incomplete_event_size": MAX_HEAD}
