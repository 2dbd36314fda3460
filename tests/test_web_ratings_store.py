"""The store's ratings (tablepress/web/store/ratings.py) on SQLite and on a throwaway PostgreSQL: a rated table's
finished game moves its people's ratings once, however often and by however many processes it is settled;
unrated tables and tables with one person change nothing."""

from __future__ import annotations

import threading

import pytest

from tablepress.web.store import GameRow, hash_token, open_store


@pytest.fixture
def store(database_url):
    """A fresh store, once over SQLite and once over PostgreSQL."""
    opened = open_store(database_url)
    yield opened
    opened.close()


def begin(store, gid: str, people: list[str], ai: int = 0, rated: bool = True) -> None:
    """A table seating `people` (players made here if new) and `ai` AI seats after them, begun as game `gid`."""
    for pid in people:
        if store.player_by_token(hash_token(pid)) is None:
            store.add_player(pid, pid.capitalize(), hash_token(pid), 1.0)
    seats = len(people) + ai
    tid = f"t-{gid}"
    store.add_table({"id": tid, "game": "pressed", "players": seats, "options": {},
                     "ai": {s: "random" for s in range(len(people), seats)}, "private": False, "rated": rated,
                     "clock": None, "creator": people[0], "created": 2.0}, 0)
    for seat, pid in enumerate(people[1:], start=1):
        store.take_seat(tid, pid, [seat], 3.0)
    store.create_game(GameRow(id=gid, game="pressed", players=seats, options={},
                              seats=["human"] * len(people) + ["random"] * ai, names=people + ["Bot"] * ai, seed=1,
                              variant=None, token_hashes={}, created=4.0))
    assert store.claim_table(tid, "starting:x")
    store.start_table(tid, "starting:x", gid, dict(enumerate(people)), 5.0)


def end(store, gid: str, scores: list[int], winners: list[int]) -> None:
    """Store a game's last action, which ends it with these scores and winners."""
    store.append_action(gid, 0, 0, "pass", "pass", 6.0, status="over", scores=scores, winners=winners)


def board(store) -> dict[str, tuple[float, int]]:
    """Pressed's leaderboard as {name: (rating, games)}."""
    return {row["name"]: (round(row["rating"], 6), row["games"]) for row in store.leaderboard("pressed", 100)}


def test_a_finished_rated_game_moves_its_people_once_however_often_it_is_settled(store):
    begin(store, "g1", ["ada", "bo"])
    assert store.settle_ratings("g1", 10.0) == []  # rated, but not over yet: nothing moves
    assert board(store) == {}
    end(store, "g1", [20, 35], [1])
    first = store.settle_ratings("g1", 11.0)
    assert [(c["seat"], c["name"], c["before"], c["after"]) for c in first] == [(0, "Ada", 1500.0, 1484.0),
                                                                              (1, "Bo", 1500.0, 1516.0)]
    assert store.settle_ratings("g1", 12.0) == first  # the end processed again: the same changes, not applied twice
    assert board(store) == {"Bo": (1516.0, 1), "Ada": (1484.0, 1)}
    assert list(board(store)) == ["Bo", "Ada"]  # best first
    assert store.unsettled_ratings(10) == []


def test_a_second_game_starts_from_the_ratings_the_first_left_and_ties_share_the_points(store):
    begin(store, "g1", ["ada", "bo"])
    end(store, "g1", [10, 30], [1])
    store.settle_ratings("g1", 10.0)
    begin(store, "g2", ["ada", "bo"])
    end(store, "g2", [25, 25], [0, 1])  # a shared win: a draw, the lower-rated gains
    changes = {c["name"]: (c["before"], c["after"]) for c in store.settle_ratings("g2", 11.0)}
    assert changes["Ada"][0] == 1484.0 and changes["Bo"][0] == 1516.0
    gained = changes["Ada"][1] - changes["Ada"][0]
    assert 0 < gained < 16 and changes["Bo"][1] - changes["Bo"][0] == pytest.approx(-gained)
    assert board(store)["Ada"][1] == board(store)["Bo"][1] == 2


def test_only_the_people_are_placed_at_a_table_with_an_ai_seat(store):
    begin(store, "g1", ["ada", "bo"], ai=1)
    end(store, "g1", [30, 10, 50], [2])  # the AI won; Ada beat Bo
    changes = {c["name"]: c["after"] - c["before"] for c in store.settle_ratings("g1", 10.0)}
    assert changes == {"Ada": 16.0, "Bo": -16.0}


@pytest.mark.parametrize("people, ai, rated", [(["ada", "bo"], 0, False), (["ada"], 1, True)])
def test_an_unrated_table_or_one_person_with_an_ai_changes_nothing(store, people, ai, rated):
    begin(store, "g1", people, ai=ai, rated=rated)
    end(store, "g1", [40, 10], [0])
    assert store.settle_ratings("g1", 10.0) is None
    assert board(store) == {} and store.unsettled_ratings(10) == []


def test_a_game_that_ended_unsettled_is_found_and_its_marks_go_when_it_expires(store):
    begin(store, "g1", ["ada", "bo"])
    begin(store, "g2", ["cy", "di"])
    end(store, "g1", [10, 30], [1])
    assert store.unsettled_ratings(10) == ["g1"]  # g2 is not over
    store.settle_ratings("g1", 10.0)
    assert store.unsettled_ratings(10) == []
    assert set(store.expire(open_before=1e12, over_before=1e12)) == {"g1", "g2"}
    assert store.settle_ratings("g1", 11.0) is None
    assert board(store) == {"Bo": (1516.0, 1), "Ada": (1484.0, 1)}  # the ratings stay


def test_two_processes_settling_one_game_at_once_apply_it_once(postgres):
    url = postgres.database()
    try:
        first, second = open_store(url), open_store(url)
        begin(first, "g1", ["ada", "bo", "cy"])
        end(first, "g1", [10, 20, 30], [2])
        results: list = []
        start = threading.Barrier(6)

        def settle(store) -> None:
            start.wait()
            results.append(store.settle_ratings("g1", 10.0))

        threads = [threading.Thread(target=settle, args=(store,)) for store in (first, second) * 3]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(results) == 6 and all(result == results[0] for result in results)
        assert {name: games for name, (_, games) in board(first).items()} == {"Ada": 1, "Bo": 1, "Cy": 1}
        assert [round(c["after"] - c["before"], 6) for c in results[0]] == [-16.0, 0.0, 16.0]
        first.close()
        second.close()
    finally:
        postgres.drop(url)


def test_a_stored_result_that_does_not_read_is_settled_without_changes(store):
    begin(store, "g1", ["ada", "bo"])
    end(store, "g1", [7], [])  # one score for two seats
    assert store.settle_ratings("g1", 10.0) == []
    assert store.unsettled_ratings(10) == [] and board(store) == {}
