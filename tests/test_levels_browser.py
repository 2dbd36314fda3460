"""AI levels in real Chromium: the Play form offers the game's levels as seats (Casual by default for an AI
seat), and a game made with one reaches the table, whose status names the level while it thinks."""

from __future__ import annotations

import re

import pytest

from web_helpers import Server, needs_chromium

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One web server for the module; AI seats pause long enough to be seen thinking."""
    srv = Server(tmp_path_factory.mktemp("levels") / "games.db", ai_delay=1.5)
    yield srv
    srv.stop()


@pytest.fixture
def page(browser, server):
    """A page that fails the test on any script error."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    ctx.close()
    assert not errors, errors


def test_the_play_form_offers_levels_and_the_table_names_the_thinking_level(page, server):
    page.goto(f"{server.url}/games/by-this")
    page.click("[data-panel=play]")
    page.wait_for_selector("#create-form[data-ready]")
    page.select_option("#players", "2")
    seat = page.locator("#seats .seat").nth(1).locator("select.kind")
    assert seat.input_value() == "level:casual"
    assert "AI level: Strong" in seat.inner_text()
    seat.select_option("level:strong")
    page.locator("#seats .seat").nth(1).locator(".name").fill("Ada")
    page.click("#create")
    page.wait_for_url(re.compile(r".*/play/\w+"))
    gid = page.url.rsplit("/", 1)[1]
    assert server.client.get(f"/api/games/{gid}").json()["seats"] == ["human", "level:strong"]
    page.wait_for_selector("#moves [data-action]")
    page.locator("#moves [data-action]").first.click()
    page.wait_for_selector("#status:has-text('Ada (Strong) is thinking…')", timeout=15000)
