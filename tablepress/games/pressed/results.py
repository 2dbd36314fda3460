"""The results of a game of Pressed: scores, winners, each seat's breakdown, and every card's count.

Final scores always use the best Baby's Breath placement and Tulip choice (a player would).
"""

from __future__ import annotations

from typing import Any

from .cards import PressedCards
from .scoring import best_final, collection_counts
from .state import OVER, PressedState, collection


def breakdown(cards: PressedCards, state: PressedState) -> list[dict[str, Any]]:
    """Per seat: total, planting points and (once over) the pressed collection's groups."""
    parts = []
    for seat in range(state.players):
        if state.phase != OVER:
            parts.append({"total": state.scores[seat], "planting": state.scores[seat], "pressed": 0})
            continue
        final = best_final(collection_counts(collection(state, seat), cards), cards)
        data = final.as_dict(cards)
        parts.append({
            "total": state.scores[seat] + final.total,
            "planting": state.scores[seat],
            "pressed": final.total,
            "cards": data["cards"],
            "choices": data["choices"],
            "groups": data["groups"],
        })
    return parts


def scores(cards: PressedCards, state: PressedState) -> list[int]:
    """The score track during play; at the end, the track plus each pressed collection's best score."""
    if state.phase != OVER:
        return list(state.scores)
    return [part["total"] for part in breakdown(cards, state)]


def winners(cards: PressedCards, state: PressedState) -> list[int]:
    """The highest totals (a tie is a shared victory); empty until the game is over."""
    if state.phase != OVER:
        return []
    totals = scores(cards, state)
    return [s for s, v in enumerate(totals) if v == max(totals)]

