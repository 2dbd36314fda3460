"""Your-turn notices (web/turns.py): the stream of a player's games says where it is their turn, with the
turn clock's deadline, whichever device asks (a second one signed in by a one-time link, by its cookie alone)
and whichever server process the game moved on in (two apps over one PostgreSQL)."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from tablepress.web import turns

from clock_helpers import CLOCK, FakeTime, app, fake, served, table_game  # noqa: F401 - fixtures
from web_helpers import auth


@pytest.fixture(autouse=True)
def one_look(monkeypatch):
    """Each stream looks once and ends (the browser's EventSource would open it again)."""
    monkeypatch.setattr(turns, "STREAM_SECONDS", 0)


def told(client: TestClient, token: str | None = None) -> list[dict]:
    """The `games` events of one stream of the player (its token, else the client's cookie)."""
    reply = client.get("/api/players/me/events", headers=auth(token) if token else {})
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/event-stream")
    events = [block for block in reply.text.split("\n\n") if block.startswith("event: games\n")]
    return [json.loads(block.split("data: ", 1)[1]) for block in events]


def test_the_stream_marks_the_games_where_it_is_your_turn_with_the_clocks_deadline(client, fake):
    gid, tokens = table_game(client)
    mover = client.get(f"/api/games/{gid}").json()["to_move"][0]
    [mine] = told(client, tokens[mover])
    assert mine["your_turn"] == 1 and mine["now"] == fake.now
    assert [(g["id"], g["your_turn"], g["deadline"]) for g in mine["games"]] == [(gid, True, fake.now + CLOCK)]
    [theirs] = told(client, tokens[1 - mover])
    assert theirs["your_turn"] == 0 and [(g["id"], g["your_turn"]) for g in theirs["games"]] == [(gid, False)]
    assert "deadline" not in theirs["games"][0]


def test_a_game_without_a_clock_is_marked_without_a_deadline(client):
    gid, tokens = table_game(client, clock=None)
    mover = client.get(f"/api/games/{gid}").json()["to_move"][0]
    [mine] = told(client, tokens[mover])
    assert mine["your_turn"] == 1 and mine["games"][0]["deadline"] is None


def test_a_second_device_signed_in_by_a_one_time_link_is_told_by_its_cookie(client):
    gid, tokens = table_game(client)
    mover = client.get(f"/api/games/{gid}").json()["to_move"][0]
    link = client.post("/api/players/me/link", headers=auth(tokens[mover])).json()["url"]
    client.cookies.clear()  # the other device: no cookie, no token
    assert client.get("/api/players/me/events").status_code == 403
    assert client.post("/api/players/link", json={"code": link.rsplit("/", 1)[1]}).status_code == 200
    [there] = told(client)  # by the cookie the link set
    assert there["your_turn"] == 1 and there["games"][0]["id"] == gid


def test_the_stream_needs_a_player(client):
    assert client.get("/api/players/me/events").status_code == 403
    assert client.get("/api/players/me/events", headers=auth("nobody")).status_code == 403


def test_a_move_made_through_one_process_is_told_by_the_other(postgres, fake):
    url = postgres.database()
    try:
        with TestClient(served(url, fake)) as a, TestClient(served(url, fake)) as b:
            gid, tokens = table_game(a)
            mover = a.get(f"/api/games/{gid}").json()["to_move"][0]
            waiting = tokens[1 - mover]
            assert told(b, waiting)[0]["your_turn"] == 0
            while a.get(f"/api/games/{gid}").json()["to_move"] == [mover]:  # the mover plays its turn through a
                action = a.get(f"/api/games/{gid}", headers=auth(tokens[mover])).json()["legal_actions"][0]
                assert a.post(f"/api/games/{gid}/actions", headers=auth(tokens[mover]),
                              json={"action": action}).status_code == 200
            [now] = told(b, waiting)
            assert now["your_turn"] == 1 and now["games"][0]["your_turn"] is True
            assert now["games"][0]["deadline"] == fake.now + CLOCK
    finally:
        postgres.drop(url)
