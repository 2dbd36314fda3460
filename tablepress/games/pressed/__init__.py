"""Pressed (set collection and drafting): plant flowers for points, pick columns, press sets."""

from ...core.package import Expectations, Heuristics, package
from . import faces, heuristics, stats, terminal
from .engine import PressedGame, PressedState

GAME = PressedGame()

PACKAGE = package(
    GAME,
    __file__,
    terminal=terminal,
    heuristics=Heuristics(seat_value=heuristics.seat_value, evaluate=heuristics.evaluate),
    stats=stats.figures,
    faces=faces.card_faces,
    expectations=Expectations(fingerprint="baa5a4f9b9f7f15a534e7140"),
)

__all__ = ["GAME", "PACKAGE", "PressedGame", "PressedState"]
