"""Pressed's note on each legal action: what a pick or a press adds to the pressed collection's final score.

Worked out from the seat's own views (its pressed cards and the cards it would press), with the game's own
final scoring (`scoring.best_final`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from ...core.game import Game
from .scoring import best_final, collection_counts


def note(game: Game, seat: int, before: Mapping[str, Any], action: str, after: Mapping[str, Any]) -> str | None:
    """`best press +12` for a pick, `set +9` for a press (None for plantings, whose points the hint shows)."""
    verb = action.split()[0] if action else ""
    if verb not in ("pick", "press"):
        return None
    cards = game.cards
    kinds = cards.code_kind
    now = _value(before["private"].get("pressed", []), cards, kinds)
    pressed = after["private"].get("pressed", [])
    if verb == "press":
        return f"set {_value(pressed, cards, kinds) - now:+d}"
    choices = after["private"].get("to_press", [])
    best = max(_value(list(pressed) + list(choice), cards, kinds)
               for choice in _presses(choices, cards.press))
    return f"best press {best - now:+d}"


def _presses(cards_to_press: Sequence[str], size: int) -> list[tuple[str, ...]]:
    """Every distinct set of `size` cards to press (all of them when there are no more than that)."""
    if len(cards_to_press) <= size:
        return [tuple(cards_to_press)]
    return sorted(set(tuple(sorted(choice)) for choice in combinations(cards_to_press, size)))


def _value(codes: Sequence[str], cards: Any, kinds: Mapping[str, int]) -> int:
    if not codes:
        return 0
    return best_final(collection_counts([kinds[code] for code in codes], cards), cards).total
