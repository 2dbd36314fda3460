"""Ratings in real Chromium against a `tablepress serve` subprocess: two people in two browser contexts meet in
the lobby (one creates a rated two-player Pressed table, the other joins it from the lobby), play it to the end
by clicking, and each sees both ratings move on the table; the game's leaderboard lists them, passes axe-core
and fits a 360 px phone."""

from __future__ import annotations

import random
import re

import pytest

from test_web_lobby_browser import pick_name
from web_audit import axe_violations, needs_axe, sideways
from web_helpers import Server, needs_chromium

pytestmark = [needs_chromium, needs_axe]

CHANGE = re.compile(r"^(\S+) (\d+) → (\d+) \(([+−±]\d+)\)$")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("ratings") / "games.db", ai_delay=0.05)
    yield srv
    srv.stop()


@pytest.fixture
def pages(browser):
    """Two pages in two separate contexts (two people), failing the test on any script error."""
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(2)]
    errors: list[str] = []
    made = []
    for ctx in contexts:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        made.append(page)
    yield made
    for ctx in contexts:
        ctx.close()
    assert not errors, errors


def play_both_to_the_end(players: list, rng: random.Random, limit: int = 400) -> None:
    """Click a legal move on whichever table offers one until both show the final scores."""
    for _ in range(limit):
        if all(page.locator("#final").is_visible() for page in players):
            return
        for page in players:
            if page.locator("#final").is_visible() or page.evaluate("document.body.classList.contains('busy')"):
                continue
            buttons = page.locator("#moves [data-action]")
            if not buttons.count():
                continue
            before = page.evaluate("document.querySelectorAll('#log li').length")
            try:
                buttons.nth(rng.randrange(buttons.count())).click(timeout=3_000)
                page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before} || "
                                       "!document.querySelector('#moves [data-action]') || "
                                       "!document.getElementById('final').hidden", timeout=10_000)
            except Exception:  # noqa: BLE001 - the table redrew under the click; look again
                continue
        players[0].wait_for_timeout(50)
    raise AssertionError("the game did not end")


def changes_shown(page) -> dict[str, tuple[int, int, str]]:
    """{name: (before, after, signed change)} as the table's rating line says them."""
    page.wait_for_selector("#rating-changes .change", timeout=15_000)
    found = {}
    for text in page.locator("#rating-changes .change").all_inner_texts():
        match = CHANGE.match(text.strip())
        assert match, text
        found[match.group(1)] = (int(match.group(2)), int(match.group(3)), match.group(4))
    return found


def test_two_people_meet_play_a_rated_game_and_see_their_ratings_move(pages, server, browser):
    ada, bo = pages
    pick_name(ada, server.url, "Ada")
    pick_name(bo, server.url, "Bo")
    ada.select_option("#table-game", "pressed")
    ada.select_option("#table-players", "2")
    assert ada.locator("#table-rated").is_checked()  # rated unless the creator says otherwise
    ada.click("#table-create")
    ada.wait_for_selector("#waiting-tables .waiting")
    row = bo.locator("#open-tables tr").first
    row.wait_for(timeout=10_000)
    assert "rated" in row.locator(".rated-tag").inner_text() and "unrated" not in row.inner_text()
    row.locator("button.join").click()
    bo.wait_for_url(f"{server.url}/play/**")
    ada.wait_for_url(f"{server.url}/play/**", timeout=15_000)
    play_both_to_the_end([ada, bo], random.Random(5))
    seen = [changes_shown(page) for page in (ada, bo)]
    assert seen[0] == seen[1] and set(seen[0]) == {"Ada", "Bo"}
    (winner, won), (loser, lost) = sorted(seen[0].items(), key=lambda item: -item[1][1])
    assert won[0] == lost[0] == 1500
    if won[1] != lost[1]:  # not a draw
        assert (won[1], won[2], lost[1], lost[2]) == (1516, "+16", 1484, "−16")
    # the leaderboard lists them, best first, and the table links it
    ada.click("#rating-changes a")
    ada.wait_for_url(f"{server.url}/games/pressed/ratings")
    names = [text.replace("(you)", "").strip() for text in ada.locator("#leaderboard tbody th.who").all_inner_texts()]
    assert names == [winner, loser] or (won[1] == lost[1] and set(names) == {"Ada", "Bo"})
    assert ada.locator("#leaderboard tr.you th.who").inner_text().startswith("Ada")
    assert axe_violations(ada) == []
    phone = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    phone.goto(f"{server.url}/games/pressed/ratings")
    assert phone.locator("#leaderboard tbody tr").count() == 2 and sideways(phone) == 0
    assert axe_violations(phone) == []
    phone.context.close()
    # the lobby and the game's page link the leaderboard
    bo.goto(f"{server.url}/")
    bo.wait_for_selector("#lobby[data-ready='1']")
    assert bo.locator("#leaderboards a[href='/games/pressed/ratings']").count() == 1
    bo.goto(f"{server.url}/games/pressed")
    assert bo.locator("a[href='/games/pressed/ratings']").count() == 1
