"""A points-like evaluation of a full Planted state for the greedy player (run on determinized states).

A seat's value is its score now, plus what its resources would bring if it fed now (the solver's best
gain, propagation included), plus a discounted share of the spaces its plants can still fill in the
rounds after this one. The greedy player's evaluation is that value minus the best opponent's.

A seat's value depends only on its own board and the stage of the game (the round, and whether the
seat still feeds in it), so it is remembered by the board's contents (`board_value`): an action changes
one board (or, at a reveal, each board once), and every other board's value is looked up, not re-scored.
`steps.step_values` gives the value after each of a seat's actions from the change it makes.
"""

from __future__ import annotations

import weakref

from .engine import FEED, OVER, PlantedGame, PlantedState
from .feeding import best_gain
from .scoring import board_total

#: How much a space that could be filled in a later round counts, against one filled now.
FUTURE_WEIGHT = 0.4
#: The value of one resource carried toward a later feeding beyond what feeding now gives (a tie-breaker).
RESOURCE_WEIGHT = 0.05
#: Boards whose values are remembered per game (the memory is emptied when full).
BOARD_CACHE_SIZE = 50_000
#: The stage of a finished game; before the end a stage is `2 * round + 1` while the seat still feeds
#: this round (or it is not the feeding step yet), `2 * round` once it has fed.
OVER_STAGE = -1

#: A board: (propagation, plants, growth, resources, tool cards, decoration cards), all plain tuples.
Board = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]

_memories: weakref.WeakKeyDictionary[PlantedGame, dict[tuple, float]] = weakref.WeakKeyDictionary()


def memory_of(game: PlantedGame) -> dict[tuple, float]:
    """The remembered board values of `game` (each game has its own card data), keyed by stage and board."""
    found = _memories.get(game)
    if found is None:
        found = _memories[game] = {}
    return found


def stage_of(state: PlantedState, seat: int) -> int:
    """The part of the game's progress a seat's value depends on (see OVER_STAGE)."""
    if state.phase == OVER:
        return OVER_STAGE
    return 2 * state.round + (state.phase != FEED or not state.fed[seat])


def board_of(state: PlantedState, seat: int) -> Board:
    """`seat`'s board as plain tuples: what its value depends on besides the stage."""
    return (state.propagation[seat], tuple(state.plants[seat]), tuple(state.growth[seat]),
            tuple(state.resources[seat]), tuple(state.tools[seat]), tuple(state.decorations[seat]))


def board_value(game: PlantedGame, stage: int, board: Board, memory: dict[tuple, float]) -> float:
    """The value of a board at a stage, from `memory` or computed (and remembered)."""
    key = (stage, board)
    value = memory.get(key)
    if value is None:
        if len(memory) >= BOARD_CACHE_SIZE:
            memory.clear()
        value = memory[key] = _board_value(game, stage, board)
    return value


def _board_value(game: PlantedGame, stage: int, board: Board) -> float:
    cards = game.cards
    propagation, plants, growth, resources, tools, decorations = board
    tool_kinds = [cards.tool_of[c] for c in tools]
    decoration_kinds = [cards.decoration_of[c] for c in decorations]
    score = float(board_total(cards, plants, growth, propagation, tool_kinds, decoration_kinds))
    if stage == OVER_STAGE:
        return score
    feeding_now = stage & 1
    gain = best_gain(cards, plants, growth, resources, tool_kinds, decoration_kinds, propagation) if feeding_now else 0
    later_rounds = cards.rounds - (stage >> 1) - 1
    future = 0.0
    if later_rounds > 0:
        for plant_id, tokens in zip(plants, growth):
            spaces = cards.plants[plant_id].spaces
            start = tokens + feeding_now
            future += sum(spaces[start:start + later_rounds])
    return score + gain + FUTURE_WEIGHT * future + RESOURCE_WEIGHT * sum(resources)


def seat_value(game: PlantedGame, state: PlantedState, seat: int) -> float:
    """Points-like value of `seat`'s position: score, the best feeding now, and future growth."""
    return board_value(game, stage_of(state, seat), board_of(state, seat), memory_of(game))


def full_seat_value(game: PlantedGame, state: PlantedState, seat: int) -> float:
    """`seat_value` computed afresh from the state through the engine (what the remembered values equal)."""
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


def seat_values(game: PlantedGame, state: PlantedState) -> list[float]:
    """Every seat's value, in seat order."""
    memory = memory_of(game)
    return [board_value(game, stage_of(state, seat), board_of(state, seat), memory) for seat in range(state.players)]


def evaluate(game: PlantedGame, state: PlantedState, seat: int) -> float:
    """`seat`'s value minus the best other seat's (each board's value looked up by its contents)."""
    values = seat_values(game, state)
    return values[seat] - max(value for other, value in enumerate(values) if other != seat)
