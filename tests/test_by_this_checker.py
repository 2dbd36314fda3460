"""The forward-model checker on By This: 2, 3 and 4 players, and the Young table."""

from __future__ import annotations

import pytest

from tablepress.core.checker import check_game
from tablepress.core.registry import get_game
from tablepress.games.by_this.heuristics import evaluate


@pytest.mark.parametrize("players", [2, 3, 4])
def test_checker(players: int) -> None:
    report = check_game(get_game("by-this"), players, playouts=300, deep_playouts=10, seed=players)
    assert report.playouts == 300 and report.leak_checks > 0 and report.resampled > 0


@pytest.mark.parametrize("players", [2, 4])
def test_checker_young_table(players: int) -> None:
    report = check_game(get_game("by-this"), players, {"young": True}, playouts=150, deep_playouts=6, seed=7)
    assert report.playouts == 150


def test_checker_with_a_variant() -> None:
    game = get_game("by-this").with_variant({"rules": {"closes_to_end": {"2": 3}, "hand_size": {"2": 8}}})
    report = check_game(game, 2, playouts=60, deep_playouts=4, seed=3)
    assert report.playouts == 60


def test_evaluate_prefers_closing_a_long_shelf_and_is_zero_sum_at_the_start() -> None:
    game = get_game("by-this")
    state = game.new(2, 1)
    assert evaluate(game, state, 0) == pytest.approx(-evaluate(game, state, 1))
    state.shelf = [game.by_name[n] for n in ("Ant", "Rice", "Sand", "Pearl")]
    state.key = game.key_by_plain["Small to Large"]
    state.phase = "close"
    mover = state.current
    closed, kept = game.clone(state), game.clone(state)
    game.apply(closed, mover, "close")
    game.apply(kept, mover, "keep")
    assert evaluate(game, closed, mover) > evaluate(game, kept, mover)
