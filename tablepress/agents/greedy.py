"""The `greedy` agent: one-step lookahead with the game's own heuristic, averaged over determinizations.

For each legal action the agent applies it to a few determinizations of its information set and scores
the result with the game's `heuristics.evaluate` (see `evaluation.heuristic_for`). Turns made of
several steps by one seat (Flowers: draw, then place) are looked through: while the same seat is still
to move, its best next step is taken (bounded in depth and width), so a draw is valued by the best
place for the drawn card. `greedy:N` uses N determinizations (default 4; 1 in games without hidden
information). Ties are broken by the agent's seeded generator.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ..core.game import Game
from .base import Agent, SeatInfo
from .evaluation import Evaluate, heuristic_for

#: Determinizations averaged per decision when no budget is given.
DEFAULT_DETERMINIZATIONS = 4
#: How many more steps of the same seat's turn are looked through after the first.
FOLLOW_DEPTH = 2
#: The most continuations tried at each followed step (a random sample beyond that).
FOLLOW_WIDTH = 48


def best_step(
    game: Game, state: Any, seat: int, actions: list[str], evaluate: Evaluate, rng: random.Random,
) -> tuple[str, Any, float]:
    """Among `actions`, the one with the best immediate value for `seat` (ties broken by `rng`), the state
    after it and that state's value. `state` itself is not changed."""
    best: list[tuple[str, Any]] = []
    best_value = -math.inf
    for action in actions:
        child = game.clone(state)
        game.apply_legal(child, seat, action)
        value = evaluate(game, child, seat)
        if value > best_value + 1e-9:
            best_value, best = value, [(action, child)]
        elif value >= best_value - 1e-9:
            best.append((action, child))
    action, child = best[0] if len(best) == 1 else rng.choice(best)
    return action, child, best_value


def follow_turn(
    game: Game, state: Any, seat: int, evaluate: Evaluate, rng: random.Random,
    depth: int = FOLLOW_DEPTH, width: int = FOLLOW_WIDTH,
) -> tuple[Any, float]:
    """`state` after `seat`'s best next steps while it is still to move, and that state's value for `seat`.

    Each further step of the same seat's turn takes the action with the best immediate value (at most
    `width` of them tried, a random sample beyond that), for at most `depth` steps: the cost grows with
    the sum of the steps' choices, not their product. `state` itself is not changed.
    """
    value = evaluate(game, state, seat)
    for _ in range(depth):
        if game.is_over(state) or seat not in game.to_move(state):
            break
        actions = game.legal_actions(state, seat)
        if not actions:
            break
        if len(actions) > width:
            actions = rng.sample(actions, width)
        _, state, value = best_step(game, state, seat, actions, evaluate, rng)
    return state, value


def lookahead(
    game: Game, state: Any, seat: int, evaluate: Evaluate, rng: random.Random,
    depth: int = FOLLOW_DEPTH, width: int = FOLLOW_WIDTH,
) -> float:
    """The value of `state` for `seat`: evaluated now or, while `seat` is still to move, after its next steps."""
    return follow_turn(game, state, seat, evaluate, rng, depth, width)[1]


def action_values(
    game: Game, states: list[Any], seat: int, actions: list[str], evaluate: Evaluate, rng: random.Random,
    depth: int = FOLLOW_DEPTH,
) -> list[float]:
    """The mean lookahead value of each action over the given determinized states."""
    totals = [0.0] * len(actions)
    for state in states:
        for index, action in enumerate(actions):
            child = game.clone(state)
            game.apply_legal(child, seat, action)
            totals[index] += lookahead(game, child, seat, evaluate, rng, depth)
    return [total / len(states) for total in totals]


class GreedyAgent(Agent):
    """Picks the action with the best heuristic value one step (one whole turn) ahead."""

    def __init__(self, seed: int = 0, budget: int | None = None):
        if budget is not None and (not isinstance(budget, int) or budget <= 0):
            raise ValueError(f"greedy takes a whole number of determinizations, not {budget!r}")
        self.rng = random.Random(seed)
        self.determinizations = budget or DEFAULT_DETERMINIZATIONS

    def choose(self, info: SeatInfo) -> str:
        """The legal action with the best mean value over a few determinizations; ties broken at random."""
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        game = info.game
        samples = self.determinizations if game.hidden_information else 1
        states = [info.determinize(self.rng) for _ in range(samples)]
        values = action_values(game, states, info.seat, actions, heuristic_for(game), self.rng)
        best = max(values)
        return self.rng.choice([a for a, v in zip(actions, values) if v >= best - 1e-9])

    def reseed(self, seed: int) -> None:
        """Restart from `seed`."""
        self.rng = random.Random(seed)
