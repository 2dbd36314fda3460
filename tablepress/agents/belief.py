"""Determinizations weighted by what the rivals' moves reveal about their hidden cards.

A plain determinization deals the hidden cards uniformly from those the seat has not seen. But a rival
chose each move knowing its own cards: a Pressed rival who planted a 2-point card where a Zinnia would
have scored 14 probably holds no Zinnia. `Belief` deals a pool of determinizations and weights each by
the likelihood of the rivals' recent moves under a model of them: the greedy player, softened — a rival
takes each legal action with probability ∝ exp(value / temperature), the values being greedy's (its
whole-turn lookahead) in the world as that determinization implies it was (the game's `past_world`,
see `core.package.Heuristics`). Where a move was shown only in part (a secret choice), its likelihood is
that of every action that shows the same. A search then draws its determinizations from the pool by
weight. Only moves since the rivals' hidden cards were dealt count (the game's `past_world` says where
that is), at most `window` moves back.

An action's value is worked out once per past move, in the first world that offers it: it is taken not
to depend on which hidden cards the rival holds, only whether it could take it (in Pressed a planting's
value depends on the bed and scores, not on the rest of the hand).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from ..core.game import Game
from ..core.match import PastMove, SeatInfo
from .evaluation import fast_step_values_for, heuristic_for, past_world_for, turn_goes_on_for
from .greedy import action_values

#: Determinizations dealt and weighted per decision, the softness of the rivals' model (in the game's
#: points) and how many moves back are read.
POOL = 64
TEMPERATURE = 2.0
WINDOW = 24


class Belief:
    """A seat's information whose `determinize` draws from a pool of determinizations weighted by how well
    each explains the rivals' moves. Delegates everything else to the seat's own `SeatInfo`."""

    def __init__(self, info: SeatInfo, rng: random.Random, pool: int = POOL, temperature: float = TEMPERATURE,
                 window: int = WINDOW):
        self.info = info
        self.game = info.game
        self.seat = info.seat
        self.worlds = [info.determinize(rng) for _ in range(pool)]
        self.weights = _weights(info, self.worlds, rng, temperature, window)

    def legal_actions(self) -> list[str]:
        """The seat's legal actions now."""
        return self.info.legal_actions()

    def view(self) -> dict[str, Any]:
        """The seat's view."""
        return self.info.view()

    def determinize(self, rng: random.Random) -> Any:
        """A copy of one of the pool's determinizations, drawn by weight."""
        index = rng.choices(range(len(self.worlds)), weights=self.weights)[0]
        return self.game.clone(self.worlds[index])

    def effective_size(self) -> float:
        """How many equally weighted determinizations the pool is worth (Kish's effective sample size)."""
        total = sum(self.weights)
        return total * total / sum(w * w for w in self.weights)


def _weights(info: SeatInfo, worlds: list[Any], rng: random.Random, temperature: float, window: int) -> list[float]:
    """Each world's likelihood of the rivals' moves in the window, scaled so that the largest is 1."""
    game, seat = info.game, info.seat
    rewind = past_world_for(game)
    logs = [0.0] * len(worlds)
    if rewind is None:
        return [1.0] * len(worlds)
    history = info.history(window)
    seen = [(move.seat, move.action) for move in history]
    model = _RivalModel(game, rng)
    for index in range(len(history) - 1, -1, -1):
        move = history[index]
        if move.seat == seat:
            continue
        then = move.before.determinize(rng)
        values: dict[str, float] = {}
        reached = False
        for w, world in enumerate(worlds):
            if logs[w] == -math.inf:
                continue
            past = rewind(game, world, seat, game.clone(then), move.seat, seen[index:], rng)
            if past is None:
                break
            reached = True
            logs[w] += model.log_likelihood(past, move, values, temperature)
        if not reached:
            break
    top = max(logs)
    if top == -math.inf:  # no world explains the moves (a model the rivals do not follow): weigh none
        return [1.0] * len(worlds)
    return [math.exp(value - top) for value in logs]


class _RivalModel:
    """The softened greedy player: the log-probability that a rival took a move, in one world."""

    def __init__(self, game: Game, rng: random.Random):
        self.game = game
        self.rng = rng
        self.evaluate = heuristic_for(game)
        self.steps = fast_step_values_for(game)
        self.goes_on: Callable[..., bool] | None = turn_goes_on_for(game)

    def log_likelihood(self, world: Any, move: PastMove, values: dict[str, float], temperature: float) -> float:
        """log P(the rival's move as seen | `world`); `values` caches action values for this move."""
        game, actor = self.game, move.seat
        legal = game.legal_actions(world, actor)
        if len(legal) <= 1:
            return 0.0 if not legal or self._shows(world, actor, legal[0], move.action) else -math.inf
        new = [action for action in legal if action not in values]
        if new:
            found = action_values(game, [world], actor, new, self.evaluate, self.rng, step_values=self.steps,
                                  turn_goes_on=self.goes_on)
            values.update(zip(new, found))
        scaled = [values[action] / temperature for action in legal]
        top = max(scaled)
        total = sum(math.exp(value - top) for value in scaled)
        shown = [value for action, value in zip(legal, scaled) if self._shows(world, actor, action, move.action)]
        if not shown:
            return -math.inf
        return math.log(sum(math.exp(value - top) for value in shown) / total)

    def _shows(self, world: Any, actor: int, action: str, seen: str) -> bool:
        """Whether `action` by `actor` would have been seen as `seen`."""
        return action == seen or (not self.game.public_actions and self.game.public_action(world, actor, action) == seen)
