"""By This (Table Press print-and-play): file things on one shelf under a Key that can change."""

from .engine import ByThisGame, ByThisState

GAME = ByThisGame()

__all__ = ["GAME", "ByThisGame", "ByThisState"]
