"""The `greedy` agent: one-step lookahead with the game's own heuristic, averaged over determinizations.

For each legal action the agent applies it to a few determinizations of its information set and scores
the result with the game's `heuristics.evaluate` (see `evaluation.heuristic_for`). Turns made of
several steps by one seat (Flowers: draw, then place) are looked through: while the same seat is still
to move, its best next step is taken (bounded in depth and width), so a draw is valued by the best
place for the drawn card. In a simultaneous choice the others choosing at the same time are given the
game's guess at their choices (`Heuristics.guess`) in each determinization before the seat's own
actions are judged, so that every action is valued with the choices revealed, against the same guesses,
whichever order the seats are asked in. `greedy:N` uses N determinizations (default 4; 1 in games without hidden
information). Ties are broken by the agent's seeded generator. A game whose heuristics give fast
one-step values (`Heuristics.step_values`) is judged through them: the same values, without cloning
and re-scoring each child.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ..core.game import Game
from .base import Agent, SeatInfo
from ..core.package import Guess
from .evaluation import (Evaluate, StepValues, TurnGoesOn, fast_step_values_for, guess_for, heuristic_for,
                         turn_goes_on_for)

#: Determinizations averaged per decision when no budget is given.
DEFAULT_DETERMINIZATIONS = 4
#: How many more steps of the same seat's turn are looked through after the first.
FOLLOW_DEPTH = 2
#: The most continuations tried at each followed step (a random sample beyond that).
FOLLOW_WIDTH = 48


def pick_best(actions: Sequence[str], values: Sequence[float], rng: random.Random) -> tuple[str, float]:
    """The action with the best value (ties within 1e-9 broken by `rng`) and the best value."""
    best: list[str] = []
    best_value = -math.inf
    for action, value in zip(actions, values):
        if value > best_value + 1e-9:
            best_value, best = value, [action]
        elif value >= best_value - 1e-9:
            best.append(action)
    return (best[0] if len(best) == 1 else rng.choice(best)), best_value


def best_step(
    game: Game, state: Any, seat: int, actions: list[str], evaluate: Evaluate, rng: random.Random,
    step_values: StepValues | None = None,
) -> tuple[str, Any, float]:
    """Among `actions`, the one with the best immediate value for `seat` (ties broken by `rng`), the state
    after it and that state's value. `state` itself is not changed.

    With `step_values` (the game's fast one-step values, equal to `evaluate` of each child) only the
    chosen action is applied to a clone; without, every action is.
    """
    if step_values is not None:
        action, value = pick_best(actions, step_values(game, state, seat, actions), rng)
        child = game.clone(state)
        game.apply_legal(child, seat, action)
        return action, child, value
    children = []
    values = []
    for action in actions:
        child = game.clone(state)
        game.apply_legal(child, seat, action)
        children.append(child)
        values.append(evaluate(game, child, seat))
    action, value = pick_best(actions, values, rng)
    return action, children[actions.index(action)], value


def follow_turn(
    game: Game, state: Any, seat: int, evaluate: Evaluate, rng: random.Random,
    depth: int = FOLLOW_DEPTH, width: int = FOLLOW_WIDTH, step_values: StepValues | None = None,
    value: float | None = None,
) -> tuple[Any, float]:
    """`state` after `seat`'s best next steps while it is still to move, and that state's value for `seat`.

    Each further step of the same seat's turn takes the action with the best immediate value (at most
    `width` of them tried, a random sample beyond that), for at most `depth` steps: the cost grows with
    the sum of the steps' choices, not their product. `value`, if known, is `state`'s own value (saves
    evaluating it when the turn is over). `state` itself is not changed.
    """
    for _ in range(depth):
        if game.is_over(state) or seat not in game.to_move(state):
            break
        actions = game.legal_actions(state, seat)
        if not actions:
            break
        if len(actions) > width:
            actions = rng.sample(actions, width)
        _, state, value = best_step(game, state, seat, actions, evaluate, rng, step_values)
    return state, (evaluate(game, state, seat) if value is None else value)


def followed_value(
    game: Game, child: Any, seat: int, evaluate: Evaluate, rng: random.Random, depth: int = FOLLOW_DEPTH,
    width: int = FOLLOW_WIDTH, step_values: StepValues | None = None, value: float | None = None,
    turn_goes_on: TurnGoesOn | None = None,
) -> float:
    """`follow_turn(...)[1]` for a `child` the caller gives up: its steps are applied to it in place, and
    not at all when their result is not looked at (the step ends the turn, or the depth is used up)."""
    if step_values is None:
        return follow_turn(game, child, seat, evaluate, rng, depth, width, step_values, value)[1]
    for step in range(depth):
        if game.is_over(child) or seat not in game.to_move(child):
            break
        actions = game.legal_actions(child, seat)
        if not actions:
            break
        if len(actions) > width:
            actions = rng.sample(actions, width)
        action, value = pick_best(actions, step_values(game, child, seat, actions), rng)
        if step == depth - 1 or (turn_goes_on is not None and not turn_goes_on(game, child, seat, action)):
            return value
        game.apply_legal(child, seat, action)
    return evaluate(game, child, seat) if value is None else value


def lookahead(
    game: Game, state: Any, seat: int, evaluate: Evaluate, rng: random.Random,
    depth: int = FOLLOW_DEPTH, width: int = FOLLOW_WIDTH, step_values: StepValues | None = None,
) -> float:
    """The value of `state` for `seat`: evaluated now or, while `seat` is still to move, after its next steps."""
    return follow_turn(game, state, seat, evaluate, rng, depth, width, step_values)[1]


def others_guessed(game: Game, state: Any, seat: int, rng: random.Random, guess: Guess | None = None) -> Any:
    """`state` itself, or, when other seats choose at the same time as `seat`, a copy in which each of them
    (in seat order) has taken the game's guess at its choice (`Heuristics.guess`), so that `seat`'s own
    choice completes the simultaneous step and its effect can be judged."""
    movers = game.to_move(state)
    if len(movers) < 2 or seat not in movers:
        return state
    guess = guess or guess_for(game)
    state = game.clone(state)
    for other in movers:
        if other != seat and other in game.to_move(state):
            game.apply_legal(state, other, guess(game, state, other, rng))
    return state


def action_values(
    game: Game, states: list[Any], seat: int, actions: list[str], evaluate: Evaluate, rng: random.Random,
    depth: int = FOLLOW_DEPTH, step_values: StepValues | None = None, turn_goes_on: TurnGoesOn | None = None,
) -> list[float]:
    """The mean lookahead value of each action over the given determinized states (with `step_values`,
    the game's fast one-step values, for each action's own value and every followed step; with
    `turn_goes_on` as well, an action that ends the seat's turn is valued without applying it).

    In a simultaneous choice each state first gets the game's guesses at the other seats' choices
    (`others_guessed`); the states given are not changed."""
    totals = [0.0] * len(actions)
    for state in states:
        state = others_guessed(game, state, seat, rng)
        known = step_values(game, state, seat, actions) if step_values is not None else None
        for index, action in enumerate(actions):
            if known is not None and turn_goes_on is not None and not turn_goes_on(game, state, seat, action):
                totals[index] += known[index]
                continue
            child = game.clone(state)
            game.apply_legal(child, seat, action)
            totals[index] += followed_value(game, child, seat, evaluate, rng, depth, step_values=step_values,
                                            value=known[index] if known is not None else None,
                                            turn_goes_on=turn_goes_on)
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
        values = action_values(game, states, info.seat, actions, heuristic_for(game), self.rng,
                               step_values=fast_step_values_for(game), turn_goes_on=turn_goes_on_for(game))
        best = max(values)
        return self.rng.choice([a for a, v in zip(actions, values) if v >= best - 1e-9])

    def reseed(self, seed: int) -> None:
        """Restart from `seed`."""
        self.rng = random.Random(seed)
