"""The registry of games: every game is a plugin found through the `tablepress.games` entry-point group.

A game package's distribution declares, in its `pyproject.toml`:

    [project.entry-points."tablepress.games"]
    my-game = "my_game:PACKAGE"

where `PACKAGE` is a `core.package.GamePackage`. The four built-in games register the same way in
tablepress's own `pyproject.toml`. Installing such a package (`pip install ./my-game`) is all it takes
for every surface — play, replay, simulate, print, serve, agents, RL — to offer the game.

This module is the one place games are loaded. A plugin that fails to load (an import error, a game
missing an abstract method, an object that is not a GamePackage, a name that differs from its entry
point's) is skipped with one warning line on standard error naming it and why; `game_names` lists only
the games that load and `broken_plugins` says what was skipped, so every other game and command works.
"""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint, entry_points

from .errors import TablepressError
from .game import Game
from .package import GamePackage

GROUP = "tablepress.games"

_points: dict[str, EntryPoint] | None = None
_loaded: dict[str, GamePackage] = {}
_broken: dict[str, str] = {}


def _key(name: str) -> str:
    return str(name).strip().lower().replace("_", "-")


def _entry_points() -> dict[str, EntryPoint]:
    global _points
    if _points is None:
        found = {_key(point.name): point for point in entry_points(group=GROUP)}
        _points = {name: found[name] for name in sorted(found, key=lambda name: (_plugin(found[name]), name))}
    return _points


def _plugin(point: EntryPoint) -> bool:
    """Whether a game comes from a distribution other than tablepress (plugins are listed after its own)."""
    return point.dist is None or point.dist.name != "tablepress"


def refresh() -> None:
    """Look for installed game packages again (after installing one in a running process)."""
    global _points
    _points = None
    _loaded.clear()
    _broken.clear()


def game_names() -> list[str]:
    """The names of every game that loads: tablepress's own by name, then plugins by name."""
    _load_all()
    return [name for name in _entry_points() if name in _loaded]


def own_game_names() -> list[str]:
    """The names of the games tablepress ships (no plugin's), by name, for checks that are about them."""
    points = _entry_points()
    return [name for name in game_names() if points[name] is not None and not _plugin(points[name])]


def broken_plugins() -> dict[str, str]:
    """Every registered game that failed to load, by name, with the one-line reason it was skipped."""
    _load_all()
    return dict(_broken)


def get_package(name: str) -> GamePackage:
    """The package of the game called `name` (`flowers`, `by-this`, a plugin's name), or a clear error."""
    key = _key(name)
    points = _entry_points()
    if key not in points:
        raise TablepressError(f"unknown game {name!r} (games: {', '.join(game_names()) or 'none installed'})")
    _load_one(key, points[key])
    if key in _broken:
        raise TablepressError(_broken[key])
    return _loaded[key]


def _load_all() -> None:
    """Load every registered game once, skipping (with a warning) those that fail."""
    for key, point in _entry_points().items():
        _load_one(key, point)


def _load_one(key: str, point: EntryPoint) -> None:
    """Load one game into `_loaded`, or record and warn once why it cannot be loaded."""
    if key in _loaded or key in _broken:
        return
    try:
        _loaded[key] = _checked_package(key, point)
    except TablepressError as exc:
        _broken[key] = " ".join(str(exc).split())
        print(f"tablepress: warning: skipped {_broken[key]}", file=sys.stderr)


def _checked_package(key: str, point: EntryPoint) -> GamePackage:
    """The GamePackage an entry point names, or TablepressError saying in one line why it is unusable."""
    try:
        loaded = point.load()
    except Exception as exc:  # noqa: BLE001 - a broken plugin is named, not a traceback
        raise TablepressError(f"game {key!r} could not be loaded from {point.value}: "
                              f"{type(exc).__name__}: {exc}") from None
    if not isinstance(loaded, GamePackage):
        raise TablepressError(f"game {key!r}: {point.value} is not a GamePackage")
    if not isinstance(loaded.game, Game):
        raise TablepressError(f"game {key!r}: its package's game is not a tablepress Game")
    if _key(loaded.game.name) != key:
        raise TablepressError(f"game {key!r}: its package says its name is {loaded.game.name!r}")
    return loaded


def get_game(name: str) -> Game:
    """The game called `name`, with its published card data."""
    return get_package(name).game


def package_of(game: Game) -> GamePackage:
    """The package of a game object (a variant of a game shares its package)."""
    return get_package(game.name)
