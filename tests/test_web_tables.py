"""The lobby over the API: tables created, listed, joined and begun as games whose seats take the players'
tokens and names; full, private and stale tables, and bad bodies, answered in one line with nothing changed."""

from __future__ import annotations

import json

import pytest

from web_helpers import auth, player


def stored(client) -> tuple:
    """Tables, seats, players' games and games as stored: what a refusal must leave as it was."""
    with client.app.state.hub.store._transaction() as tx:
        return tuple(sorted(tuple(r) for r in tx.execute(sql).fetchall()) for sql in (
            "SELECT id, game_id, touched FROM lobby_tables", "SELECT table_id, seat, player_id FROM lobby_seats",
            "SELECT player_id, game_id, seat FROM player_games", "SELECT id, revision FROM games"))


def test_a_table_fills_and_begins_a_game_where_each_players_token_is_its_seat_token(client, app):
    ana, bo = player(client, "Ana"), player(client, "Bo")
    reply = client.post("/api/tables", json={"game": "flowers", "players": 2}, headers={**auth(ana), "Host": "evil.example"})
    assert reply.status_code == 201
    table = reply.json()
    assert table["invite"] == f"{app.state.public_url}/?table={table['id']}"
    listed = client.get("/api/tables").json()
    assert [(t["id"], t["seated"], t["open_seats"]) for t in listed] == [(table["id"], ["Ana", None], 1)]
    assert set(listed[0]) >= {"id", "game", "players", "seated", "open_seats", "options"}
    assert "game_id" not in client.get(f"/api/tables/{table['id']}").json()
    assert client.post(f"/api/tables/{table['id']}/join", headers=auth(bo)).json()["seat"] == 1
    begun = client.get(f"/api/tables/{table['id']}", headers=auth(ana)).json()
    assert begun["you"] == 0 and begun["status"] == "playing" and client.get("/api/tables").json() == []
    game_id = begun["game_id"]
    for token, seat in ((ana, 0), (bo, 1)):
        view = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
        assert (view["seat"], view["names"]) == (seat, ["Ana", "Bo"])
    mover = client.get(f"/api/games/{game_id}").json()["to_move"][0]
    token = (ana, bo)[mover]
    action = client.get(f"/api/games/{game_id}", headers=auth(token)).json()["legal_actions"][0]
    assert client.post(f"/api/games/{game_id}/actions", headers=auth(token), json={"action": action}).status_code == 200
    games = client.get("/api/players/me", headers=auth(token)).json()["games"]
    assert [(g["id"], g["status"]) for g in games] == [(game_id, "playing")]


def test_a_table_of_ai_seats_begins_at_once_with_its_ai(client):
    ana = player(client, "Ana")
    table = client.post("/api/tables", json={"game": "flowers", "players": 2, "ai": {"1": "random"}}, headers=auth(ana)).json()
    begun = client.get(f"/api/tables/{table['id']}").json()
    view = client.get(f"/api/games/{begun['game_id']}", headers=auth(ana)).json()
    assert view["seats"] == ["human", "random"] and view["names"][0] == "Ana"


def test_a_full_table_refuses_another_player_and_changes_nothing(client):
    ana, bo, cy = player(client, "Ana"), player(client, "Bo"), player(client, "Cy")
    tid = client.post("/api/tables", json={"game": "flowers", "players": 2}, headers=auth(ana)).json()["id"]
    again = client.post(f"/api/tables/{tid}/join", headers=auth(ana))
    assert again.status_code == 409 and again.json()["detail"] == "you already sit at this table"
    client.post(f"/api/tables/{tid}/join", headers=auth(bo))
    before = stored(client)
    reply = client.post(f"/api/tables/{tid}/join", headers=auth(cy))
    assert reply.status_code == 409 and "every seat is taken" in reply.json()["detail"]
    assert stored(client) == before


def test_a_private_table_is_not_listed_but_opens_by_its_invite(client):
    ana, bo = player(client, "Ana"), player(client, "Bo")
    table = client.post("/api/tables", json={"game": "flowers", "players": 2, "private": True}, headers=auth(ana)).json()
    assert client.get("/api/tables").json() == []
    assert client.get(f"/api/tables/{table['id']}").json()["private"] is True
    assert client.post(f"/api/tables/{table['id']}/join", headers=auth(bo)).json()["seat"] == 1


def test_a_stale_table_expires_and_nothing_else_changes(client):
    ana, bo = player(client, "Ana"), player(client, "Bo")
    tid = client.post("/api/tables", json={"game": "flowers", "players": 2}, headers=auth(ana)).json()["id"]
    with client.app.state.hub.store._transaction(write=True) as tx:
        tx.execute("UPDATE lobby_tables SET touched = touched - 1801")
    assert client.get("/api/tables").json() == []
    before = stored(client)
    for reply in (client.get(f"/api/tables/{tid}"), client.post(f"/api/tables/{tid}/join", headers=auth(bo))):
        assert reply.status_code == 404 and "nobody joined it for 30 minutes and it expired" in reply.json()["detail"]
    assert stored(client) == before and before[0] == [] and before[3] == []


@pytest.mark.parametrize("body, status, reason", [
    ({"game": "chess", "players": 2}, 422, "game: no game 'chess'"),
    ({"game": "flowers", "players": 9}, 422, "players: a whole number from"),
    ({"game": "flowers", "players": 2, "ai": {"0": "random"}}, 422, "seat 0 is yours"),
    ({"game": "flowers", "players": 2, "ai": {"1": "human"}}, 422, "people take seats by joining"),
    ({"game": "flowers", "players": 2, "ai": {"1": "no-such-ai"}}, 422, "no-such-ai"),
    ({"game": "flowers", "players": 2, "ai": {"1": "ismcts:many"}}, 422, "ai.1"),
    ({"game": "flowers", "players": 2, "private": "yes"}, 422, "private: must be true or false"),
    ({"game": "flowers", "players": 2, "clock": 1}, 422, "clock: seconds per player"),
    ({"game": "flowers", "players": 2, "options": {"nope": 1}}, 422, "options:"),
    ("flowers", 422, "must be a JSON object"),
])
def test_a_bad_table_is_refused_in_one_line_and_nothing_is_stored(client, body, status, reason):
    ana = player(client, "Ana")
    before = stored(client)
    reply = client.post("/api/tables", json=body, headers=auth(ana))
    assert reply.status_code == status and reason in reply.json()["detail"]
    assert stored(client) == before


def test_tables_need_a_players_token(client):
    ana = player(client, "Ana")
    tid = client.post("/api/tables", json={"game": "flowers", "players": 2}, headers=auth(ana)).json()["id"]
    before = stored(client)
    for headers in ({}, auth("wrong")):
        assert client.post("/api/tables", json={"game": "flowers", "players": 2}, headers=headers).status_code == 403
        assert client.post(f"/api/tables/{tid}/join", headers=headers).status_code == 403
    assert stored(client) == before
    assert client.post("/api/tables/nope/join", headers=auth(ana)).status_code == 404


def test_the_lobby_streams_of_a_process_read_the_tables_once_per_change(client, monkeypatch):
    from types import SimpleNamespace

    from tablepress.web import tables

    request = SimpleNamespace(app=client.app)
    store, social = client.app.state.hub.store, client.app.state.social
    reads: list[int] = []
    real = store.open_tables
    monkeypatch.setattr(store, "open_tables", lambda limit: reads.append(1) or real(limit))
    first = [tables.lobby_json(request) for _ in range(200)]  # two hundred streams woken by one change
    assert len(reads) == 1 and len(set(first)) == 1
    token = player(client, "Ana")
    client.post("/api/tables", json={"game": "flowers", "players": 2}, headers=auth(token))
    after = [tables.lobby_json(request) for _ in range(200)]
    assert len(reads) == 2 and json.loads(after[0])[0]["seated"][0] == "Ana" and social.lobby_version >= 1
