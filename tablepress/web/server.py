"""Running the web app with uvicorn (`tablepress serve`)."""

from __future__ import annotations

import logging
import socket
import sqlite3
from pathlib import Path

import uvicorn

from ..core.errors import TablepressError
from .app import create_app


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
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
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
    uvicorn.run(app, host=host, port=port, log_level="warning", ws="websockets-sansio")
