"""Planted (Phil Walker-Harding): pick and pass cards at the same time, buy plants, feed them, propagate."""

from .engine import PlantedGame, PlantedState

GAME = PlantedGame()

__all__ = ["GAME", "PlantedGame", "PlantedState"]
