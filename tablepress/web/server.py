"""Running the web app with uvicorn (`tablepress serve`)."""

from __future__ import annotations

import json
import socket
import sqlite3
from http import HTTPStatus
from pathlib import Path

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..core.errors import TablepressError
from .app import MAX_HEAD, create_app
from .logs import setup as setup_logs

#: How long a refused connection keeps reading (and dropping) what the client still sends, in seconds.
LINGER = 2.0


class Http(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, answering a request it cannot parse with JSON `{"detail": ...}`: 414 or 431
    for a request line or headers over MAX_HEAD bytes, else 400.

    After answering it reads and drops what the client still sends for LINGER seconds before closing, so
    the answer is not lost to a connection reset while the client is still sending.
    """

    refused = False

    def send_400_response(self, msg: str) -> None:
        """Answer an unparsable request head and stop reading requests on this connection."""
        buffered = self.conn.trailing_data[0]
        if len(buffered) <= MAX_HEAD:
            status, detail = 400, "malformed HTTP request"
        elif b"\r\n" in buffered:
            status, detail = 431, f"the request headers are over {MAX_HEAD} bytes"
        else:
            status, detail = 414, f"the request line is over {MAX_HEAD} bytes"
        body = json.dumps({"detail": detail}).encode()
        self.transport.write(
            f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
            f"content-type: application/json\r\ncontent-length: {len(body)}\r\nconnection: close\r\n\r\n".encode()
            + body
        )
        self.refused = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER, self.transport.close)

    def data_received(self, data: bytes) -> None:
        """Parse requests, or drop what arrives after a refusal."""
        if not self.refused:
            super().data_received(data)


def check_address(host: str, port: int) -> None:
    """Raise TablepressError if host:port cannot be listened on (in use, or no such address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            raise TablepressError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def lan_address() -> str | None:
    """This machine's address on its local network, if it has one (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))  # a documentation address: connect() on UDP only picks a route
            address = sock.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | Path = "tablepress.db", ai_delay: float = 0.8,
          announce: bool = True) -> None:
    """Serve the lobby, table and API on host:port until interrupted, storing every game in `db`."""
    setup_logs()
    check_address(host, port)
    try:
        app = create_app(db, ai_delay=ai_delay)
    except sqlite3.Error as exc:
        raise TablepressError(f"{db}: cannot use it as the games database ({exc})") from None
    except OSError as exc:
        raise TablepressError(f"{db}: cannot open the games database ({exc.strerror or exc})") from None
    if announce:
        everywhere = host in ("0.0.0.0", "::", "")
        shown = "127.0.0.1" if everywhere else host
        print(f"tablepress web app: http://{shown}:{port}/  (games stored in {db})", flush=True)
        lan = lan_address() if everywhere else None
        if lan:
            print(f"friends on your network: http://{lan}:{port}/", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws="websockets-sansio", http=Http,
                h11_max_incomplete_event_size=MAX_HEAD,
                log_config=None)  # uvicorn's records go out as JSON lines too
