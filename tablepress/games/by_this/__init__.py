"""By This (Table Press print-and-play): file things on one shelf under a Key that can change."""

from ...core.package import Expectations, Heuristics, package
from . import faces, heuristics, stats, terminal
from .engine import ByThisGame, ByThisState

GAME = ByThisGame()

PACKAGE = package(
    GAME,
    __file__,
    terminal=terminal,
    heuristics=Heuristics(evaluate=heuristics.evaluate),
    stats=stats.figures,
    faces=faces.card_faces,
    expectations=Expectations(fingerprint="0feed0d32c6311c9dc1f812b"),
)

__all__ = ["GAME", "PACKAGE", "ByThisGame", "ByThisState"]
