"""By This (Table Press print-and-play): file things on one shelf under a Key that can change."""

from ...core.levels import Level
from ...core.package import Check, Expectations, Heuristics, package
from . import components, faces, heuristics, narrate, preview, stats, terminal
from .actions import action_space, observation
from .engine import ByThisGame, ByThisState

GAME = ByThisGame()

#: The AI levels a player picks from, weakest first; `tablepress rate by-this` measures them into levels.json.
#: The search wins only 57% of 2-player games against greedy here (docs/strength.md), so Casual plays a quarter
#: of its moves at random to leave a gap a player can feel between it and Strong.
LEVELS = (
    Level("beginner", "greedy", random_moves=0.5),
    Level("casual", "greedy", random_moves=0.25),
    Level("strong", "ismcts:300"),
)


PACKAGE = package(
    GAME,
    __file__,
    terminal=terminal,
    heuristics=Heuristics(seat_value=heuristics.seat_value, search=heuristics.SEARCH),
    stats=stats.STATS,
    faces=faces.card_faces,
    components=components.components,
    actions=action_space,
    observation=observation,
    narrate=narrate.narrate,
    note=preview.note,
    expectations=Expectations(
        checks=(
            Check(2, playouts=300, deep_playouts=10),
            Check(3, playouts=300, deep_playouts=10),
            Check(4, playouts=300, deep_playouts=10),
            Check(2, {"young": True}, playouts=150, deep_playouts=6),
            Check(4, {"young": True}, playouts=150, deep_playouts=6),
        ),
        fingerprint="0feed0d32c6311c9dc1f812b", printed_cards=54,
    ),
    levels=LEVELS,
)

__all__ = ["GAME", "PACKAGE", "ByThisGame", "ByThisState"]
