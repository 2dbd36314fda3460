"""A game played with a variant says so and shows the variant's cards: its view names the variant and what it
changes (and carries the changed numbers), its card faces (`/faces/...?game=ID`) are drawn from its own card
data, the games list and My games name it, the name survives a restart, a saved variant has its own intro,
and its print sheets carry its faces. Bad ids are 404s or 422s that change nothing."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tablepress.core.registry import get_game
from tablepress.faces.catalog import svg_for
from tablepress.web.app import create_app
from tablepress.web.pages.printer import draw_pdf, parse_choices
from tablepress.web.players import my_game
from web_helpers import auth

#: By This's Rice is [ABC, Size, Weight, Age] = [8, 1, 1, 7]; this variant makes its Size 2.
BIG_RICE = "[things]\nRice = [8, 2, 1, 7]\n"
#: With this seed seat 0 of a 2-player By This holds Rice from the start (asserted where it matters).
RICE_SEED = 1


def save(client, name: str = "Big rice", toml: str = BIG_RICE, game: str = "by-this") -> str:
    """A saved variant's id."""
    reply = client.post("/api/variants", json={"game": game, "name": name, "toml": toml})
    assert reply.status_code == 201, reply.text
    return reply.json()["id"]


def new_game(client, variant, game: str = "by-this", seed: int = RICE_SEED) -> tuple[str, str]:
    """(game id, seat 0's token) of a new game of a person against a random AI."""
    body = {"game": game, "seats": ["human", "random"], "seed": seed}
    if variant is not None:
        body["variant"] = variant
    reply = client.post("/api/games", json=body)
    assert reply.status_code == 201, reply.text
    return reply.json()["id"], reply.json()["tokens"]["0"]


def sizes(svg: str) -> list[str]:
    """The big numbers printed on a By This thing's face, in order (ABC, Size, Weight, Age)."""
    return re.findall(r">(\d+)<", svg)[:4]


def test_a_variant_games_view_names_the_variant_and_carries_the_changed_card(client):
    variant_id = save(client)
    game_id, token = new_game(client, variant_id)
    view = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
    assert view["variant"] == {"name": "Big rice", "id": variant_id, "changes": [
        {"field": "things.Rice.Size", "old": 1, "new": 2, "text": "Rice Size: 1 → 2"}]}
    rice = [card for card in view["private"]["hand"] if card["card"] == "Rice"]
    assert rice and rice[0]["numbers"]["Size"] == 2
    assert client.get(f"/api/games/{game_id}").json()["variant"]["name"] == "Big rice"  # spectators read it too
    plain_id, plain_token = new_game(client, None)
    assert client.get(f"/api/games/{plain_id}", headers=auth(plain_token)).json()["variant"] is None
    listed = {g["id"]: g["variant"] for g in client.get("/api/games").json()["games"]}
    assert listed == {game_id: "Big rice", plain_id: None}


def test_card_data_given_whole_is_named_custom_cards(client):
    game_id, _token = new_game(client, {"things": {"Rice": [8, 2, 1, 7]}})
    view = client.get(f"/api/games/{game_id}").json()
    assert view["variant"]["name"] == "custom cards" and view["variant"]["id"] is None
    assert [c["text"] for c in view["variant"]["changes"]] == ["Rice Size: 1 → 2"]


def test_the_table_draws_a_variant_games_cards_from_its_own_card_data(client):
    variant_id = save(client)
    game_id, _token = new_game(client, variant_id)
    published = client.get("/faces/by-this/Rice.svg")
    played = client.get(f"/faces/by-this/Rice.svg?game={game_id}")
    assert played.status_code == 200 and played.headers["content-type"].startswith("image/svg+xml")
    assert sizes(published.text) == ["8", "1", "1", "7"] and sizes(played.text) == ["8", "2", "1", "7"]
    assert client.get(f"/faces/by-this/Rice.svg?variant={variant_id}").text == played.text
    assert client.get(f"/faces/by-this/Rice.svg?game={game_id}&back=1").status_code == 200
    plain_id, _ = new_game(client, None)
    assert client.get(f"/faces/by-this/Rice.svg?game={plain_id}").text == published.text
    # the web's face is the print faces model's face of the varied game
    varied = get_game("by-this").with_variant({"things": {"Rice": [8, 2, 1, 7]}})
    assert played.text == svg_for(varied, "Rice", width="100%")


@pytest.mark.parametrize("query, detail", [
    ("game=0000000000", "no game '0000000000'"),
    ("variant=000000000000", "no variant '000000000000' of by-this"),
])
def test_faces_of_an_unknown_game_or_variant_are_404(client, query, detail):
    reply = client.get(f"/faces/by-this/Rice.svg?{query}")
    assert reply.status_code == 404 and detail in reply.json()["detail"]


def test_faces_of_another_kind_of_game_are_404(client):
    variant_id = save(client)
    game_id, _token = new_game(client, variant_id)
    other = client.get(f"/faces/flowers/Y1.svg?game={game_id}")
    assert other.status_code == 404 and "not a game of flowers" in other.json()["detail"]
    assert client.get(f"/faces/flowers/Y1.svg?variant={variant_id}").status_code == 404


def test_the_variant_name_is_kept_with_the_game_over_a_restart(tmp_path):
    db = tmp_path / "games.db"
    with TestClient(create_app(db, ai_delay=0.0)) as first:
        game_id, token = new_game(first, save(first))
    with TestClient(create_app(db, ai_delay=0.0)) as second:
        assert second.get(f"/api/games/{game_id}", headers=auth(token)).json()["variant"]["name"] == "Big rice"
        assert second.app.state.hub.store.load_game(game_id).variant_name == "Big rice"


def test_my_games_name_the_variant_of_a_game_in_play_and_of_a_finished_one_not_loaded(client):
    hub = client.app.state.hub
    game_id, _token = new_game(client, save(client))
    plain_id, _ = new_game(client, None)
    assert (my_game(hub, game_id, 0)["variant"], my_game(hub, plain_id, 0)["variant"]) == ("Big rice", None)
    hub.archive[game_id] = hub.rooms.pop(game_id).row  # as a finished game waits in the archive, unreplayed
    assert my_game(hub, game_id, 0)["variant"] == "Big rice"


def test_a_saved_variant_has_its_own_intro(client):
    variant_id = save(client, name="Big <rice>")
    page = client.get(f"/games/by-this/intro?variant={variant_id}")
    assert page.status_code == 200
    text = page.text
    assert "<h1>By This — variant: Big &lt;rice&gt;</h1>" in text and "<rice>" not in text
    assert "<li>Rice Size: 1 → 2</li>" in text
    assert f'content="http://127.0.0.1:8000/games/by-this/intro?variant={variant_id}"' in text
    assert f"/faces/by-this/" in text and f".svg?variant={variant_id}" in text
    assert f'href="/games/by-this/print.pdf?variant={variant_id}"' in text
    assert "variant:" not in client.get("/games/by-this/intro").text


def test_the_intro_of_an_unknown_or_another_games_variant_is_refused(client):
    variant_id = save(client)
    unknown = client.get("/games/by-this/intro?variant=000000000000")
    assert unknown.status_code == 404 and "no variant '000000000000'" in unknown.json()["detail"]
    other = client.get(f"/games/flowers/intro?variant={variant_id}")
    assert other.status_code == 422 and "is a variant of by-this, not flowers" in other.json()["detail"]


def test_a_variants_print_sheets_carry_its_faces(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    choices = parse_choices({})
    same = {"name": "Big rice", "overrides": {"things": {"Rice": [8, 1, 1, 7]}}}  # the published Rice, under the name
    bigger = {"name": "Big rice", "overrides": {"things": {"Rice": [8, 2, 1, 7]}}}
    assert draw_pdf("by-this", choices, same) == draw_pdf("by-this", choices, dict(same))
    assert draw_pdf("by-this", choices, bigger) != draw_pdf("by-this", choices, same)


def test_a_refused_variant_game_changes_nothing(client):
    variant_id = save(client)
    before = client.get("/api/games").json()
    for variant in ("000000000000", {"things": {"Rice": [8, 2, 1]}}):
        reply = client.post("/api/games", json={"game": "by-this", "seats": ["human", "random"], "variant": variant})
        assert reply.status_code == 422, reply.text
    assert client.get("/api/games").json() == before and variant_id
