"""Starting a guided first game over the API and following it: POST /api/guides/{name}, the Learn form,
GET /api/games/{id}/guide, and the Learn button on a game's pages. The server's game follows the guide's line
to the newcomer's win, as the headless replay says (tests/test_guides.py)."""

from __future__ import annotations

import warnings
from urllib.parse import parse_qs, urlsplit

warnings.filterwarnings("ignore", message="Using `httpx`")

from tablepress.core.guide import END, load_guide  # noqa: E402
from tablepress.core.registry import get_package  # noqa: E402

from web_helpers import auth, wait_for  # noqa: E402

GAME = "by-this"


def guide():
    return load_guide(get_package(GAME))


def start(client, name: str = GAME) -> tuple[str, str]:
    reply = client.post(f"/api/guides/{name}")
    assert reply.status_code == 201, reply.text
    data = reply.json()
    assert set(data) == {"id", "tokens"} and set(data["tokens"]) == {str(guide().seat)}
    return data["id"], data["tokens"][str(guide().seat)]


def test_a_guided_game_is_the_guides_deal_against_the_beginner(client, app):
    gid, _token = start(client)
    match = app.state.hub.rooms[gid].match
    wanted = guide()
    assert (match.game.name, match.seed, match.seats, match.players) == (GAME, wanted.seed, wanted.seats, 2)
    assert match.options["first"] == wanted.options["first"]
    names = client.get(f"/api/games/{gid}").json()["names"]
    assert names == ["Newcomer", "Beginner AI"]


def test_following_the_guide_over_the_api_wins_and_every_point_is_on_the_line(client):
    gid, token = start(client)
    wanted = guide()
    for move, action in enumerate(wanted.line):
        wait_for(client, gid, token, lambda v: wanted.seat in v["to_move"] or v["status"] == "over", timeout=60)
        point = client.get(f"/api/games/{gid}/guide", headers=auth(token)).json()
        assert (point["point"], point["move"], point["on_path"], point["suggest"]) == ("move", move, True, action)
        titles = [step.title for step in wanted.steps_at(move)]
        assert [step["title"] for step in point["steps"]] == titles
        for step in point["steps"]:
            anchor = step["rules"]["anchor"]
            assert step["rules"]["url"] == f"/games/{GAME}/rules#{anchor}" and step["rules"]["heading"]
        assert point["moves"] == len(wanted.line) and point["game"] == GAME and point["seat"] == wanted.seat
        reply = client.post(f"/api/games/{gid}/actions", headers=auth(token), json={"action": action})
        assert reply.status_code == 200, reply.text
    view = wait_for(client, gid, token, lambda v: v["status"] == "over", timeout=60)
    assert view["winners"] == [wanted.seat]
    end = client.get(f"/api/games/{gid}/guide", headers=auth(token)).json()
    assert end["point"] == "end" and end["on_path"]
    assert [step["title"] for step in end["steps"]] == [step.title for step in wanted.steps_at(END)]


def test_leaving_the_line_is_said_and_the_guide_stops_suggesting(client):
    gid, token = start(client)
    wanted = guide()
    other = next(a for a in client.get(f"/api/games/{gid}", headers=auth(token)).json()["legal_actions"]
                 if a != wanted.line[0])
    assert client.post(f"/api/games/{gid}/actions", headers=auth(token), json={"action": other}).status_code == 200
    wait_for(client, gid, token, lambda v: wanted.seat in v["to_move"], timeout=60)
    point = client.get(f"/api/games/{gid}/guide", headers=auth(token)).json()
    assert point["on_path"] is False and point["steps"] == [] and point["suggest"] is None
    assert other in point["reason"] and wanted.line[1] not in point["reason"]


def test_the_learn_form_starts_a_guided_game_and_opens_its_table(client):
    reply = client.post(f"/games/{GAME}/learn", follow_redirects=False)
    assert reply.status_code == 303
    where = urlsplit(reply.headers["location"])
    assert where.path.startswith("/play/")
    fragment = parse_qs(where.fragment)
    assert fragment["guide"] == ["1"] and fragment["seat"] == [str(guide().seat)]
    gid = where.path.rsplit("/", 1)[1]
    point = client.get(f"/api/games/{gid}/guide", headers=auth(fragment["token"][0]))
    assert point.status_code == 200 and point.json()["move"] == 0


def test_guide_errors_are_one_line_and_change_nothing(client):
    before = len(client.get("/api/games").json()["games"])
    assert client.post("/api/guides/no-such-game").status_code == 404
    assert client.post("/api/guides/no-such-game").json()["detail"].startswith("no game 'no-such-game'")
    assert client.post("/games/no-such-game/learn", follow_redirects=False).status_code == 404
    assert len(client.get("/api/games").json()["games"]) == before
    gid, token = start(client)
    assert client.get(f"/api/games/{gid}/guide").status_code == 403
    assert client.get(f"/api/games/{gid}/guide", headers=auth("wrong-token")).status_code == 403
    assert client.get("/api/games/nope/guide", headers=auth(token)).status_code == 404
    plain = client.post("/api/games", json={"game": GAME, "seats": ["human", "level:beginner"], "seed": 1}).json()
    missing = client.get(f"/api/games/{plain['id']}/guide", headers=auth(plain["tokens"]["0"]))
    assert missing.status_code == 404 and "not a guided first game" in missing.json()["detail"]


def test_each_game_page_rules_and_intro_offer_the_learn_button(client):
    for path in (f"/games/{GAME}", f"/games/{GAME}/rules", f"/games/{GAME}/intro"):
        page = client.get(path).text
        assert f'action="/games/{GAME}/learn"' in page and "Learn: guided first game" in page, path


def test_the_ai_chooses_the_same_when_the_newcomer_chose_first(tmp_path):
    """Planted's turns are chosen at the same time: the newcomer answering before the Beginner (whose pause is
    long here) must leave the game on the guide's line, as when the Beginner chooses first."""
    from fastapi.testclient import TestClient

    from tablepress.web.app import create_app

    planted = load_guide(get_package("planted"))
    with TestClient(create_app(tmp_path / "games.db", ai_delay=1.0)) as client:
        data = client.post("/api/guides/planted").json()
        gid, token = data["id"], data["tokens"][str(planted.seat)]
        for move, action in enumerate(planted.line[:5]):
            view = wait_for(client, gid, token, lambda v: planted.seat in v["to_move"], timeout=60)
            point = client.get(f"/api/games/{gid}/guide", headers=auth(token)).json()
            assert point["on_path"] and point["move"] == move, point["reason"]
            assert [step["title"] for step in point["steps"]] == [step.title for step in planted.steps_at(move)]
            if view["public"]["phase"] == "choose":
                assert view["to_move"] == [0, 1]  # the Beginner has not chosen yet: the newcomer chooses first
            reply = client.post(f"/api/games/{gid}/actions", headers=auth(token), json={"action": action})
            assert reply.status_code == 200
