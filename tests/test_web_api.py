"""The HTTP API and WebSocket of docs/reference.md, through FastAPI's TestClient on a fresh SQLite file."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import warnings

import httpx
import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from tablepress.core import records  # noqa: E402
from tablepress.core import registry  # noqa: E402
from tablepress.core.errors import IllegalAction  # noqa: E402
from tablepress.core.registry import game_names, get_game, get_package  # noqa: E402
from tablepress.web.app import create_app  # noqa: E402
from tablepress.web.table_page import GENERIC_RENDERER  # noqa: E402

from web_helpers import auth, play_out, wait_for  # noqa: E402




def create(client, game="flowers", seats=("human", "human"), **extra):
    """Create a game and return (id, tokens)."""
    reply = client.post("/api/games", json={"game": game, "seats": list(seats), "seed": 7, **extra})
    assert reply.status_code == 201, reply.text
    data = reply.json()
    return data["id"], data["tokens"]


def hub_state(app, game_id):
    room = app.state.hub.rooms[game_id]
    return room.match.game, room.match.state


def accepted(game, state, seat, text) -> bool:
    """Whether the game's own validation (the terminal's too) takes `text` for `seat` now."""
    try:
        game.checked(state, seat, text)
    except IllegalAction:
        return False
    return True


# ----- creating games ---------------------------------------------------------------------------
def test_create_gives_one_token_per_human_seat_keyed_by_seat_string(client):
    reply = client.post("/api/games", json={"game": "flowers", "seats": ["random", "human", "human"], "options": {}})
    assert reply.status_code == 201
    data = reply.json()
    assert set(data) == {"id", "tokens"}
    assert set(data["tokens"]) == {"1", "2"}
    assert len(set(data["tokens"].values())) == 2
    assert all(len(token) >= 24 for token in data["tokens"].values())


def test_create_every_registered_game(client):
    for name in game_names():
        game = get_game(name)
        seats = ["human"] * max(game.min_players, 2)
        gid, tokens = create(client, name, seats)
        view = client.get(f"/api/games/{gid}", headers=auth(tokens["0"])).json()
        assert view["game"] == name and view["status"] == "playing"


@pytest.mark.parametrize("body, fragment", [
    (b"{not json", "malformed JSON"),
    (b"[1, 2]", "JSON object"),
    (b'{"game": "chess", "seats": ["human", "human"]}', "unknown game"),
    (b'{"game": "flowers", "seats": []}', "seats"),
    (b'{"game": "flowers", "seats": ["human", "wizard"]}', "seats[1]"),
    (b'{"game": "flowers", "seats": ["human", "ismcts:0"]}', "budget"),
    (b'{"game": "flowers", "seats": ["human", 3]}', "seats"),
    (b'{"game": "flowers", "seats": ["human","human","human","human","human"]}', "players"),
    (b'{"game": "flowers", "seats": ["human"], "options": {"colour": 1}}', "no option"),
    (b'{"game": "flowers", "seats": ["human"], "options": {"summer": "maybe"}}', "summer"),
    (b'{"game": "flowers", "seats": ["human"], "options": [1]}', "options"),
    (b'{"game": "flowers", "seats": ["human"], "seed": -1}', "seed"),
    (b'{"game": "flowers", "seats": ["human"], "seed": "x"}', "seed"),
    (b'{"game": "flowers", "seats": ["human"], "names": ["a", "b"]}', "names"),
    (b'\xff\xfe', "UTF-8"),
])
def test_create_rejects_bad_bodies_with_422_and_a_reason(client, body, fragment):
    reply = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == 422, reply.text
    assert fragment in reply.json()["detail"]
    assert client.get("/api/games").json()["games"] == []


def test_create_rejects_huge_bodies(client):
    reply = client.post("/api/games", content=b'{"game": "' + b"x" * 100_000 + b'"}')
    assert reply.status_code == 413


# ----- views ------------------------------------------------------------------------------------
def test_views_come_from_the_game_and_spectators_see_public_only(app, client):
    gid, tokens = create(client, "by-this", ["human", "human"])
    game, state = hub_state(app, gid)
    v0 = client.get(f"/api/games/{gid}", headers=auth(tokens["0"])).json()
    v1 = client.get(f"/api/games/{gid}", headers=auth(tokens["1"])).json()
    spectator = client.get(f"/api/games/{gid}").json()
    for key in ("status", "to_move", "public", "private", "legal_actions", "scores"):
        assert key in v0
    assert v0["public"] == v1["public"] == spectator["public"] == json.loads(json.dumps(game.view(state, 0)["public"]))
    assert v0["private"] == json.loads(json.dumps(game.view(state, 0)["private"]))
    assert v1["private"] == json.loads(json.dumps(game.view(state, 1)["private"]))
    assert v0["private"] != v1["private"]
    assert spectator["private"] == {} and spectator["legal_actions"] == [] and spectator["seat"] is None
    assert v0["legal_actions"] == game.legal_actions(state, 0)
    # seat 1's hand appears nowhere in what seat 0 or a spectator receives
    secret = json.dumps(v1["private"])
    assert secret not in json.dumps(v0) and secret not in json.dumps(spectator)


def test_wrong_token_is_403_and_unknown_game_404(client):
    gid, tokens = create(client)
    assert client.get(f"/api/games/{gid}", headers=auth("nope")).status_code == 403
    assert client.get(f"/api/games/{gid}", headers={"Authorization": "Basic abc"}).status_code == 403
    assert client.get("/api/games/doesnotexist").status_code == 404
    assert client.get("/api/games/doesnotexist/record").status_code == 404
    other, other_tokens = create(client)
    assert client.get(f"/api/games/{gid}", headers=auth(other_tokens["0"])).status_code == 403


# ----- actions ----------------------------------------------------------------------------------
def test_a_legal_action_returns_the_new_view(app, client):
    gid, tokens = create(client)
    reply = client.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": "draw 1"})
    assert reply.status_code == 200
    view = reply.json()
    assert view["version"] == 1 and view["log"][0]["text"] == "draw 1"
    assert all(a.startswith("place") for a in view["legal_actions"])
    assert app.state.hub.rooms[gid].match.actions == [(0, "draw 1")]


@pytest.mark.parametrize("token_seat, body, status, fragment", [
    ("1", {"action": "draw 1"}, 409, "not seat 1's turn"),
    ("0", {"action": "draw 9"}, 409, "stack"),
    ("0", {"action": "place Y4 0,1"}, 409, "draw"),
    ("0", {"action": ""}, 409, ""),
    ("0", {"action": 5}, 422, "text"),
    ("0", {"act": "draw 1"}, 422, "action"),
    ("0", ["draw 1"], 422, "action"),
    ("0", {"action": "x" * 5000}, 422, "characters"),
    (None, {"action": "draw 1"}, 403, "token"),
    ("bad", {"action": "draw 1"}, 403, "token"),
])
def test_refused_actions_change_nothing(app, client, token_seat, body, status, fragment):
    gid, tokens = create(client)
    headers = {} if token_seat is None else auth(tokens.get(token_seat, "not-a-token"))
    before = client.get(f"/api/games/{gid}", headers=auth(tokens["0"])).json()
    reply = client.post(f"/api/games/{gid}/actions", headers=headers, json=body)
    assert reply.status_code == status, reply.text
    assert fragment in reply.json()["detail"]
    assert client.get(f"/api/games/{gid}", headers=auth(tokens["0"])).json() == before
    assert app.state.hub.rooms[gid].match.actions == []


def test_malformed_json_action_is_422(client):
    gid, tokens = create(client)
    reply = client.post(f"/api/games/{gid}/actions", headers={**auth(tokens["0"]), "Content-Type": "application/json"},
                        content=b'{"action": "draw 1"')
    assert reply.status_code == 422 and "malformed JSON" in reply.json()["detail"]


def test_hostile_bodies_never_crash_the_server(client):
    gid, tokens = create(client)
    bodies = [b"", b"null", b"0", b'"draw 1"', b"[" * 100_000, b'{"action": null}', b'{"action": {"$ne": 1}}',
              b'{"action": "draw 1\\u0000"}', "{\"action\": \"dr\u00e4w 1\"}".encode()]
    for body in bodies:
        reply = client.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), content=body)
        assert reply.status_code in (409, 413, 422), (body[:40], reply.status_code, reply.text)
    for body in bodies:
        assert client.post("/api/games", content=body).status_code in (413, 422)
    assert client.get(f"/api/games/{gid}").json()["version"] == 0
    # the acting seat is the token's, whatever the body claims
    reply = client.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": "draw 1", "seat": 1})
    assert reply.status_code == 200 and reply.json()["log"][0]["seat"] == 0


def test_concurrent_requests_on_one_game_are_serialised(app):
    async def run() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as ac:
            reply = await ac.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 1})
            gid, token = reply.json()["id"], reply.json()["tokens"]["0"]
            replies = await asyncio.gather(*[
                ac.post(f"/api/games/{gid}/actions", headers=auth(token), json={"action": "draw 1"}) for _ in range(25)
            ])
            return [r.status_code for r in replies]

    codes = asyncio.run(run())
    assert sorted(codes) == [200] + [409] * 24


# ----- AI seats, the end, records and replays ---------------------------------------------------
def test_ai_seats_move_by_themselves(client):
    gid, tokens = create(client, "flowers", ["human", "random"])
    client.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": "draw 1"})
    view = client.get(f"/api/games/{gid}", headers=auth(tokens["0"])).json()
    client.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": view["legal_actions"][0]})
    view = wait_for(client, gid, tokens["0"], lambda v: v["to_move"] == [0])
    assert [e["seat"] for e in view["log"]] == [0, 0, 1, 1]


def test_record_is_given_once_over_and_replays(client, cli, tmp_path):
    gid, tokens = create(client, "flowers", ["human", "random"])
    assert client.get(f"/api/games/{gid}/record").status_code == 409
    final = play_out(client, gid, tokens, seed=3)
    assert final["status"] == "over" and final["legal_actions"] == []
    assert final["scores"] == [part["total"] for part in final["breakdown"]]
    record = client.get(f"/api/games/{gid}/record").json()
    match = records.from_record(record)
    assert match.is_over and record["scores"] == final["scores"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = cli("replay", str(path))
    assert result.exit_code == 0 and "Game over" in result.stdout
    # after the end nobody may act
    reply = client.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": "draw 1"})
    assert reply.status_code == 409 and "over" in reply.json()["detail"]


def test_all_ai_games_play_themselves_and_replay_step_by_step(client):
    gid, tokens = create(client, "flowers", ["random", "random"])
    assert tokens == {}
    final = wait_for(client, gid, None, lambda v: v["status"] == "over")
    steps = len(final["log"])
    first = client.get(f"/api/games/{gid}/replay?step=0").json()
    assert first["step"] == 0 and first["steps"] == steps and first["log"] == []
    middle = client.get(f"/api/games/{gid}/replay?step=5").json()
    assert len(middle["log"]) == 5 and middle["status"] == "playing" and middle["legal_actions"] == []
    last = client.get(f"/api/games/{gid}/replay?step={steps + 50}").json()
    assert last["step"] == steps and last["public"] == final["public"]
    assert client.get(f"/api/games/{gid}/replay?step=x").status_code == 422


# ----- lobby endpoints --------------------------------------------------------------------------
def test_catalog_lists_every_game_with_options_and_rules(client):
    data = client.get("/api/catalog").json()
    assert [g["name"] for g in data["games"]] == game_names()
    assert "human" in data["agents"] and "random" in data["agents"]
    flowers = next(g for g in data["games"] if g["name"] == "flowers")
    assert flowers["options"][0]["name"] == "summer" and flowers["rules"]


def test_game_list_shows_public_facts_and_never_tokens(client):
    gid, tokens = create(client)
    text = client.get("/api/games").text
    assert gid in text and not any(token in text for token in tokens.values())


def test_pages_and_renderers_are_served(client):
    assert 'href="/games/flowers"' in client.get("/").text
    assert "Create game" in client.get("/games/flowers").text
    assert "board" in client.get("/play/abc").text
    assert "registerGame" in client.get("/games/flowers/web.js").text
    assert client.get("/games/nothing/web.js").status_code == 200
    assert client.get("/static/common.js").status_code == 200


# ----- WebSocket --------------------------------------------------------------------------------
def test_websocket_pushes_the_seats_view_after_every_change(client):
    gid, tokens = create(client)
    with client.websocket_connect(f"/ws/games/{gid}?token={tokens['1']}") as ws:
        first = ws.receive_json()
        assert first["seat"] == 1 and first["version"] == 0
        client.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": "draw 3"})
        pushed = ws.receive_json()
        assert pushed["version"] == 1 and pushed["seat"] == 1
        # seat 0 drew face down: the card is in nobody else's push
        assert "drawn" not in pushed["private"] and pushed["public"]["drawn"] is None
    with client.websocket_connect(f"/ws/games/{gid}") as spectator:
        assert spectator.receive_json()["private"] == {}
        view = client.get(f"/api/games/{gid}", headers=auth(tokens["0"])).json()
        client.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": view["legal_actions"][0]})
        pushed = spectator.receive_json()
        assert pushed["version"] == 2 and pushed["seat"] is None and pushed["private"] == {}


def test_websocket_with_a_wrong_token_is_refused(client):
    gid, _tokens = create(client)
    with pytest.raises(WebSocketDisconnect) as wrong:
        with client.websocket_connect(f"/ws/games/{gid}?token=wrong") as ws:
            ws.receive_json()
    with pytest.raises(WebSocketDisconnect) as unknown:
        with client.websocket_connect("/ws/games/nothing") as ws:
            ws.receive_json()
    assert (wrong.value.code, unknown.value.code) == (4403, 4404)


def test_card_faces_come_from_the_print_faces_model(client):
    reply = client.get("/faces/flowers/Y4g.svg")
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("image/svg+xml")
    assert reply.text.lstrip().startswith("<svg") or "<svg" in reply.text[:200]
    assert client.get("/faces/flowers/Y4g.svg?back=1").status_code == 200
    assert client.get("/faces/flowers/Q9.svg").status_code == 404
    assert client.get("/faces/nogame/Y4.svg").status_code == 404


def test_undo_takes_back_a_move_that_revealed_nothing(app, client, tmp_path):
    gid, tokens = create(client)
    stacks = client.get(f"/api/games/{gid}").json()["public"]["stacks"]
    face_up = next(s["stack"] for s in stacks if s["face_up"])
    face_down = next(s["stack"] for s in stacks if not s["face_up"])
    view = client.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": f"draw {face_up}"}).json()
    assert view["can_undo"] is True
    assert client.post(f"/api/games/{gid}/undo", headers=auth(tokens["1"])).status_code == 409
    assert client.post(f"/api/games/{gid}/undo").status_code == 403
    back = client.post(f"/api/games/{gid}/undo", headers=auth(tokens["0"]))
    assert back.status_code == 200 and back.json()["version"] == 0 and back.json()["can_undo"] is False
    assert app.state.hub.store.load_games()[0].actions == []
    # a face-down draw revealed a card: no undo
    view = client.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": f"draw {face_down}"}).json()
    assert view["can_undo"] is False
    reply = client.post(f"/api/games/{gid}/undo", headers=auth(tokens["0"]))
    assert reply.status_code == 409 and "nothing to undo" in reply.json()["detail"]
    assert client.get(f"/api/games/{gid}").json()["version"] == 1


def test_every_registered_game_gets_its_own_web_renderer_or_the_generic_table(client):
    for name in game_names():
        reply = client.get(f"/games/{name}/web.js")
        assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/javascript")
        if get_package(name).file("web.js") is None:
            assert reply.text == GENERIC_RENDERER, name
        else:
            assert f'TP.registerGame("{name}"' in reply.text, name


def test_a_game_without_web_js_or_rules_md_is_served_generically(client, monkeypatch, tmp_path):
    bare = dataclasses.replace(get_package("flowers"), folder=tmp_path)  # a folder with none of the files
    monkeypatch.setitem(registry._loaded, "flowers", bare)
    assert bare.file("web.js") is None and bare.file("rules.md") is None
    assert client.get("/games/flowers/web.js").text == GENERIC_RENDERER
    flowers = next(g for g in client.get("/api/catalog").json()["games"] if g["name"] == "flowers")
    assert flowers["rules"] == bare.game.rules_text()
    gid, tokens = create(client)
    assert "board" in client.get(f"/play/{gid}").text
    view = client.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": "draw 1"}).json()
    assert view["version"] == 1 and view["legal_actions"]


def test_search_agents_think_in_worker_processes_and_finish_the_game(client):
    gid, tokens = create(client, "by-this", ["greedy", "ismcts:10"])
    final = wait_for(client, gid, None, lambda v: v["status"] == "over", timeout=120)
    assert tokens == {} and final["winners"] is not None
    record = client.get(f"/api/games/{gid}/record").json()
    assert records.from_record(record).is_over


@pytest.mark.parametrize("name", game_names())
def test_near_miss_actions_are_refused_with_409_in_every_game(app, client, name):
    gid, tokens = create(client, name, ["human"] * max(2, get_game(name).min_players))
    rng = random.Random(4)
    for _step in range(12):
        spectator = client.get(f"/api/games/{gid}").json()
        if spectator["status"] == "over":
            break
        seat = spectator["to_move"][0]
        token = tokens[str(seat)]
        legal = client.get(f"/api/games/{gid}", headers=auth(token)).json()["legal_actions"]
        action = rng.choice(legal)
        game, state = hub_state(app, gid)
        for junk in (action.upper(), action + " x", action[:-1], action.split()[0], "\u202e" + action,
                     action + "\x00", "99999999999999999999"):
            if accepted(game, state, seat, junk):
                continue  # a form the game itself takes (see the test of typed forms)
            reply = client.post(f"/api/games/{gid}/actions", headers=auth(token), json={"action": junk})
            assert reply.status_code == 409, (junk, reply.text)
        assert client.get(f"/api/games/{gid}").json()["version"] == spectator["version"]
        assert client.post(f"/api/games/{gid}/actions", headers=auth(token), json={"action": action}).status_code == 200


@pytest.mark.parametrize("name", game_names())
def test_the_api_takes_the_typed_forms_the_terminal_takes_and_records_them_canonically(app, client, name):
    gid, tokens = create(client, name, ["human"] * max(2, get_game(name).min_players))
    rng = random.Random(6)
    for _step in range(40):
        seat = client.get(f"/api/games/{gid}").json()["to_move"][0]
        legal = client.get(f"/api/games/{gid}", headers=auth(tokens[str(seat)])).json()["legal_actions"]
        spaced = [action for action in legal if " " in action]
        if spaced:
            break
        client.post(f"/api/games/{gid}/actions", headers=auth(tokens[str(seat)]), json={"action": rng.choice(legal)})
    else:
        pytest.skip(f"{name} offered no action with a space")
    action = rng.choice(spaced)
    typed = "  " + action.replace(" ", "  ", 1) + " "
    game, state = hub_state(app, gid)
    assert game.checked(state, seat, typed) == action  # what the terminal takes
    reply = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[str(seat)]), json={"action": typed})
    assert reply.status_code == 200, reply.text
    assert reply.json()["log"][-1]["text"] == action
    assert app.state.hub.rooms[gid].match.actions[-1] == (seat, action)
    assert app.state.hub.store.load_games()[0].actions[-1][:2] == (seat, action)


def test_a_failing_store_write_changes_nothing(app, monkeypatch):
    with TestClient(app, raise_server_exceptions=False) as client:
        gid, tokens = create(client)
        before = client.get(f"/api/games/{gid}", headers=auth(tokens["0"])).json()
        room = app.state.hub.rooms[gid]
        state = room.match.state

        def full_disk(*_args, **_kwargs):
            raise OSError("disk full")

        monkeypatch.setattr(app.state.hub.store, "append_action", full_disk)
        reply = client.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": "draw 1"})
        assert reply.status_code == 507 and set(reply.json()) == {"detail"} and "disk is full" in reply.json()["detail"]
        assert room.match.state is state and room.match.moves == []
        assert client.get(f"/api/games/{gid}", headers=auth(tokens["0"])).json() == before


@pytest.mark.parametrize("variant, fragment", [
    ({"scoring": {"region_min": "x"}}, "variant: scoring.region_min: must be a number"),
    ({"scoring": {"no_such_rule": 1}}, "variant: scoring.no_such_rule:"),
    ({"no_such_section": {}}, "variant: no_such_section:"),
    ({}, "changes nothing"),
    ("[scoring]\nregion_min = true\n", "scoring.region_min"),
])
def test_a_bad_variant_is_refused_as_simulate_refuses_it(client, variant, fragment):
    reply = client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "variant": variant})
    assert reply.status_code == 422, reply.text
    detail = reply.json()["detail"]
    assert fragment in detail and "\n" not in detail and "invalid literal" not in detail
    assert client.get("/api/games").json()["games"] == []


def test_a_card_data_variant_plays_and_is_recorded(client, cli, tmp_path):
    reply = client.post("/api/games", json={"game": "flowers", "seats": ["random", "random"], "seed": 2,
                                            "variant": "[scoring]\nregion_min = 3\n"})
    assert reply.status_code == 201, reply.text
    gid = reply.json()["id"]
    wait_for(client, gid, None, lambda v: v["status"] == "over")
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["variant"] == {"scoring": {"region_min": 3}}
    path = tmp_path / "variant.json"
    path.write_text(json.dumps(record))
    assert cli("replay", str(path)).exit_code == 0
    bad = client.post("/api/games", json={"game": "flowers", "seats": ["human"], "variant": "[scoring\n"})
    assert bad.status_code == 422 and "variant" in bad.json()["detail"]
    wrong = client.post("/api/games", json={"game": "flowers", "seats": ["human"], "variant": {"scoring": {"region_min": "x"}}})
    assert wrong.status_code == 422


def test_a_failing_agent_never_freezes_the_game(client, monkeypatch):
    from tablepress.agents import base

    monkeypatch.setitem(base.AGENTS, "broken", "tablepress.no_such_module:Nothing")
    gid, _tokens = create(client, "flowers", ["broken", "random"])
    final = wait_for(client, gid, None, lambda v: v["status"] == "over", timeout=120)
    assert final["status"] == "over"


def test_many_games_at_once_stay_separate_and_consistent(app):
    async def one(ac: httpx.AsyncClient, seed: int) -> str:
        reply = await ac.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": seed})
        gid, tokens = reply.json()["id"], reply.json()["tokens"]
        for _ in range(10):
            view = (await ac.get(f"/api/games/{gid}")).json()
            token = tokens[str(view["to_move"][0])]
            legal = (await ac.get(f"/api/games/{gid}", headers=auth(token))).json()["legal_actions"]
            await ac.post(f"/api/games/{gid}/actions", headers=auth(token), json={"action": legal[seed % len(legal)]})
        return gid

    async def run() -> list[str]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as ac:
            return await asyncio.gather(*[one(ac, seed) for seed in range(30)])

    ids = asyncio.run(run())
    assert len(set(ids)) == 30
    stored = {row.id: row for row in app.state.hub.store.load_games()}
    for gid in ids:
        room = app.state.hub.rooms[gid]
        assert len(room.match.actions) == 10
        assert [(s, a) for s, a, _p, _t in stored[gid].actions] == room.match.actions
        replayed = records.from_record(room.match.record())
        assert replayed.state == room.match.state


def test_finished_games_load_only_when_asked_for_after_a_restart(tmp_path):
    db = tmp_path / "games.db"
    with TestClient(create_app(db, ai_delay=0.0)) as first:
        gid, _tokens = create(first, "flowers", ["random", "random"])
        final = wait_for(first, gid, None, lambda v: v["status"] == "over")
        playing, tokens = create(first, "flowers", ["human", "human"])
    app = create_app(db, ai_delay=0.0)
    assert gid in app.state.hub.archive and gid not in app.state.hub.rooms
    assert playing in app.state.hub.rooms
    with TestClient(app) as second:
        listed = {g["id"]: g for g in second.get("/api/games").json()["games"]}
        assert listed[gid]["status"] == "over" and listed[gid]["scores"] == final["scores"]
        assert listed[gid]["winners"] == final["winners"] and listed[gid]["actions"] == len(final["log"])
        again = second.get(f"/api/games/{gid}").json()
        assert {k: again[k] for k in ("public", "scores", "winners", "log")} == \
            {k: final[k] for k in ("public", "scores", "winners", "log")}
        assert gid in app.state.hub.rooms and gid not in app.state.hub.archive
        assert second.get(f"/api/games/{gid}/record").status_code == 200
        assert second.get(f"/api/games/{playing}", headers=auth(tokens["0"])).json()["status"] == "playing"


def test_idle_finished_games_go_back_to_the_store(app, client, monkeypatch):
    from tablepress.web import hub as hub_module

    monkeypatch.setattr(hub_module, "MAX_FINISHED_LOADED", 1)
    ids = [create(client, "flowers", ["random", "random"])[0] for _ in range(3)]
    finals = [wait_for(client, gid, None, lambda v: v["status"] == "over") for gid in ids]
    hub = app.state.hub
    assert sum(gid in hub.rooms for gid in ids) == 1 and sum(gid in hub.archive for gid in ids) == 2
    listed = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    for gid, final in zip(ids, finals):
        assert listed[gid]["scores"] == final["scores"] and listed[gid]["winners"] == final["winners"]
        assert client.get(f"/api/games/{gid}").json()["log"] == final["log"]


def test_views_are_never_cached(client):
    gid, tokens = create(client)
    reply = client.get(f"/api/games/{gid}", headers=auth(tokens["0"]))
    assert reply.headers["cache-control"] == "no-store" and reply.headers["x-frame-options"] == "DENY"


def test_a_solo_game_plays_to_its_end(client):
    gid, tokens = create(client, "flowers", ["human"], options={"summer": True})
    final = play_out(client, gid, tokens, seed=8)
    assert final["status"] == "over" and final["winners"] == [] and len(final["scores"]) == 1
    assert final["options"] == {"summer": True}


def test_a_seat_handed_to_an_ai_plays_on_by_itself_and_stays_so(tmp_path):
    db = tmp_path / "games.db"
    with TestClient(create_app(db, ai_delay=0.0)) as c:
        gid, tokens = create(c, "flowers", ["human", "human"])
        assert c.post(f"/api/games/{gid}/bot", json={"agent": "human"}, headers=auth(tokens["1"])).status_code == 422
        assert c.post(f"/api/games/{gid}/bot", json={"agent": "random"}).status_code == 403
        reply = c.post(f"/api/games/{gid}/bot", json={"agent": "random"}, headers=auth(tokens["1"]))
        assert reply.status_code == 200 and reply.json()["seats"] == ["human", "random"]
        assert c.get(f"/api/games/{gid}", headers=auth(tokens["1"])).status_code == 403
        view = c.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": "draw 1"}).json()
        c.post(f"/api/games/{gid}/actions", headers=auth(tokens["0"]), json={"action": view["legal_actions"][0]})
        wait_for(c, gid, tokens["0"], lambda v: v["to_move"] == [0] and v["version"] == 4)
    with TestClient(create_app(db, ai_delay=0.0)) as c:
        view = c.get(f"/api/games/{gid}").json()
        assert view["seats"] == ["human", "random"] and "AI" in view["names"][1]
        assert c.get(f"/api/games/{gid}", headers=auth(tokens["1"])).status_code == 403
        final = play_out(c, gid, {"0": tokens["0"]}, seed=1)
        assert c.get(f"/api/games/{gid}/record").json()["seats"] == ["human", "random"]
        assert final["status"] == "over"


def test_handing_a_seat_to_an_ai_ends_that_seats_live_views(client):
    gid, tokens = create(client)
    with client.websocket_connect(f"/ws/games/{gid}?token={tokens['1']}") as ws:
        assert ws.receive_json()["seat"] == 1
        client.post(f"/api/games/{gid}/bot", json={"agent": "random"}, headers=auth(tokens["1"]))
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403


def test_a_full_server_says_so(client, monkeypatch):
    from tablepress.web import hub as hub_module

    monkeypatch.setattr(hub_module, "MAX_OPEN_GAMES", 1)
    create(client)
    reply = client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"]})
    assert reply.status_code == 503 and "unfinished games" in reply.json()["detail"]


def test_the_catalog_carries_each_games_rules_as_html(client) -> None:
    """A game's rules.md reaches the rules panel as HTML (headings, lists), its raw HTML escaped."""
    from tablepress.web.catalog import rules_html

    games = {game["name"]: game for game in client.get("/api/catalog").json()["games"]}
    by_this = games["by-this"]
    assert by_this["rules"].startswith("#") and "<h1>" in by_this["rules_html"]
    assert "<li>" in by_this["rules_html"]
    assert "&lt;script&gt;" in rules_html("# Rules\n\n<script>alert(1)</script>")
