"""Solo games on the fast path: greedy decides as it does without any hint, and solo games are recorded.

In solo Flowers the placer moves again (after the timer takes a card), so a hint that a placement ends the
seat's moves made greedy value each placement without looking at its next draw: its moves differed from
the slow path's in every game. tests/data/flowers_greedy_golden.json holds solo games (`1/SEED`) recorded
on the slow path; tests/test_flowers_heuristics.py replays every recorded game on the fast path.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from tablepress.core.game import Game
from tablepress.core.registry import game_names, get_game, package_of
from tablepress.games.flowers.heuristics import turn_goes_on

from golden import greedy_indices, player_counts, random_positions

FLOWERS = get_game("flowers")
DATA = Path(__file__).parent / "data"
RECORDED = json.loads((DATA / "flowers_greedy_golden.json").read_text())["games"]
SOLO_GOLDEN = {key: moves for key, moves in RECORDED.items() if key.startswith("1/")}


def golden_file(name: str) -> Path:
    """The recorded greedy games of game `name`."""
    return DATA / f"{name.replace('-', '_')}_greedy_golden.json"


def test_every_game_with_a_solo_mode_has_recorded_solo_games() -> None:
    """A game that allows one player has greedy games recorded at 1 player beside its others."""
    solo = [name for name in game_names() if get_game(name).min_players == 1]
    assert "flowers" in solo
    for name in solo:
        games = json.loads(golden_file(name).read_text())["games"]
        assert sum(key.startswith("1/") for key in games) >= 10, name


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_greedy_chooses_in_solo_flowers_as_it_does_without_hints(seed: int) -> None:
    """The fast path (step values, turn hint) and the slow path (clone, apply, evaluate, look through the
    seat's next steps) make the same moves, and those are the recorded ones."""
    fast = greedy_indices(FLOWERS, 1, seed)
    assert fast == greedy_indices(FLOWERS, 1, seed, hints=False)
    assert fast == SOLO_GOLDEN[f"1/{seed}"]


def test_mutant_the_hint_that_ended_the_solo_players_moves_changes_greedys_play() -> None:
    """With the hint as it was (a placement ends the seat's moves) the fast path leaves the slow path's
    recorded solo games: the test above can fail."""
    def placement_ends_it(game: Game, state: Any, seat: int, action: str) -> bool:
        return action.startswith("draw")

    with mock.patch("tablepress.agents.greedy.turn_goes_on_for", lambda game: placement_ends_it):
        assert greedy_indices(FLOWERS, 1, 0) != SOLO_GOLDEN["1/0"]


def test_the_flowers_hint_is_exact_at_every_player_count() -> None:
    """Not only never a wrong False: True exactly when the seat is to move after the action, so no child
    is cloned for nothing (a solo placement that ends the game included)."""
    assert package_of(FLOWERS).heuristics.turn_goes_on is turn_goes_on
    ends = 0
    for players in player_counts(FLOWERS):
        for seed in range(4):
            for state in random_positions(FLOWERS, players, seed):
                seat = FLOWERS.to_move(state)[0]
                for action in FLOWERS.legal_actions(state, seat):
                    child = FLOWERS.clone(state)
                    FLOWERS.apply_legal(child, seat, action)
                    assert turn_goes_on(FLOWERS, state, seat, action) == (seat in FLOWERS.to_move(child)), (
                        players, seed, action)
                    ends += FLOWERS.is_over(child)
    assert ends
