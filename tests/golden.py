"""Recorded greedy games: the tests that hold fast heuristics to the decisions greedy made before them."""

from __future__ import annotations

import random
from typing import Any

from tablepress.agents.base import make_agent
from tablepress.core.game import Game
from tablepress.core.match import Match
from tablepress.core.rng import derive_seed


def greedy_indices(game: Game, players: int, seed: int) -> list[int]:
    """A greedy-vs-greedy game as the index of each action in its legal list (agents seeded as the simulator does)."""
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
