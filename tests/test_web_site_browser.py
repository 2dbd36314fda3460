"""The Table Press site in real Chromium (Debian's /usr/bin/chromium driven by Playwright), against a
`tablepress serve` subprocess on 127.0.0.1: from the catalogue to a game's page, its PDF download, the
share link, the rules, the Play form to the table, the simulate panel, keyboard use and a phone's width."""

from __future__ import annotations

import json
import re

import pytest
from pypdf import PdfReader

from tablepress.core.registry import get_game
from tablepress.printing.sheets import render_sheets

from web_helpers import Server, needs_chromium


pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One web server for the module, AI seats pausing only briefly."""
    srv = Server(tmp_path_factory.mktemp("site") / "games.db", ai_delay=0.05)
    yield srv
    srv.stop()



@pytest.fixture
def context(browser, server):
    """A fresh browser context that may use the clipboard and downloads files."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, accept_downloads=True)
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context):
    """A page that fails the test on any script error."""
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    assert not errors, errors


def test_from_the_catalogue_to_a_game_page_its_pdf_share_link_and_rules(page, server, tmp_path):
    page.goto(server.url + "/")
    page.click(".game-card a[href='/games/by-this']")
    page.wait_for_url(f"{server.url}/games/by-this")
    assert page.locator("h1").inner_text() == "By This"
    assert page.locator("#print").is_hidden() and page.locator("#share").is_hidden()
    # Print: choose backs and a bleed, download, count the pages
    page.click("[data-panel=print]")
    page.wait_for_selector("#print", state="visible")  # opened on the hashchange event, after the click
    assert page.locator("#play").is_hidden()
    page.check("#print-backs")
    page.fill("#print-bleed", "3")
    page.select_option("#print-duplex", "short")
    command = page.locator("#print-command").inner_text()
    assert command == "tablepress print by-this -o by-this.pdf --backs --duplex short --bleed 3"
    with page.expect_download() as download:
        page.click("#print-download")
    pdf = tmp_path / "by-this.pdf"
    download.value.save_as(pdf)
    assert download.value.suggested_filename == "by-this-a4.pdf"
    _data, summary = render_sheets(get_game("by-this"), "a4", True, 3.0, "short")
    assert len(PdfReader(pdf).pages) == summary.pages
    # Share: copy the intro's link
    page.click("[data-panel=share]")
    page.wait_for_selector("#share", state="visible")
    link = page.locator("#share-url").input_value()
    assert link == f"{server.url}/games/by-this/intro"
    page.click("#copy-link")
    page.wait_for_function("() => document.getElementById('copy-done').textContent === 'Copied.'")
    assert page.evaluate("navigator.clipboard.readText()") == link
    assert page.locator("img.qr").evaluate("img => img.complete && img.naturalWidth > 0")
    # the rules, with a table of contents that leads to its heading
    page.click(".rules-link")
    page.wait_for_url(f"{server.url}/games/by-this/rules")
    first = page.locator(".toc a").first
    target = first.get_attribute("href")
    first.click()
    assert page.evaluate("location.hash") == target
    assert page.locator(target).is_visible()


def test_the_shared_intro_shows_the_game_and_leads_to_play(page, server):
    page.goto(f"{server.url}/games/flowers/intro")
    assert page.locator("h1").inner_text() == "Flowers"
    assert page.locator("meta[property='og:image']").get_attribute("content") == f"{server.url}/games/flowers/share.png"
    page.click("text=Play / simulate")
    page.wait_for_url(re.compile(r".*/games/flowers#play"))
    page.wait_for_selector("#create-form[data-ready]")
    assert page.locator("#play").is_visible()


def test_the_play_form_creates_a_game_and_reaches_the_table(page, server):
    page.goto(f"{server.url}/games/pressed")
    page.click("[data-panel=play]")
    page.wait_for_selector("#create-form[data-ready]")
    assert page.locator("#options").inner_text().count("Electives") == 1  # options under human labels
    page.select_option("#players", "2")
    page.locator("#seats .seat").nth(1).locator("select.kind").select_option("random")
    page.click("#create")
    page.wait_for_url(re.compile(r".*/play/\w+"))
    page.wait_for_selector("#moves [data-action], #status:has-text('thinking')")
    gid = page.url.rsplit("/", 1)[1]
    view = server.client.get(f"/api/games/{gid}").json()
    assert view["game"] == "pressed" and view["seats"] == ["human", "random"]


def test_the_simulate_panel_starts_a_job_and_opens_its_report(page, server):
    sent: list[dict] = []

    def simulations(route):
        sent.append(json.loads(route.request.post_data))
        route.fulfill(status=202, content_type="application/json", body='{"id": "job-1"}')

    page.route("**/api/simulations", simulations)
    page.route("**/simulations/job-1", lambda route: route.fulfill(status=200, content_type="text/html",
                                                                     body="<title>the report</title>"))
    page.goto(f"{server.url}/games/by-this#simulate")
    page.fill("#sim-games", "20")
    page.select_option("#sim-players", "3")
    page.fill("#sim-seats", "greedy, random")
    page.fill("#sim-seed", "7")
    page.click("#sim-start")
    page.wait_for_url(f"{server.url}/simulations/job-1")
    assert sent == [{"game": "by-this", "games": 20, "players": 3, "seats": ["greedy", "random", "random"],
                     "seed": 7}]


def test_the_simulate_panel_shows_the_servers_refusal(page, server):
    page.route("**/api/simulations", lambda route: route.fulfill(
        status=422, content_type="application/json", body='{"detail": "games: at most 2000 a job"}'))
    page.goto(f"{server.url}/games/by-this#simulate")
    page.fill("#sim-games", "999999")
    page.click("#sim-start")
    page.wait_for_function("() => document.getElementById('sim-error').textContent.includes('at most 2000')")
    assert page.url.endswith("#simulate")


def test_the_buttons_work_from_the_keyboard(page, server):
    page.goto(f"{server.url}/games/planted")
    page.focus("[data-panel=print]")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.getElementById('print').hidden")
    assert page.locator("[data-panel=print]").get_attribute("aria-expanded") == "true"
    assert page.evaluate("document.activeElement.id") == "print-h"  # focus moved into the panel
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "print-paper"


def test_an_unknown_game_page_lists_the_games(page, server):
    reply = page.goto(f"{server.url}/games/chess")
    assert reply.status == 404
    page.click(".known-games a[href='/games/pressed']")
    page.wait_for_url(f"{server.url}/games/pressed")


@pytest.mark.parametrize("path", ["/", "/games/planted", "/games/pressed/rules", "/games/by-this/intro"])
def test_a_phone_sized_screen_shows_the_site_without_sideways_scrolling(browser, server, path):
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    pg = ctx.new_page()
    pg.goto(server.url + path)
    pg.wait_for_load_state("networkidle")
    assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    ctx.close()
