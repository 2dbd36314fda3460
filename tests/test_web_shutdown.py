"""A real `tablepress serve` on 127.0.0.1 stopped with SIGTERM: it finishes the request in flight, closes
WebSockets with 1001 (going away) and exits 0 without a traceback; it announces where share links point."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from web_helpers import free_port

PUBLIC = "https://games.example.org"


@pytest.mark.timeout(120)
def test_sigterm_finishes_requests_in_flight_closes_websockets_1001_and_exits_0(tmp_path):
    port = free_port()
    exe = Path(sys.executable).with_name("tablepress")
    env = {**os.environ, "TABLEPRESS_PUBLIC_URL": PUBLIC}
    server = subprocess.Popen([str(exe), "serve", "--host", "127.0.0.1", "--port", str(port), "--db",
                               str(tmp_path / "g.db")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        intro = httpx.get(f"{base}/games/by-this/intro", headers={"Host": "evil.example"}).text
        assert f'content="{PUBLIC}/games/by-this/intro"' in intro and "evil.example" not in intro
        game = httpx.post(f"{base}/api/games", json={"game": "by-this", "seats": ["human", "human"]}).json()
        watcher = connect(f"ws://127.0.0.1:{port}/ws/games/{game['id']}?token={game['tokens']['0']}").__enter__()
        assert json.loads(watcher.recv(timeout=10))["status"] == "playing"
        body = json.dumps({"game": "pressed", "seats": ["human", "human"]}).encode()
        in_flight = socket.create_connection(("127.0.0.1", port), timeout=30)
        in_flight.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          + f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:10])
        time.sleep(0.3)
        server.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        in_flight.sendall(body[10:])  # the rest of the request arrives after the signal
        reply = b""
        while chunk := in_flight.recv(65536):
            reply += chunk
        assert reply.startswith(b"HTTP/1.1 201"), reply[:200]
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                watcher.recv(timeout=20)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
        out, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.returncode == 0, err
    assert "Traceback" not in out + err
    assert f"share links, invites and QR codes use {PUBLIC}/" in out
