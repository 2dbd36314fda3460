"""AI levels on the site: the catalog's `levels`, the game page's list, and a hand-over to an unknown level."""

from __future__ import annotations

import warnings

warnings.filterwarnings("ignore", message="Using `httpx`")

from web_helpers import auth  # noqa: E402


def test_catalog_gives_each_games_levels_with_rating_and_games(client):
    data = client.get("/api/catalog").json()
    assert "level" not in data["agents"]
    for game in data["games"]:
        levels = game["levels"]
        assert [level["name"] for level in levels][:3] == ["beginner", "casual", "strong"], game["name"]
        for level in levels:
            assert {"name", "agent", "rating", "games"} <= set(level)
            assert isinstance(level["agent"], str) and isinstance(level["games"], int)
            assert (level["rating"] is None) == (level["games"] == 0)
            assert level["rating"] is None or isinstance(level["rating"], int)


def test_the_game_page_lists_the_levels_with_their_games(client):
    page = client.get("/games/planted", headers={"accept": "text/html"}).text
    assert 'id="levels"' in page
    for title in ("Beginner", "Casual", "Strong"):
        assert f'<th scope="row">{title}</th>' in page


def test_handing_a_seat_to_an_unknown_level_is_refused_naming_the_levels(client):
    created = client.post("/api/games", json={"game": "pressed", "seats": ["human", "human"]}).json()
    bot = client.post(f"/api/games/{created['id']}/bot", json={"agent": "level:expert"},
                      headers=auth(created["tokens"]["0"]))
    assert bot.status_code == 422
    assert bot.json()["detail"] == "agent: unknown level 'expert' for pressed (levels: beginner, casual, strong)"
