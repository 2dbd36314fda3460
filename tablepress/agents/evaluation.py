"""How agents judge a position: each game's heuristic, a generic fallback, and rewards for search.

Every game may ship `tablepress/games/<folder>/heuristics.py` with `evaluate(game, state, seat) -> float`
(points-like units, from `seat`'s side). A game without one is judged by its score margin:
`scores(state)[seat]` minus the best other seat's score (the score itself in solo games).

When `evaluate` is relative (a seat's value minus its best opponent's), the module may also offer
`seat_value(game, state, seat) -> float`, the seat's own value: search then needs one call per seat
at a cut-off instead of one per pair of seats. It may also suggest search settings that suit its
heuristic in a dict `SEARCH` (e.g. `{"rollout_depth": 3, "rollout_sample": 8}`, or
`"rollout_depth_per_rival"` for steps per rival seat; see `ismcts`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ..core.game import Game
from ..core.registry import GAME_MODULES

Evaluate = Callable[[Game, Any, int], float]

_cache: dict[str, tuple[Evaluate, Evaluate, dict[str, Any]]] = {}


def score_margin(game: Game, state: Any, seat: int) -> float:
    """The generic evaluation: `seat`'s score minus the best other seat's (its score alone in solo)."""
    scores = game.scores(state)
    others = [s for i, s in enumerate(scores) if i != seat]
    return float(scores[seat] - (max(others) if others else 0))


def _load(game: Game) -> tuple[Evaluate, Evaluate, dict[str, Any]]:
    name = game.name
    if name not in _cache:
        evaluate: Evaluate = score_margin
        seat_value: Evaluate | None = None
        hints: dict[str, Any] = {}
        module_name = GAME_MODULES.get(name)
        if module_name is not None:
            try:
                module = importlib.import_module(module_name + ".heuristics")
            except ModuleNotFoundError as exc:
                if exc.name != module_name + ".heuristics":
                    raise
            else:
                evaluate = getattr(module, "evaluate", score_margin)
                seat_value = getattr(module, "seat_value", None)
                hints = dict(getattr(module, "SEARCH", {}))
        _cache[name] = (evaluate, seat_value or evaluate, hints)
    return _cache[name]


def heuristic_for(game: Game) -> Evaluate:
    """The game's own `heuristics.evaluate`, or `score_margin` when the game ships none."""
    return _load(game)[0]


def seat_value_for(game: Game) -> Evaluate:
    """The game's `heuristics.seat_value` (a seat's own value), or its `evaluate` when it has none."""
    return _load(game)[1]


def search_hints_for(game: Game) -> dict[str, Any]:
    """The search settings the game's heuristics suggest (`heuristics.SEARCH`), or none."""
    return _load(game)[2]


def _margins(values: list[float]) -> list[float]:
    if len(values) == 1:
        return list(values)
    result = []
    for seat, value in enumerate(values):
        best_other = max(v for i, v in enumerate(values) if i != seat)
        result.append(value - best_other)
    return result


def cutoff_margins(game: Game, state: Any, seat_value: Evaluate, players: int) -> list[float]:
    """Each seat's heuristic margin over the best other seat at a search cut-off (its value alone in solo)."""
    return _margins([seat_value(game, state, seat) for seat in range(players)])


#: What winning is worth on top of the score margin at the end of a game, in points (breaks ties).
WIN_BONUS = 0.5


def final_margins(game: Game, state: Any) -> list[float]:
    """Each seat's final score margin over the best other seat, plus its share of `WIN_BONUS`."""
    scores = game.scores(state)
    margins = _margins([float(s) for s in scores])
    winners = game.winners(state)
    for seat in winners:
        margins[seat] += WIN_BONUS / len(winners)
    return margins
