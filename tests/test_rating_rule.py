"""The rating rule (tablepress/web/rating_rule.py): places from final scores and winners, and multiplayer Elo
changes between the people at a table, ties included."""

from __future__ import annotations

import pytest

from tablepress.web.rating_rule import K, START, changes, places


def test_the_winners_come_first_then_the_others_by_score_and_equal_scores_share_a_place():
    # seat 2 won on the tie-break though seat 0 has its score; seats 1 and 3 tie below
    assert places([30, 20, 30, 20], [2], [0, 1, 2, 3]) == {2: 0, 0: 1, 1: 2, 3: 2}
    assert places([30, 30, 10], [0, 1], [0, 1, 2]) == {0: 0, 1: 0, 2: 2}  # a shared win
    assert places([5, 40, 9], [1], [0, 2]) == {2: 0, 0: 1}  # only the seats asked for (the people) are placed


def test_two_equals_move_sixteen_points_each_way_and_a_draw_moves_nothing():
    assert changes({"ada": START, "bo": START}, {"ada": 0, "bo": 1}) == {"ada": K / 2, "bo": -K / 2}
    assert changes({"ada": START, "bo": START}, {"ada": 0, "bo": 0}) == {"ada": 0.0, "bo": 0.0}


def test_a_draw_with_a_stronger_player_gains_and_an_upset_gains_more_than_an_expected_win():
    drawn = changes({"low": 1400.0, "high": 1600.0}, {"low": 0, "high": 0})
    assert drawn["low"] > 0 > drawn["high"] and drawn["low"] == pytest.approx(-drawn["high"])
    upset = changes({"low": 1400.0, "high": 1600.0}, {"low": 0, "high": 1})["low"]
    expected_win = changes({"low": 1400.0, "high": 1600.0}, {"low": 1, "high": 0})["high"]
    assert upset > K / 2 > expected_win > 0


def test_a_table_of_many_moves_as_far_as_one_two_player_game_and_the_changes_add_to_zero():
    four = changes({p: START for p in "abcd"}, {"a": 0, "b": 1, "c": 1, "d": 3})
    assert four["a"] == pytest.approx(K / 2) and four["d"] == pytest.approx(-K / 2)
    assert four["b"] == pytest.approx(four["c"]) == pytest.approx(0.0)
    assert sum(four.values()) == pytest.approx(0.0)
    uneven = changes({"a": 1710.0, "b": 1320.0, "c": 1500.0}, {"a": 2, "b": 0, "c": 1})
    assert sum(uneven.values()) == pytest.approx(0.0) and uneven["b"] > 0 > uneven["a"]


def test_one_person_alone_changes_nothing():
    assert changes({"ada": 1500.0}, {"ada": 0}) == {"ada": 0.0}
