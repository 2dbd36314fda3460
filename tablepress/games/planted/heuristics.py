"""A points-like evaluation of a full Planted state for the greedy player (run on determinized states).

A seat's value is its score now, plus what its resources would bring if it fed now (the solver's best
gain, propagation included), plus a discounted share of the spaces its plants can still fill in the
rounds after this one. The greedy player's evaluation is the package's default: that value minus
the best opponent's.
"""

from __future__ import annotations

from .engine import FEED, OVER, PlantedGame, PlantedState

#: How much a space that could be filled in a later round counts, against one filled now.
FUTURE_WEIGHT = 0.4
#: The value of one resource carried toward a later feeding beyond what feeding now gives (a tie-breaker).
RESOURCE_WEIGHT = 0.05


def seat_value(game: PlantedGame, state: PlantedState, seat: int) -> float:
    """Points-like value of `seat`'s position: score, the best feeding now, and future growth."""
    score = float(game.board_score(state, seat).total)
    if state.phase == OVER:
        return score
    cards = game.cards
    feeding_now = state.phase != FEED or not state.fed[seat]
    gain = game.feedings(state, seat)[0].gain if feeding_now else 0
    later_rounds = cards.rounds - state.round - 1
    future = 0.0
    if later_rounds > 0:
        for plant_id, tokens in zip(state.plants[seat], state.growth[seat]):
            spaces = cards.plants[plant_id].spaces
            start = tokens + (1 if feeding_now else 0)
            future += sum(spaces[start:start + later_rounds])
    return score + gain + FUTURE_WEIGHT * future + RESOURCE_WEIGHT * sum(state.resources[seat])
