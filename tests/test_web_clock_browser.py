"""Turn clocks and your-turn notices in real Chromium against a `tablepress serve` subprocess: the lobby's form
offers a clock and states its rule before the game starts (and the lobby lists it with the table); the table
shows the clock of the seat to move as a timer that counts down (the page's clock driven by Playwright, never
waited for); "Your games" marks the games where it is the player's turn, live, with the tab's title counting
them — on a second device signed in by a one-time link as on the first. axe-core on the changed pages."""

from __future__ import annotations

import re

import pytest

from web_audit import axe_violations, needs_axe, sideways
from web_helpers import Server, needs_chromium

pytestmark = [needs_chromium, needs_axe]

RULE = "10 minutes a turn; when time runs out the AI plays that turn."


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("clocks") / "games.db", ai_delay=0.05)
    yield srv
    srv.stop()


@pytest.fixture
def people(browser):
    """A new browser context (a person's device) per call, failing the test on any script error."""
    made, errors = [], []

    def person(width: int = 1200, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        made.append(context)
        return context, page

    yield person
    for context in made:
        context.close()
    assert not errors, errors


def signed_in(context, url: str, name: str) -> None:
    """Make a player in this browser (the API sets its cookie in the context)."""
    assert context.request.post(f"{url}/api/players", data={"name": name}).status == 201


def seconds_of(text: str) -> int:
    """The seconds a clock's "9 min 58 s left" says."""
    found = re.search(r"(?:(\d+) min )?(\d+) s left", text)
    assert found, text
    return int(found.group(1) or 0) * 60 + int(found.group(2))


def move_until_not(context, url: str, gid: str, seat: int) -> None:
    """Play the first legal move for `seat` (by its cookie) until the game no longer waits on it."""
    while seat in context.request.get(f"{url}/api/games/{gid}").json()["to_move"]:
        legal = context.request.get(f"{url}/api/games/{gid}").json()
        assert legal["seat"] == seat
        assert context.request.post(f"{url}/api/games/{gid}/actions",
                                    data={"action": legal["legal_actions"][0]}).ok


def test_the_lobby_states_the_clock_and_the_table_counts_it_down(people, server):
    url = server.url
    ana_ctx, ana = people()
    bo_ctx, bo = people(390, 844)
    signed_in(ana_ctx, url, "Ana")
    signed_in(bo_ctx, url, "Bo")
    ana.goto(url + "/")
    ana.wait_for_selector("#lobby[data-ready='1']")
    ana.select_option("#table-game", "flowers")
    ana.select_option("#table-players", "2")
    ana.select_option("#table-clock", "600")
    assert ana.locator("#table-clock-rule").inner_text() == RULE
    ana.click("#table-create")
    waiting = ana.locator("#waiting-tables .waiting")
    waiting.wait_for()
    assert RULE in waiting.inner_text()
    assert axe_violations(ana) == []
    bo.goto(url + "/")
    row = bo.locator("#open-tables tr").first
    row.wait_for()
    assert RULE in row.inner_text()  # stated to whoever joins, before the game starts
    bo.clock.install()
    row.locator("button.join").click()
    bo.wait_for_url(f"{url}/play/**")
    timer = bo.get_by_role("timer")
    timer.wait_for()
    gid = bo.url.rsplit("/", 1)[1]
    mover = bo_ctx.request.get(f"{url}/api/games/{gid}").json()["to_move"][0]
    who = "Your time" if mover == 1 else "Ana's time"
    bo.clock.pause_at(bo.evaluate("Date.now()") / 1000 + 1)  # in seconds since 1970: a second on, then paused
    first = timer.inner_text()
    assert first.startswith(f"⏱ {who}: ") and RULE in first, first
    assert 590 <= seconds_of(first) <= 600
    bo.clock.run_for(5000)
    later = timer.inner_text()
    assert seconds_of(later) == seconds_of(first) - 5, (first, later)
    bo.clock.resume()  # time flows again (axe-core waits on timers)
    assert sideways(bo) == 0  # the clock's line wraps on a phone
    assert axe_violations(bo) == []
    # the other seat's turn: the clock follows it
    move_until_not(bo_ctx if mover == 1 else ana_ctx, url, gid, mover)
    other = "Ana's time" if mover == 1 else "Your time"
    bo.wait_for_function("([text]) => document.getElementById('clock').textContent.includes(text)", arg=[other])


def test_your_games_mark_your_turn_live_on_every_device(people, server):
    url = server.url
    ana_ctx, ana = people()
    bo_ctx, bo = people()
    signed_in(ana_ctx, url, "Ana")
    signed_in(bo_ctx, url, "Bo")
    table = ana_ctx.request.post(f"{url}/api/tables", data={"game": "flowers", "players": 2, "clock": 86400}).json()
    assert bo_ctx.request.post(f"{url}/api/tables/{table['id']}/join", data={}).ok
    gid = ana_ctx.request.get(f"{url}/api/tables/{table['id']}").json()["game_id"]
    # Ana's second device: a one-time link opened there signs her in
    link = ana_ctx.request.post(f"{url}/api/players/me/link").json()["url"]
    phone_ctx, phone = people(390, 844)
    phone.goto(link.replace("http://127.0.0.1:8000", url))
    phone.wait_for_url(f"{url}/#lobby", timeout=15_000)
    pages = {"ana": ana, "phone": phone, "bo": bo}
    for page in pages.values():
        if page is not phone:
            page.goto(url + "/")
        page.wait_for_selector("body[data-turns-live='1']")
        page.wait_for_selector(f"#my-games li[data-game='{gid}']")
    mover = ana_ctx.request.get(f"{url}/api/games/{gid}").json()["to_move"][0]
    for _ in range(2):  # the mover plays its turn; the marks move to the other, live, on every page
        marked = ("ana", "phone") if mover == 0 else ("bo",)
        for name, page in pages.items():
            mine = name in marked
            page.wait_for_function(
                "([gid, mine]) => !!document.querySelector(`#my-games li.your-turn[data-game='${gid}']`) === mine"
                " && document.title.startsWith('(1) Your turn') === mine", arg=[gid, mine], timeout=15_000)
            if mine:
                mark = page.locator(f"#my-games li[data-game='{gid}'] .turn-mark").inner_text()
                assert mark.startswith("Your turn · ") and mark.endswith(" left"), mark
        move_until_not(ana_ctx if mover == 0 else bo_ctx, url, gid, mover)
        mover = ana_ctx.request.get(f"{url}/api/games/{gid}").json()["to_move"][0]
    assert axe_violations(phone) == [] and sideways(phone) == 0
