"""Recorded greedy games: the tests that hold fast heuristics to the decisions greedy made before them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from tablepress.agents.base import make_agent
from tablepress.core.game import Game
from tablepress.core.match import Match
from tablepress.core.rng import derive_seed


@contextmanager
def without_hints() -> Iterator[None]:
    """Greedy on the slow path while inside: no `step_values` (each child cloned and evaluated) and no
    `turn_goes_on` (each action applied and the seat's turn looked through)."""
    with mock.patch("tablepress.agents.greedy.fast_step_values_for", lambda game: None), \
            mock.patch("tablepress.agents.greedy.turn_goes_on_for", lambda game: None):
        yield


def greedy_indices(game: Game, players: int, seed: int, hints: bool = True) -> list[int]:
    """A greedy-vs-greedy game as the index of each action in its legal list (agents seeded as the simulator
    does); `hints=False`: greedy on the slow path (`without_hints`)."""
    if not hints:
        with without_hints():
            return greedy_indices(game, players, seed)
    match = Match(game, players, seed, {}, ["greedy"] * players)
    agents = [make_agent("greedy", derive_seed(seed, "seat", seat)) for seat in range(players)]
    indices = []
    while not match.is_over:
        seat = match.next_mover()
        action = agents[seat].choose(match.seat_info(seat))
        indices.append(match.legal(seat).index(action))
        match.act(seat, action)
    return indices


def play_random(game: Game, players: int, deal: int, steps: int, options: dict[str, Any] | None = None) -> Any:
    """The state after `steps` uniformly random actions from deal `deal` (seat and action drawn by Random(deal))."""
    rng = random.Random(deal)
    state = game.new(players, deal, options)
    for _ in range(steps):
        if game.is_over(state):
            break
        seat = rng.choice(game.to_move(state))
        game.apply_legal(state, seat, rng.choice(game.legal_actions(state, seat)))
    return state


def player_counts(game: Game) -> range:
    """Every player count the game allows, from its fewest (1 where it has a solo mode)."""
    return range(game.min_players, game.max_players + 1)


def random_positions(game: Game, players: int, seed: int) -> Iterator[Any]:
    """Each position of a random game from deal `seed` (seat and action drawn by Random(seed)): the same
    state object, changed in place after each is yielded."""
    rng = random.Random(seed)
    state = game.new(players, seed)
    while not game.is_over(state):
        yield state
        seat = rng.choice(game.to_move(state))
        game.apply_legal(state, seat, rng.choice(game.legal_actions(state, seat)))
