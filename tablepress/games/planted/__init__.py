"""Planted (Phil Walker-Harding): pick and pass cards at the same time, buy plants, feed them, propagate."""

from ...core.levels import Level
from ...core.package import Check, Expectations, Heuristics, package
from . import components, faces, heuristics, narrate, stats, steps, terminal
from .actions import action_space, observation
from .engine import PlantedGame, PlantedState

GAME = PlantedGame()

#: The AI levels a player picks from, weakest first; `tablepress rate planted` measures them into levels.json.
LEVELS = (
    Level("beginner", "greedy", random_moves=0.5),
    Level("casual", "greedy"),
    Level("strong", "ismcts:300"),
)


PACKAGE = package(
    GAME,
    __file__,
    terminal=terminal.PlantedTerminal(GAME.cards),
    heuristics=Heuristics(seat_value=heuristics.seat_value, evaluate=heuristics.evaluate,
                          step_values=steps.step_values, turn_goes_on=steps.turn_goes_on,
                          guess=heuristics.guess),
    stats=stats.STATS,
    faces=faces.card_faces,
    components=components.components,
    actions=action_space,
    observation=observation,
    narrate=narrate.narrate,
    expectations=Expectations(
        checks=tuple(Check(players, playouts=25, deep_playouts=3) for players in range(2, 6)),
        fingerprint="b3c184f29ef1dfe189f5f228", printed_cards=144,
    ),
    levels=LEVELS,
)

__all__ = ["GAME", "PACKAGE", "PlantedGame", "PlantedState"]
