"""The lobby and the table's chat in real Chromium against a `tablepress serve` subprocess: two people in two
browser contexts each pick a name, one creates a public table, the other joins it from the lobby (the table
appears there live), both reach the game and see each other's names, and they chat: a message shows up live on
the other side, HTML in it shown as text; one mutes the other and unmutes her again."""

from __future__ import annotations

import pytest

from web_helpers import Server, needs_chromium

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("lobby") / "games.db", ai_delay=0.05)
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


def pick_name(page, url: str, name: str) -> None:
    page.goto(url + "/")
    page.wait_for_selector("#lobby[data-ready='1']")
    page.fill("#player-name", name)
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#me-name")
    assert page.locator("#me-name").inner_text() == name


def test_two_people_meet_in_the_lobby_play_and_chat(pages, server):
    ana, bo = pages
    pick_name(ana, server.url, "Ana")
    pick_name(bo, server.url, "Bo")
    bo.wait_for_selector("body[data-lobby-live='1']")
    assert bo.locator("#open-tables tr").count() == 0
    ana.select_option("#table-game", "flowers")
    ana.select_option("#table-players", "2")
    ana.click("#table-create")
    ana.wait_for_selector("#waiting-tables .waiting")
    # Bo's lobby shows the table without a reload (the event stream), with Ana seated and a Join button
    row = bo.locator("#open-tables tr").first
    row.wait_for(timeout=10_000)
    assert "Ana" in row.inner_text() and "open seat" in row.inner_text()
    row.locator("button.join").click()
    bo.wait_for_url(f"{server.url}/play/**")
    ana.wait_for_url(f"{server.url}/play/**", timeout=15_000)
    assert ana.url == bo.url
    for page in (ana, bo):
        page.wait_for_selector("#scores tr")
        scores = page.locator("#scores").inner_text()
        assert "Ana" in scores and "Bo" in scores
    assert "Ana" in ana.locator("#title").inner_text() and "Bo" in bo.locator("#title").inner_text()
    # chat: live on the other side, HTML as text
    for page in (ana, bo):
        page.wait_for_selector("#chat-panel[data-live='1']")
    ana.fill("#chat-text", "<b>hello</b> <img src=x onerror=alert(1)>")
    ana.press("#chat-text", "Enter")
    line = bo.locator("#chat-log li").first
    line.wait_for(timeout=10_000)
    assert line.locator(".who").inner_text() == "Ana:"
    assert line.locator(".text").inner_text() == "<b>hello</b> <img src=x onerror=alert(1)>"
    assert bo.locator("#chat-log b, #chat-log img").count() == 0
    bo.click("#chat-panel [data-emote=gg]")
    ana.locator("#chat-log li").nth(1).wait_for(timeout=10_000)
    assert "Good game" in ana.locator("#chat-log li").nth(1).inner_text()
    # Bo mutes Ana: her lines are hidden on his screen only, and stay hidden after a reload
    bo.locator("#chat-log li").first.locator("button.mute").click()
    assert bo.locator("#chat-log li").first.is_hidden()
    bo.reload()
    bo.locator("#chat-log li").nth(1).wait_for(timeout=10_000)
    assert bo.locator("#chat-log li").first.is_hidden() and ana.locator("#chat-log li").first.is_visible()
    # and unmutes her again
    bo.click("#chat-muted button.unmute:has-text('Unmute Ana')")
    assert bo.locator("#chat-log li").first.is_visible() and bo.locator("#chat-muted").is_hidden()
