"""A points-like value of a By This state for one seat, for the greedy player (used on determinized states).

value(seat) = points so far + the shelf's worth to the seat that acts next (it may close it at the end of
its turn: the better of closing it as it is and closing it one thing longer, the growth discounted) +
small terms for closes (the tie-break) and specials in hand. evaluate = value(seat) − the best opponent's.
"""

from __future__ import annotations

from typing import Any

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


def evaluate(game: ByThisGame, state: ByThisState, seat: int) -> float:
    """Points-like value of a full state for `seat`: its standing minus the best opponent's."""
    values = [state.scores[s] + CLOSE_WEIGHT * state.closes[s] for s in range(state.players)]
    if state.phase == OVER:
        winners = game.winners(state)
        if seat in winners:
            values[seat] += WIN_BONUS / len(winners)
    else:
        values[state.current] += shelf_worth(game, state)
        for s in range(state.players):
            values[s] += SPECIAL_WEIGHT * sum(1 for card in state.hands[s] if card >= game.thing_count)
    others = [values[s] for s in range(state.players) if s != seat]
    return values[seat] - (max(others) if others else 0.0)


def describe(game: ByThisGame, state: ByThisState, seat: int) -> dict[str, Any]:
    """The parts of the evaluation, for people tuning the heuristic."""
    return {"evaluate": evaluate(game, state, seat), "shelf_worth": shelf_worth(game, state),
            "to_move": state.current, "scores": list(state.scores)}
