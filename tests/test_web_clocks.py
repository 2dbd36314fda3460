"""Turn clocks (web/clocks.py) over the API, time driven by a fake clock given to the app (never the wall clock):
a seat whose time runs out has exactly one move played for it by the AI, a legal one, said in the log; the seat
stays the player's; a game without a clock never times out; a restarted server picks an overdue clock up; two
servers over one PostgreSQL play a timed-out turn once between them, even when both think it out."""

from __future__ import annotations

import logging
import threading

import pytest
from fastapi.testclient import TestClient

from tablepress.web.clocks import clock_rule, duration_words

from clock_helpers import CLOCK, FakeTime, app, fake, look, player, served, table_game  # noqa: F401 - fixtures
from web_helpers import auth, eventually


def log_of(client: TestClient, gid: str, token: str | None = None) -> list[dict]:
    return client.get(f"/api/games/{gid}", headers=auth(token) if token else {}).json()["log"]


def test_a_turn_whose_time_runs_out_is_played_once_by_the_ai_and_the_log_says_so(client, fake, caplog):
    caplog.set_level(logging.INFO, logger="tablepress.web")
    gid, tokens = table_game(client)
    mover = client.get(f"/api/games/{gid}").json()["to_move"][0]
    name = ("Ana", "Bo")[mover]
    legal = client.get(f"/api/games/{gid}", headers=auth(tokens[mover])).json()["legal_actions"]
    clock = client.get(f"/api/games/{gid}/clock").json()
    assert (clock["seconds"], clock["ai"], clock["rule"]) == (CLOCK, "Casual", clock_rule(CLOCK))
    assert clock["rule"] == "10 minutes a turn; when time runs out the AI plays that turn"
    assert [(w["seat"], w["name"], w["left"]) for w in clock["waiting"]] == [(mover, name, CLOCK)]
    fake.advance(CLOCK - 1)
    look(client)
    assert log_of(client, gid) == []  # a second to go: nothing played
    assert client.get(f"/api/games/{gid}/clock").json()["waiting"][0]["left"] == 1
    fake.advance(2)
    look(client)
    look(client)
    entries = log_of(client, gid, tokens[mover])
    assert len(entries) == 1 and entries[0]["seat"] == mover and entries[0]["text"] in legal
    note = {"kind": "note", "seat": mover, "text": f"Time ran out for {name}: the AI (Casual) played this turn."}
    assert entries[0]["lines"][0] == note
    assert log_of(client, gid, tokens[1 - mover])[0]["lines"][0] == note  # every reader is told
    assert [r for r in caplog.records if r.getMessage() == "clock_timeout"][0].fields["player"] == name
    # the seat stays the player's: its token still acts for it, and its next turn has a fresh clock
    view = client.get(f"/api/games/{gid}", headers=auth(tokens[mover])).json()
    assert view["seat"] == mover and view["seats"] == ["human", "human"]
    waiting = client.get(f"/api/games/{gid}/clock").json()["waiting"]
    assert all(w["left"] == CLOCK for w in waiting) and waiting
    while True:
        now = client.get(f"/api/games/{gid}").json()
        seat = now["to_move"][0]
        action = client.get(f"/api/games/{gid}", headers=auth(tokens[seat])).json()["legal_actions"][0]
        assert client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                           json={"action": action}).status_code == 200
        if seat == mover:
            break
    assert all(len(e["lines"]) == 0 or e["lines"][0]["kind"] != "note" for e in log_of(client, gid)[1:])


def test_a_move_in_time_restarts_the_clock_and_nothing_times_out(client, fake):
    gid, tokens = table_game(client)
    mover = client.get(f"/api/games/{gid}").json()["to_move"][0]
    fake.advance(CLOCK - 10)
    action = client.get(f"/api/games/{gid}", headers=auth(tokens[mover])).json()["legal_actions"][0]
    client.post(f"/api/games/{gid}/actions", headers=auth(tokens[mover]), json={"action": action})
    fake.advance(20)  # past the first deadline, not past the next seat's
    look(client)
    assert len(log_of(client, gid)) == 1
    assert all(w["left"] == CLOCK - 20 for w in client.get(f"/api/games/{gid}/clock").json()["waiting"])


def test_a_game_without_a_clock_never_times_out(client, fake):
    gid, _tokens = table_game(client, clock=None)
    assert client.get(f"/api/games/{gid}/clock").json() == {"seconds": None, "rule": None, "waiting": []}
    fake.advance(6 * 86_400)
    look(client)
    assert log_of(client, gid) == []


def test_a_clock_shorter_than_the_api_allows_is_still_refused(client):
    ana = player(client, "Ana")
    reply = client.post("/api/tables", json={"game": "flowers", "players": 2, "clock": 9}, headers=auth(ana))
    assert reply.status_code == 422 and reply.json()["detail"].startswith("clock: seconds per player")
    assert client.get("/api/tables").json() == []


def test_no_clock_for_an_unknown_game(client):
    assert client.get("/api/games/nope/clock").status_code == 404


def test_a_restarted_server_picks_up_an_overdue_clock(tmp_path, fake):
    where = tmp_path / "games.db"
    with TestClient(served(where, fake)) as first:
        gid, tokens = table_game(first)
        mover = first.get(f"/api/games/{gid}").json()["to_move"][0]
    fake.advance(CLOCK + 60)  # the server was down when the time ran out
    with TestClient(served(where, fake)) as second:
        assert eventually(lambda: log_of(second, gid)), "the restarted server did not play the overdue turn"
        second.portal.call(second.app.state.clocks.settle)
        look(second)
        entries = log_of(second, gid)
        assert len(entries) == 1 and entries[0]["seat"] == mover and entries[0]["lines"][0]["kind"] == "note"


@pytest.mark.parametrize("both_think", [False, True], ids=["one-lease", "both-think"])
def test_two_servers_over_postgresql_play_a_timed_out_turn_once(postgres, fake, both_think, monkeypatch):
    """Both look at the same moment; with `both_think` each also takes the clock lease (as if the other's had
    expired), so both have the AI choose and both try to store it: the compare-and-set keeps one."""
    url = postgres.database()
    try:
        with TestClient(served(url, fake)) as a, TestClient(served(url, fake)) as b:
            if both_think:
                for app in (a.app, b.app):
                    monkeypatch.setattr(app.state.hub.leases, "take", lambda _key: True)
            gid, tokens = table_game(a)
            mover = b.get(f"/api/games/{gid}").json()["to_move"][0]
            fake.advance(CLOCK + 1)
            looks = [threading.Thread(target=look, args=(client,)) for client in (a, b)]
            for thread in looks:
                thread.start()
            for thread in looks:
                thread.join()
            look(a)
            look(b)
            for client in (a, b):
                entries = log_of(client, gid)
                assert [e["seat"] for e in entries] == [mover]
                assert entries[0]["lines"][0]["text"].startswith("Time ran out for ")
            with a.app.state.hub.store._transaction() as tx:
                assert tx.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (gid,)).fetchone()[0] == 1
    finally:
        postgres.drop(url)


@pytest.mark.parametrize("seconds,words", [(10, "10 seconds"), (90, "90 seconds"), (120, "2 minutes"),
                                           (3_600, "1 hour"), (5_400, "1 hour 30 minutes"), (86_400, "1 day"),
                                           (3 * 86_400 + 7_200, "3 days 2 hours")])
def test_a_clock_reads_in_words(seconds, words):
    assert duration_words(seconds) == words
