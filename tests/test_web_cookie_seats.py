"""A signed-in player's seat opens by the HttpOnly player cookie alone (web/seats.py): the view, moves, undo,
replay, handing the seat to an AI and taking it back, the WebSocket, with no token in the page. A player not
seated at a game is a spectator there (never a 403); a wrong bearer token is still a 403; another site's page
cannot open the player's seat over a WebSocket; and every error changes nothing."""

from __future__ import annotations

import pytest

from web_helpers import auth, player, wait_for

COOKIE = "tp_player"


def cookie(token: str) -> dict[str, str]:
    """The Cookie header a browser sends for a signed-in player."""
    return {"Cookie": f"{COOKIE}={token}"}


@pytest.fixture
def seated(client):
    """(game id, the seated player's token, another player's token): a By This table of Ana against Casual AI."""
    ana, bo = player(client, "Ana"), player(client, "Bo")
    table = client.post("/api/tables", json={"game": "by-this", "players": 2, "ai": {"1": "casual"}}, headers=auth(ana))
    game_id = client.get(f"/api/tables/{table.json()['id']}").json()["game_id"]
    return game_id, ana, bo


def revision(client, game_id: str) -> int:
    """The game's stored revision (what an error must leave as it was)."""
    return client.app.state.hub.store.load_game(game_id).revision


def test_the_cookie_alone_opens_the_players_seat_and_plays_it(client, seated):
    game_id, ana, _bo = seated
    view = wait_for(client, game_id, ana, lambda v: 0 in v["to_move"])
    by_cookie = client.get(f"/api/games/{game_id}", headers=cookie(ana)).json()
    assert by_cookie["seat"] == 0 and by_cookie["private"] == view["private"] and by_cookie["legal_actions"]
    action = by_cookie["legal_actions"][0]
    moved = client.post(f"/api/games/{game_id}/actions", json={"action": action}, headers=cookie(ana))
    assert moved.status_code == 200 and moved.json()["seat"] == 0
    replay = client.get(f"/api/games/{game_id}/replay?step=0", headers=cookie(ana)).json()
    assert replay["seat"] == 0 and replay["private"]
    assert client.get(f"/api/games/{game_id}").json()["seat"] is None  # no cookie, no token: a spectator


def test_a_player_not_seated_there_is_a_spectator_and_cannot_act(client, seated):
    game_id, _ana, bo = seated
    view = client.get(f"/api/games/{game_id}", headers=cookie(bo))
    assert view.status_code == 200 and view.json()["seat"] is None and view.json()["private"] == {}
    before = revision(client, game_id)
    acted = client.post(f"/api/games/{game_id}/actions", json={"action": "anything"}, headers=cookie(bo))
    assert acted.status_code == 403 and "needs a seat's token" in acted.json()["detail"]
    assert revision(client, game_id) == before


def test_a_wrong_bearer_token_is_refused_even_beside_the_players_cookie(client, seated):
    game_id, ana, _bo = seated
    wrong = client.get(f"/api/games/{game_id}", headers={**cookie(ana), **auth("not-a-token")})
    assert wrong.status_code == 403 and wrong.json()["detail"] == "wrong token for this game"


def test_the_websocket_opens_the_cookies_seat_only_for_this_sites_pages(client, seated):
    game_id, ana, bo = seated
    for headers, seat in ((cookie(ana), 0), ({**cookie(ana), "Origin": "http://testserver"}, 0),
                          ({**cookie(ana), "Origin": "http://evil.example"}, None), (cookie(bo), None), ({}, None)):
        with client.websocket_connect(f"/ws/games/{game_id}", headers=headers) as socket:
            view = socket.receive_json()
            assert view["seat"] == seat, headers
            assert (view["private"] != {}) == (seat is not None)


def test_the_seat_goes_to_an_ai_and_comes_back_by_the_cookie(client, seated):
    game_id, ana, _bo = seated
    handed = client.post(f"/api/games/{game_id}/bot", json={"agent": "greedy"}, headers=cookie(ana))
    assert handed.status_code == 200 and handed.json()["seat"] is None
    assert client.get(f"/api/games/{game_id}", headers=cookie(ana)).json()["seat"] is None
    back = client.post(f"/api/games/{game_id}/reclaim", json={}, headers=cookie(ana))
    assert back.status_code == 200 and back.json()["seat"] == 0
    assert client.get(f"/api/games/{game_id}", headers=cookie(ana)).json()["seat"] == 0


def test_reclaiming_without_a_token_or_cookie_is_refused(client, seated):
    game_id, ana, _bo = seated
    client.post(f"/api/games/{game_id}/bot", json={"agent": "greedy"}, headers=cookie(ana))
    refused = client.post(f"/api/games/{game_id}/reclaim", json={})
    assert refused.status_code == 403 and "needs that seat's token" in refused.json()["detail"]
    assert client.get(f"/api/games/{game_id}").json()["seats"][0] == "greedy"


def test_a_players_rematch_keeps_the_seat_by_cookie_and_is_among_the_players_games(client, seated):
    game_id, ana, bo = seated
    while True:
        view = wait_for(client, game_id, ana, lambda v: v["status"] == "over" or 0 in v["to_move"])
        if view["status"] == "over":
            break
        client.post(f"/api/games/{game_id}/actions", json={"action": view["legal_actions"][0]}, headers=cookie(ana))
    assert client.post(f"/api/games/{game_id}/rematch", headers=cookie(bo)).status_code == 403  # not seated there
    reply = client.post(f"/api/games/{game_id}/rematch", headers=cookie(ana))
    assert reply.status_code == 201 and reply.json()["tokens"] == {}  # the cookie keeps the seat: no token to hand
    new_id = reply.json()["id"]
    assert client.get(f"/api/games/{new_id}", headers=cookie(ana)).json()["seat"] == 0
    assert client.get(f"/api/games/{new_id}", headers=cookie(bo)).json()["seat"] is None
    assert new_id in [game["id"] for game in client.get("/api/players/me", headers=auth(ana)).json()["games"]]
    assert client.get(f"/api/games/{game_id}", headers=cookie(ana)).json()["rematch"] == new_id
