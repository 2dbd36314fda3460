"""The turn clocks' tables (migration 9, store/clocks.py) over SQLite and PostgreSQL: a clock per game, waits
written only for a newer game revision (the first of several processes wins), overdue waits earliest first,
time-out attempts noted and forgotten, and everything of a deleted game cleared."""

from __future__ import annotations

import time

import pytest

from tablepress.web.store import GameRow, open_store
from tablepress.web.store.clocks import ClockTables, GameClock, Overdue, Wait


@pytest.fixture
def tables(database_url):
    """The clock tables of a fresh store holding two games, g1 and g2."""
    store = open_store(database_url)
    for gid in ("g1", "g2"):
        store.create_game(GameRow(id=gid, game="flowers", players=2, options={}, seats=["human", "human"],
                                  names=["A", "B"], seed=1, variant=None, token_hashes={}, created=time.time()))
    yield ClockTables(store)
    store.close()


def test_a_clock_is_kept_per_game_and_given_once(tables):
    tables.add("g1", 600, "level:casual")
    tables.add("g1", 60, "greedy")  # a second clock for the same game changes nothing
    assert tables.clocks_of(["g1", "g2", "nope"]) == {"g1": GameClock(600, "level:casual")}
    assert tables.waits("g1") == (-1, {})


def test_waits_are_written_only_for_a_newer_revision(tables):
    tables.add("g1", 600, "level:casual")
    assert tables.set_waits("g1", 3, {0: Wait(3, 100.0)})
    assert not tables.set_waits("g1", 3, {1: Wait(3, 999.0)})  # another process, same revision: the first won
    assert not tables.set_waits("g1", 2, {1: Wait(2, 999.0)})  # an older revision never overwrites
    assert tables.waits("g1") == (3, {0: Wait(3, 100.0)})
    assert tables.set_waits("g1", 4, {})
    assert tables.waits("g1") == (4, {})
    assert not tables.set_waits("g2", 1, {0: Wait(1, 1.0)})  # no clock, no waits
    assert tables.waits("g2") == (-1, {})


def test_overdue_waits_come_earliest_first_with_their_revision(tables):
    tables.add("g1", 600, "level:casual")
    tables.add("g2", 600, "level:casual")
    tables.set_waits("g1", 5, {0: Wait(5, 50.0), 1: Wait(4, 20.0)})
    tables.set_waits("g2", 2, {1: Wait(2, 30.0)})
    assert tables.overdue(40.0, 10) == [Overdue("g1", 1, 4, 20.0, 5), Overdue("g2", 1, 2, 30.0, 2)]
    assert tables.overdue(40.0, 1) == [Overdue("g1", 1, 4, 20.0, 5)]
    assert tables.overdue(10.0, 10) == []
    assert tables.deadlines_of(["g1", "g2"]) == {("g1", 0): 50.0, ("g1", 1): 20.0, ("g2", 1): 30.0}


def test_time_out_attempts_are_noted_and_a_refused_one_forgotten(tables):
    tables.add_timeout("g1", 4, "a1", 0, "play 1", 10.0)
    tables.add_timeout("g1", 4, "b2", 0, "play 2", 11.0)
    tables.drop_timeout("g1", "a1")
    assert tables.timeouts("g1") == [(4, 0, "play 2")]
    assert tables.timeouts("g2") == []


def test_the_clock_of_a_deleted_game_goes_with_it(tables):
    for gid in ("g1", "g2"):
        tables.add(gid, 600, "level:casual")
        tables.set_waits(gid, 1, {0: Wait(1, 5.0)})
        tables.add_timeout(gid, 0, "a", 0, "x", 1.0)
    tables.store.expire(time.time() + 10, time.time() + 10)  # both games expire
    assert tables.forget_gone() == 2
    assert tables.clocks_of(["g1", "g2"]) == {} and tables.overdue(10.0, 10) == [] and tables.timeouts("g1") == []
