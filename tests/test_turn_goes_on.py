"""`Heuristics.turn_goes_on`, for every game that declares it: False only when the seat is certainly done.

Greedy trusts a False and values the action without applying it (issue 21), so a wrong False would
change its decisions silently. Random playouts at every player count check each legal action of each
seat to move against the real state after it; a mutant that always says False must be caught.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tablepress.core.game import Game
from tablepress.core.registry import game_names, get_game, package_of

DECLARED = [name for name in game_names() if package_of(get_game(name)).heuristics.turn_goes_on is not None]
PLAYOUTS = 6


def wrong_falses(game: Game, hint: Callable[[Game, Any, int, str], bool], players: int, seed: int) -> list[str]:
    """Actions of a random game for which `hint` said False but the seat was still to move after them."""
    rng = random.Random(seed)
    state = game.new(players, seed)
    wrong: list[str] = []
    while not game.is_over(state):
        movers = game.to_move(state)
        for seat in movers:
            for action in game.legal_actions(state, seat):
                if not hint(game, state, seat, action):
                    child = game.clone(state)
                    game.apply_legal(child, seat, action)
                    if not game.is_over(child) and seat in game.to_move(child):
                        wrong.append(action)
        seat = rng.choice(movers)
        game.apply_legal(state, seat, rng.choice(game.legal_actions(state, seat)))
    return wrong


def test_the_games_that_need_it_declare_it() -> None:
    assert {"flowers", "pressed"} <= set(DECLARED)


@pytest.mark.parametrize("name", DECLARED)
def test_a_false_is_always_right(name: str) -> None:
    game = get_game(name)
    hint = package_of(game).heuristics.turn_goes_on
    for players in range(max(2, game.min_players), game.max_players + 1):
        for seed in range(PLAYOUTS):
            assert wrong_falses(game, hint, players, seed) == [], (players, seed)


@pytest.mark.parametrize("name", DECLARED)
def test_a_hint_that_always_says_done_is_caught(name: str) -> None:
    """The check can fail: every one of these games has turns of several steps by one seat."""
    game = get_game(name)
    assert any(wrong_falses(game, lambda *_: False, players, seed)
               for players in (2, 3) for seed in range(PLAYOUTS))
