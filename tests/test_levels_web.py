"""AI levels on the web: level seats in a new game and in a hand-over, an unknown level refused, the server's thinking."""

from __future__ import annotations

import warnings

warnings.filterwarnings("ignore", message="Using `httpx`")

from web_helpers import auth, wait_for  # noqa: E402


def test_level_seats_play_a_game_through(client):
    reply = client.post("/api/games", json={"game": "by-this", "seats": ["human", "level:casual"], "seed": 3})
    assert reply.status_code == 201, reply.text
    game_id, tokens = reply.json()["id"], reply.json()["tokens"]
    view = client.get(f"/api/games/{game_id}", headers=auth(tokens["0"])).json()
    assert view["seats"] == ["human", "level:casual"]
    assert client.post(f"/api/games/{game_id}/bot", json={"agent": "level:beginner"},
                       headers=auth(tokens["0"])).status_code == 200
    assert wait_for(client, game_id, None, lambda v: v["status"] == "over", timeout=60)["status"] == "over"


def test_an_unknown_level_seat_is_refused_naming_the_levels(client):
    reply = client.post("/api/games", json={"game": "pressed", "seats": ["human", "level:expert"]})
    assert reply.status_code == 422
    assert reply.json()["detail"] == "seats: unknown level 'expert' for pressed (levels: beginner, casual, strong)"


def test_the_server_thinks_for_a_level_as_its_agent():
    from tablepress.core.match import Match
    from tablepress.core.registry import get_game
    from tablepress.web.thinking import capped, decide

    assert capped("level:strong") == "level:strong"
    match = Match(get_game("by-this"), 2, 9, {}, ["level:casual", "greedy"])
    seat = match.next_mover()
    assert decide("by-this", None, match.state, seat, "level:casual", 5) == \
        decide("by-this", None, match.state, seat, "greedy", 5)
