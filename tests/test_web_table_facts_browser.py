"""The table's game facts and the player's turns in real Chromium against a `tablepress serve` subprocess: the
header says "rated" or "unrated" while the game is played (beside "variant: NAME"), at phone width with no
sideways scroll and nothing serious for axe-core; the tab's title counts the player's games that wait on the
player as the rest of the site does ("(2) Your turn — Pressed — Table Press"), this game's share told by the
table live and the others' by the player's stream; a signed-in player's guided first game opens by the
player's cookie (no seat link in the address) and is among the player's games."""

from __future__ import annotations

import re

import pytest

from web_audit import axe_violations, needs_axe, sideways, widest
from web_helpers import Server, auth, needs_chromium

pytestmark = [needs_chromium, needs_axe]

PHONE = (360, 740)
TITLE = re.compile(r"^\((\d+)\) Your turn — Pressed — Table Press$")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("table-facts") / "games.db", ai_delay=0.05)
    yield srv
    srv.stop()


@pytest.fixture
def person(browser):
    """A new browser context (a person's device) per call, failing the test on any script error."""
    made, errors = [], []

    def open_one(width: int = 1200, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        made.append(context)
        return context, page

    yield open_one
    for context in made:
        context.close()
    assert not errors, errors


def signed_in(context, url: str, name: str) -> dict:
    """A player made in this browser (the answer sets its cookie in the context): {"id", "name", "token"}."""
    reply = context.request.post(f"{url}/api/players", data={"name": name})
    assert reply.status == 201
    return reply.json()


def table_game(server: Server, host, guest_token: str, rated: bool = True) -> str:
    """A two-player Pressed game of a lobby table `host` (a browser context) made and the guest joined."""
    table = host.request.post(f"{server.url}/api/tables", data={"game": "pressed", "players": 2, "rated": rated}).json()
    joined = server.client.post(f"/api/tables/{table['id']}/join", headers=auth(guest_token))
    assert joined.status_code == 200, joined.text
    return joined.json()["game_id"]


def move_until(server: Server, gid: str, token: str, seat: int, waiting: bool) -> None:
    """Play the first legal move of the token's seat until the game waits on `seat` (`waiting`) or no longer
    does (the token's seat is the one that must move meanwhile)."""
    for _ in range(200):
        to_move = server.client.get(f"/api/games/{gid}").json()["to_move"]
        if (seat in to_move) == waiting:
            return
        view = server.client.get(f"/api/games/{gid}", headers=auth(token)).json()
        reply = server.client.post(f"/api/games/{gid}/actions", headers=auth(token),
                                   json={"action": view["legal_actions"][0]})
        assert reply.status_code == 200, reply.text
    raise AssertionError("the game never came to that seat")


def test_the_header_says_rated_or_unrated_while_the_game_is_played(person, server):
    context, page = person(*PHONE)
    signed_in(context, server.url, "Ana")
    bo = server.client.post("/api/players", json={"name": "Bo"}).json()
    server.client.cookies.clear()
    rated, unrated = table_game(server, context, bo["token"]), table_game(server, context, bo["token"], rated=False)
    for gid, said in ((rated, "rated"), (unrated, "unrated")):
        page.goto(f"{server.url}/play/{gid}")  # Ana's seat, by her cookie
        page.wait_for_selector("#conn.live")
        page.wait_for_selector("#rated-mark")
        assert page.locator("#rated-mark").inner_text() == said
        header = page.locator("#title").inner_text()
        assert header.startswith("Pressed · ") and f" · {said} · {gid} · Ana" in header, header
        assert sideways(page) == 0, widest(page)
        assert axe_violations(page) == []
    made = server.client.post("/api/games", json={"game": "pressed", "seats": ["human", "human"], "seed": 2}).json()
    page.goto(f"{server.url}/play/{made['id']}#seat=0&token={made['tokens']['0']}")
    page.wait_for_selector("#rated-mark")
    assert page.locator("#rated-mark").inner_text() == "unrated"  # a game made without a table is never rated


def test_the_title_counts_the_players_games_waiting_on_the_player(person, server):
    context, page = person()
    ana = signed_in(context, server.url, "Ana")
    bo = server.client.post("/api/players", json={"name": "Bo"}).json()
    server.client.cookies.clear()
    here, there = table_game(server, context, bo["token"]), table_game(server, context, bo["token"])
    for gid in (here, there):
        move_until(server, gid, bo["token"], 0, waiting=True)  # Bo plays until the game waits on Ana (seat 0)
    page.goto(f"{server.url}/play/{here}")
    page.wait_for_selector("#conn.live")
    page.wait_for_function("document.title === '(2) Your turn — Pressed — Table Press'", timeout=15_000)
    move_until(server, here, ana["token"], 0, waiting=False)  # Ana plays here (another device of hers)
    page.wait_for_function("document.title === '(1) Your turn — Pressed — Table Press'", timeout=15_000)
    move_until(server, there, ana["token"], 0, waiting=False)  # and in her other game: the stream tells
    page.wait_for_function("document.title === 'Pressed — Table Press'", timeout=15_000)
    move_until(server, here, bo["token"], 0, waiting=True)
    page.wait_for_function("document.title === '(1) Your turn — Pressed — Table Press'", timeout=15_000)
    assert TITLE.match(page.title())
    home = context.new_page()  # the lobby counts the same games
    home.goto(f"{server.url}/")
    home.wait_for_function("document.title.startsWith('(1) Your turn — ')", timeout=15_000)
    home.close()


def test_a_signed_in_players_guided_game_opens_by_the_cookie_and_is_among_the_players_games(person, server):
    context, page = person(390, 844)
    signed_in(context, server.url, "Ana")
    page.goto(f"{server.url}/games/by-this")
    page.get_by_role("button", name="Learn: guided first game").first.click()
    page.wait_for_url("**/play/*")
    assert re.search(r"/play/[^#]+#guide=1$", page.url), page.url  # no seat link in the address
    page.wait_for_selector("#guide #guide-title")
    gid = page.url.split("/play/")[1].split("#")[0]
    assert page.locator("#title").inner_text().endswith(f"{gid} · Ana")
    assert page.evaluate(f"localStorage.getItem('tp:tokens:{gid}')") is None  # the cookie holds the seat
    page.goto(f"{server.url}/")
    page.wait_for_selector(f"#my-games li[data-game='{gid}']", timeout=15_000)
