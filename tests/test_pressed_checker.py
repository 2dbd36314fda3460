"""The forward-model checker on Pressed: every player count and several elective sets."""

from __future__ import annotations

import pytest

from tablepress.core.checker import check_game
from tablepress.games.pressed import ELECTIVE_SETS, GAME


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_checker_every_player_count(players: int) -> None:
    report = check_game(GAME, players, playouts=200, deep_playouts=8, seed=players)
    assert report.playouts == 200
    assert report.leak_checks > 0 and report.resampled > 0
    assert report.max_actions >= 3 * (4 * players + players)  # plants and picks at least


@pytest.mark.parametrize("electives", ELECTIVE_SETS)
@pytest.mark.parametrize("players", [2, 3])
def test_checker_elective_sets(players: int, electives: str) -> None:
    report = check_game(GAME, players, {"electives": electives}, playouts=100, deep_playouts=4, seed=7)
    assert report.playouts == 100 and report.resampled > 0


def test_checker_with_a_given_first_player() -> None:
    check_game(GAME, 4, {"first": 4}, playouts=50, deep_playouts=3, seed=3)
