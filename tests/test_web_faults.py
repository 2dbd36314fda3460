"""A store that cannot write (a full disk, a locked database): one clear JSON line, one log line, nothing
changed; once the store writes again every game goes on by itself, AI seats included."""

from __future__ import annotations

import errno
import logging
import sqlite3
import time
import warnings

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")

from fastapi.testclient import TestClient  # noqa: E402

from tablepress.web import faults  # noqa: E402
from tablepress.web.app import create_app  # noqa: E402

from web_helpers import auth  # noqa: E402

FULL = sqlite3.OperationalError("database or disk is full")


def stored(path) -> list[tuple]:
    """Every row of the games and actions tables, straight from the file."""
    with sqlite3.connect(path) as db:
        return db.execute("SELECT * FROM games ORDER BY id").fetchall() + db.execute(
            "SELECT * FROM actions ORDER BY game_id, idx").fetchall()


def failing(error: BaseException):
    """A store write that raises `error`."""
    def write(*_args, **_kwargs):
        raise error
    return write


def store_lines(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.getMessage() == "store_failed"]


@pytest.fixture
def served(tmp_path):
    app = create_app(tmp_path / "games.db", ai_delay=0.0)
    with TestClient(app) as client:
        yield app, client, tmp_path / "games.db"


@pytest.mark.parametrize("error, status", [
    (FULL, 507),
    (OSError(errno.ENOSPC, "No space left on device"), 507),
    (sqlite3.OperationalError("database is locked"), 503),
])
def test_a_move_the_store_cannot_write_is_answered_in_one_line_and_changes_nothing(served, monkeypatch, caplog,
                                                                                    error, status):
    app, client, path = served
    created = client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 3}).json()
    game_id, token = created["id"], created["tokens"]["0"]
    view = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
    action = view["legal_actions"][0]
    before, rows = view, stored(path)
    store = app.state.hub.store
    monkeypatch.setattr(store, "append_action", failing(error))
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="tablepress.web"):
        reply = client.post(f"/api/games/{game_id}/actions", headers=auth(token), json={"action": action})
    assert reply.status_code == status
    assert set(reply.json()) == {"detail"} and "\n" not in reply.json()["detail"]
    assert ("disk is full" in reply.json()["detail"]) == (status == 507)
    assert len(store_lines(caplog)) == 1 and not any(r.exc_info for r in caplog.records)
    assert client.get(f"/api/games/{game_id}", headers=auth(token)).json() == before
    assert stored(path) == rows
    monkeypatch.undo()  # space returns: the same move goes through
    reply = client.post(f"/api/games/{game_id}/actions", headers=auth(token), json={"action": action})
    assert reply.status_code == 200 and len(stored(path)) == len(rows) + 1


def test_a_new_game_on_a_full_disk_is_507_not_the_clients_fault_and_stores_nothing(served, monkeypatch, caplog):
    app, client, path = served
    hub = app.state.hub
    made = lambda: {client: times for client, times in hub.created_by.items() if times}  # noqa: E731
    rows, rooms, created_by = stored(path), dict(hub.rooms), made()
    monkeypatch.setattr(hub.store, "create_game", failing(FULL))
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="tablepress.web"):
        reply = client.post("/api/games", json={"game": "flowers", "seats": ["human", "random"]})
    assert reply.status_code == 507 and set(reply.json()) == {"detail"}
    assert "disk is full" in reply.json()["detail"]
    assert len(store_lines(caplog)) == 1
    assert stored(path) == rows and hub.rooms == rooms and made() == created_by
    monkeypatch.undo()
    assert client.post("/api/games", json={"game": "flowers", "seats": ["human", "random"]}).status_code == 201


def test_an_ai_game_goes_on_by_itself_once_space_returns(served, monkeypatch):
    app, client, path = served
    monkeypatch.setattr(faults, "FIRST_RETRY", 0.02)
    monkeypatch.setattr(faults, "LONGEST_RETRY", 0.1)
    store = app.state.hub.store
    real = store.append_action
    attempts = []

    def full(*args, **kwargs):
        attempts.append(time.monotonic())
        raise FULL

    monkeypatch.setattr(store, "append_action", full)
    game_id = client.post("/api/games", json={"game": "flowers", "seats": ["random", "random"], "seed": 5}).json()["id"]
    deadline = time.monotonic() + 10
    while len(attempts) < 5 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(attempts) >= 5, "the AI seat stopped trying"
    room = app.state.hub.rooms[game_id]
    assert room.match.moves == [] and room.error is None
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone() == (0,)
    monkeypatch.setattr(store, "append_action", real)  # space returns
    deadline = time.monotonic() + 60
    while not room.match.is_over and time.monotonic() < deadline:
        time.sleep(0.05)
    assert room.match.is_over, "the AI game stayed frozen after space returned"
    assert client.get(f"/api/games/{game_id}/record").status_code == 200


def test_the_retry_pause_grows_and_is_bounded():
    pauses = [faults.backoff(n) for n in range(1, 12)]
    assert pauses == sorted(pauses) and pauses[0] == faults.FIRST_RETRY and pauses[-1] == faults.LONGEST_RETRY


@pytest.mark.parametrize("error, full", [
    (FULL, True), (OSError(errno.ENOSPC, "No space left on device"), True),
    (sqlite3.OperationalError("database is locked"), False), (OSError(errno.EIO, "I/O error"), False),
])
def test_store_failures_are_told_apart(error, full):
    assert faults.store_error(error) and faults.out_of_space(error) == full


def test_a_bug_is_not_mistaken_for_a_store_failure():
    with pytest.raises(KeyError):
        with faults.writing("action"):
            raise KeyError("a bug")


@pytest.mark.parametrize("path", ["/api/games", "/api/variants", "/api/simulations"])
def test_a_client_that_drops_mid_body_leaves_no_traceback_and_nothing_stored(tmp_path, caplog, path):
    import asyncio

    app = create_app(tmp_path / "games.db", ai_delay=0.0)
    rows = stored(tmp_path / "games.db")
    messages = [{"type": "http.request", "body": b'{"game": "flo', "more_body": True}, {"type": "http.disconnect"}]
    sent: list[dict] = []

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"content-type", b"application/json"), (b"content-length", b"1000")],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000)}
    with caplog.at_level(logging.INFO):
        asyncio.run(app(scope, receive, send))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    start = next(m for m in sent if m["type"] == "http.response.start")
    assert 400 <= start["status"] < 500
    assert stored(tmp_path / "games.db") == rows
    app.state.hub.store.close()
