"""Every game's fast-path hints hold at every player count it allows, solo included.

`Heuristics.turn_goes_on` must say False only when the seat is certainly done: greedy trusts a False and
values the action without applying it (issue 21), so a wrong False changes its decisions silently.
`Heuristics.step_values` must equal `evaluate` of each child. Random playouts at every player count from
`min_players` (1 where the game allows it) check each legal action of each seat to move against the real
state after it. Mutants show the checks can fail: a hint that always says done, the Flowers hint that
took a placement to end the seat's moves (wrong only in solo), and step values off for one action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from tablepress.core.game import Game
from tablepress.core.package import StepValues
from tablepress.core.registry import game_names, get_game, package_of

from golden import player_counts, random_positions

TURN_HINTED = [name for name in game_names() if package_of(get_game(name)).heuristics.turn_goes_on is not None]
STEP_HINTED = [name for name in game_names() if package_of(get_game(name)).heuristics.step_values is not None]
PLAYOUTS = 6
#: Playouts per player count for step values (each position clones and evaluates every legal action).
STEP_PLAYOUTS = 4


def wrong_falses(game: Game, hint: Callable[[Game, Any, int, str], bool], players: int, seed: int) -> list[str]:
    """Actions of a random game for which `hint` said False but the seat was still to move after them."""
    wrong: list[str] = []
    for state in random_positions(game, players, seed):
        for seat in game.to_move(state):
            for action in game.legal_actions(state, seat):
                if not hint(game, state, seat, action):
                    child = game.clone(state)
                    game.apply_legal(child, seat, action)
                    if not game.is_over(child) and seat in game.to_move(child):
                        wrong.append(action)
    return wrong


def wrong_steps(game: Game, step_values: StepValues, players: int, seed: int) -> list[str]:
    """Actions of a random game whose `step_values` differ from `evaluate` of the child (or that changed the state)."""
    evaluate = package_of(game).heuristics.evaluate
    wrong: list[str] = []
    for state in random_positions(game, players, seed):
        for seat in game.to_move(state):
            actions = game.legal_actions(state, seat)
            before = game.clone(state)
            values = step_values(game, state, seat, actions)
            if before != state:
                wrong.append("changed the state")
            for action, value in zip(actions, values):
                child = game.clone(state)
                game.apply_legal(child, seat, action)
                if value != pytest.approx(evaluate(game, child, seat), abs=1e-9):
                    wrong.append(action)
    return wrong


def test_the_games_that_need_it_declare_it() -> None:
    """The games whose turns have several steps declare the turn hint; the incremental ones step values."""
    assert {"flowers", "pressed"} <= set(TURN_HINTED)
    assert {"flowers", "pressed", "planted"} <= set(STEP_HINTED)


def test_a_solo_game_is_among_those_checked() -> None:
    """Flowers has a solo mode: its hints are checked at 1 player."""
    assert 1 in player_counts(get_game("flowers"))


@pytest.mark.parametrize("name", TURN_HINTED)
def test_a_false_is_always_right(name: str) -> None:
    """No False for an action after which the seat is still to move, at any player count."""
    game = get_game(name)
    hint = package_of(game).heuristics.turn_goes_on
    for players in player_counts(game):
        for seed in range(PLAYOUTS):
            assert wrong_falses(game, hint, players, seed) == [], (players, seed)


@pytest.mark.parametrize("name", STEP_HINTED)
def test_step_values_are_the_evaluation_of_each_child(name: str) -> None:
    """Each one-step value is `evaluate` of the child, for every seat to move, at any player count."""
    game = get_game(name)
    step_values = package_of(game).heuristics.step_values
    for players in player_counts(game):
        for seed in range(STEP_PLAYOUTS):
            assert wrong_steps(game, step_values, players, seed) == [], (players, seed)


@pytest.mark.parametrize("name", TURN_HINTED)
def test_mutant_a_hint_that_always_says_done_is_caught(name: str) -> None:
    """The check can fail: every one of these games has turns of several steps by one seat."""
    game = get_game(name)
    assert any(wrong_falses(game, lambda *_: False, players, seed)
               for players in player_counts(game) for seed in range(PLAYOUTS))


def test_mutant_a_placement_taken_to_end_the_seats_moves_is_caught_in_solo_only() -> None:
    """The Flowers hint before the solo fix: right from 2 players, wrong at 1 (the placer moves again)."""
    game = get_game("flowers")

    def placement_ends_it(game: Game, state: Any, seat: int, action: str) -> bool:
        return action.startswith("draw")

    assert all(wrong_falses(game, placement_ends_it, 1, seed) for seed in range(PLAYOUTS))
    assert not any(wrong_falses(game, placement_ends_it, players, 0) for players in range(2, game.max_players + 1))


@pytest.mark.parametrize("name", STEP_HINTED)
def test_mutant_step_values_off_for_one_action_are_caught(name: str) -> None:
    """The step check can fail: one action's value a point too high is found at the fewest players."""
    game = get_game(name)
    step_values = package_of(game).heuristics.step_values

    def off_by_one(game: Game, state: Any, seat: int, actions: Sequence[str]) -> list[float]:
        values = step_values(game, state, seat, actions)
        return [*values[:-1], values[-1] + 1.0] if len(values) > 1 else values

    assert wrong_steps(game, off_by_one, game.min_players, 0)
