"""Running the web app with uvicorn (`tablepress serve`), in one process or in `workers` processes on one port.

With several workers uvicorn starts each process from an import string: `app_from_environment` builds the
app from the `TABLEPRESS_…` variables `serve` sets (the store, the public address, the believed proxies, the
AI pause). Several processes need PostgreSQL: they tell each other what changed with LISTEN/NOTIFY, which
a SQLite file cannot carry, so `serve` refuses `--workers` over 1 on SQLite in one line.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

import uvicorn
from uvicorn.supervisors import Multiprocess

from fastapi import FastAPI

from ..core.errors import TablepressError
from .app import DEFAULT_PUBLIC_URL, create_app
from .logs import setup as setup_logs
from .protocols import Http, Limits, protocols
from .settings import FORWARDED_ALLOW_IPS_ENV, PUBLIC_URL_ENV, parse_forwarded_allow_ips
from .store import ENV as DATABASE_ENV
from .store import backend_of
from .store.sql import one_line

__all__ = ["Http", "app_from_environment", "default_public_url", "lan_address", "listen", "serve",
           "uvicorn_config"]

#: Seconds a stopping server (SIGTERM, Ctrl-C) waits for requests in flight before cancelling them.
SHUTDOWN_GRACE = 10.0
#: The addresses that mean "every interface".
EVERYWHERE = ("0.0.0.0", "::", "")
#: The app factory each worker process imports, and the variable carrying the AI pause to it.
FACTORY = "tablepress.web.server:app_from_environment"
AI_DELAY_ENV = "TABLEPRESS_AI_DELAY"


def app_from_environment() -> FastAPI:
    """The web app as `serve` configured it, read from the environment (uvicorn's workers build it so):
    TABLEPRESS_DATABASE_URL, TABLEPRESS_PUBLIC_URL, TABLEPRESS_FORWARDED_ALLOW_IPS and TABLEPRESS_AI_DELAY."""
    setup_logs()
    return create_app(os.environ.get(DATABASE_ENV, "tablepress.db"), ai_delay=float(os.environ.get(AI_DELAY_ENV, 0.8)),
                      public_url=os.environ.get(PUBLIC_URL_ENV) or DEFAULT_PUBLIC_URL,
                      forwarded_allow_ips=parse_forwarded_allow_ips(os.environ.get(FORWARDED_ALLOW_IPS_ENV)))


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on host:port (port 0: a free port the system picks, read back with getsockname);
    TablepressError if it cannot be (in use, or no such address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise TablepressError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)  # the worker processes serve it too
    return sock


def lan_address() -> str | None:
    """This machine's address on its local network, if it has one (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))  # a documentation address: connect() on UDP only picks a route
            address = sock.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


def default_public_url(host: str, port: int) -> str:
    """The address share links use without --public-url: the one the server announces — the LAN address
    when listening everywhere (127.0.0.1 without one), else the address it listens on."""
    shown = (lan_address() or "127.0.0.1") if host in EVERYWHERE else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def uvicorn_config(app: object, host: str, port: int, limits: Limits = Limits()) -> uvicorn.Config:
    """uvicorn's settings for the app: this package's protocols and limits, no proxy headers of its own
    (the app believes only the proxies it was given), a bounded graceful shutdown and JSON logs."""
    return uvicorn.Config(app, host=host, port=port, log_level="warning", proxy_headers=False,
                          timeout_graceful_shutdown=SHUTDOWN_GRACE, server_header=False,
                          log_config=None,  # uvicorn's records go out as JSON lines too
                          **protocols(limits))


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | Path = "tablepress.db", ai_delay: float = 0.8,
          announce: bool = True, public_url: str | None = None, forwarded_allow_ips: Sequence[str] = (),
          workers: int = 1) -> None:
    """Serve the lobby, table and API on host:port until interrupted, storing every game in `db`; links the
    site gives out start with `public_url` (default: `default_public_url`); `forwarded_allow_ips` are the
    proxies whose X-Forwarded-For is believed; `workers` processes share the port (over 1 needs PostgreSQL)."""
    setup_logs()
    if workers > 1 and backend_of(db)[0] != "postgresql":
        raise TablepressError(f"--workers {workers} needs PostgreSQL (--database postgresql://...): processes over"
                              f" one SQLite file cannot tell each other what changed; use --workers 1 with SQLite")
    sock = listen(host, port)
    with contextlib.ExitStack() as closing:
        closing.callback(sock.close)
        port = sock.getsockname()[1]
        _serve_on(sock, host, port, db, ai_delay, announce, public_url, forwarded_allow_ips, workers)


def _serve_on(sock: socket.socket, host: str, port: int, db: str | Path, ai_delay: float, announce: bool,
              public_url: str | None, forwarded_allow_ips: Sequence[str], workers: int) -> None:
    """`serve` on a listening socket (its port already known)."""
    public = public_url or default_public_url(host, port)
    try:
        app = create_app(db, ai_delay=ai_delay, public_url=public, forwarded_allow_ips=forwarded_allow_ips)
    except TablepressError:
        raise
    except sqlite3.Error as exc:
        raise TablepressError(f"{db}: cannot use it as the games database ({exc})") from None
    except OSError as exc:
        raise TablepressError(f"{db}: cannot open the games database ({exc.strerror or exc})") from None
    except Exception as exc:  # noqa: BLE001 - e.g. PostgreSQL failing while the games are read back
        raise TablepressError(f"cannot read the games back from the database ({one_line(exc)})") from None
    if announce:
        shown = "127.0.0.1" if host in EVERYWHERE else (f"[{host}]" if ":" in host else host)
        stored = app.state.hub.store.shown
        processes = f", {workers} processes" if workers > 1 else ""
        print(f"tablepress web app: http://{shown}:{port}/  (games stored in {stored}{processes})", flush=True)
        lan = lan_address() if host in EVERYWHERE else None
        if lan:
            print(f"friends on your network: http://{lan}:{port}/", flush=True)
        where = "only this machine can open them; " if public.split("://")[1].startswith(("127.", "localhost", "[::1]")) else ""
        print(f"share links, invites and QR codes use {public}/ ({where}change it with --public-url URL or"
              f" {PUBLIC_URL_ENV})", flush=True)
        if forwarded_allow_ips:
            print(f"believing X-Forwarded-For from {', '.join(forwarded_allow_ips)} only", flush=True)
        else:
            print(f"behind a reverse proxy, name it with --forwarded-allow-ips IPS or {FORWARDED_ALLOW_IPS_ENV}",
                  flush=True)
    if workers == 1:
        with stopped_by_ctrl_c():
            uvicorn.Server(uvicorn_config(app, host, port)).run(sockets=[sock])
        return
    app.state.hub.store.close()  # this process only checked the store and announced; the workers serve
    os.environ.update({DATABASE_ENV: str(db), PUBLIC_URL_ENV: public, AI_DELAY_ENV: repr(ai_delay),
                       FORWARDED_ALLOW_IPS_ENV: ",".join(forwarded_allow_ips)})
    config = uvicorn_config(FACTORY, host, port)
    # each worker is a new interpreter that imports the protocols by name (Http's class default is Limits())
    config.http, config.ws = "tablepress.web.protocols:Http", "tablepress.web.protocols:WebSocket"
    config.factory, config.workers = True, workers
    with stopped_by_ctrl_c():
        Multiprocess(config, sockets=[sock]).run()


@contextlib.contextmanager
def stopped_by_ctrl_c() -> Iterator[None]:
    """A server stopped by Ctrl-C has shut down cleanly by the time uvicorn raises the signal again: exit 0."""
    try:
        yield
    except KeyboardInterrupt:
        pass
