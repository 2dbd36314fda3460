"""Pressed (set collection and drafting): plant flowers for points, pick columns, press sets."""

from ...core.levels import Level
from ...core.package import Check, Expectations, Heuristics, package
from . import components, faces, heuristics, narrate, preview, stats, terminal, turns
from .actions import action_space, observation
from .engine import PressedGame, PressedState

GAME = PressedGame()

ELECTIVE_SETS = (
    "Aster,Chrysanthemum,Tulip",
    "Anemone,Baby's Breath,Tulip",
    "Anemone,Aster,Baby's Breath",
    "Baby's Breath,Chrysanthemum,Tulip",
    "Anemone,Aster,Chrysanthemum",
)

#: The AI levels a player picks from, weakest first; `tablepress rate pressed` measures them into levels.json.
LEVELS = (
    Level("beginner", "greedy", random_moves=0.5),
    Level("casual", "greedy"),
    Level("strong", "ismcts:300"),
)


PACKAGE = package(
    GAME,
    __file__,
    terminal=terminal,
    heuristics=Heuristics(seat_value=heuristics.seat_value, evaluate=heuristics.evaluate,
                          step_values=heuristics.step_values, turn_goes_on=turns.turn_goes_on,
                          search=heuristics.SEARCH),
    stats=stats.STATS,
    faces=faces.card_faces,
    components=components.components,
    actions=action_space,
    observation=observation,
    narrate=narrate.narrate,
    note=preview.note,
    expectations=Expectations(
        checks=(
            *(Check(players, playouts=200, deep_playouts=8) for players in range(2, 6)),
            *(Check(players, {"electives": electives}, playouts=100, deep_playouts=4)
              for players in (2, 3) for electives in ELECTIVE_SETS),
            Check(4, {"first": 4}, playouts=50, deep_playouts=3),
        ),
        fingerprint="baa5a4f9b9f7f15a534e7140", printed_cards=90,
    ),
    levels=LEVELS,
)

__all__ = ["ELECTIVE_SETS", "GAME", "PACKAGE", "PressedGame", "PressedState"]
