"""Engine speed, for any game: uniformly random games back to back, timed in CPU seconds (legal_actions and
apply_legal only, nothing around them), the first figure of `tablepress bench` and the research benchmark's."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..core.collector import games_running
from ..core.game import Game


@dataclass
class BenchResult:
    """Random self-play speed of one game at one player count."""

    game: str
    players: int
    games: int
    actions: int
    seconds: float

    @property
    def actions_per_second(self) -> float:
        """Actions applied per second (legal_actions + apply_legal each)."""
        return self.actions / self.seconds

    @property
    def games_per_second(self) -> float:
        """Whole games from setup to the end per second."""
        return self.games / self.seconds


def random_playouts(game: Game, players: int, seconds: float = 2.0, seed: int = 0) -> BenchResult:
    """Play uniformly random games back to back for about `seconds` of CPU time."""
    rng = random.Random(seed)
    games = actions = 0
    start = time.process_time()
    with games_running():
        while time.process_time() - start < seconds or games == 0:
            state = game.new(players, rng.getrandbits(32))
            while not game.is_over(state):
                seat = rng.choice(game.to_move(state))
                game.apply_legal(state, seat, rng.choice(game.legal_actions(state, seat)))
                actions += 1
            games += 1
    return BenchResult(game.name, players, games, actions, time.process_time() - start)
