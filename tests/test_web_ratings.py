"""Ratings over the API (tablepress/web/ratings.py): two people who meet at a rated table and finish move the
right way, once; unrated tables, one person with an AI and AI-only games change nothing; a table with an AI
seat is rated between its people; GET /api/ratings/{game} is best first and bounded, 404 for an unknown game;
the leaderboard page shows the names as text."""

from __future__ import annotations

import pytest

from web_helpers import auth, play_out


def new_player(client, name: str) -> dict:
    """A player made over the API (the client's cookies forgotten after)."""
    reply = client.post("/api/players", json={"name": name})
    assert reply.status_code == 201, reply.text
    client.cookies.clear()
    return reply.json()


def finished_table(client, people: list[dict], ai: dict[str, str] | None = None, rated: bool | None = None,
                   game: str = "pressed", seed: int = 0) -> tuple[str, dict]:
    """A table the first of `people` creates and the others join, played to its end: (game id, final view)."""
    body = {"game": game, "players": len(people) + len(ai or {}), "ai": ai or {}}
    if rated is not None:
        body["rated"] = rated
    made = client.post("/api/tables", json=body, headers=auth(people[0]["token"]))
    assert made.status_code == 201, made.text
    game_id = client.get(f"/api/tables/{made.json()['id']}").json().get("game_id")
    for person in people[1:]:
        joined = client.post(f"/api/tables/{made.json()['id']}/join", headers=auth(person["token"])).json()
        game_id = joined.get("game_id", game_id)
    assert game_id, "the table's game did not begin"
    humans = [seat for seat in range(body["players"]) if str(seat) not in body["ai"]]
    tokens = {str(seat): person["token"] for seat, person in zip(humans, people)}
    return game_id, play_out(client, game_id, tokens, seed=seed)


def board(client, game: str = "pressed") -> dict[str, tuple[int, int]]:
    """{name: (rating, games)} from GET /api/ratings/{game}."""
    reply = client.get(f"/api/ratings/{game}")
    assert reply.status_code == 200
    return {row["name"]: (row["rating"], row["games"]) for row in reply.json()}


def test_two_people_at_a_rated_table_move_the_right_way_and_the_table_says_by_how_much(client):
    ada, bo = new_player(client, "Ada"), new_player(client, "Bo")
    game_id, view = finished_table(client, [ada, bo])
    winner, loser = ("Ada", "Bo") if view["winners"] == [0] else ("Bo", "Ada")
    rows = client.get("/api/ratings/pressed").json()
    assert [row["name"] for row in rows] == [winner, loser]
    assert set(rows[0]) == {"player", "name", "rating", "games"}
    assert {row["player"] for row in rows} == {ada["id"], bo["id"]}
    assert board(client) == {winner: (1516, 1), loser: (1484, 1)}
    said = client.get(f"/api/games/{game_id}/ratings").json()
    assert said["rated"] is True
    assert {c["name"]: (c["before"], c["after"]) for c in said["changes"]} == {winner: (1500, 1516),
                                                                               loser: (1500, 1484)}
    assert [c["seat"] for c in said["changes"]] == [0, 1]


def test_the_end_processed_again_changes_nothing_more(client, app):
    ada, bo = new_player(client, "Ada"), new_player(client, "Bo")
    game_id, _view = finished_table(client, [ada, bo], seed=1)
    once = board(client)
    hub = app.state.hub
    hub.on_over(hub.room(game_id))  # as if this process saw the end a second time
    for _ in range(2):
        assert client.get(f"/api/games/{game_id}/ratings").status_code == 200
    assert board(client) == once and sorted(games for _, games in once.values()) == [1, 1]


def test_a_draw_between_equals_moves_nothing_but_counts_a_game(client, app):
    ada, bo = new_player(client, "Ada"), new_player(client, "Bo")
    made = client.post("/api/tables", json={"game": "pressed", "players": 2}, headers=auth(ada["token"])).json()
    game_id = client.post(f"/api/tables/{made['id']}/join", headers=auth(bo["token"])).json()["game_id"]
    store = app.state.hub.store
    store.append_action(game_id, 0, 0, "x", "x", 1.0, status="over", scores=[12, 12], winners=[0, 1])
    assert board(client) == {"Ada": (1500, 1), "Bo": (1500, 1)}


@pytest.mark.parametrize("ai, rated", [({}, False), ({"1": "random"}, None)])
def test_an_unrated_table_and_one_person_against_an_ai_change_nothing(client, ai, rated):
    ada = new_player(client, "Ada")
    people = [ada] if ai else [ada, new_player(client, "Bo")]
    game_id, _view = finished_table(client, people, ai=ai, rated=rated)
    assert client.get(f"/api/games/{game_id}/ratings").json() == {"rated": False, "game": "pressed", "changes": []}
    assert board(client) == {}


def test_an_ai_only_game_changes_nothing(client):
    made = client.post("/api/games", json={"game": "pressed", "seats": ["random", "random"], "seed": 3}).json()
    view = play_out(client, made["id"], {})
    assert view["status"] == "over"
    assert client.get(f"/api/games/{made['id']}/ratings").json() == {"rated": False, "game": "pressed", "changes": []}
    assert board(client) == {}


def test_a_table_with_an_ai_seat_is_rated_between_its_two_people(client):
    ada, bo = new_player(client, "Ada"), new_player(client, "Bo")
    game_id, view = finished_table(client, [ada, bo], ai={"2": "random"}, seed=2)
    changes = client.get(f"/api/games/{game_id}/ratings").json()["changes"]
    assert [c["seat"] for c in changes] == [0, 1]  # the AI at seat 2 is not rated
    assert sorted(c["after"] - c["before"] for c in changes) in ([-16, 16], [0, 0])
    assert set(board(client)) == {"Ada", "Bo"}


def test_a_table_may_be_made_unrated_and_says_which_it_is(client):
    ada = new_player(client, "Ada")
    for rated in (True, False):
        made = client.post("/api/tables", json={"game": "pressed", "players": 2, "rated": rated},
                           headers=auth(ada["token"])).json()
        assert client.get(f"/api/tables/{made['id']}").json()["rated"] is rated
    reply = client.post("/api/tables", json={"game": "pressed", "players": 2, "rated": "no"},
                        headers=auth(ada["token"]))
    assert reply.status_code == 422 and reply.json()["detail"] == "rated: must be true or false"


def test_an_unknown_game_is_404_and_the_list_holds_the_best_hundred(client, app):
    for path in ("/api/ratings/no-such-game", "/api/games/nogame/ratings"):
        reply = client.get(path)
        assert reply.status_code == 404 and "no game" in reply.json()["detail"]
    assert client.get("/api/ratings/flowers").json() == []
    with app.state.hub.store._transaction(write=True) as tx:
        for n in range(105):
            tx.execute("INSERT INTO players (id, name, token_hash, created) VALUES (?, ?, ?, 1)",
                       (f"p{n}", f"P{n}", f"h{n}"))
            tx.execute("INSERT INTO ratings (game, player_id, rating, games, updated) VALUES ('flowers', ?, ?, 3, 1)",
                       (f"p{n}", 1400.0 + n))
    rows = client.get("/api/ratings/flowers").json()
    assert len(rows) == 100 and rows[0] == {"player": "p104", "name": "P104", "rating": 1504, "games": 3}
    assert [row["rating"] for row in rows] == sorted((row["rating"] for row in rows), reverse=True)
    assert client.get("/api/ratings/pressed").json() == []  # per game


def test_the_leaderboard_page_lists_names_as_text_and_marks_mine(client):
    ada, bo = new_player(client, "<b>Ada</b>"), new_player(client, "Bo")
    finished_table(client, [ada, bo], seed=4)
    page = client.get("/games/pressed/ratings", headers={"Cookie": f"tp_player={bo['token']}"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "&lt;b&gt;Ada&lt;/b&gt;" in page.text and "<b>Ada</b>" not in page.text
    assert page.text.count('class="you"') == 1 and "Bo <span class=\"muted\">(you)</span>" in page.text
    empty = client.get("/games/flowers/ratings")
    assert empty.status_code == 200 and 'id="no-ratings"' in empty.text
    missing = client.get("/games/no-such-game/ratings", headers={"Accept": "text/html"})
    assert missing.status_code == 404 and "No game called" in missing.text


def test_two_servers_over_one_postgresql_apply_a_game_they_both_see_end_once(postgres):
    from fastapi.testclient import TestClient

    from tablepress.web.app import create_app

    url = postgres.database()
    try:
        with TestClient(create_app(url, ai_delay=0.0)) as a, TestClient(create_app(url, ai_delay=0.0)) as b:
            ada, bo = new_player(a, "Ada"), new_player(b, "Bo")
            made = a.post("/api/tables", json={"game": "pressed", "players": 2}, headers=auth(ada["token"])).json()
            game_id = b.post(f"/api/tables/{made['id']}/join", headers=auth(bo["token"])).json()["game_id"]
            play_out(a, game_id, {"0": ada["token"], "1": bo["token"]}, seed=6)  # the end is taken on a
            b.app.state.hub.on_over(b.app.state.hub.room(game_id))  # b sees it end too
            seen = [client.get(f"/api/games/{game_id}/ratings").json()["changes"] for client in (b, a)]
            assert seen[0] == seen[1] and len(seen[0]) == 2
            for client in (a, b):
                assert sorted(games for _, games in board(client).values()) == [1, 1]
                assert {name: rating for name, (rating, _) in board(client).items()} == {
                    c["name"]: c["after"] for c in seen[0]}
    finally:
        postgres.drop(url)
