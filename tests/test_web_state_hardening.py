"""Issue 22, the server's state: AI time caps, variant size and time limits, quotas, expiry, corrupt rows, logs."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sqlite3
import time
import warnings

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")

from fastapi.testclient import TestClient  # noqa: E402

from tablepress.core.errors import DataError  # noqa: E402
from tablepress.core.registry import get_game  # noqa: E402
from tablepress.web import hub as hub_module  # noqa: E402
from tablepress.web.app import create_app  # noqa: E402
from tablepress.web.hub import DAY, Hub, HubFull, NotFound, QuotaExceeded, check_variant_size  # noqa: E402
from tablepress.web.logs import JsonLines  # noqa: E402
from tablepress.web.store import GameRow, open_store  # noqa: E402
from tablepress.web.thinking import OutOfTime, Thinker, capped, check_variant  # noqa: E402
from web_helpers import eventually  # noqa: E402


def run(coroutine):
    """Run a coroutine on a fresh event loop."""
    return asyncio.run(coroutine)


def stored(path) -> list[tuple]:
    """Every row of both tables, straight from the file."""
    with sqlite3.connect(path) as db:
        return db.execute("SELECT * FROM games ORDER BY id").fetchall() + db.execute("SELECT * FROM actions").fetchall()


def humans(hub: Hub, count: int = 1, client: str | None = None, **extra) -> list[str]:
    """Create `count` human-only Flowers games; their ids."""
    async def make():
        return [(await hub.create("flowers", ["human", "human"], {}, 7, client=client, **extra))[0].id
                for _ in range(count)]
    return run(make())


def row_of(hub: Hub, game_id: str) -> GameRow:
    """The stored row of one game."""
    return next(row for row in hub.store.load_games() if row.id == game_id)


@pytest.fixture
def hub(tmp_path):
    """A hub over a fresh database (no event loop running: AI seats stay still)."""
    store = open_store(tmp_path / "games.db")
    yield Hub(store, ai_delay=0.0)
    store.close()


# ----- 1. every AI decision is capped ------------------------------------------------------------
@pytest.mark.parametrize("spec, expected", [
    ("ismcts:4999s", "ismcts:10s"), ("ismcts:2s", "ismcts:2s"), ("ismcts:500ms", "ismcts:0.5s"),
    ("ismcts:999999", "ismcts:5000"), ("greedy:100000", "greedy:5000"), ("greedy:3", "greedy:3"), ("random", "random"),
    ("ismcts:" + "9" * 400 + "s", "ismcts:10s"), ("ismcts:" + "9" * 5000, "ismcts"),
    ("greedy:3s", "greedy"), ("random:99", "random"),
])
def test_every_budget_is_cut_to_the_servers_caps(spec, expected):
    assert capped(spec) == expected


def test_a_restored_seat_thinks_within_the_cap_whatever_its_stored_spec(tmp_path):
    store = open_store(tmp_path / "games.db")
    store.create_game(GameRow(id="old", game="flowers", players=2, options={"summer": False},
                              seats=["ismcts:4999s", "ismcts:99999"], names=["a", "b"], seed=1, variant=None,
                              token_hashes={}, created=time.time()))
    hub = Hub(store)
    hub.restore()
    asked: list[tuple] = []

    async def fake_run(job, *args, limit):
        asked.append((args[4], limit))
        return "whatever"

    hub.thinker.run = fake_run
    room = hub.rooms["old"]
    for seat in (0, 1):
        assert run(hub._choose(room, seat, room.match.state, 0)) == "whatever"
    assert asked == [("ismcts:10s", 12.0), ("ismcts:5000", 12.0)]
    store.close()


def test_a_decision_past_its_time_is_stopped_and_the_worker_goes_on(caplog):
    async def scenario():
        thinker = Thinker(workers=1, seconds=10.0, grace=0.5)
        game = get_game("flowers")
        state = game.new(2, 3)
        moves = random.Random(4)
        for _ in range(24):  # six cards in each area: a search iteration costs more than at the start
            mover = game.to_move(state)[0]
            game.apply_legal(state, mover, moves.choice(game.legal_actions(state, mover)))
        seat = game.to_move(state)[0]
        try:
            await thinker.choose(game, state, seat, "random", 1)
            await thinker.run(len, "warm", limit=60)  # the worker starts (imports) outside the limits below
            thinker.seconds = 0.1
            quick = await thinker.choose(game, state, seat, "ismcts:4999s", 1)  # cut to 0.1 s: answers in time
            # 5,000 iterations (the server's most) within a millisecond: no machine does that, so the decision
            # is stopped inside its worker by its alarm, whatever the machine's speed.
            thinker.seconds = 0.001
            with pytest.raises(OutOfTime):
                await thinker.choose(game, state, seat, "ismcts:5000", 1)
            pool = thinker._pool
            after = await thinker.choose(game, state, seat, "greedy", 1)
            return quick, after, pool is thinker._pool, game.legal_actions(state, seat)
        finally:
            thinker.close()

    quick, after, same_pool, legal = run(scenario())
    assert quick in legal and after in legal and same_pool


def test_a_worker_that_ignores_its_limit_is_killed_and_replaced():
    async def scenario():
        thinker = Thinker(workers=1, grace=0.5)
        try:
            await thinker.run(len, "warm", limit=60)
            with pytest.raises(OutOfTime):
                await thinker.run(time.sleep, 60, limit=0.5)  # no alarm inside: only the kill stops it
            return await thinker.run(len, "abc", limit=60)
        finally:
            thinker.close()

    assert run(scenario()) == 3


def test_an_ai_that_runs_out_of_time_plays_a_legal_move_and_logs_it(hub, caplog):
    async def late(*_args, **_kwargs):
        raise OutOfTime("stopped after 12 s")

    room, _ = run(hub.create("flowers", ["ismcts:5s", "human"], {}, 3))
    hub.thinker.choose = late
    caplog.set_level(logging.INFO, "tablepress.web")
    action = run(hub._choose(room, 0, room.match.state, 0))
    assert action in room.match.legal(0)
    lines = [json.loads(JsonLines().format(r)) for r in caplog.records]
    assert any(line["event"] == "ai_timeout" and line["game"] == room.id and line["agent"] == "ismcts:5s"
               and "duration" in line for line in lines)


# ----- 2. variants: size before building, time while checking ------------------------------------
@pytest.mark.parametrize("variant", [{"copies": {"4": 1_000_000}}, {"copies": {"4": 10**8}},
                                     {"copies": {"1": 100, "2": 100, "3": 100, "4": 100}}])
def test_a_variant_asking_for_too_many_cards_is_refused_before_anything_is_built(tmp_path, variant):
    app = create_app(tmp_path / "games.db", ai_delay=0.0)
    with TestClient(app) as client:
        reply = client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "variant": variant})
        assert reply.status_code == 422  # by the request's own limits, or else by the hub's card cap
        detail = reply.json()["detail"]
        assert "\n" not in detail and detail.startswith("variant")
        assert app.state.hub.rooms == {} and app.state.hub.thinker._pool is None  # no worker was even started
    assert stored(tmp_path / "games.db") == []


@pytest.mark.parametrize("name, variant", [
    ("flowers", {"copies": {"4": 300}}), ("pressed", {"flowers": {"Zinnia": {"copies": 1000}}}),
    ("by-this", {"specials": [{"name": "By This", "effect": "bythis", "copies": 41, "text": ""}]}),
    ("flowers", {"copies": {"4": float("inf")}}), ("flowers", {"copies": {"4": float("nan")}}),
])
def test_the_card_cap_is_ten_times_each_games_published_copies(name, variant):
    with pytest.raises(DataError, match="card copies come to over"):
        check_variant_size(get_game(name), variant)


def test_a_variant_within_the_cap_is_let_through():
    check_variant_size(get_game("flowers"), {"copies": {"1": 30, "2": 60, "3": 80, "4": 100}})


def test_a_variant_whose_check_takes_too_long_is_refused_and_stores_nothing(hub, tmp_path):
    async def scenario():
        await hub.checker.run(len, "warm", limit=60)
        hub.checker.seconds = 0.05
        try:
            await hub.create("planted", ["human", "human"], {}, 1, variant={"game": {"rounds": 1000}})
        finally:
            hub.checker.close()

    with pytest.raises(DataError, match=r"^variant: setting it up and playing one random game takes over 0.05 s"):
        run(scenario())
    assert hub.rooms == {} and stored(tmp_path / "games.db") == []


def test_running_out_of_memory_while_checking_a_variant_is_one_line(monkeypatch):
    def greedy_for_memory(*_args, **_kwargs):
        raise MemoryError

    monkeypatch.setattr("tablepress.web.thinking.apply_variant", greedy_for_memory)
    with pytest.raises(DataError, match="^variant: it needs more memory than this server gives a game$"):
        check_variant("flowers", {"copies": {"4": 12}}, 2, {})


def test_a_variant_check_past_its_limit_is_refused_even_where_no_alarm_stops_it():
    """Off the main thread the alarm cannot stop the check: it finishes, and is refused by its time."""
    import threading

    outcome: list[BaseException | None] = []

    def check() -> None:
        try:
            check_variant("planted", {"game": {"rounds": 1000}}, 2, {}, 0.001)
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - the outcome is what the test reads
            outcome.append(exc)

    worker = threading.Thread(target=check)
    worker.start()
    worker.join()
    assert isinstance(outcome[0], OutOfTime) and "over 0.001 s" in str(outcome[0])


# ----- 3. quotas, expiry and a bounded list ------------------------------------------------------
def test_a_client_may_keep_only_so_many_unfinished_games(hub, tmp_path, monkeypatch):
    monkeypatch.setattr(hub_module, "CLIENT_OPEN_GAMES", 2)
    humans(hub, 2, client="10.0.0.1")
    before = stored(tmp_path / "games.db")
    with pytest.raises(QuotaExceeded, match="^you have 2 unfinished games here, the most one client may"):
        humans(hub, 1, client="10.0.0.1")
    assert stored(tmp_path / "games.db") == before
    humans(hub, 1, client="10.0.0.2")
    humans(hub, 1)  # no address: only the server-wide caps


def test_the_daily_quota_counts_finished_games_and_survives_a_restart(hub, tmp_path, monkeypatch):
    monkeypatch.setattr(hub_module, "CLIENT_GAMES_A_DAY", 2)
    done = humans(hub, 2, client="10.0.0.1")
    hub.store.append_action(done[0], 0, 0, "x", "x", time.time(), status="over", scores=[0, 0], winners=[0])
    again = Hub(open_store(tmp_path / "games.db"))
    again.restore()
    with pytest.raises(QuotaExceeded, match="^you created 2 games in the last 24 hours"):
        humans(again, 1, client="10.0.0.1")
    again.store.close()


def test_quotas_answer_429_and_a_full_server_503_with_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(hub_module, "CLIENT_OPEN_GAMES", 1)
    app = create_app(tmp_path / "games.db", ai_delay=0.0)
    body = {"game": "flowers", "seats": ["human", "human"]}
    with TestClient(app) as client:
        assert client.post("/api/games", json=body).status_code == 201
        before = stored(tmp_path / "games.db")
        reply = client.post("/api/games", json=body)
        assert reply.status_code == 429 and "\n" not in reply.json()["detail"]
        monkeypatch.setattr(hub_module, "MAX_GAMES", 1)
        reply = client.post("/api/games", json=body)
        assert reply.status_code == 503 and reply.json()["detail"] == "this server already keeps 1 games; try again later"
        assert stored(tmp_path / "games.db") == before


def test_idle_and_old_games_expire_from_memory_and_store(hub, tmp_path):
    idle, finished = humans(hub, 2)
    hub.store.append_action(finished, 0, 0, "x", "x", time.time(), status="over", scores=[0, 0], winners=[0])
    room = hub.rooms.pop(finished)
    hub.archive[finished] = row_of(hub, finished)
    assert hub.expire(time.time() + 6 * DAY) == []
    assert hub.expire(time.time() + 8 * DAY) == [idle]
    assert idle not in hub.rooms and [r.id for r in hub.store.load_games()] == [finished]
    assert hub.expire(time.time() + 31 * DAY) == [finished]
    assert finished not in hub.archive and stored(tmp_path / "games.db") == []
    with pytest.raises(NotFound):
        run(hub.commit(room, 0, "anything"))


def test_a_game_kept_alive_by_actions_does_not_expire(hub):
    (gid,) = humans(hub)
    room = hub.rooms[gid]
    run(hub.act(room, 0, room.match.legal(0)[0]))
    with sqlite3.connect(hub.store.path) as db:
        db.execute("UPDATE games SET created = ?", (time.time() - 10 * DAY,))
    assert hub.expire() == [] and gid in hub.rooms


def test_expired_games_are_dropped_at_start(tmp_path):
    store = open_store(tmp_path / "games.db")
    store.create_game(GameRow(id="stale", game="flowers", players=2, options={"summer": False}, seats=["human", "human"],
                              names=["a", "b"], seed=1, variant=None, token_hashes={}, created=time.time() - 8 * DAY))
    hub = Hub(store)
    hub.restore()
    assert hub.rooms == {} and stored(tmp_path / "games.db") == []
    store.close()


def test_the_list_is_bounded_and_newest_first(hub, monkeypatch):
    ids = humans(hub, 5)
    monkeypatch.setattr(hub_module, "MAX_LISTED", 3)
    listed = [item["id"] for item in hub.summaries(hub_module.MAX_LISTED)]
    assert listed == ids[:-4:-1]


# ----- 5. a damaged database ---------------------------------------------------------------------
@pytest.mark.parametrize("column, value", [("options", "{bad json"), ("seed", "not a number"), ("seats", "5"),
                                           ("token_hashes", "[]"), ("created", "yesterday")])
def test_a_corrupt_row_is_logged_and_skipped_and_the_server_starts(tmp_path, caplog, column, value):
    db = tmp_path / "games.db"
    store = open_store(db)
    good, bad = humans(Hub(store), 2)
    store.close()
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, bad))
    caplog.set_level(logging.INFO, "tablepress.web")
    app = create_app(db, ai_delay=0.0)
    with TestClient(app) as client:
        assert client.get(f"/api/games/{good}").status_code == 200
        assert client.get(f"/api/games/{bad}").status_code == 404
        created = client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"]})
        assert created.status_code == 201 and created.json()["id"] != bad
    skipped = [json.loads(JsonLines().format(r)) for r in caplog.records if r.getMessage() == "row_skipped"]
    assert [line["game"] for line in skipped] == [bad] and "\n" not in skipped[0]["error"]


def test_a_dropped_actions_table_is_refused_in_one_line_and_nothing_is_touched(tmp_path, cli):
    db = tmp_path / "games.db"
    store = open_store(db)
    humans(Hub(store), 2)
    store.close()
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE actions")
    before = db.read_bytes()
    with pytest.raises(DataError, match=r"the actions table is missing while 2 games are stored"):
        open_store(db)
    result = cli("serve", "--port", "0", "--db", str(db))
    assert result.exit_code == 2
    message = (result.stderr or result.stdout).strip()
    assert "actions table is missing" in message and "\n" not in message and "Traceback" not in message
    assert db.read_bytes() == before
    with sqlite3.connect(db) as conn:
        tables = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "games" in tables and "actions" not in tables


def test_a_finished_game_that_lost_its_actions_is_not_served_from_turn_0(hub):
    (gid,) = humans(hub)
    hub.rooms.pop(gid)
    hub.store.append_action(gid, 0, 0, "x", "x", time.time(), status="over", scores=[0, 0], winners=[0])
    with sqlite3.connect(hub.store.path) as db:
        db.execute("DELETE FROM actions")
    hub.archive[gid] = row_of(hub, gid)
    with pytest.raises(NotFound, match="has lost some of its stored actions"):
        hub.room(gid)
    assert gid not in hub.rooms


# ----- structured logs ---------------------------------------------------------------------------
def test_server_logs_are_one_json_object_a_line_and_hold_no_token(tmp_path, caplog):
    caplog.set_level(logging.DEBUG, "tablepress.web")
    app = create_app(tmp_path / "games.db", ai_delay=0.0)
    with TestClient(app) as client:
        reply = client.post("/api/games", json={"game": "flowers", "seats": ["random", "human"], "seed": 3})
        gid, tokens = reply.json()["id"], reply.json()["tokens"]
        assert client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens['1']}"}).status_code == 200
        client.get(f"/api/games/{gid}", headers={"Authorization": "Bearer wrong"})
        assert eventually(lambda: any(r.getMessage() == "ai_move" for r in caplog.records)), "the AI never moved"
    lines = [JsonLines().format(r) for r in caplog.records]
    entries = [json.loads(line) for line in lines]
    assert all("\n" not in line for line in lines)
    assert {"game_created", "ai_move", "restored"} <= {e["event"] for e in entries}
    move = next(e for e in entries if e["event"] == "ai_move")
    assert move["game"] == gid and move["seat"] == 0 and move["agent"] == "random" and move["duration"] >= 0
    assert not any(tokens["1"] in line or "wrong" in line for line in lines)


def test_a_full_hub_refuses_before_building_anything(hub, monkeypatch):
    monkeypatch.setattr(hub_module, "MAX_OPEN_GAMES", 0)
    with pytest.raises(HubFull, match="^this server already runs 0 unfinished games"):
        humans(hub, 1, variant={"copies": {"4": 10**8}})
