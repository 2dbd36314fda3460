"""Flowers (Paul-Henri Argiot): draw, place, make exact number groups and big colour regions."""

from .engine import FlowersGame, FlowersState

GAME = FlowersGame()

__all__ = ["GAME", "FlowersGame", "FlowersState"]
