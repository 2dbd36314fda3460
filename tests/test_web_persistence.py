"""Persistence: `tablepress serve` as a subprocess, killed with SIGKILL mid-game, restarted on the same --db."""

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

from tablepress.core.match import Match

from web_helpers import auth, play_out

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


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


@pytest.fixture
def servers():
    """Start servers with servers(db); every one is stopped at the end."""
    started: list[Server] = []

    def start(db: Path, ai_delay: float = 0.02) -> Server:
        server = Server(db, ai_delay)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def test_sigkill_and_restart_resumes_every_game_exactly(servers, tmp_path, cli):
    db = tmp_path / "games.db"
    first = servers(db)
    reply = first.client.post("/api/games", json={"game": "flowers", "seats": ["human", "random"], "seed": 11})
    assert reply.status_code == 201
    gid, tokens = reply.json()["id"], reply.json()["tokens"]
    # a game with only AI seats, still running when the server dies
    bots = first.client.post("/api/games", json={"game": "flowers", "seats": ["random", "random"], "seed": 5}).json()["id"]
    play_out(first.client, gid, tokens, seed=1, stop_after=9)
    # the human has just acted: wait for the AI's answer so the snapshot is stable
    deadline = time.monotonic() + 10
    while 0 not in first.client.get(f"/api/games/{gid}").json()["to_move"]:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    before = first.client.get(f"/api/games/{gid}", headers=auth(tokens["0"])).json()
    bots_before = first.client.get(f"/api/games/{bots}").json()["version"]
    first.kill()

    second = servers(db)
    after = second.client.get(f"/api/games/{gid}", headers=auth(tokens["0"])).json()
    assert after == before
    assert second.client.get(f"/api/games/{gid}", headers=auth("wrong")).status_code == 403
    # the AI-only game goes on by itself from where it was
    deadline = time.monotonic() + 60
    while (view := second.client.get(f"/api/games/{bots}").json())["status"] != "over":
        assert time.monotonic() < deadline, "the AI seats did not resume"
        time.sleep(0.05)
    assert view["version"] > bots_before
    # the human game continues to the end, and its record replays
    final = play_out(second.client, gid, tokens, seed=2)
    assert final["status"] == "over"
    record = second.client.get(f"/api/games/{gid}/record").json()
    assert [(a["seat"], a["action"]) for a in record["actions"][:len(before["log"])]] == \
        [(e["seat"], e["text"]) for e in before["log"]]
    assert Match.from_record(record).is_over
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    result = cli("replay", str(path))
    assert result.exit_code == 0, result.stdout
    assert "Game over" in result.stdout
