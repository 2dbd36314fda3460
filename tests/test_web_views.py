"""A seat's view, its hints and its JSON body are worked out once per game revision, never per request, and
a move (here or in another process over the same PostgreSQL) makes the next request serve the new view."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tablepress.web import rooms, views
from tablepress.web.app import create_app
from tablepress.web.views import MAX_VIEWS, ViewCache

GETS = 25


@pytest.fixture
def calls(monkeypatch) -> Counter:
    """How often views were built, hints worked out and bodies encoded (wrappers around the real ones)."""
    counted: Counter = Counter()

    def counting(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return real(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(rooms, "build_view", counting("view", rooms.build_view))
    monkeypatch.setattr(rooms, "hints", counting("hints", rooms.hints))
    monkeypatch.setattr(views, "encode", counting("encode", views.encode))
    return counted


def auth(token: str) -> dict[str, str]:
    """The Authorization header of a seat's token."""
    return {"Authorization": f"Bearer {token}"}


def new_game(client: TestClient) -> tuple[str, dict[str, str]]:
    """A two-person By This game: its id and tokens."""
    reply = client.post("/api/games", json={"game": "by-this", "seats": ["human", "human"], "seed": 3}).json()
    return reply["id"], reply["tokens"]


def mover(client: TestClient, gid: str, tokens: dict[str, str]) -> dict[str, str]:
    """The header of the seat to move."""
    return auth(tokens[str(client.get(f"/api/games/{gid}").json()["to_move"][0])])


def test_many_gets_of_one_seat_at_one_revision_work_the_view_out_once(client, calls):
    gid, tokens = new_game(client)
    header = mover(client, gid, tokens)
    calls.clear()
    replies = [client.get(f"/api/games/{gid}", headers=header) for _ in range(GETS)]
    assert {r.status_code for r in replies} == {200}
    assert len({r.content for r in replies}) == 1
    assert replies[0].headers["content-type"] == "application/json"
    assert replies[0].json()["hints"] and replies[0].json()["legal_actions"]
    assert calls == Counter(view=1, hints=1, encode=1)


def test_after_a_move_the_new_view_is_served_and_worked_out_once(client, calls):
    gid, tokens = new_game(client)
    header = mover(client, gid, tokens)
    before = client.get(f"/api/games/{gid}", headers=header).json()
    moved = client.post(f"/api/games/{gid}/actions", headers=header, json={"action": before["legal_actions"][0]})
    assert moved.status_code == 200
    calls.clear()
    after = [client.get(f"/api/games/{gid}", headers=header).json() for _ in range(GETS)]
    assert after[0] == moved.json()
    assert after[0]["revision"] > before["revision"] and len(after[0]["log"]) == len(before["log"]) + 1
    assert calls == Counter()  # the POST's reply was this revision's view: nothing worked out again
    spectator = client.get(f"/api/games/{gid}").json()
    assert spectator["revision"] == after[0]["revision"] and spectator["private"] == {}


def test_a_watcher_is_pushed_the_text_the_move_was_answered_with_encoded_once(client, calls):
    gid, tokens = new_game(client)
    header = mover(client, gid, tokens)
    token = header["Authorization"].split()[1]
    with client.websocket_connect(f"/ws/games/{gid}?token={token}") as socket:
        first = socket.receive_text()
        calls.clear()
        moved = client.post(f"/api/games/{gid}/actions", headers=header,
                            json={"action": json.loads(first)["legal_actions"][0]})
        assert socket.receive_text() == moved.text
    assert calls["encode"] == 1


def test_the_body_is_what_fastapi_would_have_sent(client):
    gid, tokens = new_game(client)
    header = mover(client, gid, tokens)
    reply = client.get(f"/api/games/{gid}", headers=header)
    assert reply.content == json.dumps(reply.json(), ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
    assert reply.headers["cache-control"] == "no-store"


def test_the_cache_holds_one_revision_and_a_bounded_number_of_seats():
    cache = ViewCache()
    built: list[int | None] = []

    def build(seat: int | None) -> Callable[[], dict[str, Any]]:
        return lambda: built.append(seat) or {"seat": seat}

    assert cache.get(1, 0, build(0)).view == {"seat": 0}
    assert cache.get(1, 0, build(0)).body == b'{"seat":0}'
    assert built == [0]
    cache.get(2, 0, build(0))
    assert built == [0, 0] and len(cache) == 1
    for seat in range(MAX_VIEWS + 5):
        cache.get(2, seat, build(seat))
    assert len(cache) == MAX_VIEWS
    cache.clear()
    assert len(cache) == 0


def newest(client: TestClient, gid: str, header: dict[str, str], revision: int, seconds: float = 30) -> dict[str, Any]:
    """GET the view until its revision is past `revision` (AssertionError after `seconds`: a guard against hangs)."""
    deadline = time.monotonic() + seconds
    while True:
        view = client.get(f"/api/games/{gid}", headers=header).json()
        if view["revision"] > revision:
            return view
        assert time.monotonic() < deadline, "the other process never served the move"
        time.sleep(0.02)


def test_a_move_through_another_process_is_served_here_and_never_the_old_view_after(postgres, calls):
    url = postgres.database()
    try:
        with TestClient(create_app(url, ai_delay=0.0)) as a, TestClient(create_app(url, ai_delay=0.0)) as b:
            gid, tokens = new_game(a)
            header = mover(b, gid, tokens)
            first = b.get(f"/api/games/{gid}", headers=header).json()
            calls.clear()
            assert all(b.get(f"/api/games/{gid}", headers=header).json() == first for _ in range(GETS))
            assert calls == Counter()
            moved = a.post(f"/api/games/{gid}/actions", headers=header, json={"action": first["legal_actions"][0]})
            assert moved.status_code == 200
            seen = newest(b, gid, header, first["revision"])
            assert [e["text"] for e in seen["log"]] == [e["text"] for e in moved.json()["log"]]
            assert (seen["to_move"], seen["legal_actions"]) == (moved.json()["to_move"], moved.json()["legal_actions"])
            later = [b.get(f"/api/games/{gid}", headers=header).json() for _ in range(GETS)]
            assert all(view == seen for view in later)
    finally:
        postgres.drop(url)


def until(check: Callable[[], Any], seconds: float = 30) -> Any:
    """Wait for `check()` to be true (AssertionError after `seconds`: a guard against hangs)."""
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.02)
    return found


def test_a_room_nobody_watches_here_is_brought_up_to_date_when_next_asked_for(postgres):
    url = postgres.database()
    try:
        here, there = create_app(url, ai_delay=0.0), create_app(url, ai_delay=0.0)
        with TestClient(here) as a, TestClient(there) as b:
            gid, tokens = new_game(a)
            header = mover(b, gid, tokens)  # read from the store there (its listener may not be up yet)
            before = a.get(f"/api/games/{gid}", headers=header).json()
            moved = a.post(f"/api/games/{gid}/actions", headers=header, json={"action": before["legal_actions"][0]})
            revision = until(lambda: there.state.hub._behind.get(gid))
            assert there.state.hub.rooms[gid].row.revision < revision  # not refreshed: nobody watches it there
            seen = b.get(f"/api/games/{gid}", headers=header).json()
            assert [e["text"] for e in seen["log"]] == [e["text"] for e in moved.json()["log"]]
            assert there.state.hub.rooms[gid].row.revision == revision and gid not in there.state.hub._behind
            with b.websocket_connect(f"/ws/games/{gid}") as socket:  # watched there now: refreshed at once
                json.loads(socket.receive_text())
                other = mover(a, gid, tokens)
                legal = a.get(f"/api/games/{gid}", headers=other).json()["legal_actions"]
                after = a.post(f"/api/games/{gid}/actions", headers=other, json={"action": legal[0]}).json()
                pushed = json.loads(socket.receive_text())
                assert len(pushed["log"]) == len(after["log"]) and pushed["private"] == {}
    finally:
        postgres.drop(url)
