"""The checker's report on Pressed: games as long as the rules make them (the full checks, elective sets
included, run from the package in test_core_checker_games.py)."""

from __future__ import annotations

import pytest

from tablepress.core.checker import check_game
from tablepress.games.pressed import GAME


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_checker_every_player_count(players: int) -> None:
    report = check_game(GAME, players, playouts=40, deep_playouts=2, seed=players)
    assert report.playouts == 40
    assert report.leak_checks > 0 and report.resampled > 0
    assert report.max_actions >= 3 * (4 * players + players)  # plants and picks at least


