"""Variants and lobby AI levels in real Chromium against a `tablepress serve` subprocess, at 1200 and 390 px:
a game played with a saved variant (By This's Rice, Size 1 → 2) draws the variant's Rice on the table and says
"variant: NAME" in its header, at the top of its log and in its game-over line; a player creates a lobby table
with a Casual AI seat, plays at it by the HttpOnly cookie alone (no player token in the page's storage) and
sees "Casual AI" (and the games list offers to resume that game); axe-core finds nothing serious on these
pages, the variant's intro or the Make page."""

from __future__ import annotations

import pytest

from web_audit import AXE, axe_violations, needs_axe, sideways, widest
from web_helpers import Server, auth, needs_chromium, play_out

pytestmark = needs_chromium

BIG_RICE = "[things]\nRice = [8, 2, 1, 7]\n"
#: With this seed seat 0 of a 2-player By This holds Rice from the start (the test checks it does).
RICE_SEED = 1
SIZES = {"desktop": (1200, 900), "phone": (390, 844)}

#: The text of the face an <img> shows (fetched again from its own address).
FACE_TEXT = "async (img) => (await fetch(img.src)).text()"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("variants") / "games.db", ai_delay=0.02)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def variant_game(server):
    """(variant id, game id, seat 0's token) of a By This game against random play with the Big rice variant."""
    saved = server.client.post("/api/variants", json={"game": "by-this", "name": "Big rice", "toml": BIG_RICE})
    assert saved.status_code == 201, saved.text
    variant_id = saved.json()["id"]
    made = server.client.post("/api/games", json={"game": "by-this", "seats": ["human", "random"], "seed": RICE_SEED,
                                                   "variant": variant_id})
    assert made.status_code == 201, made.text
    game_id, token = made.json()["id"], made.json()["tokens"]["0"]
    hand = server.client.get(f"/api/games/{game_id}", headers=auth(token)).json()["private"]["hand"]
    assert any(card["card"] == "Rice" and card["numbers"]["Size"] == 2 for card in hand)
    return variant_id, game_id, token


def opened(browser, url: str, size: tuple[int, int]):
    """A fresh context's page at `url`, failing on script errors (the list returned)."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    return context, page, errors


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_a_variant_game_draws_the_variants_card_and_says_so(browser, server, variant_game, size):
    variant_id, game_id, token = variant_game
    context, page, errors = opened(browser, f"{server.url}/play/{game_id}#seat=0&token={token}", size)
    try:
        rice = page.locator("#board [data-card='Rice'] img").first
        rice.wait_for(timeout=15_000)
        assert f"game={game_id}" in rice.get_attribute("src")
        shown = rice.evaluate(FACE_TEXT)
        assert shown == server.client.get(f"/faces/by-this/Rice.svg?variant={variant_id}").text
        assert shown != server.client.get("/faces/by-this/Rice.svg").text
        assert "variant: Big rice" in page.locator("#title").inner_text()
        note = page.locator("#log-variant")
        assert "variant: Big rice" in note.inner_text() and "Rice Size: 1 → 2" in note.inner_text()
        assert note.locator("a").get_attribute("href") == f"/games/by-this/intro?variant={variant_id}"
        assert sideways(page) == 0, widest(page)
        if AXE.exists():
            assert axe_violations(page) == []
        assert errors == []
    finally:
        context.close()


def test_the_game_over_line_names_the_variant(browser, server, variant_game):
    _variant_id, game_id, token = variant_game
    play_out(server.client, game_id, {"0": token}, seed=3)
    context, page, errors = opened(browser, f"{server.url}/play/{game_id}#seat=0&token={token}", SIZES["phone"])
    try:
        page.wait_for_selector("#status.over")
        line = page.locator("#status").inner_text()
        assert line.startswith("Game over") and line.endswith("(variant: Big rice).")
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_a_lobby_table_with_a_casual_ai_is_played_by_the_cookie_alone(browser, server, size):
    context, page, errors = opened(browser, f"{server.url}/", size)
    try:
        page.wait_for_selector("#lobby[data-ready='1']")
        page.fill("#player-name", "Ana")
        page.click("#name-form button[type=submit]")
        page.wait_for_selector("#me-name")
        page.select_option("#table-game", "by-this")
        page.select_option("#table-players", "2")
        page.select_option("#table-seats select[data-seat='1']", "casual")
        assert "Casual AI" in page.locator("#table-seats select[data-seat='1'] option:checked").inner_text()
        if AXE.exists():
            assert axe_violations(page) == []
        page.click("#table-create")
        page.wait_for_url(f"{server.url}/play/**", timeout=15_000)
        page.wait_for_selector("#scores tr")
        assert "Casual AI" in page.locator("#scores").inner_text()
        assert "Ana" in page.locator("#title").inner_text()  # the seat is Ana's: the cookie opened it
        page.wait_for_selector("#chat-form:not([hidden])")
        [player_cookie] = [c for c in context.cookies() if c["name"] == "tp_player"]
        assert player_cookie["httpOnly"]
        stored = page.evaluate("() => Object.keys(localStorage).map((k) => k + '=' + localStorage.getItem(k))")
        assert stored and not any(player_cookie["value"] in item for item in stored), stored
        assert page.evaluate("() => document.cookie").find(player_cookie["value"]) == -1
        assert sideways(page) == 0, widest(page)
        game_id = page.url.rsplit("/", 1)[1]
        page.goto(f"{server.url}/")
        page.locator(f"#games tr[data-id='{game_id}'] a", has_text="Resume").wait_for(timeout=10_000)
        assert errors == []
    finally:
        context.close()


@needs_axe
@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_the_variants_intro_and_make_pages_pass_axe(browser, server, variant_game, size):
    variant_id, _game_id, _token = variant_game
    for path, ready in ((f"/games/by-this/intro?variant={variant_id}", ".variant-note"),
                        (f"/make/by-this?variant={variant_id}", "#share-variant[href*='intro']")):
        context, page, errors = opened(browser, server.url + path, size)
        try:
            page.wait_for_selector(ready)
            assert axe_violations(page) == [], path
            assert sideways(page) == 0, (path, widest(page))
            assert errors == []
        finally:
            context.close()
