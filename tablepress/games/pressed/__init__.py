"""Pressed (set collection and drafting): plant flowers for points, pick columns, press sets."""

from .engine import PressedGame, PressedState

GAME = PressedGame()

__all__ = ["GAME", "PressedGame", "PressedState"]
