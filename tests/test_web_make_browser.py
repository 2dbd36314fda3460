"""The Make page in real Chromium: edit the published cards into an error (see its line), fix it, save it,
compare it with the published cards (live progress, then the report), print it, and play it to the end."""

from __future__ import annotations

import random
import re

import pytest

from test_web_browser import final_totals, game_id, play_to_end
from web_audit import axe_violations, needs_axe, sideways, widest
from web_helpers import ARGS, CHROMIUM, Server, needs_chromium

pytestmark = needs_chromium

ENDING = "closes_to_end = { 2 = 6, 3 = 6, 4 = 8 }"
SHORT = "closes_to_end = { 2 = 2, 3 = 2, 4 = 2 }"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One web server, AI seats moving almost at once."""
    srv = Server(tmp_path_factory.mktemp("make") / "games.db", ai_delay=0.02)
    yield srv
    srv.stop()


@pytest.fixture
def page(server):
    """A fresh Chromium page (Debian's, never `playwright install`) that fails the test on any script error."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        pg = browser.new_page(viewport={"width": 1200, "height": 900})
        errors: list[str] = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        yield pg
        browser.close()
    assert not errors, errors


def line_of(text: str, needle: str) -> int:
    """The line number (from 1) of the first line holding `needle`."""
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


def test_make_a_variant_fix_it_compare_print_and_play_it(page, server):
    published = server.client.get("/api/cards/by-this").json()["toml"]
    assert ENDING in published
    page.goto(server.url + "/make/by-this")
    page.wait_for_function("() => document.getElementById('toml').value.length > 100")
    assert page.locator("#toml").input_value() == published
    page.wait_for_selector("#check:has-text('published cards')")
    assert page.locator("#tools").is_hidden()

    # a TOML error: the message names the line, and the gutter marks it
    broken = published.replace(ENDING, "closes_to_end = { 2 = 2, 3 = 2, 4 = two }")
    page.fill("#toml", broken)
    line = line_of(broken, "4 = two")
    page.wait_for_selector(f"#check.bad:has-text('Line {line}:')")
    assert page.locator("#gutter .bad").inner_text() == str(line)

    # a value of the wrong kind: the message names the field and its line
    wrong = published.replace("close_min = { 2 = 3, 3 = 4, 4 = 4 }", "close_min = 3")
    page.fill("#toml", wrong)
    page.wait_for_selector("#check.bad:has-text('rules.close_min')")
    assert f"Line {line_of(wrong, 'close_min = 3')}:" in page.locator("#check").inner_text()
    page.click("#show-line")  # selects that line in the editor
    selected = page.evaluate("() => { const b = document.getElementById('toml'); return b.value.slice(b.selectionStart, b.selectionEnd); }")
    assert selected.startswith("close_min = 3")

    # fixed: it checks, and the changes are listed
    page.fill("#toml", published.replace(ENDING, SHORT))
    page.wait_for_selector("#check.ok")
    assert "3 changes" in page.locator("#check").inner_text()
    fields = page.locator("#changes tbody tr td:first-child").all_inner_texts()
    assert fields == ["rules.closes_to_end.2", "rules.closes_to_end.3", "rules.closes_to_end.4"]

    page.fill("#name", "Short game")
    page.click("#save")
    page.wait_for_selector("#tools:not([hidden])")
    variant_id = re.search(r"variant=([0-9a-f]{12})", page.url).group(1)
    assert server.client.get(f"/api/variants/{variant_id}").json()["name"] == "Short game"
    href = page.locator("#print").get_attribute("href")
    assert href == f"/games/by-this/print.pdf?variant={variant_id}"
    pdf = server.client.get(href, timeout=180)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")

    # compare with the published cards: live progress, then the report
    page.fill("#sim-games", "30")
    page.select_option("#sim-players", "2")
    page.click("#compare")
    page.wait_for_selector("#compare-run:not([hidden])")
    page.wait_for_selector("#compare-report:not([hidden])", timeout=180_000)
    assert page.locator("#compare-status").inner_text() == \
        "done: 30 games for each of 2 variants and 60 for the skill gap"
    assert page.locator("#compare-progress").evaluate("p => p.value === p.max")
    page.click("#compare-report")
    page.wait_for_selector("h2:has-text('Differences')")
    assert "published cards" in page.content() and "Short game" in page.content()
    page.go_back()

    # play it: against an AI, to the end, with the variant's card data
    page.wait_for_selector("#tools:not([hidden])")
    page.select_option("#play-players", "2")
    page.select_option("#play-ai", "random")
    page.click("#play")
    page.wait_for_url(re.compile(r".*/play/\w+"))
    play_to_end(page, random.Random(3))
    gid = game_id(page)
    assert final_totals(page) == server.client.get(f"/api/games/{gid}").json()["scores"]
    record = server.client.get(f"/api/games/{gid}/record").json()
    assert record["variant"]["rules"]["closes_to_end"] == {"2": 2, "3": 2, "4": 2}


def test_the_simulation_page_follows_a_job_into_its_report(page, server):
    reply = server.client.post("/api/simulations", json={"game": "by-this", "games": 200, "players": 3,
                                                         "seats": ["random"], "seed": 4})
    job_id = reply.json()["id"]
    page.goto(f"{server.url}/simulations/{job_id}")
    page.wait_for_selector("#title:has-text('by-this: published cards')")
    page.wait_for_selector("h1:has-text('Balance report: by-this — 200 games, 3 players')", timeout=180_000)
    assert page.locator("nav a[href='/games/by-this']").count() == 1


@needs_axe
def test_save_a_private_variant_see_it_in_your_list_and_delete_it_on_a_phone(page, server):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url + "/make/flowers")
    page.wait_for_selector("#check:has-text('published cards')")
    page.fill("#toml", page.locator("#toml").input_value().replace("region_min = 5", "region_min = 3", 1))
    page.wait_for_selector("#check.ok")
    page.fill("#name", "Secret regions")
    page.uncheck("#public")
    page.click("#save")
    mine = page.locator("#my-variants li", has_text="Secret regions")
    mine.wait_for()
    variant_id = mine.get_attribute("data-id")
    assert page.evaluate("localStorage.getItem('tp:maker-token')")
    assert not mine.get_by_role("checkbox").is_checked()
    listed = server.client.get("/api/variants", params={"game": "flowers"}).json()["variants"]
    assert variant_id not in [v["id"] for v in listed]  # others do not see it listed
    assert server.client.get(f"/api/variants/{variant_id}").json()["name"] == "Secret regions"  # its link opens
    assert sideways(page) == 0, widest(page)
    assert axe_violations(page) == []
    for control in (mine.get_by_role("checkbox"), mine.get_by_role("button", name="Delete Secret regions")):
        assert control.evaluate("el => (el.closest('label') || el).getBoundingClientRect().height") >= 44
    mine.get_by_role("checkbox").check()  # the visibility switch: now listed for everyone
    page.wait_for_selector("#mine-status:has-text('listed for everyone')")
    listed = server.client.get("/api/variants", params={"game": "flowers"}).json()["variants"]
    assert variant_id in [v["id"] for v in listed]
    page.once("dialog", lambda dialog: dialog.accept())
    mine.get_by_role("button", name="Delete Secret regions").click()
    page.wait_for_selector("#mine-status:has-text('Deleted')")
    assert page.locator("#mine").is_hidden() and "variant=" not in page.url
    assert server.client.get(f"/api/variants/{variant_id}").status_code == 404
