"""The `random` agent: uniform over the legal actions, seeded."""

from __future__ import annotations

import random

from .base import Agent, SeatInfo


class RandomAgent(Agent):
    """Chooses uniformly among the legal actions."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, info: SeatInfo) -> str:
        """A uniformly random legal action."""
        return self.rng.choice(info.legal_actions())

    def reseed(self, seed: int) -> None:
        """Restart from `seed`."""
        self.rng = random.Random(seed)
