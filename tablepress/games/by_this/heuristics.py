"""A points-like standing of one seat in a By This state, for the agents (used on determinized states).

seat_value(seat) = points so far + small terms for closes (the tie-break) and specials in hand + the
shelf's worth if the seat acts next (it may close it at the end of its turn: the better of closing it
as it is and closing it one thing longer, the growth discounted); at the end, points and closes plus
each winner's share of a win bonus. The package's evaluate is the margin of it over the best rival.
"""

from __future__ import annotations

from .engine import CLOSE_STEP, OVER, ByThisGame, ByThisState
from .scoring import close_points

CLOSE_WEIGHT = 0.1  # a close breaks ties
SPECIAL_WEIGHT = 0.5  # a special in hand: a future option
GROWTH_DISCOUNT = 0.8  # a shelf one thing longer is not yet on the shelf
WIN_BONUS = 0.5


def shelf_worth(game: ByThisGame, state: ByThisState) -> float:
    """What the shelf is worth to the seat that acts next: close it now, or (discounted) after one more thing."""
    shelf = state.shelf
    numbers = game.shelf_numbers(state)
    least = game.close_min(state)
    now = float(close_points(numbers)) if len(shelf) >= least else 0.0
    if state.phase == CLOSE_STEP:
        return now
    if len(shelf) + 1 < least:
        return now
    key_numbers = game.key_numbers[state.key]
    seat = state.current
    best = now
    candidates = [c for c in state.hands[seat] if c < game.thing_count] + state.floor
    for card in candidates:
        for end in game.ends(state, card):
            n = key_numbers[card]
            longer = [n, *numbers] if end == "left" else [*numbers, n]
            best = max(best, GROWTH_DISCOUNT * close_points(longer))
    return best


def seat_value(game: ByThisGame, state: ByThisState, seat: int) -> float:
    """The seat's own standing in points: score, closes, specials in hand, the shelf if it acts next."""
    value = state.scores[seat] + CLOSE_WEIGHT * state.closes[seat]
    if state.phase == OVER:
        winners = game.winners(state)
        return value + WIN_BONUS / len(winners) if seat in winners else value
    if seat == state.current:
        value += shelf_worth(game, state)
    return value + SPECIAL_WEIGHT * sum(1 for card in state.hands[seat] if card >= game.thing_count)
