"""How agents judge a position: each game's declared `Heuristics` (its package), and rewards for search.

A game's package declares `Heuristics(seat_value, evaluate, search)`: `seat_value` is a seat's own
standing (absolute), `evaluate` what greedy maximises (by default the margin of `seat_value` over the
best rival), `search` suggested ismcts settings. A game that declares none is judged by its score.
"""

from __future__ import annotations

from typing import Any

from ..core.game import Game
from ..core.package import Evaluate, Guess, StepValues, TurnGoesOn, cloning_step_values, margin
from ..core.registry import package_of


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
    BACKUPS): for "best", when the game's `evaluate` is the default margin of its `seat_value` over the
    best rival; for "own", when its `evaluate` is its `seat_value` itself. Else None."""
    heuristics = package_of(game).heuristics
    if heuristics.step_values is None or backup not in ("best", "own"):
        return None
    if backup == "own":
        return heuristics.step_values if heuristics.evaluate is heuristics.seat_value else None
    evaluate, default = heuristics.evaluate, margin(heuristics.seat_value)
    same_code = getattr(evaluate, "__code__", None) is default.__code__
    if same_code and [c.cell_contents for c in evaluate.__closure__ or ()] == [heuristics.seat_value]:
        return heuristics.step_values
    return None


def seat_value_for(game: Game) -> Evaluate:
    """A seat's own standing in `game` (its package's `Heuristics.seat_value`)."""
    return package_of(game).heuristics.seat_value


def search_hints_for(game: Game) -> dict[str, Any]:
    """The search settings the game's heuristics suggest (`Heuristics.search`), or none."""
    return dict(package_of(game).heuristics.search)


#: How a search turns every seat's value into its reward: its margin over the best other seat ("best"),
#: over the mean of the others ("mean"), or the value itself ("own", max^n on absolute values).
BACKUPS = ("best", "mean", "own")


def relative_values(values: list[float], backup: str = "best") -> list[float]:
    """Each seat's reward from every seat's value under `backup` (see BACKUPS; solo: the value itself)."""
    if len(values) == 1 or backup == "own":
        return list(values)
    if backup == "mean":
        total, others = sum(values), len(values) - 1
        return [value - (total - value) / others for value in values]
    result = []
    for seat, value in enumerate(values):
        best_other = max(v for i, v in enumerate(values) if i != seat)
        result.append(value - best_other)
    return result


def cutoff_margins(game: Game, state: Any, seat_value: Evaluate, players: int, backup: str = "best") -> list[float]:
    """Each seat's heuristic margin over the best other seat at a search cut-off (its value alone in solo;
    `backup` chooses another reward, see BACKUPS)."""
    return relative_values([seat_value(game, state, seat) for seat in range(players)], backup)


#: What winning is worth on top of the score margin at the end of a game, in points (breaks ties).
WIN_BONUS = 0.5


def final_margins(game: Game, state: Any, backup: str = "best", end_bonus: float | None = None) -> list[float]:
    """Each seat's final score margin over the best other seat (or another reward, see BACKUPS), plus its
    share of `WIN_BONUS`; with `end_bonus`, plus `end_bonus` times its share of the victory less its fair
    share (1 / players) instead, so that a search backing up its own value, blind to the rivals until the
    end, weighs a won end above a lost one by that many points. An end without a winner (solo) has no
    victory to weigh: its rewards are the margins alone."""
    scores = game.scores(state)
    margins = relative_values([float(s) for s in scores], backup)
    winners = game.winners(state)
    if end_bonus is not None:
        if winners:
            fair = 1.0 / len(margins)
            for seat in range(len(margins)):
                margins[seat] += end_bonus * ((1.0 / len(winners) if seat in winners else 0.0) - fair)
        return margins
    for seat in winners:
        margins[seat] += WIN_BONUS / len(winners)
    return margins
