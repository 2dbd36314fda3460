"""Flowers (Paul-Henri Argiot): draw, place, make exact number groups and big colour regions."""

from ...core.levels import Level
from ...core.package import Check, Expectations, Heuristics, package
from . import components, faces, heuristics, narrate, stats, terminal
from .actions import action_space, observation
from .engine import FlowersGame, FlowersState

GAME = FlowersGame()

#: The AI levels a player picks from, weakest first; `tablepress rate flowers` measures them into levels.json.
LEVELS = (
    Level("beginner", "greedy", random_moves=0.5),
    Level("casual", "greedy"),
    Level("strong", "ismcts:300"),
)


PACKAGE = package(
    GAME,
    __file__,
    terminal=terminal,
    heuristics=Heuristics(seat_value=heuristics.seat_value, evaluate=heuristics.seat_value, search=heuristics.SEARCH,
                          step_values=heuristics.step_values, turn_goes_on=heuristics.turn_goes_on),
    stats=stats.STATS,
    faces=faces.card_faces,
    components=components.components,
    actions=action_space,
    observation=observation,
    narrate=narrate.narrate,
    expectations=Expectations(
        checks=(
            *(Check(players, playouts=1000, deep_playouts=10) for players in range(1, 5)),
            Check(2, {"summer": True}, playouts=300, deep_playouts=8),
        ),
        fingerprint="a7ad3da18ceca7b75096ef99", printed_cards=112,
    ),
    levels=LEVELS,
)

__all__ = ["GAME", "PACKAGE", "FlowersGame", "FlowersState"]
