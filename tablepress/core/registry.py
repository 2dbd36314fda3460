"""The registry of games: a game is added by adding its folder under `tablepress/games` and one line here."""

from __future__ import annotations

import importlib

from .errors import TablepressError
from .game import Game

#: Game name on every surface → module whose `GAME` attribute is the game.
GAME_MODULES: dict[str, str] = {
    "flowers": "tablepress.games.flowers",
    "pressed": "tablepress.games.pressed",
    "by-this": "tablepress.games.by_this",
    "planted": "tablepress.games.planted",
}

_loaded: dict[str, Game] = {}


def game_names() -> list[str]:
    """The names of every registered game, in the order the README lists them."""
    return list(GAME_MODULES)


def get_game(name: str) -> Game:
    """The game called `name` (`flowers`, `pressed`, `planted`, `by-this`), or a clear error."""
    key = name.strip().lower().replace("_", "-")
    if key not in GAME_MODULES:
        raise TablepressError(f"unknown game {name!r} (games: {', '.join(GAME_MODULES)})")
    if key not in _loaded:
        _loaded[key] = importlib.import_module(GAME_MODULES[key]).GAME
    return _loaded[key]
