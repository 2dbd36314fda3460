"""Search speed: ISMCTS iterations per second in any game, on positions from random play."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..core.game import Game
from .base import SeatInfo
from .ismcts import IsmctsAgent


@dataclass
class SearchSpeed:
    """ISMCTS speed in one game at one player count."""

    game: str
    players: int
    decisions: int
    iterations: int
    seconds: float

    @property
    def iterations_per_second(self) -> float:
        """Search iterations (determinize, select, expand, cut off, back up) per second."""
        return self.iterations / self.seconds if self.seconds else 0.0


def ismcts_speed(game: Game, players: int, seconds: float = 2.0, seed: int = 0, budget: int = 200) -> SearchSpeed:
    """Run `ismcts:budget` decisions on positions taken at random points of random games for about `seconds`."""
    rng = random.Random(seed)
    agent = IsmctsAgent(seed=seed, budget=budget)
    decisions = iterations = 0
    spent = 0.0
    while spent < seconds or decisions == 0:
        state = game.new(players, rng.getrandbits(32))
        stop = rng.random()
        while not game.is_over(state):
            seat = rng.choice(game.to_move(state))
            legal = game.legal_actions(state, seat)
            if len(legal) > 1 and rng.random() < 0.05 + 0.2 * stop:
                start = time.perf_counter()
                agent.choose(SeatInfo(game, state, seat))
                spent += time.perf_counter() - start
                decisions += 1
                iterations += agent.last_iterations
                if spent >= seconds:
                    break
            game.apply_legal(state, seat, rng.choice(legal))
    return SearchSpeed(game.name, players, decisions, iterations, spent)
