"""Real `tablepress serve` processes on 127.0.0.1 for the many-processes tests: start, watch, stop."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from pg_helpers import free_port

EXE = Path(sys.executable).with_name("tablepress")


@dataclass
class Server:
    """A `tablepress serve` subprocess and an HTTP client of it."""

    proc: subprocess.Popen
    port: int
    client: httpx.Client

    def watch(self, game_id: str, token: str | None = None) -> ClientConnection:
        """A WebSocket watching a game on this server (a spectator without a token)."""
        query = f"?token={token}" if token else ""
        return connect(f"ws://127.0.0.1:{self.port}/ws/games/{game_id}{query}", open_timeout=10)

    def stop(self, how: int = signal.SIGTERM) -> str:
        """Stop the process (SIGKILL: at once) and return what it wrote."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, how)
        try:
            out, _ = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, _ = self.proc.communicate()
        self.client.close()
        return out or ""


def serve(env: dict[str, str], cwd: Path, *args: str, port: int | None = None) -> Server:
    """Start `tablepress serve --host 127.0.0.1` with `args` and wait until it answers /healthz (30 s at most)."""
    port = port or free_port()
    proc = subprocess.Popen([str(EXE), "serve", "--host", "127.0.0.1", "--port", str(port), *args], cwd=cwd,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
    deadline = time.monotonic() + 30
    while True:
        try:
            if client.get("/healthz").status_code == 200:
                return Server(proc, port, client)
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"the server did not start: {proc.communicate()[0]}")
        time.sleep(0.05)


def environment(url: str, **extra: str) -> dict[str, str]:
    """This environment with the store at `url` (and `extra` variables)."""
    return {**os.environ, "TABLEPRESS_DATABASE_URL": url, **extra}


def next_view(socket: ClientConnection, wanted: Callable[[dict[str, Any]], bool], seconds: float = 15) -> dict[str, Any]:
    """The first view pushed on `socket` that is `wanted`; AssertionError after `seconds` (a guard against hangs)."""
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no wanted view within {seconds} s")
        try:
            view = json.loads(socket.recv(timeout=left))
        except TimeoutError:
            continue
        if wanted(view):
            return view


def seat_to_move(server: Server, game_id: str, tokens: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The Authorization header of the seat to move and its legal actions, as `server` sees the game."""
    seat = server.client.get(f"/api/games/{game_id}").json()["to_move"][0]
    header = {"Authorization": f"Bearer {tokens[str(seat)]}"}
    return header, server.client.get(f"/api/games/{game_id}", headers=header).json()["legal_actions"]


def actions_of(servers: Sequence[Server], game_id: str) -> list[list[str]]:
    """The game's log (action texts) as each server tells it."""
    return [[entry["text"] for entry in s.client.get(f"/api/games/{game_id}").json()["log"]] for s in servers]
