"""The table explains itself over the API: hints on legal actions, and browsing earlier positions mid-game."""

from __future__ import annotations


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def start(client, game, seats=("human", "human")):
    reply = client.post("/api/games", json={"game": game, "seats": list(seats), "seed": 11})
    assert reply.status_code == 201, reply.text
    return reply.json()["id"], reply.json()["tokens"]


def move(client, gid, tokens, pick=lambda legal: legal[0]):
    seat = client.get(f"/api/games/{gid}").json()["to_move"][0]
    view = client.get(f"/api/games/{gid}", headers=bearer(tokens[str(seat)])).json()
    action = pick(view["legal_actions"])
    reply = client.post(f"/api/games/{gid}/actions", json={"action": action}, headers=bearer(tokens[str(seat)]))
    assert reply.status_code == 200, reply.text
    return seat, action


def test_the_seat_to_move_gets_a_hint_per_action_and_nobody_else_does(client):
    gid, tokens = start(client, "pressed")
    seat = client.get(f"/api/games/{gid}").json()["to_move"][0]
    mine = client.get(f"/api/games/{gid}", headers=bearer(tokens[str(seat)])).json()
    plants = [a for a in mine["legal_actions"] if a.startswith("plant")]
    assert plants and all(mine["hints"][a]["text"].startswith("+") for a in plants)
    other = client.get(f"/api/games/{gid}", headers=bearer(tokens[str(1 - seat)])).json()
    assert other["hints"] == {}
    assert client.get(f"/api/games/{gid}").json()["hints"] == {}


def test_an_earlier_position_can_be_browsed_during_the_game_as_the_seat_saw_it(client):
    gid, tokens = start(client, "pressed", ("human", "human"))
    for _ in range(4):
        move(client, gid, tokens)
    seat = 0
    now = client.get(f"/api/games/{gid}", headers=bearer(tokens["0"])).json()
    earlier = client.get(f"/api/games/{gid}/replay?step=2", headers=bearer(tokens["0"]))
    assert earlier.status_code == 200, earlier.text
    data = earlier.json()
    assert data["step"] == 2 and data["steps"] == 4 and data["status"] == "playing"
    assert len(data["log"]) == 2 and all(entry["lines"] for entry in data["log"])
    assert "hand" in data["private"] and data["seat"] == seat
    spectator = client.get(f"/api/games/{gid}/replay?step=2").json()
    assert spectator["private"] == {}
    after = client.get(f"/api/games/{gid}", headers=bearer(tokens["0"])).json()
    assert after["log"] == now["log"] and after["legal_actions"] == now["legal_actions"]  # browsing changed nothing


def test_a_secret_press_stays_secret_when_browsing_mid_game(client):
    gid, tokens = start(client, "pressed", ("human", "human"))
    for _ in range(200):
        view = client.get(f"/api/games/{gid}").json()
        if view["public"]["phase"] == "press" or view["status"] == "over":
            break
        move(client, gid, tokens)
    pressing = client.get(f"/api/games/{gid}").json()["public"]["pressing"]
    assert pressing, "some seat presses in round 1"
    seat, action = move(client, gid, tokens)
    assert action.startswith("press ") and client.get(f"/api/games/{gid}").json()["status"] == "playing"
    other = client.get(f"/api/games/{gid}/replay?step=1000", headers=bearer(tokens[str(1 - seat)])).json()
    (entry,) = [entry for entry in other["log"] if entry["seat"] == seat and entry["text"].startswith("press")]
    assert entry["text"] == f"pressed {len(action.split()) - 1} cards"
    assert entry["lines"][0]["text"].endswith(f"pressed {len(action.split()) - 1} cards")
    own = client.get(f"/api/games/{gid}/replay?step=1000", headers=bearer(tokens[str(seat)])).json()
    assert any(e["text"] == action for e in own["log"])


def finished(client, game="by-this"):
    """A two-human game played to the end at random."""
    import random

    gid, tokens = start(client, game)
    rng = random.Random(2)
    for _ in range(5000):
        if client.get(f"/api/games/{gid}").json()["status"] == "over":
            return gid, tokens
        move(client, gid, tokens, pick=rng.choice)
    raise AssertionError("the game did not end")


def test_a_rematch_is_one_game_for_everyone_with_a_new_link_per_seat(client):
    gid, tokens = finished(client)
    with client.websocket_connect(f"/ws/games/{gid}?token={tokens['1']}") as other:
        assert other.receive_json()["rematch"] is None
        reply = client.post(f"/api/games/{gid}/rematch", headers=bearer(tokens["0"]))
        assert reply.status_code == 201, reply.text
        new_id, new_tokens = reply.json()["id"], reply.json()["tokens"]
        assert new_id != gid and set(new_tokens) == {"0"} and new_tokens["0"] != tokens["0"]  # only its own
        pushed = other.receive_json()  # the other seat's table learns of it from its view, with no token in it
        assert pushed["rematch"] == new_id and tokens["1"] not in str(pushed) and new_tokens["0"] not in str(pushed)
    again = client.post(f"/api/games/{gid}/rematch", headers=bearer(tokens["1"])).json()
    assert again["id"] == new_id and set(again["tokens"]) == {"1"}  # seat 1 claims its seat with its old token
    assert again["tokens"]["1"] not in (tokens["1"], new_tokens["0"])
    assert client.post(f"/api/games/{gid}/rematch", headers=bearer(tokens["0"])).json() == reply.json()  # the same
    old, new = client.get(f"/api/games/{gid}").json(), client.get(f"/api/games/{new_id}").json()
    assert new["status"] == "playing" and new["names"] == old["names"] and new["game"] == old["game"]
    assert old["rematch"] == new_id and new["rematch"] is None
    assert client.get(f"/api/games/{new_id}", headers=bearer(again["tokens"]["1"])).json()["seat"] == 1
    assert client.get(f"/api/games/{new_id}", headers=bearer(tokens["1"])).status_code == 403  # old tokens do not open it


def test_a_rematch_gives_each_seat_only_its_own_token(client):
    gid, tokens = start(client, "by-this", ("human", "human", "human"))
    import random

    rng = random.Random(5)
    while client.get(f"/api/games/{gid}").json()["status"] != "over":
        move(client, gid, tokens, pick=rng.choice)
    first = client.post(f"/api/games/{gid}/rematch", headers=bearer(tokens["0"]))
    assert first.status_code == 201, first.text
    new_id, mine = first.json()["id"], first.json()["tokens"]
    assert set(mine) == {"0"}
    assert client.post(f"/api/games/{gid}/rematch", headers=bearer(tokens["0"])).json()["tokens"] == mine
    theirs = {seat: client.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[seat])).json()["tokens"][seat]
              for seat in ("1", "2")}
    assert len({mine["0"], *theirs.values()}) == 3
    for seat, token in theirs.items():
        assert client.get(f"/api/games/{new_id}", headers=bearer(token)).json()["seat"] == int(seat)
    # seat 0's token reads only seat 0's hand and acts only for seat 0
    view = client.get(f"/api/games/{new_id}", headers=bearer(mine["0"])).json()
    assert view["seat"] == 0
    seat1 = client.get(f"/api/games/{new_id}", headers=bearer(theirs["1"])).json()
    assert seat1["private"] and seat1["private"] != view["private"]
    assert mine["0"] not in theirs.values()
    while 0 in client.get(f"/api/games/{new_id}").json()["to_move"]:
        legal = client.get(f"/api/games/{new_id}", headers=bearer(mine["0"])).json()["legal_actions"]
        client.post(f"/api/games/{new_id}/actions", json={"action": legal[0]}, headers=bearer(mine["0"]))
    other = client.get(f"/api/games/{new_id}").json()["to_move"][0]
    legal = client.get(f"/api/games/{new_id}", headers=bearer(theirs[str(other)])).json()["legal_actions"]
    before = client.get(f"/api/games/{new_id}").json()
    refused = client.post(f"/api/games/{new_id}/actions", json={"action": legal[0]}, headers=bearer(mine["0"]))
    assert refused.status_code == 409 and client.get(f"/api/games/{new_id}").json() == before


def test_a_rematch_needs_a_finished_game_and_a_seat(client):
    gid, tokens = start(client, "by-this")
    assert client.post(f"/api/games/{gid}/rematch", headers=bearer(tokens["0"])).status_code == 409
    gid, tokens = finished(client)
    assert client.post(f"/api/games/{gid}/rematch").status_code == 403
    assert client.post(f"/api/games/{gid}/rematch", headers=bearer("wrong")).status_code == 403


def test_a_seat_handed_to_an_ai_can_be_taken_back_with_its_old_token(client):
    gid, tokens = start(client, "by-this", ("human", "human"))
    seat = client.get(f"/api/games/{gid}").json()["to_move"][0]
    mine, other = tokens[str(seat)], tokens[str(1 - seat)]
    assert client.post(f"/api/games/{gid}/bot", json={"agent": "random"}, headers=bearer(mine)).status_code == 200
    assert client.get(f"/api/games/{gid}", headers=bearer(mine)).status_code == 403  # it only watches now
    assert client.post(f"/api/games/{gid}/reclaim", headers=bearer(other)).status_code == 403  # not lent
    assert client.post(f"/api/games/{gid}/reclaim", headers=bearer("wrong")).status_code == 403
    back = client.post(f"/api/games/{gid}/reclaim", headers=bearer(mine))
    assert back.status_code == 200, back.text
    view = back.json()
    assert view["seat"] == seat and view["seats"][seat] == "human" and "(AI" not in view["names"][seat]
    assert client.get(f"/api/games/{gid}", headers=bearer(mine)).json()["seat"] == seat
    assert client.post(f"/api/games/{gid}/reclaim", headers=bearer(mine)).status_code == 403  # already back


def test_the_catalog_offers_no_seat_the_server_refuses(client):
    agents = client.get("/api/catalog").json()["agents"]
    assert "policy" not in agents and {"human", "random", "greedy", "ismcts"} <= set(agents)
    refused = client.post("/api/games", json={"game": "by-this", "seats": ["human", "policy:/etc/passwd"]})
    assert refused.status_code == 422 and "load a file on the server" in refused.json()["detail"]
