"""Persistence: `tablepress serve` as a subprocess, killed with SIGKILL mid-game, restarted on the same --db."""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from tablepress.core import records

from web_helpers import Server, auth, play_out

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


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
    bots = first.client.post("/api/games", json={"game": "flowers", "seats": ["greedy", "random"], "seed": 5}).json()["id"]
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
    assert after["revision"] > before["revision"]
    for volatile in ("revision", "can_undo"):  # undo history lives in memory only
        del after[volatile], before[volatile]
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
    assert records.from_record(record).is_over
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    result = cli("replay", str(path))
    assert result.exit_code == 0, result.stdout
    assert "Game over" in result.stdout


#: What `tablepress serve` says to people at start; every other line it prints is a JSON log entry.
ANNOUNCEMENTS = ("tablepress web app:", "friends on your network:", "share links, invites and QR codes use",
                 "believing X-Forwarded-For", "behind a reverse proxy")


def test_a_corrupt_row_is_skipped_at_start_and_the_log_is_json_lines(servers, tmp_path):
    db = tmp_path / "games.db"
    first = servers(db)
    good, bad = (first.client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"]}).json()["id"]
                 for _ in range(2))
    first.kill()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET options = '{not json' WHERE id = ?", (bad,))
    second = servers(db)
    assert second.client.get(f"/api/games/{good}").status_code == 200
    assert second.client.get(f"/api/games/{bad}").status_code == 404
    second.stop()
    lines = second.proc.stdout.read().splitlines()
    announced = [line for line in lines if not line.startswith("{")]
    assert announced and all(line.startswith(ANNOUNCEMENTS) for line in announced), announced
    entries = [json.loads(line) for line in lines if line.startswith("{")]
    assert any(e["event"] == "row_skipped" and e["game"] == bad and e["level"] == "error" for e in entries)
    assert any(e["event"] == "restored" and e["open"] == 1 for e in entries)
