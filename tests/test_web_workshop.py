"""The workshop's API: saved variants (`/api/variants`), the published cards, the Make page, and
`"variant": ID` in `POST /api/games` — every route and every error, through FastAPI's TestClient."""

from __future__ import annotations

import warnings

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")

from fastapi.testclient import TestClient  # noqa: E402

from tablepress.core.registry import get_package  # noqa: E402
from tablepress.web import workshop  # noqa: E402
from tablepress.web.app import create_app  # noqa: E402

from web_helpers import auth  # noqa: E402

SMALL_REGIONS = "# colour regions score from 3 cards\n[scoring]\nregion_min = 3\n"




def save(client, game="flowers", name="small regions", toml=SMALL_REGIONS) -> str:
    """Save a variant; its id."""
    reply = client.post("/api/variants", json={"game": game, "name": name, "toml": toml})
    assert reply.status_code == 201, reply.text
    return reply.json()["id"]


def refused(client, toml, game="flowers", dry_run=True):
    """The 422 body for a variant that must not check."""
    path = "/api/variants?dry_run=1" if dry_run else "/api/variants"
    reply = client.post(path, json={"game": game, "name": "x", "toml": toml})
    assert reply.status_code == 422, reply.text
    return reply.json()


def test_a_saved_variant_reads_back_with_its_changes(client):
    variant_id = save(client)
    got = client.get(f"/api/variants/{variant_id}").json()
    assert got == {"id": variant_id, "game": "flowers", "name": "small regions", "toml": SMALL_REGIONS,
                   "changes": [{"field": "scoring.region_min", "old": 5, "new": 3,
                                                 "text": "scoring.region_min: 5 → 3"}], "public": True, "mine": False}
    listed = client.get("/api/variants", params={"game": "flowers"}).json()["variants"]
    assert [v["id"] for v in listed] == [variant_id] and listed[0]["name"] == "small regions"
    assert client.get("/api/variants", params={"game": "pressed"}).json()["variants"] == []


def test_app_state_variants_gives_the_overrides_and_refuses_unknown_ids(app, client):
    variant_id = save(client, name="  small   regions ")
    got = app.state.variants.get(variant_id)
    assert got.pop("owner").startswith("t:")
    assert got == {"id": variant_id, "game": "flowers", "name": "small regions", "toml": SMALL_REGIONS,
                   "overrides": {"scoring": {"region_min": 3}}, "public": True}
    for unknown in ("000000000000", "nope", "'; drop table variants; --"):
        with pytest.raises(KeyError):
            app.state.variants.get(unknown)


def test_a_dry_run_checks_without_storing(client):
    reply = client.post("/api/variants?dry_run=1", json={"game": "flowers", "toml": SMALL_REGIONS})
    assert reply.status_code == 200
    assert reply.json() == {"ok": True, "changes": [{"field": "scoring.region_min", "old": 5, "new": 3,
                                                 "text": "scoring.region_min: 5 → 3"}]}
    assert client.get("/api/variants", params={"game": "flowers"}).json()["variants"] == []


def test_a_toml_syntax_error_names_its_line(client):
    body = refused(client, "[scoring]\nregion_min = 3\nbutterfly_points = \n")
    assert body["line"] == 3 and body["detail"].startswith("line 3: Invalid value")
    body = refused(client, '[scoring]\nregion_min = "3')
    assert body["line"] == 2 and body["detail"].startswith("line 2: ")


def test_a_field_error_names_the_field_and_the_line_that_sets_it(client):
    body = refused(client, "# small\n[scoring]\nregion_mn = 3\n")
    assert body["detail"].startswith("scoring.region_mn: the card data has no entry 'region_mn'")
    assert body["line"] == 3
    body = refused(client, '[flowers.Zinnia]\ntable = [1, 2]\n', game="pressed")
    assert body["detail"] == "flowers.Zinnia.table: the table has 2 entries; it needs 8" and body["line"] == 2
    body = refused(client, "[scoring]\nregion_min = 1.5\n")
    assert body["detail"].startswith("scoring.region_min: must be a whole number") and body["line"] == 2
    body = refused(client, "[scoring]\nregion_min = 100000\n")
    assert body["detail"].startswith("scoring.region_min: 100000 is too large")


def test_a_variant_that_breaks_setup_or_play_is_refused_naming_the_player_count(client):
    body = refused(client, "[stacks]\n2 = [100, 100, 100]\n", dry_run=False)
    assert body["detail"].startswith("the variant breaks setup or play for 2 players: ") and "stacks.2:" in body["detail"]
    assert body["line"] == 2


def test_bad_bodies_are_refused_naming_the_field(client):
    cases = [
        ({"game": "nope", "name": "x", "toml": SMALL_REGIONS}, "game: no game 'nope'"),
        ({"game": "flowers", "toml": SMALL_REGIONS}, "name: "),
        ({"game": "flowers", "name": "  ", "toml": SMALL_REGIONS}, "name: give the variant a name"),
        ({"game": "flowers", "name": "x" * 61, "toml": SMALL_REGIONS}, "name: at most 60 characters"),
        ({"game": "flowers", "name": "x", "toml": 3}, "toml: must be the variant's TOML text"),
        ({"game": "flowers", "name": "x", "toml": "# nothing\n"}, "toml: the variant changes nothing"),
        ({"game": "flowers", "name": "x", "toml": "[scoring]\nregion_min = 5\n"}, "toml: the variant changes nothing"),
        ({"game": "flowers", "name": "x", "toml": "[copies]\n4 = 1000\n"}, "its card copies come to over 310"),
    ]
    for body, start in cases:
        reply = client.post("/api/variants", json=body)
        assert reply.status_code == 422, (body, reply.text)
        assert start in reply.json()["detail"], (body, reply.json())
    assert client.post("/api/variants", content=b"[1, 2]").status_code == 422
    assert client.post("/api/variants", content=b"{").status_code == 422
    huge = {"game": "flowers", "name": "x", "toml": "# " + "x" * 70_000}
    assert client.post("/api/variants", json=huge).status_code == 413
    assert client.get("/api/variants", params={"game": "flowers"}).json()["variants"] == []


def test_the_server_keeps_a_bounded_number_of_variants(client, monkeypatch):
    monkeypatch.setattr(workshop, "MAX_VARIANTS", 1)
    save(client)
    reply = client.post("/api/variants", json={"game": "flowers", "name": "again", "toml": SMALL_REGIONS})
    assert reply.status_code == 429 and "variants" in reply.json()["detail"]


def test_unknown_variants_and_games_are_404(client):
    assert client.get("/api/variants/000000000000").status_code == 404
    assert client.get("/api/variants/whatever").json()["detail"] == "no variant 'whatever'"
    assert client.get("/api/variants", params={"game": "nope"}).status_code == 422
    assert client.get("/api/cards/nope").status_code == 404
    assert client.get("/make/nope").status_code == 404


def test_the_published_cards_are_the_games_cards_toml(client):
    for name in ("flowers", "by-this"):
        reply = client.get(f"/api/cards/{name}").json()
        assert reply["game"] == name
        assert reply["toml"] == get_package(name).file("cards.toml").read_text(encoding="utf-8")


def test_the_make_page_is_served(client):
    page = client.get("/make/by-this")
    assert page.status_code == 200 and "/static/make.js" in page.text and 'id="toml"' in page.text
    for asset in ("make.js", "make.css", "simulation.js"):
        assert client.get(f"/static/{asset}").status_code == 200


def test_a_game_plays_a_saved_variant_and_keeps_it_over_a_restart(tmp_path):
    db = tmp_path / "games.db"
    with TestClient(create_app(db, ai_delay=0.0)) as first:
        variant_id = save(first)
        reply = first.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 3,
                                               "variant": variant_id})
        assert reply.status_code == 201, reply.text
        game_id, tokens = reply.json()["id"], reply.json()["tokens"]
        room = first.app.state.hub.rooms[game_id]
        assert room.match.game.variant == {"scoring": {"region_min": 3}} and room.row.variant_id == variant_id
        view = first.get(f"/api/games/{game_id}", headers=auth(tokens["0"])).json()
        first.post(f"/api/games/{game_id}/actions", headers=auth(tokens["0"]), json={"action": view["legal_actions"][0]})
    app = create_app(db, ai_delay=0.0)
    with TestClient(app) as second:
        room = app.state.hub.rooms[game_id]
        assert room.match.game.variant == {"scoring": {"region_min": 3}} and room.row.variant_id == variant_id
        assert len(room.match.actions) == 1
        assert second.get(f"/api/variants/{variant_id}").json()["toml"] == SMALL_REGIONS


def test_a_game_refuses_an_unknown_or_foreign_variant_id(client):
    variant_id = save(client)
    for game, variant, detail in (("flowers", "000000000000", "variant: no saved variant '000000000000'"),
                                  ("pressed", variant_id, "is for flowers, not pressed")):
        reply = client.post("/api/games", json={"game": game, "seats": ["human", "random"], "variant": variant})
        assert reply.status_code == 422 and detail in reply.json()["detail"], reply.text
    assert client.get("/api/games").json()["games"] == []
