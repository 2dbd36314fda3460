"""Players over the API: a name gives an id and a token (a cookie too, only its hash stored), /me by either,
one-time links to another device, and every refusal answered in one line with nothing changed."""

from __future__ import annotations

import pytest

from tablepress.web.store import hash_token

from web_helpers import auth


def players_stored(client) -> list[tuple]:
    """Every stored player row, read behind the API's back."""
    with client.app.state.hub.store._transaction() as tx:
        return [tuple(r) for r in tx.execute("SELECT id, name, token_hash FROM players ORDER BY id").fetchall()]


def new_player(client, name: str = "Ana") -> dict:
    """A player made over the API, the client's cookies forgotten after."""
    reply = client.post("/api/players", json={"name": name})
    assert reply.status_code == 201, reply.text
    client.cookies.clear()
    return reply.json()


def test_a_name_gives_an_id_a_token_and_an_httponly_cookie_and_only_the_hash_is_kept(client):
    reply = client.post("/api/players", json={"name": "  Ana   Lopez "})
    assert reply.status_code == 201
    body = reply.json()
    assert set(body) == {"id", "name", "token"} and body["name"] == "Ana Lopez"
    cookie = reply.headers["set-cookie"]
    assert f"tp_player={body['token']}" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert players_stored(client) == [(body["id"], "Ana Lopez", hash_token(body["token"]))]
    assert client.get("/api/players/me").json() == {"id": body["id"], "name": "Ana Lopez", "games": []}  # the cookie
    client.cookies.clear()
    assert client.get("/api/players/me", headers=auth(body["token"])).json()["name"] == "Ana Lopez"


@pytest.mark.parametrize("body, reason", [
    ({"name": ""}, "give a display name"),
    ({"name": "   "}, "give a display name"),
    ({"name": "x" * 25}, "at most 24 characters, not 25"),
    ({"name": "Ana\x00"}, "control character (U+0000)"),
    ({"name": "Ana\nBo"}, "control character (U+000A)"),
    ({"name": "Ana\u202eoB"}, "control character (U+202E)"),
    ({"name": 7}, "name: must be text"),
    ({}, "name: must be text"),
    (["Ana"], "must be a JSON object"),
])
def test_a_bad_name_is_refused_in_one_line_and_nothing_is_stored(client, body, reason):
    reply = client.post("/api/players", json=body)
    assert reply.status_code == 422 and reason in reply.json()["detail"]
    assert "\n" not in reply.json()["detail"] and "set-cookie" not in reply.headers
    assert players_stored(client) == []


def test_a_wrong_or_missing_token_is_refused(client):
    assert client.get("/api/players/me").status_code == 403
    reply = client.get("/api/players/me", headers=auth("nobody"))
    assert reply.status_code == 403 and reply.json()["detail"] == "wrong player token"
    client.cookies.set("tp_player", "nobody")
    assert client.get("/api/players/me").status_code == 403
    assert client.post("/api/players/me/link").status_code == 403


def test_a_one_time_link_carries_the_player_to_another_device_once(client, app):
    ana = new_player(client)
    link = client.post("/api/players/me/link", headers=auth(ana["token"])).json()
    assert link["url"].startswith(app.state.public_url + "/link/") and link["seconds"] == 600
    code = link["url"].rsplit("/", 1)[1]
    with client.app.state.hub.store._transaction() as tx:
        stored = tx.execute("SELECT code_hash, sealed FROM player_links").fetchall()
    assert code not in str(stored) and ana["token"] not in str(stored)
    assert client.get(f"/link/{code}").status_code == 200  # the page alone redeems nothing
    reply = client.post("/api/players/link", json={"code": code})
    assert reply.status_code == 200 and reply.json() == ana
    assert f"tp_player={ana['token']}" in reply.headers["set-cookie"]
    assert client.get("/api/players/me").json()["id"] == ana["id"]
    client.cookies.clear()
    again = client.post("/api/players/link", json={"code": code})
    assert again.status_code == 404 and "used already or has expired" in again.json()["detail"]
    assert "set-cookie" not in again.headers


def test_an_expired_link_opens_nothing(client, monkeypatch):
    ana = new_player(client)
    code = client.post("/api/players/me/link", headers=auth(ana["token"])).json()["url"].rsplit("/", 1)[1]
    import tablepress.web.players as players

    real = players.time.time
    monkeypatch.setattr(players.time, "time", lambda: real() + 601)
    reply = client.post("/api/players/link", json={"code": code})
    assert reply.status_code == 404 and "set-cookie" not in reply.headers


def test_the_hourly_limit_on_new_players_answers_429_and_stores_nothing(client, monkeypatch):
    monkeypatch.setattr("tablepress.web.players.PLAYERS_AN_HOUR", 2)
    new_player(client, "A")
    new_player(client, "B")
    reply = client.post("/api/players", json={"name": "C"})
    assert reply.status_code == 429 and "new players" in reply.json()["detail"]
    assert [name for _, name, _ in players_stored(client)] in (["A", "B"], ["B", "A"])
