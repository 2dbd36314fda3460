"""Browser tests in real Chromium (Debian's /usr/bin/chromium driven by Playwright's Python package).

A `tablepress serve` subprocess on 127.0.0.1; games are created with a game page's Play form and played
to the end by clicking; two browser contexts as two human seats each see only their own hand.
"""

from __future__ import annotations

import random
import re

import pytest

from tablepress.core.registry import game_names

from web_helpers import Server, auth, needs_chromium


pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One web server for the module, AI seats pausing only briefly."""
    srv = Server(tmp_path_factory.mktemp("web") / "games.db", ai_delay=0.05)
    yield srv
    srv.stop()



@pytest.fixture
def page(browser):
    """A fresh page (own context, own local storage) that fails the test on any script error."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.errors = errors
    yield pg
    context.close()
    assert not errors, errors


def create_in_lobby(page, server, game: str, seats: list[str], hotseat: bool = False, seed: int | None = None,
                    ticks: dict[str, bool] | None = None, variant: str | None = None) -> None:
    """Fill the Play form of the game's page: player count, options (`ticks`: a set option's choice → on/off),
    seats; create."""
    page.goto(f"{server.url}/games/{game}#play")
    page.wait_for_selector("#create-form[data-ready]")
    page.select_option("#players", str(len(seats)))
    rows = page.locator("#seats .seat")
    for index, kind in enumerate(seats):
        rows.nth(index).locator("select.kind").select_option(kind)
    for choice, on in (ticks or {}).items():
        box = page.locator(f"#options input[type=checkbox][value=\"{choice}\"]")
        box.check() if on else box.uncheck()
    if variant:
        page.click("#variant-box summary")
        page.fill("#variant", variant)
    if hotseat:
        page.check("input[name=mode][value=hotseat]")
    if seed is not None:
        page.fill("#seed", str(seed))
    page.click("#create")


def play_to_end(page, rng: random.Random, prefer_board: bool = False, limit: int = 3000) -> None:
    """Click legal moves until the final scores show.

    With `prefer_board`, click what the table lights up: moves, and things to pick up, columns with a
    choice, cards to tick (after too many clicks without a move, a move button). Else a move button.
    """
    idle = 0
    for _ in range(limit):
        page.wait_for_function(
            "() => !document.getElementById('final').hidden || "
            "(!document.body.classList.contains('busy') && document.querySelector('#moves [data-action]'))",
            timeout=30_000,
        )
        if page.locator("#final").is_visible():
            return
        board = page.locator("#board.interactive [data-action], #board.interactive .legal:not([data-action])")
        if prefer_board and idle < 25 and board.count():
            target = board.nth(rng.randrange(board.count()))
        else:
            buttons = page.locator("#moves [data-action]")
            target = buttons.nth(rng.randrange(buttons.count()))
        version = page.evaluate("() => document.querySelectorAll('#log li').length")
        try:
            acts = target.get_attribute("data-action", timeout=2_000) is not None
            target.click(timeout=5_000)
        except Exception:  # noqa: BLE001 - the table redrew under the click; look again
            continue
        if not acts:  # picked something up or ticked a card: the table asks for the next click
            idle += 1
            continue
        idle = 0
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {version} || "
                               "!document.getElementById('final').hidden", timeout=30_000)
    if limit > 1:
        raise AssertionError("the game did not end")


def pick_and_place(page) -> bool:
    """By This: click a thing with several places, then a lit place on the shelf; False if none offered."""
    page.wait_for_function("() => !document.getElementById('final').hidden || document.querySelector('#moves [data-action]')",
                           timeout=30_000)
    pickers = page.locator("#board.interactive .pickable:not([data-action])")
    if not pickers.count():
        return False
    before = page.locator("#log li").count()
    pickers.first.click()
    page.wait_for_selector("#board .bt-slot.legal", timeout=5_000)
    page.locator("#board .bt-slot.legal").first.click()
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}", timeout=10_000)
    return True


def final_totals(page) -> list[int]:
    """The totals column of the final scores table."""
    return [int(t) for t in page.locator("#final-scores td.total").all_inner_texts()]


def game_id(page) -> str:
    """The id of the game on the table page."""
    return page.url.split("/play/")[1].split("#")[0]


def test_by_this_against_an_ai_from_the_lobby_to_the_final_scores(page, server):
    create_in_lobby(page, server, "by-this", ["human", "random"], seed=4)
    page.wait_for_url(re.compile(r".*/play/\w+"))
    page.wait_for_selector("#moves [data-action], #status:has-text('thinking')")
    assert page.locator(".zone.mine [data-card]").count() >= 1  # my hand is drawn
    rng = random.Random(1)
    for _ in range(40):  # pick a thing up on the table and click where it goes, once that is the choice
        if pick_and_place(page):
            break
        play_to_end(page, rng, limit=1)
    else:
        raise AssertionError("never had a thing to pick up and place")
    play_to_end(page, rng)
    totals = final_totals(page)
    view = server.client.get(f"/api/games/{game_id(page)}").json()
    assert view["status"] == "over" and totals == view["scores"]
    assert page.locator("#status").inner_text().startswith("Game over")
    # the replay steps through the finished game
    page.click("#replay-start")
    page.wait_for_selector("#replay-bar:not([hidden])")
    assert page.locator("#rp-step").inner_text().startswith("0 /")
    page.click("#rp-next")
    page.wait_for_function("() => document.getElementById('rp-step').textContent.startsWith('1 /')")
    assert page.locator("#log li").count() == 1
    # a rematch: one click, the same seats in a new game, this seat's new link already in hand
    first = game_id(page)
    page.click("#rp-exit")
    assert page.locator("#rematch").inner_text() == "Rematch (same players)"
    page.click("#rematch")
    page.wait_for_url(lambda url: "/play/" in url and first not in url)
    page.wait_for_selector("#moves [data-action], #status:has-text('thinking')")
    again = server.client.get(f"/api/games/{game_id(page)}").json()
    assert again["game"] == "by-this" and again["seats"] == ["human", "random"] and again["status"] == "playing"


def test_two_human_seats_in_two_contexts_each_see_only_their_own_hand(browser, page, server):
    create_in_lobby(page, server, "by-this", ["human", "human"], seed=9)
    page.wait_for_selector("#seat-links:not([hidden])")
    link = page.locator(".share-url[data-seat='1']").input_value()
    page.click("#open-game")
    page.wait_for_selector(".zone.mine [data-card]")
    other = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    page2 = other.new_page()
    page2.goto(link)
    page2.wait_for_selector(".zone.mine [data-card]")
    gid = game_id(page)
    hands = {}
    for seat, pg in ((0, page), (1, page2)):
        hands[seat] = pg.locator(".zone.mine [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert hands[0] and hands[1] and not set(hands[0]) & set(hands[1])
    spectator = server.client.get(f"/api/games/{gid}").json()
    assert spectator["private"] == {}
    for seat, pg in ((0, page), (1, page2)):
        shown = set(pg.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
        shown |= set(pg.locator("img").evaluate_all("els => els.map(e => e.alt)"))
        assert not shown & set(hands[1 - seat]), f"seat {seat} sees the other hand"
    # only the seat to move gets move controls
    moving = spectator["to_move"][0]
    assert (page if moving == 0 else page2).locator("#moves [data-action]").count() > 0
    assert (page2 if moving == 0 else page).locator("#moves [data-action]").count() == 0
    # a move on one screen shows up on the other at once (pushed over the WebSocket, no reload)
    mover, watcher = (page, page2) if moving == 0 else (page2, page)
    mover.locator("#moves [data-action]").first.click()
    watcher.wait_for_function("() => document.querySelectorAll('#log li').length >= 1", timeout=10_000)
    assert watcher.locator("#conn.live").count() == 1
    other.close()


def test_flowers_reaches_its_end_by_clicking_the_board(page, server):
    create_in_lobby(page, server, "flowers", ["human", "random"], seed=3, variant="[scoring]\nregion_min = 4\n")
    page.wait_for_url(re.compile(r".*/play/\w+"))
    page.wait_for_selector("#board [data-action='draw 1']")
    page.click("#board [data-action='draw 1']")  # a face-up stack: nothing revealed, so it may be undone
    page.wait_for_selector("#board .cell.legal")
    page.click("#undo")
    page.wait_for_selector("#board [data-action='draw 1']")
    assert page.locator("#log li").count() == 0
    page.click("#board [data-action='draw 1']")
    page.wait_for_selector("#board .cell.legal")
    page.locator("#board .cell.legal").first.click()
    play_to_end(page, random.Random(2), prefer_board=True)
    assert final_totals(page) == server.client.get(f"/api/games/{game_id(page)}").json()["scores"]
    assert server.client.get(f"/api/games/{game_id(page)}/record").json()["variant"] == {"scoring": {"region_min": 4}}


@pytest.mark.parametrize("game", ["pressed", "planted"])
def test_game_reaches_its_end_through_the_page(page, server, game):
    if game not in game_names():
        pytest.skip(f"{game} is not registered yet")
    # Pressed with the electives that ask questions: Anemone (swap), Baby's Breath (copy), Tulip (choose)
    ticks = {"Aster": False, "Chrysanthemum": False, "Anemone": True, "Baby's Breath": True} if game == "pressed" else None
    create_in_lobby(page, server, game, ["human", "random"], seed=5, ticks=ticks)
    page.wait_for_url(re.compile(r".*/play/\w+"))
    play_to_end(page, random.Random(3), prefer_board=True)
    assert final_totals(page) == server.client.get(f"/api/games/{game_id(page)}").json()["scores"]
    record = server.client.get(f"/api/games/{game_id(page)}/record").json()
    if game == "pressed":
        assert set(record["options"]["electives"]) == {"Anemone", "Baby's Breath", "Tulip"}


def test_hot_seat_hides_the_hand_between_turns(page, server):
    create_in_lobby(page, server, "by-this", ["human", "human"], hotseat=True, seed=2)
    page.wait_for_url(re.compile(r".*/play/\w+"))
    page.wait_for_selector("#moves [data-action]")
    gid = game_id(page)
    first = server.client.get(f"/api/games/{gid}").json()["to_move"][0]
    for _ in range(20):  # act until the turn passes to the other seat
        if page.locator("#curtain").is_visible():
            break
        before = page.locator("#log li").count()
        page.locator("#moves [data-action]").first.click()
        page.wait_for_function(f"() => !document.getElementById('curtain').hidden || "
                               f"(document.querySelectorAll('#log li').length > {before} && "
                               "document.querySelector('#moves [data-action]'))", timeout=15_000)
    assert page.locator("#curtain").is_visible()
    assert "Pass the screen" in page.locator("#curtain-text").inner_text()
    page.click("#curtain-go")
    page.wait_for_selector("#moves [data-action]")
    seat = 1 - first
    assert f"(you)" in page.locator("#scores tr.me").inner_text()
    assert page.locator("#scores tr.me td").nth(1).inner_text().startswith(
        server.client.get(f"/api/games/{gid}").json()["names"][seat])


def test_the_lobby_lists_open_and_finished_games(page, server):
    reply = server.client.post("/api/games", json={"game": "flowers", "seats": ["random", "random"], "seed": 1})
    gid = reply.json()["id"]
    page.goto(server.url + "/")
    page.wait_for_selector(f"#games tr[data-id='{gid}'], #games-empty")
    for _ in range(600):
        if server.client.get(f"/api/games/{gid}").json()["status"] == "over":
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("the bots did not finish")
    page.click("#tab-over")
    page.wait_for_selector(f"#games tr[data-id='{gid}']")
    assert "Replay" in page.locator(f"#games tr[data-id='{gid}']").inner_text()


def test_a_phone_sized_screen_shows_the_table_without_sideways_scrolling(browser, server):
    reply = server.client.post("/api/games", json={"game": "by-this", "seats": ["human", "random"], "seed": 3}).json()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    pg = context.new_page()
    pg.goto(f"{server.url}/play/{reply['id']}#seat=0&token={reply['tokens']['0']}")
    pg.wait_for_selector("#moves [data-action]")
    width = pg.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 400
    context.close()


def test_a_player_can_leave_and_an_ai_takes_the_seat(page, server):
    reply = server.client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 6}).json()
    page.goto(f"{server.url}/play/{reply['id']}#seat=1&token={reply['tokens']['1']}")
    page.wait_for_selector("#bot-takeover")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#bot-takeover")
    page.wait_for_function("() => document.getElementById('title')?.textContent.includes('watching')")
    view = server.client.get(f"/api/games/{reply['id']}").json()
    assert view["seats"] == ["human", "greedy"]
    assert server.client.get(f"/api/games/{reply['id']}", headers=auth(reply["tokens"]["1"])).status_code == 403


def test_a_wrong_seat_link_falls_back_to_watching(page, server):
    reply = server.client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 2}).json()
    page.goto(f"{server.url}/play/{reply['id']}#seat=0&token=not-the-token")
    page.wait_for_function("() => document.getElementById('title')?.textContent.includes('watching')", timeout=15_000)
    assert page.locator("#moves [data-action]").count() == 0
    assert page.locator("#board [data-action]").count() == 0 or not page.locator("#board.interactive").count()
