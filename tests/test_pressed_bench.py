"""Pressed speed (run with `make bench` or `pytest --benchmark-enable -m benchmark`); never asserted."""

from __future__ import annotations

import random

import pytest

from tablepress.games.pressed import GAME
from tablepress.games.pressed.scoring import _best, best_final


def random_game(players: int, seed: int) -> int:
    """Play one uniformly random game; return its number of actions."""
    rng = random.Random(seed)
    state = GAME.new(players, seed)
    actions = 0
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_move(state))
        GAME.apply_legal(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        actions += 1
    return actions


@pytest.mark.benchmark
@pytest.mark.parametrize("players", [2, 5])
def test_bench_random_game(benchmark, players: int) -> None:
    assert benchmark(random_game, players, 1) > 0


@pytest.mark.benchmark
def test_bench_final_solver_uncached(benchmark) -> None:
    collection = [1, 1, 1, 1, 0, 1, 0, 0, 6, 0, 1]  # 6 Baby's Breaths, a Tulip, five other groups

    def solve() -> int:
        _best.cache_clear()
        return best_final(collection, GAME.cards).total

    assert benchmark(solve) > 0
