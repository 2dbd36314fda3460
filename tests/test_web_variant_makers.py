"""Saved variants belong to their maker: a player (cookie or bearer token) or a maker token. Private ones are
listed only to their maker but open by id; only the maker deletes or lists/unlists one (`PATCH`)."""

from __future__ import annotations

import warnings

warnings.filterwarnings("ignore", message="Using `httpx`")

from fastapi.testclient import TestClient  # noqa: E402

from tablepress.web.app import create_app  # noqa: E402
from tablepress.web.players import COOKIE  # noqa: E402

from web_helpers import auth, player  # noqa: E402

TOML = "[scoring]\nregion_min = 3\n"


def save(client, headers=None, public=None, name="mine") -> dict:
    """Save a Flowers variant; the 201 body."""
    body = {"game": "flowers", "name": name, "toml": TOML}
    if public is not None:
        body["public"] = public
    reply = client.post("/api/variants", json=body, headers=headers or {})
    assert reply.status_code == 201, reply.text
    return reply.json()


def listed(client, headers=None) -> dict[str, dict]:
    """The Flowers variants listed to these headers, by id."""
    reply = client.get("/api/variants", params={"game": "flowers"}, headers=headers or {})
    assert reply.status_code == 200, reply.text
    return {v["id"]: v for v in reply.json()["variants"]}


def test_a_signed_in_makers_private_variant_by_cookie(client):
    token = player(client, "Ann")
    client.cookies.set(COOKIE, token)
    made = save(client, public=False)
    assert made["public"] is False and "maker_token" not in made
    mine = listed(client)[made["id"]]
    assert mine["public"] is False and mine["mine"] is True
    client.cookies.clear()
    assert made["id"] not in listed(client)
    opened = client.get(f"/api/variants/{made['id']}").json()  # a friend with the link
    assert opened["toml"] == TOML and opened["public"] is False and opened["mine"] is False
    refused = client.delete(f"/api/variants/{made['id']}")
    assert refused.status_code == 403 and "maker" in refused.json()["detail"]
    assert client.get(f"/api/variants/{made['id']}").status_code == 200
    client.cookies.set(COOKIE, token)
    assert client.delete(f"/api/variants/{made['id']}").status_code == 204
    assert client.get(f"/api/variants/{made['id']}").status_code == 404
    assert client.delete(f"/api/variants/{made['id']}").status_code == 404
    assert made["id"] not in listed(client)


def test_a_players_bearer_token_owns_and_switches_visibility(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = save(client, auth(ann), public=False)
    assert "maker_token" not in made and made["id"] not in listed(client, auth(bob))
    for method in ("patch", "delete"):
        reply = client.request(method.upper(), f"/api/variants/{made['id']}", headers=auth(bob),
                               json={"public": True} if method == "patch" else None)
        assert reply.status_code == 403, reply.text
    assert made["id"] not in listed(client) and client.get(f"/api/variants/{made['id']}").status_code == 200
    reply = client.patch(f"/api/variants/{made['id']}", headers=auth(ann), json={"public": True})
    assert reply.status_code == 200 and reply.json() == {"id": made["id"], "public": True}
    assert listed(client, auth(bob))[made["id"]]["mine"] is False
    assert listed(client, auth(ann))[made["id"]]["mine"] is True
    wrong = client.get("/api/variants", params={"game": "flowers"}, headers=auth("not-a-player"))
    assert wrong.status_code == 403


def test_a_maker_token_is_given_once_and_owns_every_variant_saved_with_it(client):
    first = save(client, public=False, name="one")
    token = first["maker_token"]
    second = save(client, {"X-Maker-Token": token}, public=False, name="two")
    assert "maker_token" not in second
    assert listed(client) == {}
    mine = listed(client, {"X-Maker-Token": token})
    assert set(mine) == {first["id"], second["id"]} and all(v["mine"] for v in mine.values())
    other = save(client)["maker_token"]
    assert client.delete(f"/api/variants/{first['id']}", headers={"X-Maker-Token": other}).status_code == 403
    bad = client.delete(f"/api/variants/{first['id']}", headers={"X-Maker-Token": "short"})
    assert bad.status_code == 403 and "X-Maker-Token" in bad.json()["detail"]
    assert client.get(f"/api/variants/{first['id']}").status_code == 200
    assert client.delete(f"/api/variants/{first['id']}", headers={"X-Maker-Token": token}).status_code == 204
    assert {i for i, v in listed(client, {"X-Maker-Token": token}).items() if v["mine"]} == {second["id"]}


def test_bad_bodies_change_nothing(app, client):
    for public in ("yes", 1, None):
        reply = client.post("/api/variants", json={"game": "flowers", "name": "x", "toml": TOML, "public": public})
        assert reply.status_code == 422 and reply.json()["detail"].startswith("public:"), reply.text
    assert app.state.workshop.store.count_variants() == 0
    made = save(client, public=False)
    headers = {"X-Maker-Token": made["maker_token"]}
    for body in ({}, {"public": "true"}, [True]):
        assert client.patch(f"/api/variants/{made['id']}", headers=headers, json=body).status_code == 422
    assert client.get(f"/api/variants/{made['id']}").json()["public"] is False
    assert client.patch("/api/variants/000000000000", headers=headers, json={"public": True}).status_code == 404


def test_variants_saved_before_makers_are_listed_and_nobody_deletes_them(app, client):
    app.state.workshop.store.add_variant("0123456789ab", "flowers", "Old", TOML, {"scoring": {"region_min": 3}},
                                         None)
    ann = player(client, "Ann")
    assert listed(client, auth(ann))["0123456789ab"] == {"id": "0123456789ab", "name": "Old", "public": True,
                                                         "mine": False,
                                                         "created": listed(client)["0123456789ab"]["created"]}
    for headers in ({}, auth(ann)):
        reply = client.delete("/api/variants/0123456789ab", headers=headers)
        assert reply.status_code == 403 and "nobody" in reply.json()["detail"]
        assert client.patch("/api/variants/0123456789ab", headers=headers, json={"public": False}).status_code == 403
    assert listed(client)["0123456789ab"]["public"] is True


def test_a_game_made_with_a_variant_plays_on_after_its_deletion(tmp_path):
    db = tmp_path / "games.db"
    with TestClient(create_app(db, ai_delay=0.0)) as first:
        made = save(first)
        reply = first.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 3,
                                               "variant": made["id"]})
        assert reply.status_code == 201, reply.text
        game_id, tokens = reply.json()["id"], reply.json()["tokens"]
        assert first.delete(f"/api/variants/{made['id']}",
                            headers={"X-Maker-Token": made["maker_token"]}).status_code == 204
        view = first.get(f"/api/games/{game_id}", headers=auth(tokens["0"])).json()
        moved = first.post(f"/api/games/{game_id}/actions", headers=auth(tokens["0"]),
                           json={"action": view["legal_actions"][0]})
        assert moved.status_code == 200, moved.text
    app = create_app(db, ai_delay=0.0)
    with TestClient(app) as second:
        room = app.state.hub.rooms[game_id]
        assert room.match.game.variant == {"scoring": {"region_min": 3}} and len(room.match.actions) == 1
        assert room.row.variant_name == "mine"
        views = {seat: second.get(f"/api/games/{game_id}", headers=auth(tokens[seat])).json() for seat in tokens}
        seat = next(seat for seat, view in views.items() if view["legal_actions"])
        moved = second.post(f"/api/games/{game_id}/actions", headers=auth(tokens[seat]),
                            json={"action": views[seat]["legal_actions"][0]})
        assert moved.status_code == 200, moved.text


def test_a_finished_games_rematch_keeps_its_variant_after_the_variant_is_deleted(client):
    made = save(client)
    reply = client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 3,
                                           "variant": made["id"]}).json()
    game_id, tokens = reply["id"], reply["tokens"]
    while (view := client.get(f"/api/games/{game_id}").json())["status"] != "over":
        seat = str(view["to_move"][0])
        legal = client.get(f"/api/games/{game_id}", headers=auth(tokens[seat])).json()["legal_actions"]
        client.post(f"/api/games/{game_id}/actions", headers=auth(tokens[seat]), json={"action": legal[0]})
    assert client.delete(f"/api/variants/{made['id']}", headers={"X-Maker-Token": made["maker_token"]}).status_code == 204
    again = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens["0"]))
    assert again.status_code == 201, again.text
    new = client.get(f"/api/games/{again.json()['id']}", headers=auth(again.json()["tokens"]["0"])).json()
    assert new["variant"]["name"] == "mine" and new["status"] == "playing" and new["seat"] == 0
