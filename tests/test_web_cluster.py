"""Many processes, one site: two web apps over one store (SQLite and a throwaway PostgreSQL) serve the same
games; a write is conditional on the revision its process read, so of two acting at once one wins and the
other answers 409 with nothing lost."""

from __future__ import annotations

import asyncio
import os
import threading
import time

import pytest
from fastapi.testclient import TestClient

from tablepress.web.app import create_app
from tablepress.web.hub import MOVED_ON
from tablepress.web.store import GameRow, Stale, hash_token, open_store


def auth(token: str) -> dict[str, str]:
    """The Authorization header of a seat's token."""
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def store(database_url):
    """A fresh store, once over SQLite and once over PostgreSQL."""
    opened = open_store(database_url)
    yield opened
    opened.close()


@pytest.fixture
def two(database_url):
    """Two web apps over one store, as two server processes would be: their test clients."""
    with TestClient(create_app(database_url, ai_delay=0.0)) as a, TestClient(create_app(database_url, ai_delay=0.0)) as b:
        yield a, b


def row(gid: str) -> GameRow:
    """A two-seat Flowers game row."""
    return GameRow(id=gid, game="flowers", players=2, options={}, seats=["human", "human"], names=["A", "B"], seed=1,
                   variant=None, token_hashes={hash_token("t"): 0}, created=time.time())


def mover(client: TestClient, gid: str, tokens: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The header of the seat to move and its legal actions, as `client`'s process sees the game."""
    seat = client.get(f"/api/games/{gid}").json()["to_move"][0]
    header = auth(tokens[str(seat)])
    return header, client.get(f"/api/games/{gid}", headers=header).json()["legal_actions"]


def play_as_a_person(client: TestClient, gid: str, tokens: dict[str, str]) -> list[int]:
    """Look at the game and take the first legal action, looking again once after a 409 (as the table page
    does); the statuses of the attempts."""
    statuses: list[int] = []
    while not statuses or statuses == [409]:
        header, legal = mover(client, gid, tokens)
        statuses.append(client.post(f"/api/games/{gid}/actions", headers=header, json={"action": legal[0]}).status_code)
    return statuses


# ----- the store: compare-and-set ------------------------------------------------------------------
def test_a_write_at_an_old_revision_is_refused_and_changes_nothing(store):
    store.create_game(row("g"))
    assert store.append_action("g", 0, 0, "a", "a", 1.0, expect=0) == 1
    with pytest.raises(Stale, match="revision 1, not 0") as refused:
        store.append_action("g", 1, 1, "b", "b", 2.0, expect=0)
    assert refused.value.revision == 1
    with pytest.raises(Stale):
        store.update_seats("g", ["human", "greedy"], ["A", "B"], {}, expect=0)
    with pytest.raises(Stale):
        store.delete_last_action("g", 0, expect=0)
    kept = store.load_game("g")
    assert kept is not None and (kept.revision, kept.seats, [a[1] for a in kept.actions]) == (1, ["human", "human"], ["a"])
    assert store.delete_last_action("g", 0, expect=1) == 2
    with pytest.raises(Stale, match="no longer stored") as gone:
        store.append_action("nope", 0, 0, "a", "a", 1.0, expect=0)
    assert gone.value.revision is None and store.load_game("nope") is None


def test_a_game_is_read_with_only_the_actions_a_process_lacks(store):
    store.create_game(row("g"))
    for index, action in enumerate("abc"):
        store.append_action("g", index, index % 2, action, action.upper(), float(index), expect=index)
    since = store.load_since("g", 1)
    assert (since.revision, since.count, since.actions) == (3, 3, [(1, "b", "B", 1.0), (0, "c", "C", 2.0)])
    assert store.load_since("g", 3).actions == [] and store.load_since("g", 3).revision == 3
    assert store.load_since("g", 0).actions == store.load_game("g").actions and len(store.load_game("g").actions) == 3
    assert store.load_since("nope", 0) is None


def counting(monkeypatch, store, name: str) -> list[int]:
    """Count the calls of a store method (it still runs)."""
    calls: list[int] = []
    real = getattr(store, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(store, name, counted)
    return calls


def log_of(client: TestClient, gid: str) -> list[str]:
    """The game's log as `client`'s process tells it."""
    return [entry["text"] for entry in client.get(f"/api/games/{gid}").json()["log"]]


def caught_up(late: TestClient, first: TestClient, gid: str) -> bool:
    """Whether `late`'s process comes to tell the game as `first`'s does: over PostgreSQL by the announcement
    of the write, over SQLite (no announcements) when its hub is told to look."""
    hub = late.app.state.hub
    if hub.store.dialect.name == "sqlite":
        hub.refresh(hub.rooms[gid])
    deadline = time.monotonic() + 10
    while log_of(late, gid) != log_of(first, gid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_process_catches_up_on_appends_with_only_the_new_actions_and_on_an_undo_with_the_whole_game(two, monkeypatch):
    a, b = two
    created = a.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 7}).json()
    gid, tokens = created["id"], created["tokens"]
    stacks = b.get(f"/api/games/{gid}").json()["public"]["stacks"]  # b holds the game
    face_up = next(s["stack"] for s in stacks if s["face_up"])
    face_down = next(s["stack"] for s in stacks if not s["face_up"])
    whole = counting(monkeypatch, b.app.state.hub.store, "load_game")
    drawn = a.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": f"draw {face_up}"})
    assert drawn.status_code == 200 and drawn.json()["can_undo"] is True
    assert caught_up(b, a, gid) and log_of(b, gid) == [f"draw {face_up}"]
    assert whole == []  # an append: b read only the action it lacked
    assert a.post(f"/api/games/{gid}/undo", headers=auth(tokens["0"])).status_code == 200
    assert a.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]),
                  json={"action": f"draw {face_down}"}).status_code == 200
    assert caught_up(b, a, gid) and log_of(b, gid) == [f"draw {face_down}"]
    assert whole, "after an undo elsewhere (the counts add up, the revisions do not) b read the whole game"
    assert b.get(f"/api/games/{gid}").json()["version"] == a.get(f"/api/games/{gid}").json()["version"] == 1


# ----- two apps over one store ---------------------------------------------------------------------
def test_any_process_serves_a_game_another_created(two):
    a, b = two
    created = a.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 4}).json()
    gid, tokens = created["id"], created["tokens"]
    header, legal = mover(b, gid, tokens)
    assert b.post(f"/api/games/{gid}/actions", headers=header, json={"action": legal[0]}).status_code == 200
    assert a.get("/api/games/0123456789").status_code == 404


def test_the_second_of_two_processes_acting_on_one_game_gets_409_and_nothing_is_lost(two):
    a, b = two
    created = a.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 7}).json()
    gid, tokens = created["id"], created["tokens"]
    header, legal = mover(a, gid, tokens)
    assert mover(b, gid, tokens) == (header, legal)  # both processes now hold the game at the same revision
    assert a.post(f"/api/games/{gid}/actions", headers=header, json={"action": legal[0]}).status_code == 200
    late = b.post(f"/api/games/{gid}/actions", headers=header, json={"action": legal[-1]})
    assert late.status_code == 409, late.text
    if a.app.state.hub.store.dialect.name == "sqlite":  # PostgreSQL may have told b first: then the action is illegal
        assert late.json() == {"detail": MOVED_ON}
    stored = a.app.state.hub.store.load_game(gid)
    assert [action for _seat, action, _public, _at in stored.actions] == [legal[0]]
    # the process that lost now holds the game as stored, and the game goes on through either
    assert [e["text"] for e in b.get(f"/api/games/{gid}").json()["log"]] == [legal[0]]
    header, legal = mover(b, gid, tokens)
    assert b.post(f"/api/games/{gid}/actions", headers=header, json={"action": legal[0]}).status_code == 200
    assert play_as_a_person(a, gid, tokens) in ([409, 200], [200])  # [200] once a learns of b's move by itself
    assert len(a.app.state.hub.store.load_game(gid).actions) == 3


def test_two_processes_acting_at_the_same_moment_one_wins(two):
    a, b = two
    created = a.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 8}).json()
    gid, tokens = created["id"], created["tokens"]
    header, legal = mover(a, gid, tokens)
    mover(b, gid, tokens)
    replies: dict[str, int] = {}
    go = threading.Barrier(2)

    def act(name: str, client: TestClient, action: str) -> None:
        go.wait()
        replies[name] = client.post(f"/api/games/{gid}/actions", headers=header, json={"action": action}).status_code

    threads = [threading.Thread(target=act, args=("a", a, legal[0])), threading.Thread(target=act, args=("b", b, legal[-1]))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(replies.values()) == [200, 409]
    winner = legal[0] if replies["a"] == 200 else legal[-1]
    assert [action for _s, action, _p, _t in a.app.state.hub.store.load_game(gid).actions] == [winner]
    for client in (a, b):
        assert [e["text"] for e in client.get(f"/api/games/{gid}").json()["log"]] == [winner]


def test_an_undo_or_a_seat_change_that_another_process_overtakes_is_refused(two, monkeypatch):
    a, b = two
    created = a.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 7}).json()
    gid, tokens = created["id"], created["tokens"]
    header, legal = mover(b, gid, tokens)
    hub_b = b.app.state.hub
    real = hub_b.store.update_seats

    def overtaken(*args, **kwargs):
        """a's move lands between b's read of the game and b's write (forced here, a race in the wild)."""
        assert a.post(f"/api/games/{gid}/actions", headers=header, json={"action": legal[0]}).status_code == 200
        return real(*args, **kwargs)

    monkeypatch.setattr(hub_b.store, "update_seats", overtaken)
    handed = b.post(f"/api/games/{gid}/bot", headers=auth(tokens["1"]), json={"agent": "greedy"})
    assert handed.status_code == 409 and handed.json() == {"detail": MOVED_ON}
    stored = a.app.state.hub.store.load_game(gid)
    assert stored.seats == ["human", "human"] and [act for _s, act, _p, _t in stored.actions] == [legal[0]]
    assert [e["text"] for e in b.get(f"/api/games/{gid}").json()["log"]] == [legal[0]]  # b caught up at once


def seat_of(client: TestClient, gid: str, token: str) -> int | None:
    """The seat `token` opens at a game on `client`'s process once it has heard of the token (over PostgreSQL
    by the announcement of the write, over SQLite when its hub is told to look); None if it never does."""
    hub = client.app.state.hub
    deadline = time.monotonic() + 10
    while (reply := client.get(f"/api/games/{gid}", headers=auth(token))).status_code == 403:
        if time.monotonic() > deadline:
            return None
        if hub.store.dialect.name == "sqlite":
            hub.refresh(hub.rooms[gid])
        time.sleep(0.02)
    return reply.json()["seat"]


def test_a_rematch_asked_for_on_two_processes_is_one_game_with_a_token_per_seat(two):
    a, b = two
    created = a.post("/api/games", json={"game": "by-this", "seats": ["human", "human"], "seed": 5}).json()
    gid, tokens = created["id"], created["tokens"]
    while a.get(f"/api/games/{gid}").json()["status"] != "over":
        header, legal = mover(a, gid, tokens)
        a.post(f"/api/games/{gid}/actions", headers=header, json={"action": legal[0]})
    first = a.post(f"/api/games/{gid}/rematch", headers=auth(tokens["0"])).json()
    second = b.post(f"/api/games/{gid}/rematch", headers=auth(tokens["1"])).json()
    assert first["id"] == second["id"] and set(first["tokens"]) == {"0"} and set(second["tokens"]) == {"1"}
    new_id = first["id"]
    assert b.post(f"/api/games/{gid}/rematch", headers=auth(tokens["0"])).json() == first  # the same, anywhere
    assert b.get(f"/api/games/{gid}").json()["rematch"] == new_id
    for client in (a, b):
        for seat, token in ((0, first["tokens"]["0"]), (1, second["tokens"]["1"])):
            assert seat_of(client, new_id, token) == seat
        assert client.get(f"/api/games/{new_id}", headers=auth(tokens["0"])).status_code == 403
    stored = a.app.state.hub.store
    assert [row.id for row in stored.load_games()].count(new_id) == 1 and len(stored.load_games()) == 2


def test_chat_and_lobby_news_made_on_one_process_reach_the_other(two):
    a, b = two
    if a.app.state.hub.store.dialect.name == "sqlite":
        pytest.skip("only PostgreSQL announces news to other processes (one SQLite file serves one process)")
    tokens = []
    for name in ("Ana", "Bo"):
        tokens.append(a.post("/api/players", json={"name": name}).json()["token"])
        a.cookies.clear()
    b.portal.call(lambda: asyncio.wait_for(b.app.state.social.listening.wait(), 30))  # b hears announcements
    woken = asyncio_event_in(b)
    table = a.post("/api/tables", json={"game": "flowers", "players": 2}, headers=auth(tokens[0])).json()["id"]
    assert woken.wait(10), "b's lobby streams were not woken by a's new table"
    assert b.post(f"/api/tables/{table}/join", headers=auth(tokens[1])).json()["seat"] == 1
    gid = b.get(f"/api/tables/{table}").json()["game_id"]
    with b.websocket_connect(f"/ws/games/{gid}") as watcher:
        assert "status" in watcher.receive_json()  # the view first
        said = a.post(f"/api/games/{gid}/chat", headers=auth(tokens[0]), json={"text": "hello from a"})
        assert said.status_code == 201
        assert watcher.receive_json() == {"chat": said.json()}


def asyncio_event_in(client: TestClient) -> threading.Event:
    """A flag set once `client`'s process wakes its lobby streams (as a `GET /api/tables/events` stream waits)."""
    woken = threading.Event()
    social = client.app.state.social

    async def register() -> None:
        flag = asyncio.Event()
        social.lobby.add(flag)
        asyncio.get_running_loop().create_task(wait_and_tell(flag))

    async def wait_and_tell(flag: asyncio.Event) -> None:
        await flag.wait()
        social.lobby.discard(flag)
        woken.set()

    client.portal.call(register)
    return woken


# ----- two `tablepress serve` processes over one PostgreSQL ------------------------------------------
@pytest.fixture
def pair(postgres, tmp_path):
    """Two `tablepress serve` processes on 127.0.0.1 over one fresh PostgreSQL database."""
    from cluster_helpers import environment, serve

    url = postgres.database()
    env = environment(url)
    servers = [serve(env, tmp_path, "--ai-delay", "0"), serve(env, tmp_path, "--ai-delay", "0")]
    yield servers
    for server in servers:
        server.stop()
    postgres.drop(url)


def test_a_move_through_one_process_reaches_a_watcher_on_the_other(pair):
    from cluster_helpers import actions_of, next_view, seat_to_move

    a, b = pair
    created = a.client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 5}).json()
    gid, tokens = created["id"], created["tokens"]
    took: list[float] = []
    with b.watch(gid) as on_b, a.watch(gid) as on_a:
        assert next_view(on_b, lambda v: True)["version"] == 0
        next_view(on_a, lambda v: True)
        for acting, watcher in ((a, on_b), (b, on_a), (a, on_b)):
            header, legal = seat_to_move(acting, gid, tokens)
            count = len(actions_of([acting], gid)[0])
            started = time.monotonic()
            assert acting.client.post(f"/api/games/{gid}/actions", headers=header,
                                      json={"action": legal[0]}).status_code == 200
            view = next_view(watcher, lambda v: v["version"] > count)
            took.append(time.monotonic() - started)
            assert view["version"] == count + 1 and view["log"][-1]["text"] == legal[0]
    first, second = actions_of(pair, gid)
    assert first == second and len(first) == 3
    print(f"a move reached the other process's watcher in {', '.join(f'{t * 1000:.0f} ms' for t in took)}")
    # the game created through a is in b's lobby too
    assert gid in [game["id"] for game in b.client.get("/api/games").json()["games"]]


def test_a_game_between_two_ai_seats_is_played_once_whichever_processes_run_it(pair):
    from cluster_helpers import actions_of

    a, b = pair
    gid = a.client.post("/api/games", json={"game": "flowers", "seats": ["greedy", "random"], "seed": 2}).json()["id"]
    b.client.get(f"/api/games/{gid}")
    deadline = time.monotonic() + 120
    while a.client.get(f"/api/games/{gid}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the AI seats did not finish the game"
        time.sleep(0.1)
    first, second = actions_of(pair, gid)
    record = a.client.get(f"/api/games/{gid}/record").json()
    assert first == second == [entry["action"] for entry in record["actions"]]
    from tablepress.core import records

    assert records.from_record(record).is_over


def stored_actions(url: str, gid: str) -> list[tuple[int, int, str]]:
    """(index, seat, action) of a game's stored actions, read straight from PostgreSQL."""
    import psycopg

    with psycopg.connect(url) as conn:
        return [tuple(r) for r in conn.execute("SELECT idx, seat, action FROM actions WHERE game_id = %s ORDER BY idx",
                                               (gid,)).fetchall()]


def lease_holder(url: str, gid: str) -> str | None:
    """Who holds the game's AI lease (host:pid:nonce), read straight from PostgreSQL."""
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT holder FROM ai_leases WHERE game_id = %s", (gid,)).fetchone()
    return None if row is None else row[0]


@pytest.mark.parametrize("how", ["SIGKILL", "SIGSTOP"])
def test_the_process_thinking_for_an_ai_seat_dies_and_the_other_moves_it_exactly_once(postgres, tmp_path, how):
    """SIGKILL: the holder is gone, another takes over once its lease expires. SIGSTOP: the holder stalls past
    its lease and wakes after the other moved: its late move is refused (a write at an old revision)."""
    import signal

    from cluster_helpers import environment, serve, seat_to_move

    url = postgres.database()
    env = environment(url)
    servers = [serve(env, tmp_path, "--ai-delay", "0"), serve(env, tmp_path, "--ai-delay", "0")]
    try:
        created = servers[0].client.post("/api/games", json={"game": "flowers", "seats": ["human", "ismcts:4s"],
                                                             "seed": 3}).json()
        gid, tokens = created["id"], created["tokens"]
        servers[1].client.get(f"/api/games/{gid}")
        while 1 not in servers[0].client.get(f"/api/games/{gid}").json()["to_move"]:  # the person's turn
            header, legal = seat_to_move(servers[0], gid, tokens)
            assert servers[0].client.post(f"/api/games/{gid}/actions", headers=header,
                                          json={"action": legal[0]}).status_code == 200
        before = len(stored_actions(url, gid))
        deadline = time.monotonic() + 15
        while (holder := lease_holder(url, gid)) is None:
            assert time.monotonic() < deadline, "no process took the AI lease"
            time.sleep(0.02)
        pid = int(holder.split(":")[1])
        thinking = next(s for s in servers if s.proc.pid == pid)
        survivor = next(s for s in servers if s is not thinking)
        time.sleep(0.5)
        assert len(stored_actions(url, gid)) == before  # the AI is still thinking
        os.kill(pid, getattr(signal, how))
        killed = time.monotonic()
        while 0 not in survivor.client.get(f"/api/games/{gid}").json()["to_move"]:
            assert time.monotonic() - killed < 60, "the other process did not take the AI seat over"
            time.sleep(0.05)
        took_over = time.monotonic() - killed
        moved = stored_actions(url, gid)
        if how == "SIGSTOP":
            os.kill(pid, signal.SIGCONT)  # the stalled process finishes its thought late
            time.sleep(6)
            assert thinking.proc.poll() is None
        assert stored_actions(url, gid) == moved  # nothing written twice, nothing written late
        assert len(moved) > before and all(seat == 1 for _i, seat, _a in moved[before:])
        record = survivor.client.get(f"/api/games/{gid}").json()
        assert [e["text"] for e in record["log"]] == [a for _i, _s, a in moved]
        print(f"{how}: the other process moved the AI seat {took_over:.1f} s after the holder stopped")
    finally:
        for server in servers:
            if server.proc.poll() is None:
                os.kill(server.proc.pid, signal.SIGCONT)
            server.stop()
        postgres.drop(url)


# ----- serve --workers N ---------------------------------------------------------------------------
def test_several_workers_over_sqlite_are_refused_in_one_line(cli, tmp_path):
    result = cli("serve", "--port", "0", "--workers", "2", "--db", str(tmp_path / "games.db"))
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "--workers 2 needs PostgreSQL" in lines[0], result.output


def test_serve_with_two_workers_over_postgresql_serves_every_game_from_either(postgres, tmp_path):
    import httpx

    from cluster_helpers import environment, next_view, serve, seat_to_move

    url = postgres.database()
    site = serve(environment(url), tmp_path, "--workers", "2", "--ai-delay", "0",
                 "--public-url", "https://games.example.org", "--forwarded-allow-ips", "127.0.0.1")
    try:
        children = set()
        deadline = time.monotonic() + 30
        while len(children) < 2:  # uvicorn's supervisor and its two worker processes
            assert time.monotonic() < deadline, f"workers: {children}"
            children = set(open(f"/proc/{site.proc.pid}/task/{site.proc.pid}/children").read().split())
            time.sleep(0.1)
        created = site.client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 5}).json()
        gid, tokens = created["id"], created["tokens"]
        with site.watch(gid) as watcher:
            next_view(watcher, lambda v: True)
            for count in range(6):
                with httpx.Client(base_url=site.client.base_url, timeout=10) as fresh:  # a new connection each time
                    header, legal = seat_to_move(site, gid, tokens)
                    reply = fresh.post(f"/api/games/{gid}/actions", headers=header, json={"action": legal[0]})
                    assert reply.status_code in (200, 409), reply.text  # 409: that worker had not heard yet
                    if reply.status_code == 409:
                        continue
                    assert fresh.get("/api/catalog").json()["public_url"] == "https://games.example.org"
                view = next_view(watcher, lambda v, c=count: v["version"] >= 1 and v["log"][-1]["text"] == legal[0])
                assert view["id"] == gid
        logs = {tuple(e["text"] for e in site.client.get(f"/api/games/{gid}").json()["log"]) for _ in range(6)}
        assert len(logs) == 1  # every worker tells the same game
    finally:
        site.proc.terminate()
        assert site.proc.wait(timeout=30) == 0
        site.stop()
        postgres.drop(url)
