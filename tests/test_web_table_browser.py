"""The table explains itself, in real Chromium: readable cards, hints, a log in words, zoom, browsing, keyboard.

Games are made over the API with two human seats and moved a few steps at random; then each seat's table
is opened at desktop (1366 × 900) and phone (390 × 844) size.
"""

from __future__ import annotations

import random
import re

import pytest

from web_helpers import Server, auth, needs_chromium

pytestmark = needs_chromium

#: Engine codes that must not reach the log a person reads.
CODES = {
    "flowers": re.compile(r"\b[RYBG][1-4][rybg]?\b"),
    "pressed": re.compile(r"\b(ZI|SU|HY|PE|LI|DA|AN|AS|BB|CH|TU)\b"),
    "planted": re.compile(r"\b[LWFG]{2,}\b"),
    "by-this": re.compile(r"\bfrom floor\b|\bsamenumber\b|\bbythis\b"),
}
#: Where each game draws the hand of the seat looking (Flowers: the card just drawn).
HAND = {
    "flowers": ".prompt img.face",
    "pressed": ".zone.mine img.face",
    "planted": ".zone.mine img.face",
    "by-this": ".zone.mine img.face",
}
#: Steps played before looking, so each table is mid-game with a hand card in view.
STEPS = {"flowers": 9, "pressed": 5, "planted": 9, "by-this": 8}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("table") / "games.db", ai_delay=0.05)
    yield srv
    srv.stop()



def mid_game(server, game: str, seed: int = 4) -> tuple[str, dict[str, str], int]:
    """A two-human game moved STEPS[game] random steps; (id, tokens, the seat to move)."""
    reply = server.client.post("/api/games", json={"game": game, "seats": ["human", "human"], "seed": seed,
                                                    "names": ["Ana", "Bo"]})
    assert reply.status_code == 201, reply.text
    gid, tokens = reply.json()["id"], reply.json()["tokens"]
    rng = random.Random(seed)
    for _ in range(STEPS[game]):
        seat = server.client.get(f"/api/games/{gid}").json()["to_move"][0]
        view = server.client.get(f"/api/games/{gid}", headers=auth(tokens[str(seat)])).json()
        server.client.post(f"/api/games/{gid}/actions", json={"action": rng.choice(view["legal_actions"])},
                           headers=auth(tokens[str(seat)]))
    seat = server.client.get(f"/api/games/{gid}").json()["to_move"][0]
    return gid, tokens, seat


def open_table(browser, server, gid, seat, token, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.url}/play/{gid}#seat={seat}&token={token}")
    page.wait_for_selector("#log li")
    page.wait_for_timeout(300)
    return context, page, errors


OVERFLOWING = """(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 2 &&
                  getComputedStyle(el).overflowX === 'visible')
  .map((el) => el.textContent.slice(0, 60))"""


@pytest.mark.parametrize("game", ["flowers", "pressed", "planted", "by-this"])
@pytest.mark.parametrize("width,height", [(1366, 900), (390, 844)])
def test_each_table_reads_well_at_desktop_and_phone_size(browser, server, tmp_path, game, width, height):
    gid, tokens, seat = mid_game(server, game)
    context, page, errors = open_table(browser, server, gid, seat, tokens[str(seat)], width, height)
    try:
        page.screenshot(path=str(tmp_path / f"{game}-{width}.png"), full_page=True)
        hand = page.locator(HAND[game]).first
        box = hand.bounding_box()
        assert box is not None, "a hand card is in view"
        if width == 1366:
            assert box["width"] >= 90, f"{game}: a hand card is {box['width']:.0f} px wide at 1366 px"
        else:
            assert box["width"] >= 56
        log = page.locator("#log").inner_text()
        assert "Ana" in log or "Bo" in log
        assert not CODES[game].search(log), log
        assert "seat 0" not in log
        assert page.evaluate(OVERFLOWING, "#log li, .zone-title, #moves .move, #status") == []
        assert page.locator("#status").is_visible()
    finally:
        context.close()
    assert not errors, errors


def test_legal_actions_carry_their_points_and_a_card_zooms_on_hover_and_by_keyboard(browser, server):
    gid, tokens, seat = mid_game(server, "pressed")
    context, page, errors = open_table(browser, server, gid, seat, tokens[str(seat)], 1366, 900)
    try:
        hint = page.locator("#moves .move .hint").first
        assert re.fullmatch(r"[+-]\d+", hint.inner_text())
        page.locator(".zone.mine img.face").first.hover()
        page.wait_for_selector("#zoom:not([hidden]) img")
        assert page.locator("#zoom img").bounding_box()["width"] >= 270
        page.keyboard.press("Escape")
        assert page.locator("#zoom").is_hidden()
        page.locator(".zone.mine .legal").first.focus()
        page.keyboard.press("z")
        page.wait_for_selector("#zoom:not([hidden])")
        page.keyboard.press("Escape")
        page.locator(".pr-card img.face").last.click()  # a card that is no move opens on a click too
        page.wait_for_selector("#zoom:not([hidden]) img")
        page.keyboard.press("Escape")
    finally:
        context.close()
    assert not errors, errors


def test_every_move_can_be_made_by_keyboard(browser, server):
    gid, tokens, seat = mid_game(server, "by-this")
    context, page, errors = open_table(browser, server, gid, seat, tokens[str(seat)], 1366, 900)
    try:
        before = len(server.client.get(f"/api/games/{gid}").json()["log"])
        for _ in range(60):  # Tab until a move button or a lit card has the focus
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement && !!document.activeElement.dataset.action"):
                break
        else:
            raise AssertionError("no legal action is reachable with Tab")
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelectorAll('#log li[data-move]').length > 0 && "
                               f"Math.max(...[...document.querySelectorAll('#log li')].map(li => +li.dataset.move)) > {before}")
        assert len(server.client.get(f"/api/games/{gid}").json()["log"]) == before + 1
    finally:
        context.close()
    assert not errors, errors


def test_earlier_positions_can_be_browsed_during_the_game_without_changing_it(browser, server):
    gid, tokens, seat = mid_game(server, "flowers")
    context, page, errors = open_table(browser, server, gid, seat, tokens[str(seat)], 1366, 900)
    try:
        moves = len(server.client.get(f"/api/games/{gid}").json()["log"])
        page.click("#browse")
        page.wait_for_selector("#replay-bar:not([hidden])")
        page.click("#rp-first")
        page.wait_for_function("document.querySelector('#rp-step').textContent.startsWith('0 /')")
        assert page.locator("#log li").count() == 0
        page.click("#rp-next")
        page.wait_for_function("document.querySelector('#rp-step').textContent.startsWith('1 /')")
        assert page.locator("#log li").count() == 1
        page.click("#rp-exit")
        page.wait_for_selector("#replay-bar[hidden]", state="attached")
        assert page.locator("#log li[data-move]").evaluate_all("items => new Set(items.map(li => li.dataset.move)).size") == moves
        assert len(server.client.get(f"/api/games/{gid}").json()["log"]) == moves
    finally:
        context.close()
    assert not errors, errors


def test_a_broken_seat_link_says_so_and_the_page_watches_instead(browser, server):
    gid, _tokens, _seat = mid_game(server, "by-this")
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{server.url}/play/{gid}#seat=1&token=not-the-token")
        page.wait_for_selector("#broken:not([hidden])")
        assert "link for seat 2 does not work" in page.locator("#broken").inner_text()
        page.wait_for_selector("#log li")
        assert "watching" in page.locator("#title").inner_text()
    finally:
        context.close()


def test_a_lost_connection_shows_a_banner(browser, tmp_path):
    own = Server(tmp_path / "lost.db", ai_delay=0.05)
    try:
        gid, tokens, seat = mid_game(own, "flowers")
        context = browser.new_context(viewport={"width": 1366, "height": 900})
        page = context.new_page()
        page.goto(f"{own.url}/play/{gid}#seat={seat}&token={tokens[str(seat)]}")
        page.wait_for_selector("#conn.live")
        assert page.locator("#offline").is_hidden()
        own.stop()
        page.wait_for_selector("#offline:not([hidden])")
        assert "reconnecting" in page.locator("#offline").inner_text()
        context.close()
    finally:
        own.stop()


def test_the_play_form_explains_budgets_and_stops_a_fourth_elective(browser, server):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{server.url}/games/pressed#play")
        page.wait_for_selector("#create-form[data-ready]")
        page.select_option("#players", "2")
        boxes = page.locator("#options fieldset.set input[type=checkbox]")
        ticked = [boxes.nth(i).is_checked() for i in range(boxes.count())]
        assert sum(ticked) == 3
        untouched = ticked.index(False)
        assert boxes.nth(untouched).is_disabled()  # a fourth cannot be ticked
        boxes.nth(ticked.index(True)).uncheck()
        assert boxes.nth(untouched).is_enabled()
        assert "2 of 3 chosen" in page.locator("#options .set-count").inner_text()
        page.click("#create")
        assert "tick exactly 3" in page.locator("#create-error").inner_text()
        assert "/play/" not in page.url
        rows = page.locator("#seats .seat select.kind")
        rows.nth(1).select_option("ismcts")
        assert "search iterations each move" in page.locator("#budget-help").inner_text()
    finally:
        context.close()
