"""Planted (Phil Walker-Harding): pick and pass cards at the same time, buy plants, feed them, propagate."""

from ...core.package import Expectations, Heuristics, package
from . import faces, heuristics, stats, terminal
from .engine import PlantedGame, PlantedState

GAME = PlantedGame()

PACKAGE = package(
    GAME,
    __file__,
    terminal=terminal,
    heuristics=Heuristics(seat_value=heuristics.seat_value, evaluate=heuristics.evaluate),
    stats=stats.figures,
    faces=faces.card_faces,
    expectations=Expectations(fingerprint="b3c184f29ef1dfe189f5f228"),
)

__all__ = ["GAME", "PACKAGE", "PlantedGame", "PlantedState"]
