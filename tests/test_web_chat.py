"""Chat per game over the API: seated players write (seat token, player token or the player cookie), every
watcher gets the message pushed over the game's WebSocket, anyone reads it oldest first; bad text, wrong
tokens and a sender past its rate are refused in one line with nothing stored."""

from __future__ import annotations

import json

import pytest

from web_helpers import auth


@pytest.fixture
def game(client):
    """A begun two-player table: (game id, Ana's player token, Bo's player token, a seat token of a plain game)."""
    tokens = []
    for name in ("Ana", "Bo"):
        tokens.append(client.post("/api/players", json={"name": name}).json()["token"])
        client.cookies.clear()
    tid = client.post("/api/tables", json={"game": "flowers", "players": 2}, headers=auth(tokens[0])).json()["id"]
    client.post(f"/api/tables/{tid}/join", headers=auth(tokens[1]))
    return client.get(f"/api/tables/{tid}").json()["game_id"], tokens[0], tokens[1]


def messages(client, game_id: str) -> list[dict]:
    """The game's chat as anyone reads it."""
    reply = client.get(f"/api/games/{game_id}/chat")
    assert reply.status_code == 200
    return reply.json()


def test_a_message_is_stored_pushed_to_watchers_and_read_oldest_first(client, game):
    game_id, ana, bo = game
    with client.websocket_connect(f"/ws/games/{game_id}") as watcher:
        assert "status" in json.loads(watcher.receive_text())  # the view first
        reply = client.post(f"/api/games/{game_id}/chat", headers=auth(ana), json={"text": "  <b>hi</b>  there "})
        assert reply.status_code == 201
        pushed = json.loads(watcher.receive_text())
    assert pushed == {"chat": reply.json()}
    assert (reply.json()["name"], reply.json()["seat"], reply.json()["text"]) == ("Ana", 0, "<b>hi</b> there")
    client.post(f"/api/games/{game_id}/chat", headers=auth(bo), json={"emote": "gg"})
    assert [(m["n"], m["name"], m["text"], m["emote"]) for m in messages(client, game_id)] == [
        (1, "Ana", "<b>hi</b> there", None), (2, "Bo", "🤝 Good game!", "gg")]
    assert [m["n"] for m in client.get(f"/api/games/{game_id}/chat?after=1").json()] == [2]


def test_a_plain_games_seat_token_and_the_player_cookie_both_write(client, game):
    game_id, ana, _bo = game
    client.cookies.set("tp_player", ana)
    assert client.post(f"/api/games/{game_id}/chat", json={"text": "by cookie"}).json()["name"] == "Ana"
    client.cookies.clear()
    created = client.post("/api/games", json={"game": "flowers", "seats": ["human", "random"], "names": ["Cy", "Bot"]}).json()
    reply = client.post(f"/api/games/{created['id']}/chat", headers=auth(created["tokens"]["0"]), json={"text": "hello"})
    assert reply.status_code == 201 and reply.json()["name"] == "Cy"


@pytest.mark.parametrize("body, reason", [
    ({"text": "x" * 301}, "text: at most 300 characters, not 301"),
    ({"text": "a\x07b"}, "control character (U+0007)"),
    ({"text": "two\nlines"}, "control character (U+000A)"),
    ({"text": "   "}, "write something"),
    ({"text": 5}, "text: must be text"),
    ({"emote": "rude"}, "emote: one of hello, gg"),
    ({"text": "a", "emote": "gg"}, "the body must be a JSON object"),
    ({}, "the body must be a JSON object"),
])
def test_bad_text_is_refused_in_one_line_and_nothing_is_stored(client, game, body, reason):
    game_id, ana, _bo = game
    reply = client.post(f"/api/games/{game_id}/chat", headers=auth(ana), json=body)
    assert reply.status_code == 422 and reason in reply.json()["detail"] and "\n" not in reply.json()["detail"]
    assert messages(client, game_id) == []


def test_spectators_and_wrong_tokens_only_read(client, game):
    game_id, _ana, _bo = game
    stranger = client.post("/api/players", json={"name": "Stranger"}).json()["token"]  # a player, not seated here
    for headers in (auth(stranger), {}, auth("wrong")):
        client.cookies.clear()
        reply = client.post(f"/api/games/{game_id}/chat", headers=headers, json={"text": "hi"})
        assert reply.status_code == 403 and "spectators read" in reply.json()["detail"]
    assert messages(client, game_id) == []
    assert client.post("/api/games/nope/chat", headers=auth(stranger), json={"text": "hi"}).status_code == 404
    assert client.get("/api/games/nope/chat").status_code == 404


def test_a_sender_past_its_rate_gets_429_and_the_others_still_write(client, game):
    game_id, ana, bo = game
    for n in range(5):
        assert client.post(f"/api/games/{game_id}/chat", headers=auth(ana), json={"text": f"m{n}"}).status_code == 201
    reply = client.post(f"/api/games/{game_id}/chat", headers=auth(ana), json={"text": "one too many"})
    assert reply.status_code == 429 and "at most 5 messages in 10 seconds" in reply.json()["detail"]
    assert [m["text"] for m in messages(client, game_id)] == [f"m{n}" for n in range(5)]
    assert client.post(f"/api/games/{game_id}/chat", headers=auth(bo), json={"text": "me too"}).status_code == 201
