"""The table on a phone and by keyboard, in real Chromium: the other player's move is said without covering a
control, focus stays on the table after a move, the log keeps its width, handing a seat to the AI is no
broken link, the final scores show below the pinned bar, and controls are big enough to tap."""

from __future__ import annotations

import random

import pytest

from phone_pages import table_in_play
from web_helpers import Server, auth, needs_chromium, play_out

pytestmark = needs_chromium

PHONE = (390, 844)

#: Controls in the viewport whose middle is not what a tap there reaches (the pinned bar's own area aside).
COVERED = """() => {
  const bar = document.getElementById('status').getBoundingClientRect().bottom;
  return [...document.querySelectorAll('button, a[href], input, select, summary, [data-action]')]
    .filter((el) => el.offsetParent !== null && !el.closest('[hidden]'))
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && r.top + r.height / 2 > bar && r.top + r.height / 2 < innerHeight
                       && r.left + r.width / 2 > 0 && r.left + r.width / 2 < innerWidth)
    .filter(([el, r]) => { const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                           return !hit || !(el === hit || el.contains(hit) || hit.contains(el)); })
    .map(([el, r]) => `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 30)}" at ${Math.round(r.top)}: `
                      + `covered by ${document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.id || '?'}`);
}"""

#: Resolves once the page has not scrolled for a dozen frames.
SCROLL_SETTLED = """() => new Promise((done) => {
  let last = -1, still = 0;
  const tick = () => { if (scrollY === last) still++; else { still = 0; last = scrollY; }
                       if (still >= 12) done(scrollY); else requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("phone-table") / "games.db", ai_delay=0.05)
    yield srv
    srv.stop()


def opened(browser, server, gid: str, seat: int, token: str, size=PHONE):
    """The seat's table in a fresh context, drawn."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{server.url}/play/{gid}#seat={seat}&token={token}")
    page.wait_for_selector("#log li")
    page.wait_for_selector("#conn.live")
    return context, page, errors


def move(server, gid: str, token: str, seed: int = 1) -> None:
    """One random legal move of the token's seat over the API."""
    view = server.client.get(f"/api/games/{gid}", headers=auth(token)).json()
    action = random.Random(seed).choice(view["legal_actions"])
    assert server.client.post(f"/api/games/{gid}/actions", json={"action": action}, headers=auth(token)).status_code == 200


def other(seat: int) -> int:
    return 1 - seat


def to_move(server, gid: str) -> list[int]:
    return server.client.get(f"/api/games/{gid}").json()["to_move"]


def others_until(server, gid: str, tokens: dict[str, str], seat: int) -> None:
    """The other seat moves at random until `seat` is to move."""
    step = 0
    while seat not in (movers := to_move(server, gid)):
        step += 1
        move(server, gid, tokens[str(movers[0])], seed=step)


@pytest.mark.parametrize("game", ["pressed", "by-this"])
def test_the_other_players_move_is_said_without_covering_a_control(browser, server, game):
    gid, tokens, seat = table_in_play(server, game)
    watcher = other(seat)
    context, page, errors = opened(browser, server, gid, watcher, tokens[str(watcher)])
    try:
        others_until(server, gid, tokens, watcher)
        page.wait_for_selector("#moves .move")
        said = page.locator("#log li[data-move]").last.inner_text()
        assert said.split(" — ")[0] in page.locator("#status").inner_text()  # told in the pinned status bar
        # bring a move button to the bottom of the screen, where a toast would sit
        page.locator("#moves .move").first.evaluate(
            "(el) => window.scrollBy(0, el.getBoundingClientRect().bottom - innerHeight + 24)")
        page.evaluate(SCROLL_SETTLED)
        assert page.evaluate(COVERED) == []
        assert page.locator("#toast").evaluate("(el) => el.hidden || getComputedStyle(el).pointerEvents === 'none'")
    finally:
        context.close()
    assert not errors, errors


def test_focus_stays_on_the_table_after_a_move_and_after_the_reply(browser, server):
    gid, tokens, seat = table_in_play(server, "by-this")
    context, page, errors = opened(browser, server, gid, seat, tokens[str(seat)], (1366, 900))
    try:
        for _ in range(80):  # Tab until a move has the focus
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement && !!document.activeElement.dataset.action"):
                break
        else:
            raise AssertionError("no legal action is reachable with Tab")
        moves = len(page.locator("#log li").all())
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {moves}")
        on_table = "(() => { const a = document.activeElement; return !!a && a !== document.body && " \
                   "(document.getElementById('board').contains(a) || document.getElementById('moves').contains(a)); })()"
        assert page.evaluate(on_table), page.evaluate("document.activeElement.outerHTML.slice(0, 80)")
        moves = len(page.locator("#log li").all())
        mover = to_move(server, gid)[0]
        move(server, gid, tokens[str(mover)])  # a move pushed from elsewhere: the table is drawn again
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {moves}")
        assert page.evaluate(on_table), page.evaluate("document.activeElement.outerHTML.slice(0, 80)")
        page.keyboard.press("Tab")  # and Tab goes on from the table, not from the top of the page
        assert page.evaluate("!document.querySelector('header.top').contains(document.activeElement)")
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("game", ["pressed", "flowers"])
def test_the_log_keeps_the_width_of_its_panel(browser, server, game):
    gid, tokens, seat = table_in_play(server, game)
    context, page, errors = opened(browser, server, gid, seat, tokens[str(seat)])
    try:
        panel, log = (page.locator(s).evaluate("(el) => el.getBoundingClientRect().width")
                      for s in ("#log >> xpath=..", "#log"))
        assert log >= panel - 30, f"the log is {log:.0f} px wide in a panel of {panel:.0f} px"
    finally:
        context.close()
    assert not errors, errors


def test_handing_the_seat_to_an_ai_is_not_called_a_broken_link(browser, server):
    gid, tokens, seat = table_in_play(server, "by-this")
    context, page, errors = opened(browser, server, gid, seat, tokens[str(seat)])
    try:
        page.click("#bot-takeover")
        page.wait_for_selector("#reclaim:not([hidden])")
        page.wait_for_selector("#conn.live")
        page.wait_for_timeout(300)  # a late refusal of the old seat's connection would show the banner by now
        assert page.locator("#broken").is_hidden(), page.locator("#broken").inner_text()
        assert "Take my seat back" in page.locator("#reclaim").inner_text()
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("game", ["by-this", "planted"])
def test_the_final_scores_show_below_the_pinned_bar(browser, server, game):
    reply = server.client.post("/api/games", json={"game": game, "seats": ["human", "human"], "seed": 3,
                                                    "names": ["Ana", "Bo"]}).json()
    gid, tokens = reply["id"], reply["tokens"]
    play_out(server.client, gid, tokens, seed=3)
    context, page, errors = opened(browser, server, gid, 0, tokens["0"])
    try:
        page.wait_for_selector("#final:not([hidden])")
        page.wait_for_function("scrollY > 0")
        page.evaluate(SCROLL_SETTLED)
        bar = page.locator("#status").bounding_box()
        heading = page.locator("#final h2").bounding_box()
        assert heading["y"] >= bar["y"] + bar["height"] - 1, (heading, bar)
        assert heading["y"] + heading["height"] <= PHONE[1]
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("width,height", [(360, 740), (390, 844), (414, 896)])
@pytest.mark.parametrize("game", ["flowers", "pressed", "planted", "by-this"])
def test_the_tables_controls_are_big_enough_to_tap(browser, server, game, width, height):
    gid, tokens, seat = table_in_play(server, game)
    context, page, errors = opened(browser, server, gid, seat, tokens[str(seat)], (width, height))
    try:
        small = page.evaluate("""() => [...document.querySelectorAll('button, select, #moves .move, #board [data-action]')]
          .filter((el) => el.offsetParent !== null)
          .map((el) => [el, el.getBoundingClientRect()])
          .filter(([, r]) => r.height < 44 || r.width < 44)
          .map(([el, r]) => `${el.id || el.className} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
        assert small == []
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("width", [360, 390, 414])
def test_the_create_button_of_every_game_page_can_be_tapped(browser, server, width):
    context = browser.new_context(viewport={"width": width, "height": 800}, has_touch=True)
    page = context.new_page()
    try:
        for game in ("flowers", "pressed", "planted", "by-this"):
            page.goto(f"{server.url}/games/{game}#play")
            page.wait_for_selector("#create-form[data-ready]")
            button = page.locator("#create")
            button.scroll_into_view_if_needed()
            box = button.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["height"] >= 44, (game, box)
            button.tap(trial=True)  # nothing covers it
    finally:
        context.close()
