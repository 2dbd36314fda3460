"""The store (tablepress/web/store): one interface, run against SQLite and a throwaway PostgreSQL; versioned
migrations, today's SQLite files upgraded in place, damaged files refused at start, corrupt rows skipped."""

from __future__ import annotations

import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from tablepress.core.errors import DataError
from tablepress.web.app import create_app
from tablepress.web.logs import JsonLines
from tablepress.web.store import LATEST, GameRow, Store, backend_of, hash_token, migrations, open_store
from tablepress.web.workshop_store import DONE, FAILED, QUEUED, RUNNING, WorkshopStore

TODAY = Path(__file__).parent / "data" / "store_schema_0.sql"
#: Seat 0's token of game 9ab3958eac in TODAY.
TODAY_TOKEN = "fhsYhJQpI0mg5qbve_P8F93sR8K7E9S-"


@pytest.fixture
def store(database_url):
    """A fresh store, once over SQLite and once over PostgreSQL."""
    opened = open_store(database_url)
    yield opened
    opened.close()


def raw(store: Store, sql: str, args: tuple = ()) -> list[tuple]:
    """Run SQL on the store's own database behind its back (to damage or age rows); the rows it gives."""
    with store._transaction(write=True) as tx:  # type: ignore[attr-defined]
        cursor = tx.execute(sql, args)
        return [tuple(row) for row in cursor.fetchall()] if cursor.description else []  # type: ignore[attr-defined]


def game(gid: str, created: float | None = None, **extra) -> GameRow:
    """A two-seat Flowers game row."""
    return GameRow(id=gid, game="flowers", players=2, options={"summer": False}, seats=["human", "greedy"],
                   names=["Ana", "Bot"], seed=2**63 - 1, variant=None, token_hashes={hash_token("t"): 0},
                   created=time.time() if created is None else created, **extra)


def skipped_rows(caplog) -> list[dict]:
    """The `row_skipped` log lines, as the server writes them."""
    return [json.loads(JsonLines().format(r)) for r in caplog.records if r.getMessage() == "row_skipped"]


# ----- one interface, both backends --------------------------------------------------------------
def test_games_and_actions_round_trip_with_a_revision_per_game(store):
    store.create_game(game("g1", variant_id="v1", client="10.0.0.1"))
    store.create_game(game("g2"))
    assert store.has("g1") and not store.has("nope")
    assert store.append_action("g1", 0, 0, "draw 1", "draw 1", 1.5) == 1
    assert store.append_action("g1", 1, 1, "place R4 0,-1", "place R4 0,-1", 2.5) == 2
    assert store.update_seats("g1", ["human", "random"], ["Ana", "AI"], {}) == 3
    assert store.append_action("g2", 0, 0, "x", "x", 3.0, status="over", scores=[3, 1], winners=[0]) == 1
    one, two = store.load_games()
    assert (one.id, one.seats, one.names, one.token_hashes, one.seed) == ("g1", ["human", "random"], ["Ana", "AI"], {},
                                                                           2**63 - 1)
    assert (one.count, one.revision, one.client, one.variant_id) == (2, 3, "10.0.0.1", "v1")
    assert one.actions == [(0, "draw 1", "draw 1", 1.5), (1, "place R4 0,-1", "place R4 0,-1", 2.5)]
    assert (two.status, two.scores, two.winners, two.count, two.actions) == ("over", [3, 1], [0], 1, [])
    assert store.load_actions("g2") == [(0, "x", "x", 3.0)]


def test_an_undo_removes_only_the_last_action_and_a_refused_one_changes_nothing(store):
    store.create_game(game("g"))
    for index in range(3):
        store.append_action("g", index, 0, f"a{index}", f"a{index}", float(index))
    with pytest.raises(RuntimeError, match="not its last"):
        store.delete_last_action("g", 1)
    assert [a[1] for a in store.load_actions("g")] == ["a0", "a1", "a2"] and store.load_games()[0].revision == 3
    assert store.delete_last_action("g", 2) == 4
    assert [a[1] for a in store.load_actions("g")] == ["a0", "a1"]


def test_expired_games_go_with_their_actions(store):
    store.create_game(game("idle", created=100.0))
    store.create_game(game("busy", created=100.0))
    store.append_action("busy", 0, 0, "x", "x", 900.0)
    store.create_game(game("over", created=100.0))
    store.append_action("over", 0, 0, "x", "x", 200.0, status="over", scores=[0, 0], winners=[0])
    assert store.expire(open_before=500.0, over_before=150.0) == ["idle"]
    assert sorted(store.expire(open_before=500.0, over_before=250.0)) == ["over"]
    assert [row.id for row in store.load_games()] == ["busy"] and store.load_actions("over") == []


def test_a_corrupt_game_row_is_logged_and_skipped(store, caplog):
    store.create_game(game("good"))
    store.create_game(game("bad"))
    raw(store, "UPDATE games SET options = ? WHERE id = ?", ("{bad json", "bad"))
    caplog.set_level(logging.INFO, "tablepress.web")
    assert [row.id for row in store.load_games()] == ["good"]
    (line,) = skipped_rows(caplog)
    assert line["game"] == "bad" and line["error"].startswith("JSONDecodeError") and "\n" not in line["error"]


def test_saved_variants(store):
    store.add_variant("v1", "flowers", "Fewer cans", "[cards]\n", {"Watering Can": {"copies": 0}}, "10.0.0.1")
    store.add_variant("v2", "flowers", "Second", "", {}, None)
    store.add_variant("v3", "pressed", "Other", "", {}, None)
    assert store.variant("v1") == {"id": "v1", "game": "flowers", "name": "Fewer cans", "toml": "[cards]\n",
                                   "overrides": {"Watering Can": {"copies": 0}}, "owner": None, "public": True}
    assert [v["id"] for v in store.variants_of("flowers", 10)] == ["v2", "v1"]
    assert [v["id"] for v in store.variants_of("flowers", 1)] == ["v2"]
    assert store.count_variants() == 3
    with pytest.raises(KeyError):
        store.variant("v9")


def test_a_private_variant_is_listed_to_its_maker_and_only_its_maker_deletes_or_lists_it(store):
    store.add_variant("v1", "flowers", "Mine", "", {}, None, owner="p:abc", public=False)
    store.add_variant("v2", "flowers", "Open", "", {}, None, owner="t:hash")
    assert [v["id"] for v in store.variants_of("flowers", 10)] == ["v2"]
    assert [(v["id"], v["public"], v["owner"]) for v in store.variants_of("flowers", 10, ["p:abc"])] == \
        [("v2", True, "t:hash"), ("v1", False, "p:abc")]
    assert not store.set_variant_public("v1", "t:hash", True) and not store.delete_variant("v1", "t:hash")
    assert store.variant("v1")["public"] is False
    assert store.set_variant_public("v1", "p:abc", True)
    assert [v["id"] for v in store.variants_of("flowers", 10)] == ["v2", "v1"]
    assert store.delete_variant("v1", "p:abc") and store.count_variants() == 1
    with pytest.raises(KeyError):
        store.variant("v1")


def test_migration_11_leaves_older_variants_listed_and_nobodys(database_url):
    store = open_store(database_url)
    store.add_variant("old", "flowers", "Old", "", {}, None)
    raw(store, "ALTER TABLE variants DROP COLUMN owner")
    raw(store, "ALTER TABLE variants DROP COLUMN public")
    raw(store, "DELETE FROM schema_version WHERE version >= 11")
    store.close()
    again = open_store(database_url)
    assert again.variant("old")["owner"] is None and again.variant("old")["public"] is True
    assert [v["id"] for v in again.variants_of("flowers", 10)] == ["old"] and again.check().ok
    again.close()


def test_a_corrupt_variant_is_not_found_and_logged(store, caplog):
    store.add_variant("v1", "flowers", "Fine", "", {}, None)
    store.add_variant("v2", "flowers", "Broken", "", {}, None)
    raw(store, "UPDATE variants SET overrides = ? WHERE id = ?", ("[1, 2", "v2"))
    caplog.set_level(logging.INFO, "tablepress.web")
    with pytest.raises(KeyError):
        store.variant("v2")
    assert store.variant("v1")["name"] == "Fine"
    assert [line["variant"] for line in skipped_rows(caplog)] == ["v2"]


def test_a_jobs_life_fenced_by_its_attempt(store):
    store.add_job("j1", {"game": "flowers", "arms": [{}]}, 10, "10.0.0.1")
    store.add_job("j2", {"game": "pressed", "arms": [{}]}, 4, None)
    assert store.job_ids(QUEUED) == ["j1", "j2"]
    assert store.count_jobs(QUEUED, RUNNING) == 2 and store.count_jobs(QUEUED, client="10.0.0.1") == 1
    first = store.start_job("j1")
    store.requeue("j1")
    second = store.start_job("j1")
    assert (first, second) == (1, 2) and store.job_ids(RUNNING) == ["j1"]
    store.progress("j1", first, 9)  # a worker left over from the first attempt changes nothing
    store.progress("j1", second, 5)
    assert store.job("j1")["done"] == 5 and store.report("j1") is None
    store.finish("j1", first, {"stale": True}, "<p>stale</p>")
    store.finish("j1", second, {"games": 10}, "<p>report</p>")
    job = store.job("j1")
    assert (job["status"], job["done"], job["summary"], job["attempt"]) == (DONE, 10, {"games": 10}, 2)
    assert store.report("j1") == "<p>report</p>"
    store.fail("j1", "too late")  # a finished job stays finished
    store.fail("j2", "the server stopped")
    assert (store.job("j1")["status"], store.job("j2")["status"], store.job("j2")["error"]) == \
        (DONE, FAILED, "the server stopped")
    assert store.forget_jobs(1) == 1 and store.count_jobs(DONE, FAILED) == 1
    with pytest.raises(KeyError):
        store.job("nope")
    with pytest.raises(KeyError):
        store.report("nope")


def test_a_corrupt_job_is_left_out_and_logged(store, caplog):
    store.add_job("good", {"game": "flowers"}, 1, None)
    store.add_job("bad", {"game": "flowers"}, 1, None)
    raw(store, "UPDATE sim_jobs SET request = ? WHERE id = ?", ("not json", "bad"))
    caplog.set_level(logging.INFO, "tablepress.web")
    assert store.job_ids(QUEUED) == ["good"]
    with pytest.raises(KeyError):
        store.job("bad")
    assert {line["job"] for line in skipped_rows(caplog)} == {"bad"}


def test_a_fresh_store_is_at_the_latest_schema_and_ready(store):
    rows = raw(store, "SELECT version, name FROM schema_version ORDER BY version")
    assert [version for version, _ in rows] == list(range(1, LATEST + 1))
    assert [name for _, name in rows] == [m.name for m in migrations.MIGRATIONS]
    readiness = store.check()
    assert readiness.ok and (readiness.version, readiness.expected, readiness.reason) == (LATEST, LATEST, "")


def test_a_store_behind_or_closed_is_not_ready(store):
    raw(store, "DELETE FROM schema_version WHERE version = ?", (LATEST,))
    behind = store.check()
    assert not behind.ok and behind.version == LATEST - 1 and f"needs {LATEST}" in behind.reason
    store.close()
    closed = store.check()
    assert not closed.ok and closed.version is None and "\n" not in closed.reason
    store.close()  # a second close does nothing


def test_a_database_newer_than_the_code_is_refused(database_url):
    store = open_store(database_url)
    raw(store, "INSERT INTO schema_version (version, name, applied) VALUES (?, ?, ?)", (LATEST + 1, "future", 0.0))
    assert not store.check().ok
    store.close()
    with pytest.raises(DataError, match=rf"schema is version {LATEST + 1}, newer than this tablepress knows"):
        open_store(database_url)


def test_migration_3_numbers_the_revisions_of_games_stored_before_it(database_url):
    store = open_store(database_url)
    store.create_game(game("g"))
    for index in range(4):
        store.append_action("g", index, 0, "x", "x", float(index))
    raw(store, "ALTER TABLE games DROP COLUMN revision")  # back to schema version 2
    raw(store, "DROP TABLE ai_leases")
    raw(store, "ALTER TABLE sim_jobs DROP COLUMN heartbeat")
    raw(store, "DELETE FROM schema_version WHERE version >= 3")
    store.close()
    again = open_store(database_url)
    assert again.load_games()[0].revision == 4 and again.check().ok
    assert again.append_action("g", 4, 0, "x", "x", 5.0) == 5
    again.close()


def test_the_web_app_serves_and_restores_games_from_either_backend(database_url):
    with TestClient(create_app(database_url, ai_delay=0.0)) as client:
        reply = client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 4})
        gid, tokens = reply.json()["id"], reply.json()["tokens"]
        seat = client.get(f"/api/games/{gid}").json()["to_move"][0]
        mover = {"Authorization": f"Bearer {tokens[str(seat)]}"}
        action = client.get(f"/api/games/{gid}", headers=mover).json()["legal_actions"][0]
        acted = client.post(f"/api/games/{gid}/actions", json={"action": action}, headers=mover)
        assert acted.status_code == 200, acted.text
        before = acted.json()
    with TestClient(create_app(database_url, ai_delay=0.0)) as client:
        again = client.get(f"/api/games/{gid}", headers=mover).json()
        assert [e["text"] for e in again["log"]] == [action] and again["log"] == before["log"]


def test_a_jobs_worker_opens_the_same_store_from_its_path(store):
    store.add_job("j", {"game": "flowers"}, 1, None)
    worker = WorkshopStore(store.path)
    try:
        assert worker.job("j")["status"] == QUEUED
    finally:
        worker.close()


# ----- PostgreSQL only ---------------------------------------------------------------------------
def test_an_unreachable_postgresql_is_refused_in_one_line_without_its_password(postgres):
    from pg_helpers import free_port

    url = f"postgresql://someone:secret@127.0.0.1:{free_port()}/nothing"
    with pytest.raises(DataError) as refused:
        open_store(url)
    message = str(refused.value)
    assert "cannot connect to PostgreSQL" in message and "secret" not in message and "\n" not in message
    assert message.startswith(f"postgresql://someone:***@127.0.0.1:")


def test_a_dropped_connection_is_made_again(postgres):
    import psycopg

    url = postgres.database()
    store = open_store(url)
    try:
        with psycopg.connect(postgres.url(), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                          (url.rsplit("/", 1)[1],))
        with pytest.raises(psycopg.OperationalError):
            store.count_variants()  # the call that meets the break fails, changing nothing
        assert store.count_variants() == 0 and store.check().ok
    finally:
        store.close()
        postgres.drop(url)


def serving(port: int, cwd: Path, env: dict[str, str]) -> tuple[subprocess.Popen, httpx.Client]:
    """`tablepress serve` on 127.0.0.1:`port` in a subprocess, once it answers; its process and a client."""
    exe = Path(sys.executable).with_name("tablepress")
    proc = subprocess.Popen([str(exe), "serve", "--host", "127.0.0.1", "--port", str(port), "--ai-delay", "0"],
                            cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
    deadline = time.monotonic() + 30
    while True:
        try:
            if client.get("/healthz").status_code == 200:
                return proc, client
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"the server did not start: {proc.communicate()[0]}")
        time.sleep(0.05)


def test_serve_over_postgresql_from_the_environment_survives_a_sigkill(postgres, tmp_path):
    from pg_helpers import free_port

    url = postgres.database()
    env = {**os.environ, "TABLEPRESS_DATABASE_URL": url}
    first, client = serving(free_port(), tmp_path, env)
    try:
        reply = client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 9}).json()
        gid, tokens = reply["id"], reply["tokens"]
        seat = client.get(f"/api/games/{gid}").json()["to_move"][0]
        mover = {"Authorization": f"Bearer {tokens[str(seat)]}"}
        action = client.get(f"/api/games/{gid}", headers=mover).json()["legal_actions"][0]
        assert client.post(f"/api/games/{gid}/actions", json={"action": action}, headers=mover).status_code == 200
    finally:
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        client.close()
    second, client = serving(free_port(), tmp_path, env)
    try:
        view = client.get(f"/api/games/{gid}", headers=mover).json()
        assert [entry["text"] for entry in view["log"]] == [action]
    finally:
        second.terminate()
        second.wait(timeout=10)
        client.close()
        postgres.drop(url)
    assert list(tmp_path.iterdir()) == []  # no SQLite file beside it: the games went to PostgreSQL


# ----- SQLite only: today's files, damaged files -------------------------------------------------
def today_file(tmp_path: Path, fresh: bool = True) -> Path:
    """A SQLite file as tablepress wrote it before schema versions (tests/data/store_schema_0.sql); `fresh`:
    its games' times moved to now, so that they do not expire."""
    path = tmp_path / "games.db"
    with sqlite3.connect(path) as db:
        db.executescript(TODAY.read_text())
        if fresh:
            db.execute("UPDATE games SET created = ?", (time.time(),))
            db.execute("UPDATE actions SET at = ?", (time.time(),))
    return path


def test_a_file_from_before_schema_versions_upgrades_in_place(tmp_path):
    path = today_file(tmp_path, fresh=False)
    store = open_store(path)
    assert store.check().ok
    games = {row.id: row for row in store.load_games()}
    assert set(games) == {"9ab3958eac", "7151340382"}
    flowers = games["9ab3958eac"]
    assert (flowers.count, flowers.revision, flowers.names, flowers.client) == (3, 3, ["Ana", "Bo"], "127.0.0.1")
    assert [a[1] for a in flowers.actions] == ["draw 1", "place R4 0,-1", "draw 1"]
    assert store.variant("0a1b2c3d4e5f")["overrides"] == {"Watering Can": {"copies": 0}}
    assert store.job("j2abc")["summary"] == {"game": "pressed", "games": 4} and store.job_ids(QUEUED) == ["j1abc"]
    store.close()


def test_an_upgraded_file_serves_its_games_to_their_old_tokens(tmp_path):
    path = today_file(tmp_path)
    with TestClient(create_app(path, ai_delay=0.0)) as client:
        view = client.get("/api/games/9ab3958eac", headers={"Authorization": f"Bearer {TODAY_TOKEN}"}).json()
        assert view["seat"] == 0 and [e["text"] for e in view["log"]] == ["draw 1", "place R4 0,-1", "draw 1"]
        assert client.get("/api/variants/0a1b2c3d4e5f").status_code == 200


def test_a_file_older_still_gains_the_columns_it_lacks(tmp_path):
    path = tmp_path / "games.db"
    with sqlite3.connect(path) as db:
        db.executescript(TODAY.read_text())
        for column in ("winners", "client", "variant_id"):
            db.execute(f"ALTER TABLE games DROP COLUMN {column}")
    store = open_store(path)
    (row, _) = sorted(store.load_games(), key=lambda r: r.id)[::-1]
    assert (row.id, row.client, row.winners, row.revision) == ("9ab3958eac", None, None, 3)
    store.close()


@pytest.mark.parametrize("content, reason", [
    (b"", "the file is empty, not a tablepress database"),
    (b"just some notes\n" * 100, "not a SQLite database"),
])
def test_an_empty_or_foreign_file_is_refused_and_left_alone(tmp_path, cli, content, reason):
    path = tmp_path / "games.db"
    path.write_bytes(content)
    with pytest.raises(DataError, match=reason):
        open_store(path)
    result = cli("serve", "--port", "0", "--db", str(path))
    message = (result.stderr or result.stdout).strip()
    assert result.exit_code == 2 and reason in message and "\n" not in message and "Traceback" not in message
    assert path.read_bytes() == content and sorted(p.name for p in tmp_path.iterdir()) == ["games.db"]


def test_garbage_in_the_middle_of_the_file_is_refused_at_start(tmp_path):
    path = tmp_path / "games.db"
    store = open_store(path)
    for index in range(300):
        store.create_game(game(f"g{index:03}"))
        store.append_action(f"g{index:03}", 0, 0, "draw 1" * 20, "draw 1" * 20, 1.0)
    store.close()
    data = bytearray(path.read_bytes())
    assert len(data) > 20 * 4096
    middle = len(data) // 4096 // 2 * 4096
    data[middle:middle + 4096] = bytes(range(256)) * 16
    path.write_bytes(bytes(data))
    with pytest.raises(DataError, match=r"games\.db: the database is damaged \(.+\); restore it from a backup"):
        open_store(path)
    assert path.read_bytes() == bytes(data)


# ----- where the store is ------------------------------------------------------------------------
@pytest.mark.parametrize("where, expected", [
    ("games.db", ("sqlite", "games.db")),
    ("sqlite:///games.db", ("sqlite", "games.db")),
    ("sqlite:////var/lib/tp/games.db", ("sqlite", "/var/lib/tp/games.db")),
    ("postgresql://tp@db.example:5432/tp", ("postgresql", "postgresql://tp@db.example:5432/tp")),
    ("postgres://tp@db/tp", ("postgresql", "postgres://tp@db/tp")),
    (Path("postgresql://x"), ("sqlite", "postgresql:/x")),
])
def test_a_location_names_its_backend(where, expected):
    assert backend_of(where) == expected


@pytest.mark.parametrize("where, reason", [("mysql://x@y/z", "unknown kind of database 'mysql'"),
                                           ("sqlite://games.db", "a SQLite URL is sqlite:///PATH"), ("", "not named")])
def test_a_location_that_names_no_backend_is_refused(where, reason):
    with pytest.raises(DataError, match=reason):
        backend_of(where)


def test_serve_takes_database_from_the_option_or_the_environment(cli, monkeypatch, tmp_path):
    from tablepress.web import server

    asked: list = []
    monkeypatch.setattr(server, "serve", lambda host, port, db, *args, **kw: asked.append(db))
    assert cli("serve", "--database", "postgresql://tp@db:5432/tp").exit_code == 0
    monkeypatch.setenv("TABLEPRESS_DATABASE_URL", "sqlite:///from-env.db")
    assert cli("serve").exit_code == 0
    assert cli("serve", "--db", str(tmp_path / "x.db")).exit_code == 0  # --db beats the environment
    monkeypatch.delenv("TABLEPRESS_DATABASE_URL")
    assert cli("serve").exit_code == 0
    assert [str(a) for a in asked] == ["postgresql://tp@db:5432/tp", "sqlite:///from-env.db", str(tmp_path / "x.db"),
                                       "tablepress.db"]
    both = cli("serve", "--database", "x.db", "--db", "y.db")
    assert both.exit_code == 2 and "not both" in (both.stderr or both.stdout)
