"""Helpers shared by the web tests: a test client over a fresh database, playing through the API."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

#: Debian's Chromium (`make test` installs it through scripts/ensure-debian-packages; never `playwright install`).
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
#: Marks a browser test module: skipped where there is no Chromium.
needs_chromium = pytest.mark.skipif(not CHROMIUM.exists(),
                                    reason="needs /usr/bin/chromium (make test installs it: scripts/ensure-debian-packages)")


def auth(token: str) -> dict[str, str]:
    """The Authorization header for a seat token."""
    return {"Authorization": f"Bearer {token}"}


def eventually(predicate: Any, bound: float = 60.0, step: float = 0.02) -> Any:
    """predicate()'s first truthy value, or its last value once `bound` seconds have passed: a bound on waiting
    for something the server does by itself, never a speed asserted (assert on what it returns)."""
    deadline = time.monotonic() + bound
    while not (value := predicate()) and time.monotonic() < deadline:
        time.sleep(step)
    return value


def player(client: Any, name: str) -> str:
    """A new player's token (the client's cookies forgotten after, so that each request says who it is)."""
    token = client.post("/api/players", json={"name": name}).json()["token"]
    client.cookies.clear()
    return token


def wait_for(client: Any, game_id: str, token: str | None, predicate, timeout: float = 20.0) -> dict[str, Any]:
    """Poll the seat's view until `predicate(view)` holds, or fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    headers = auth(token) if token else {}
    while True:
        view = client.get(f"/api/games/{game_id}", headers=headers).json()
        if predicate(view):
            return view
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting; last view status={view.get('status')} to_move={view.get('to_move')}")
        time.sleep(0.01)


def play_out(client: Any, game_id: str, tokens: dict[str, str], seed: int = 0, max_actions: int = 5000,
             stop_after: int | None = None) -> dict[str, Any]:
    """Play every human seat with random legal actions over the API until the game ends (or `stop_after` actions)."""
    rng = random.Random(seed)
    done = 0
    view: dict[str, Any] = {}
    for _ in range(max_actions * 20):
        any_view = client.get(f"/api/games/{game_id}").json()
        if any_view["status"] == "over" or (stop_after is not None and done >= stop_after):
            return any_view
        moved = False
        for seat in any_view["to_move"]:
            token = tokens.get(str(seat))
            if token is None:
                continue
            view = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
            if not view["legal_actions"]:
                continue
            reply = client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                                json={"action": rng.choice(view["legal_actions"])})
            if reply.status_code == 200:
                done += 1
                moved = True
                break
        if not moved:
            time.sleep(0.005)
    raise AssertionError("the game did not end")


def free_port() -> int:
    """A port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`tablepress serve` on 127.0.0.1 in a subprocess."""

    def __init__(self, db: Path, ai_delay: float = 0.02):
        self.db = db
        self.port = free_port()
        exe = Path(sys.executable).with_name("tablepress")
        self.proc = subprocess.Popen(
            [str(exe), "serve", "--host", "127.0.0.1", "--port", str(self.port), "--db", str(db),
             "--ai-delay", str(ai_delay)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.url = f"http://127.0.0.1:{self.port}"
        self.client = httpx.Client(base_url=self.url, timeout=10)
        deadline = time.monotonic() + 30
        while True:
            try:
                if self.client.get("/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not start: {self.proc.stdout.read() if self.proc.stdout else ''}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no chance to flush or close anything."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.client.close()

    def stop(self) -> None:
        """Stop politely (the end of a test)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.client.close()
