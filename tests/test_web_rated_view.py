"""A game's view says whether it is rated while it is played (`rated`), not only once its ratings moved: a rated
lobby table of two people is, an unrated one, one person against an AI and a game made without a table are
not; the mark survives a restart (read from the store) and reaches another process over PostgreSQL."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from tablepress.web.app import create_app

from web_helpers import auth


def new_player(client: TestClient, name: str) -> dict:
    """A player made over the API (the client's cookies forgotten after)."""
    reply = client.post("/api/players", json={"name": name})
    assert reply.status_code == 201, reply.text
    client.cookies.clear()
    return reply.json()


def begun(client: TestClient, people: list[dict], ai: dict[str, str] | None = None,
          rated: bool | None = None) -> str:
    """The id of a Pressed game a lobby table of `people` (and `ai` seats) began."""
    body = {"game": "pressed", "players": len(people) + len(ai or {}), "ai": ai or {}}
    if rated is not None:
        body["rated"] = rated
    made = client.post("/api/tables", json=body, headers=auth(people[0]["token"]))
    assert made.status_code == 201, made.text
    for person in people[1:]:
        assert client.post(f"/api/tables/{made.json()['id']}/join", headers=auth(person["token"])).status_code == 200
    game_id = client.get(f"/api/tables/{made.json()['id']}").json().get("game_id")
    assert game_id, "the table's game did not begin"
    return game_id


def seated_view(client: TestClient, game_id: str, token: str, timeout: float = 20.0) -> dict:
    """The token's view once this process knows the token's seat (another process may have given it)."""
    deadline = time.monotonic() + timeout
    while True:
        reply = client.get(f"/api/games/{game_id}", headers=auth(token))
        if reply.status_code == 200:
            return reply.json()
        assert reply.status_code == 403 and time.monotonic() < deadline, reply.text
        time.sleep(0.02)


@pytest.mark.parametrize("rated", [None, False])
def test_a_lobby_tables_game_says_whether_it_is_rated_from_its_first_view(client, rated):
    ada, bo = new_player(client, "Ada"), new_player(client, "Bo")
    game_id = begun(client, [ada, bo], rated=rated)
    for headers in (auth(ada["token"]), auth(bo["token"]), {}):  # each seat and a spectator
        view = client.get(f"/api/games/{game_id}", headers=headers).json()
        assert view["status"] == "playing" and view["rated"] is (rated is None)
    assert client.get(f"/api/games/{game_id}/ratings").json()["rated"] is (rated is None)


def test_one_person_against_an_ai_and_a_game_without_a_table_are_unrated(client):
    ada = new_player(client, "Ada")
    alone = begun(client, [ada], ai={"1": "random"})
    made = client.post("/api/games", json={"game": "pressed", "seats": ["human", "human"], "seed": 1}).json()
    for game_id in (alone, made["id"]):
        assert client.get(f"/api/games/{game_id}").json()["rated"] is False


def test_the_rated_mark_is_read_back_from_the_store_after_a_restart(tmp_path):
    where = tmp_path / "games.db"
    with TestClient(create_app(where, ai_delay=0.0)) as first:
        ada, bo = new_player(first, "Ada"), new_player(first, "Bo")
        rated, unrated = begun(first, [ada, bo]), begun(first, [ada, bo], rated=False)
    with TestClient(create_app(where, ai_delay=0.0)) as again:
        assert again.get(f"/api/games/{rated}").json()["rated"] is True
        assert again.get(f"/api/games/{unrated}").json()["rated"] is False


def test_another_process_over_postgresql_sees_the_game_rated(postgres):
    url = postgres.database()
    try:
        with TestClient(create_app(url, ai_delay=0.0)) as a, TestClient(create_app(url, ai_delay=0.0)) as b:
            ada, bo = new_player(a, "Ada"), new_player(b, "Bo")
            made = a.post("/api/tables", json={"game": "pressed", "players": 2}, headers=auth(ada["token"])).json()
            game_id = b.post(f"/api/tables/{made['id']}/join", headers=auth(bo["token"])).json()["game_id"]
            for client, token in ((a, ada["token"]), (b, bo["token"])):
                view = seated_view(client, game_id, token)  # a learns the seats from b's announcement
                assert view["rated"] is True
    finally:
        postgres.drop(url)
