"""How agents judge a position: each game's declared `Heuristics` (its package), and rewards for search.

A game's package declares `Heuristics(seat_value, evaluate, search)`: `seat_value` is a seat's own
standing (absolute), `evaluate` what greedy maximises (by default the margin of `seat_value` over the
best rival), `search` suggested ismcts settings. A game that declares none is judged by its score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.game import Game
from ..core.package import Evaluate, StepValues
from ..core.registry import package_of


def heuristic_for(game: Game) -> Evaluate:
    """What the greedy player maximises for a seat in `game` (its package's `Heuristics.evaluate`)."""
    return package_of(game).heuristics.evaluate  # type: ignore[return-value]


def step_values_for(game: Game) -> StepValues:
    """The game's fast one-step values (`Heuristics.step_values`), or clone, apply and `evaluate` each."""
    fast = package_of(game).heuristics.step_values
    if fast is not None:
        return fast
    evaluate = heuristic_for(game)

    def by_cloning(game: Game, state: Any, seat: int, actions: Sequence[str]) -> list[float]:
        values = []
        for action in actions:
            child = game.clone(state)
            game.apply_legal(child, seat, action)
            values.append(evaluate(game, child, seat))
        return values

    return by_cloning


def seat_value_for(game: Game) -> Evaluate:
    """A seat's own standing in `game` (its package's `Heuristics.seat_value`)."""
    return package_of(game).heuristics.seat_value


def search_hints_for(game: Game) -> dict[str, Any]:
    """The search settings the game's heuristics suggest (`Heuristics.search`), or none."""
    return dict(package_of(game).heuristics.search)


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
