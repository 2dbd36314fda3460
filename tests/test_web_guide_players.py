"""A guided first game started by a signed-in player is that player's game: it is among the player's games (GET
/api/players/me, on any device the player signed in on), its newcomer seat bears the player's name and opens by
the player's cookie alone (the view, moves and the guide), and the Learn form sends the player to a table
address holding no seat link. A newcomer with no player keeps the seat link, and is nobody's game."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from fastapi.testclient import TestClient

from tablepress.core.guide import load_guide
from tablepress.core.registry import get_package

from web_helpers import auth

GAME = "by-this"


def signed_in(client: TestClient, name: str) -> dict:
    """A new player, its cookie kept by the client."""
    reply = client.post("/api/players", json={"name": name})
    assert reply.status_code == 201, reply.text
    assert client.cookies.get("tp_player")
    return reply.json()


def my_games(client: TestClient, token: str | None = None) -> dict[str, dict]:
    """The player's games by id (its cookie, or `token` as a Bearer header)."""
    reply = client.get("/api/players/me", headers=auth(token) if token else {})
    assert reply.status_code == 200, reply.text
    return {game["id"]: game for game in reply.json()["games"]}


def test_a_signed_in_players_guided_game_is_among_its_games_and_opens_by_its_cookie(client):
    wanted = load_guide(get_package(GAME))
    ana = signed_in(client, "Ana")
    reply = client.post(f"/api/guides/{GAME}")
    assert reply.status_code == 201, reply.text
    gid = reply.json()["id"]
    listed = my_games(client)[gid]
    assert (listed["game"], listed["seat"], listed["status"]) == (GAME, wanted.seat, "playing")
    assert listed["names"][wanted.seat] == "Ana"
    view = client.get(f"/api/games/{gid}").json()  # no Authorization: the cookie's seat
    assert view["seat"] == wanted.seat and view["names"][wanted.seat] == "Ana"
    point = client.get(f"/api/games/{gid}/guide")
    assert point.status_code == 200 and point.json()["seat"] == wanted.seat
    if wanted.seat in view["to_move"]:
        moved = client.post(f"/api/games/{gid}/actions", json={"action": point.json()["suggest"]})
        assert moved.status_code == 200, moved.text
    client.cookies.clear()  # another device signed in as Ana: her token, not this browser's cookie
    assert gid in my_games(client, ana["token"])


def test_the_learn_form_of_a_signed_in_player_opens_the_table_by_the_cookie(client):
    wanted = load_guide(get_package(GAME))
    signed_in(client, "Bo")
    reply = client.post(f"/games/{GAME}/learn", follow_redirects=False)
    assert reply.status_code == 303
    where = urlsplit(reply.headers["location"])
    assert parse_qs(where.fragment) == {"guide": ["1"]}  # no seat link in the address
    gid = where.path.rsplit("/", 1)[1]
    assert my_games(client)[gid]["seat"] == wanted.seat
    assert client.get(f"/api/games/{gid}").json()["seat"] == wanted.seat


def test_a_newcomer_without_a_player_keeps_the_seat_link_and_is_nobodys_game(client, app):
    reply = client.post(f"/games/{GAME}/learn", follow_redirects=False)
    fragment = parse_qs(urlsplit(reply.headers["location"]).fragment)
    assert set(fragment) == {"seat", "token", "guide"}
    gid = urlsplit(reply.headers["location"]).path.rsplit("/", 1)[1]
    assert client.get(f"/api/games/{gid}").json()["seat"] is None  # a spectator without the link
    with app.state.hub.store._transaction() as tx:
        assert tx.execute("SELECT COUNT(*) FROM player_games WHERE game_id = ?", (gid,)).fetchone()[0] == 0
