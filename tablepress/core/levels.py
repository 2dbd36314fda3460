"""A game's AI levels: named opponents (Beginner, Casual, Strong) a player picks instead of an agent spec.

A game declares them in its package (`package(..., levels=(Level("casual", "greedy"), ...))`), weakest
first; the seat spec `level:NAME` plays the level's agent (agents/levels.py), and `tablepress rate GAME`
measures each level's rating into the game's `levels.json`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import TablepressError

#: A level's name: lower-case letters, digits and dashes, starting with a letter.
LEVEL_NAME = re.compile(r"[a-z][a-z0-9-]{0,23}")


@dataclass(frozen=True)
class Level:
    """One AI level: its name (`casual`), the agent spec it plays (`greedy`, `ismcts:300`) and the share of
    its moves it plays at random instead (0: none), which makes a weaker player of a good agent."""

    name: str
    agent: str
    random_moves: float = 0.0

    def __post_init__(self) -> None:
        if not LEVEL_NAME.fullmatch(self.name):
            raise TablepressError(f"level {self.name!r}: a level's name is lower-case letters, digits and dashes")
        if not self.agent.strip() or self.agent.strip().lower().startswith("level"):
            raise TablepressError(f"level {self.name!r}: its agent must be an agent spec such as greedy")
        if not 0.0 <= self.random_moves < 1.0:
            raise TablepressError(f"level {self.name!r}: random_moves is a share from 0 up to (not including) 1")

    @property
    def title(self) -> str:
        """The name as shown to players: `Casual`."""
        return self.name.replace("-", " ").capitalize()

    @property
    def described(self) -> str:
        """What plays: `greedy`, or `greedy, 1 move in 2 at random`."""
        if not self.random_moves:
            return self.agent
        return f"{self.agent}, {self.random_moves:.0%} of moves at random"
