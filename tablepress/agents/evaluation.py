"""How agents judge a position: each game's declared `Heuristics` (its package), read in one place.

A game's package declares `Heuristics(seat_value, evaluate, search, ...)`: `seat_value` is a seat's own
standing (absolute), `evaluate` what greedy maximises (by default `Margin`, the margin of `seat_value` over
the best rival), `search` its ismcts presets (agents/presets.py). A game that declares none is judged by
its score. What a search backs up from these values is in agents/rewards.py.
"""

from __future__ import annotations

from ..core.game import Game
from ..core.package import Evaluate, Guess, Margin, StepValues, TurnGoesOn, cloning_step_values
from ..core.registry import package_of
from .presets import SearchPresets


def heuristic_for(game: Game) -> Evaluate:
    """What the greedy player maximises for a seat in `game` (its package's `Heuristics.evaluate`)."""
    return package_of(game).heuristics.evaluate  # type: ignore[return-value]


def step_values_for(game: Game) -> StepValues:
    """The game's fast one-step values (`Heuristics.step_values`), or clone, apply and `evaluate` each."""
    return fast_step_values_for(game) or cloning_step_values(heuristic_for(game))


def fast_step_values_for(game: Game) -> StepValues | None:
    """The game's own fast one-step values (`Heuristics.step_values`), or None when it has none."""
    return package_of(game).heuristics.step_values


def turn_goes_on_for(game: Game) -> TurnGoesOn | None:
    """The game's hint whether a seat is still to move after an action (`Heuristics.turn_goes_on`), or None."""
    return package_of(game).heuristics.turn_goes_on


def guess_for(game: Game) -> Guess:
    """What a seat assumes of the others choosing at the same time (`Heuristics.guess`)."""
    return package_of(game).heuristics.guess


def margin_step_values_for(game: Game, backup: str = "best") -> StepValues | None:
    """The game's fast one-step values when they are also the search's rewards under `backup` (see
    rewards.BACKUPS): for "best", when the game's `evaluate` is the default `Margin` of its `seat_value`;
    for "own", when its `evaluate` is its `seat_value` itself. Else None."""
    heuristics = package_of(game).heuristics
    evaluate = heuristics.evaluate
    if heuristics.step_values is None:
        return None
    if backup == "own" and evaluate is heuristics.seat_value:
        return heuristics.step_values
    if backup == "best" and isinstance(evaluate, Margin) and evaluate.seat_value is heuristics.seat_value:
        return heuristics.step_values
    return None


def seat_value_for(game: Game) -> Evaluate:
    """A seat's own standing in `game` (its package's `Heuristics.seat_value`)."""
    return package_of(game).heuristics.seat_value


def search_presets_for(game: Game) -> SearchPresets | None:
    """The game's ismcts presets (`Heuristics.search`), or None: the defaults."""
    return package_of(game).heuristics.search
