"""The real server's connection limits over raw sockets on 127.0.0.1: idle, slow and oversized connections
are closed or refused within a bounded time (the limits shortened to a second; bounds are generous)."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn

from tablepress.web.app import create_app
from tablepress.web.protocols import (BODY_TIMEOUT, HEAD_TIMEOUT, KEEPALIVE_TIMEOUT, MAX_CONNECTIONS, MAX_HEAD, Http,
                                      Limits)
from tablepress.web.server import uvicorn_config
from web_helpers import free_port

pytestmark = pytest.mark.timeout(120)

SHORT = Limits(head_timeout=1.0, body_timeout=1.0, keepalive_timeout=1.0, max_connections=30)
#: How long a test waits for the server to close a connection: far above every shortened limit.
PATIENCE = 20.0


@contextlib.contextmanager
def serving(tmp_path, limits: Limits = SHORT) -> Iterator[int]:
    """The app under uvicorn with these protocols and `limits` in a thread; yields its port."""
    app = create_app(tmp_path / "games.db", ai_delay=0.0)
    port = free_port()
    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", port, limits))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(30)


def connect(port: int) -> socket.socket:
    """A raw connection to the server."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
    return sock


def until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (fails if it stays open past PATIENCE)."""
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return data
        if not chunk:
            return data
        data += chunk


def answer(data: bytes) -> tuple[int, dict]:
    """The status and JSON body of one HTTP response."""
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, json.loads(body)


def test_the_limits_default_to_the_named_constants():
    config = uvicorn_config(object(), "127.0.0.1", 8000)
    assert Limits() == Limits(HEAD_TIMEOUT, BODY_TIMEOUT, KEEPALIVE_TIMEOUT, MAX_CONNECTIONS)
    assert issubclass(config.http, Http) and config.http.limits == Limits()
    assert config.timeout_keep_alive == KEEPALIVE_TIMEOUT and config.timeout_graceful_shutdown
    assert config.proxy_headers is False and config.h11_max_incomplete_event_size == MAX_HEAD


def test_idle_connections_that_send_nothing_are_closed(tmp_path):
    with serving(tmp_path) as port:
        socks = [connect(port) for _ in range(20)]
        for sock in socks:
            assert until_closed(sock) == b""
            sock.close()


def test_an_idle_keep_alive_connection_is_closed_after_its_answer(tmp_path):
    with serving(tmp_path) as port, connect(port) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        data = until_closed(sock)
        assert data.startswith(b"HTTP/1.1 200") and data.count(b"HTTP/1.1") == 1


def test_slow_headers_are_answered_408_and_closed(tmp_path):
    with serving(tmp_path) as port, connect(port) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        for _ in range(5):  # a header byte now and then, never the blank line (slowloris)
            try:
                sock.sendall(b"X")
            except OSError:
                break
            time.sleep(0.4)
        status, body = answer(until_closed(sock))
        assert status == 408 and "headers" in body["detail"]


@pytest.mark.parametrize("body", [
    b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"game\"",
    b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    b"7\r\n{\"game\"\r\n",
], ids=["slow-body", "stalled-chunked-body"])
def test_slow_and_stalled_bodies_are_answered_408_and_change_nothing(tmp_path, body):
    with serving(tmp_path) as port:
        with connect(port) as sock:
            sock.sendall(body)
            status, reply = answer(until_closed(sock))
        assert status == 408 and "body" in reply["detail"]
        assert httpx.get(f"http://127.0.0.1:{port}/api/games").json()["games"] == []


def test_a_websocket_handshake_over_8_kib_is_refused_431(tmp_path):
    handshake = (b"GET /ws/games/nothing HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                 b"X-Big: " + b"b" * (MAX_HEAD + 100) + b"\r\n\r\n")
    with serving(tmp_path) as port:
        with connect(port) as sock:
            sock.sendall(handshake)  # at once
            status, body = answer(until_closed(sock))
            assert status == 431 and "WebSocket" in body["detail"]
        with connect(port) as sock:
            for start in range(0, len(handshake), 1000):  # in pieces
                sock.sendall(handshake[start:start + 1000])
            status, body = answer(until_closed(sock))
            assert status == 431


def test_a_slow_websocket_handshake_is_answered_408(tmp_path):
    with serving(tmp_path) as port, connect(port) as sock:
        sock.sendall(b"GET /ws/games/nothing HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n")
        status, _ = answer(until_closed(sock))
        assert status == 408


def test_past_the_connection_cap_a_new_connection_gets_503_json(tmp_path):
    limits = Limits(head_timeout=60.0, body_timeout=60.0, keepalive_timeout=60.0, max_connections=5)
    with serving(tmp_path, limits) as port:
        held = [connect(port) for _ in range(5)]
        time.sleep(0.5)
        with connect(port) as extra:
            extra.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            status, body = answer(until_closed(extra))
        assert status == 503 and "connections" in body["detail"]
        for sock in held:
            sock.close()
        deadline = time.monotonic() + PATIENCE
        while True:  # once they are gone, the server takes connections again
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline
            time.sleep(0.1)
