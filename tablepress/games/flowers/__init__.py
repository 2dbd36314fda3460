"""Flowers (Paul-Henri Argiot): draw, place, make exact number groups and big colour regions."""

from ...core.package import Expectations, Heuristics, package
from . import faces, heuristics, stats, terminal
from .engine import FlowersGame, FlowersState

GAME = FlowersGame()

PACKAGE = package(
    GAME,
    __file__,
    terminal=terminal,
    heuristics=Heuristics(seat_value=heuristics.evaluate, evaluate=heuristics.evaluate, search=heuristics.SEARCH),
    stats=stats.figures,
    faces=faces.card_faces,
    expectations=Expectations(fingerprint="a7ad3da18ceca7b75096ef99"),
)

__all__ = ["GAME", "PACKAGE", "FlowersGame", "FlowersState"]
