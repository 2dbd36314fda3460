"""The seat spec `level:NAME`: a game's declared AI level (core/levels.py) played by its agent.

`level:casual` is accepted wherever an agent spec is. The spec itself names no game, so `LevelAgent` finds
its level from the game it is asked to play; where the game is known before play (the CLI, the API,
simulate, the ladder) `check_level_seats` refuses an unknown level in one line naming the game's levels.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..core.errors import TablepressError
from ..core.levels import Level
from ..core.match import SeatInfo
from ..core.registry import get_package
from .base import Agent, make_agent, parse_spec

LEVEL = "level"


def levels_of(game_name: str) -> tuple[Level, ...]:
    """The levels game `game_name` declares, weakest first."""
    return get_package(game_name).levels


def find_level(game_name: str, name: str) -> Level:
    """The level called `name` of game `game_name`, or one clear error listing the game's levels."""
    levels = levels_of(game_name)
    wanted = name.strip().lower()
    for level in levels:
        if level.name == wanted:
            return level
    shown = name if len(name) <= 24 else name[:24] + "..."
    known = ", ".join(level.name for level in levels) or "none declared"
    raise TablepressError(f"unknown level {shown!r} for {get_package(game_name).name} (levels: {known})")


def level_name(spec: str) -> str | None:
    """The level a seat spec names (`level:casual` -> `casual`), or None for any other spec."""
    name, _colon, rest = spec.strip().partition(":")
    return rest.strip().lower() if name.strip().lower() == LEVEL else None


def check_level_seats(game_name: str, specs: Iterable[str]) -> None:
    """TablepressError naming the game's levels if any `level:NAME` among `specs` is not one of them."""
    for spec in specs:
        name = level_name(spec)
        if name is not None:
            find_level(game_name, name)


def resolve(game_name: str, spec: str) -> str:
    """The agent spec a seat spec plays in game `game_name`: a level's agent for `level:NAME`, else `spec`.

    A level that also plays some moves at random has no plain spec; it resolves to its agent's."""
    name = level_name(spec)
    return spec if name is None else find_level(game_name, name).agent


class LevelAgent(Agent):
    """Plays a level of whichever game it is asked to decide in: the level's agent, and for a level with
    `random_moves` that share of its moves uniformly at random (from a generator of its own)."""

    def __init__(self, seed: int = 0, budget: str = ""):
        parse_spec(f"{LEVEL}:{budget}")
        self.name = budget
        self.seed = seed
        self.rng = random.Random(seed)
        self.inner: Agent | None = None
        self.level: Level | None = None

    def reseed(self, seed: int) -> None:
        """Restart from `seed` (the level's agent too)."""
        self.seed = seed
        self.rng = random.Random(seed)
        if self.inner is not None:
            self.inner.reseed(seed)

    def choose(self, info: SeatInfo) -> str:
        """The level's agent's choice, or a random legal action for the level's share of moves."""
        if self.inner is None:
            self.level = find_level(info.game.name, self.name)
            self.inner = make_agent(self.level.agent, self.seed)
        assert self.level is not None
        if self.level.random_moves and self.rng.random() < self.level.random_moves:
            return self.rng.choice(info.legal_actions())
        return self.inner.choose(info)
