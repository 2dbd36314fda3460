"""The store's players, one-time links, lobby tables and chat (tablepress/web/store/social.py), on SQLite and on a
throwaway PostgreSQL; a game's chat and its players' seats go when the game expires."""

from __future__ import annotations

import time

import pytest

from tablepress.web.store import GameRow, hash_token, open_store
from tablepress.web.store.social import ChatLimit, SeatTaken, hash_code, seal, unseal


@pytest.fixture
def store(database_url):
    """A fresh store, once over SQLite and once over PostgreSQL."""
    opened = open_store(database_url)
    yield opened
    opened.close()


def table(tid: str, creator: str, created: float, **extra) -> dict:
    """A two-seat Flowers table."""
    return {"id": tid, "game": "flowers", "players": 2, "options": {"summer": False}, "ai": {}, "private": False,
            "rated": True, "clock": None, "creator": creator, "created": created, **extra}


def test_players_are_found_by_their_tokens_hash_only(store):
    store.add_player("p1", "Ana", hash_token("secret"), 1.0)
    assert store.player_by_token(hash_token("secret")) == {"id": "p1", "name": "Ana"}
    assert store.player_by_token(hash_token("other")) is None
    assert store.player_by_token("secret") is None  # the token itself is no key
    with pytest.raises(Exception):
        store.add_player("p2", "Bo", hash_token("secret"), 2.0)  # one token, one player


def test_a_link_opens_once_before_it_expires_and_holds_the_token_sealed(store):
    store.add_player("p1", "Ana", hash_token("tok"), 1.0)
    sealed = seal("tok", "code-1")
    assert "tok" not in sealed and unseal(sealed, "code-1") == "tok" and unseal(sealed, "code-2") != "tok"
    store.add_link(hash_code("code-1"), "p1", sealed, 100.0, 10.0)
    store.add_link(hash_code("code-2"), "p1", seal("tok", "code-2"), 50.0, 10.0)
    assert store.redeem_link(hash_code("code-1"), 20.0) == ("p1", sealed)
    assert store.redeem_link(hash_code("code-1"), 20.0) is None  # once
    assert store.redeem_link(hash_code("code-2"), 60.0) is None  # expired
    assert store.redeem_link(hash_code("code-2"), 20.0) is None  # and gone


def test_a_table_seats_players_once_each_until_full_then_begins(store):
    for pid in ("a", "b", "c"):
        store.add_player(pid, pid.upper(), hash_token(pid), 1.0)
    store.add_table(table("t1", "a", 10.0), 0)
    store.add_table(table("t2", "b", 11.0, private=True), 0)
    assert [t["id"] for t in store.open_tables(10)] == ["t1"]  # private tables are not listed
    with pytest.raises(SeatTaken, match="already sit"):
        store.take_seat("t1", "a", [1], 12.0)
    assert store.take_seat("t1", "b", [1], 12.0) == 1
    with pytest.raises(SeatTaken, match="full"):
        store.take_seat("t1", "c", [1], 13.0)
    one = store.table("t1")
    assert {s: w["name"] for s, w in one["seats"].items()} == {0: "A", 1: "B"}
    assert one["seats"][1]["hash"] == hash_token("b") and one["touched"] == 12.0
    assert store.claim_table("t1", "starting:x") and not store.claim_table("t1", "starting:y")
    store.start_table("t1", "starting:x", "g1", {0: "a", 1: "b"}, 14.0)
    assert store.table("t1")["game_id"] == "g1" and store.open_tables(10) == []
    assert store.player_games("b", 10) == [("g1", 1)]
    with pytest.raises(KeyError):
        store.take_seat("t1", "c", [1], 15.0)


def test_a_table_that_could_not_begin_waits_again(store):
    store.add_player("a", "A", hash_token("a"), 1.0)
    store.add_table(table("t", "a", 10.0), 0)
    assert store.claim_table("t", "starting:x")
    store.start_table("t", "starting:x", None, {0: "a"}, 11.0)
    assert store.table("t")["game_id"] is None and store.player_games("a", 10) == []


def test_stale_tables_expire_and_begun_ones_later(store):
    store.add_player("a", "A", hash_token("a"), 1.0)
    store.add_table(table("old", "a", 10.0), 0)
    store.add_table(table("new", "a", 100.0), 0)
    store.add_table(table("begun", "a", 10.0), 0)
    store.claim_table("begun", "starting:x")
    store.start_table("begun", "starting:x", "g", {0: "a"}, 20.0)
    assert store.expire_tables(50.0, 5.0) == ["old"]
    assert store.table("old") is None and store.table("new") is not None and store.table("begun") is not None
    assert store.expire_tables(50.0, 30.0) == ["begun"]


def test_chat_is_numbered_rate_limited_per_seat_and_bounded(store):
    now = time.time()
    first = store.add_chat("g", 0, "Ana", "<b>hi</b>", None, now, 10.0, 2, 5)
    assert first == {"n": 1, "seat": 0, "name": "Ana", "text": "<b>hi</b>", "emote": None, "at": now}
    store.add_chat("g", 0, "Ana", "two", None, now + 1, 10.0, 2, 5)
    with pytest.raises(ChatLimit, match="at most 2 messages in 10 seconds"):
        store.add_chat("g", 0, "Ana", "three", None, now + 2, 10.0, 2, 5)
    store.add_chat("g", 1, "Bo", "gg", "gg", now + 2, 10.0, 2, 5)  # another seat has its own allowance
    store.add_chat("g", 0, "Ana", "later", None, now + 20, 10.0, 2, 5)
    store.add_chat("g", 0, "Ana", "five", None, now + 21, 10.0, 2, 5)
    with pytest.raises(ChatLimit, match="holds 5 messages"):
        store.add_chat("g", 1, "Bo", "six", None, now + 40, 10.0, 2, 5)
    assert [m["text"] for m in store.chat("g", 0, 100)] == ["<b>hi</b>", "two", "gg", "later", "five"]
    assert [m["n"] for m in store.chat("g", 3, 1)] == [4]
    assert store.chat("other", 0, 100) == []


def test_a_games_chat_and_seats_go_when_the_game_expires(store):
    store.create_game(GameRow(id="g", game="flowers", players=2, options={}, seats=["human", "human"],
                              names=["A", "B"], seed=1, variant=None, token_hashes={}, created=10.0))
    store.add_player("a", "A", hash_token("a"), 1.0)
    store.add_table(table("t", "a", 10.0), 0)
    store.claim_table("t", "starting:x")
    store.start_table("t", "starting:x", "g", {0: "a"}, 10.0)
    store.add_chat("g", 0, "A", "hi", None, 10.0, 10.0, 5, 100)
    assert store.expire(20.0, 20.0) == ["g"]
    assert store.chat("g", 0, 100) == [] and store.player_games("a", 10) == []
