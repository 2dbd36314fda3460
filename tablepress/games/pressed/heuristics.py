"""A points-like evaluation of a full Pressed state for the greedy player (run on determinized states).

A seat's value is its score on the track, plus its pressed collection under final scoring (the
solver's best total; picked cards not yet pressed count as their best press), plus a share of what
the best open column would add while the seat still has a pick to make this round. Greedy play
maximises the margin of that value over the best opponent's (the package's default evaluation).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .engine import PressedGame
from .flow import press_choices
from .scoring import best_total, collection_counts
from .state import OVER, PICK, PLANT, PressedState, collection

#: How much the best open column counts while planting (others may take it first).
PLANT_COLUMN_WEIGHT = 0.25
#: How much the best open column counts during the pick step, before the seat's own pick.
PICK_COLUMN_WEIGHT = 0.5


def best_press_gain(game: PressedGame, counts: tuple[int, ...], picked: list[int]) -> int:
    """How much the best press from `picked` adds to a collection's best final total (cached)."""
    return _press_gain(game, tuple(counts), tuple(sorted(picked)))


@lru_cache(maxsize=200_000)
def _press_gain(game: PressedGame, counts: tuple[int, ...], picked: tuple[int, ...]) -> int:
    cards = game.cards
    base = best_total(counts, cards)
    if len(picked) <= cards.press:
        return _with(counts, picked, cards) - base
    return max(_with(counts, choice, cards) for choice in press_choices(picked, cards.press)) - base


def _with(counts: tuple[int, ...], extra: Any, cards: Any) -> int:
    grown = list(counts)
    for card in extra:
        grown[card] += 1
    return best_total(grown, cards)


def seat_value(game: PressedGame, state: PressedState, seat: int) -> float:
    """Points-like value of `seat`'s position: track score, pressed value, a share of an open column."""
    if state.phase == OVER:
        return float(game.scores(state)[seat])
    counts = collection_counts(collection(state, seat), game.cards)
    value = float(state.scores[seat]) + best_total(counts, game.cards)
    if state.to_press[seat]:
        return value + best_press_gain(game, counts, state.to_press[seat])
    picked = state.picks[state.round][seat] is not None if state.picks else True
    if state.phase in (PLANT, PICK) and not picked:
        weight = PLANT_COLUMN_WEIGHT if state.phase == PLANT else PICK_COLUMN_WEIGHT
        gains = [best_press_gain(game, counts, col) for c, col in enumerate(state.bed)
                 if col and state.taken[c] < 0]
        if gains:
            value += weight * max(gains)
    return value

