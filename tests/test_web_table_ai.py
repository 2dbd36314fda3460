"""A lobby table's AI seats are the game's named levels: `"ai": {"SEAT": "LEVEL"}` becomes the seat `level:NAME`,
the lobby and the game call it by the level's title ("Casual AI"), and an unknown level (or a person, or a bad
seat) is refused in one line naming the field and the game's levels, with nothing stored."""

from __future__ import annotations

import pytest

from tablepress.agents.levels import levels_of
from web_helpers import auth, player


def stored(client) -> tuple:
    """Tables, seats, players' games and games as stored: what a refusal must leave as it was."""
    with client.app.state.hub.store._transaction() as tx:
        return tuple(sorted(tuple(r) for r in tx.execute(sql).fetchall()) for sql in (
            "SELECT id, game_id, ai FROM lobby_tables", "SELECT table_id, seat, player_id FROM lobby_seats",
            "SELECT player_id, game_id, seat FROM player_games", "SELECT id, revision FROM games"))


@pytest.mark.parametrize("given", ["casual", "Casual", " level:casual ", "LEVEL:Casual"])
def test_a_level_by_name_is_the_levels_seat_and_is_called_by_its_title(client, given):
    ana = player(client, "Ana")
    reply = client.post("/api/tables", json={"game": "flowers", "players": 2, "ai": {"1": given}}, headers=auth(ana))
    assert reply.status_code == 201, reply.text
    table = client.get(f"/api/tables/{reply.json()['id']}").json()
    assert table["ai"] == {"1": "level:casual"} and table["seated"] == ["Ana", "Casual AI"]
    view = client.get(f"/api/games/{table['game_id']}", headers=auth(ana)).json()
    assert view["seats"] == ["human", "level:casual"] and view["names"] == ["Ana", "Casual AI"]


def test_a_waiting_table_lists_its_ai_seats_by_level_title(client):
    ana = player(client, "Ana")
    client.post("/api/tables", json={"game": "flowers", "players": 4, "ai": {"2": "strong", "3": "beginner"}},
                headers=auth(ana))
    [table] = client.get("/api/tables").json()
    assert table["seated"] == ["Ana", None, "Strong AI", "Beginner AI"] and table["open_seats"] == 1
    assert table["ai"] == {"2": "level:strong", "3": "level:beginner"}


def test_two_seats_at_one_level_get_numbers_in_the_game(client):
    ana = player(client, "Ana")
    made = client.post("/api/tables", json={"game": "flowers", "players": 3, "ai": {"1": "casual", "2": "casual"}},
                       headers=auth(ana)).json()
    table = client.get(f"/api/tables/{made['id']}").json()
    names = client.get(f"/api/games/{table['game_id']}").json()["names"]
    assert names == ["Ana", "Casual AI 2", "Casual AI 3"]


def test_an_agent_spec_is_still_taken_as_given(client):
    ana = player(client, "Ana")
    made = client.post("/api/tables", json={"game": "flowers", "players": 2, "ai": {"1": "random"}}, headers=auth(ana))
    table = client.get(f"/api/tables/{made.json()['id']}").json()
    assert table["ai"] == {"1": "random"} and table["seated"] == ["Ana", "AI (random)"]


@pytest.mark.parametrize("ai, detail", [
    ({"1": "expert"}, "ai.1: unknown level 'expert' for flowers (levels: beginner, casual, strong)"),
    ({"1": "level:expert"}, "ai.1: unknown level 'level:expert' for flowers (levels: beginner, casual, strong)"),
    ({"1": "level:"}, "ai.1: unknown level 'level:' for flowers"),
    ({"1": "human"}, "ai.1: name an AI level (beginner, casual, strong); people take seats by joining"),
    ({"1": "ismcts:999999"}, "ai.1: seat 'ismcts:999999': the budget is over the limit of 5000"),
    ({"1": 3}, "ai.1: must be text"),
    ({"0": "casual"}, "ai: seats are numbered 1 to 1 (seat 0 is yours), not '0'"),
    ({"2": "casual"}, "ai: seats are numbered 1 to 1 (seat 0 is yours), not '2'"),
    (["casual"], "ai: must be an object"),
])
def test_a_bad_ai_seat_is_refused_naming_the_field_and_nothing_changes(client, ai, detail):
    ana = player(client, "Ana")
    before = stored(client)
    reply = client.post("/api/tables", json={"game": "flowers", "players": 2, "ai": ai}, headers=auth(ana))
    assert reply.status_code == 422 and detail in reply.json()["detail"], reply.text
    assert "\n" not in reply.json()["detail"]
    assert stored(client) == before and client.get("/api/tables").json() == []


def test_every_game_offers_levels_the_lobby_can_seat(client):
    ana = player(client, "Ana")
    for game in ("flowers", "pressed", "planted", "by-this"):
        level = levels_of(game)[0]
        made = client.post("/api/tables", json={"game": game, "players": 2, "ai": {"1": level.name}}, headers=auth(ana))
        assert made.status_code == 201, made.text
        table = client.get(f"/api/tables/{made.json()['id']}").json()
        assert table["seated"][1] == f"{level.title} AI" and table["status"] == "playing"
