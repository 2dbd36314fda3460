"""The registry of games: every game is a plugin found through the `tablepress.games` entry-point group.

A game package's distribution declares, in its `pyproject.toml`:

    [project.entry-points."tablepress.games"]
    my-game = "my_game:PACKAGE"

where `PACKAGE` is a `core.package.GamePackage`. The four built-in games register the same way in
tablepress's own `pyproject.toml`. Installing such a package (`pip install ./my-game`) is all it takes
for every surface — play, replay, simulate, print, serve, agents, RL — to offer the game.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

from .errors import TablepressError
from .game import Game
from .package import GamePackage

GROUP = "tablepress.games"

_points: dict[str, EntryPoint] | None = None
_loaded: dict[str, GamePackage] = {}


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


def game_names() -> list[str]:
    """The names of every registered game: tablepress's own by name, then plugins by name."""
    return list(_entry_points())


def get_package(name: str) -> GamePackage:
    """The package of the game called `name` (`flowers`, `by-this`, a plugin's name), or a clear error."""
    key = _key(name)
    points = _entry_points()
    if key not in points:
        raise TablepressError(f"unknown game {name!r} (games: {', '.join(points) or 'none installed'})")
    if key not in _loaded:
        try:
            loaded = points[key].load()
        except Exception as exc:  # noqa: BLE001 - a broken plugin is named, not a traceback
            raise TablepressError(f"game {key!r} could not be loaded from {points[key].value}: {exc}") from None
        if not isinstance(loaded, GamePackage):
            raise TablepressError(f"game {key!r}: {points[key].value} is not a GamePackage")
        if _key(loaded.game.name) != key:
            raise TablepressError(f"game {key!r}: its package says its name is {loaded.game.name!r}")
        _loaded[key] = loaded
    return _loaded[key]


def get_game(name: str) -> Game:
    """The game called `name`, with its published card data."""
    return get_package(name).game


def package_of(game: Game) -> GamePackage:
    """The package of a game object (a variant of a game shares its package)."""
    return get_package(game.name)
