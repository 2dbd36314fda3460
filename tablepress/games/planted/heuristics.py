"""A points-like evaluation of a full Planted state for the greedy player (run on determinized states).

A seat's value is its score now, plus what its resources would bring if it fed now (the solver's best
gain, propagation included), plus a discounted share of the spaces its plants can still fill in the
rounds after this one. The greedy player's evaluation is that value minus the best opponent's.

A seat's value depends only on its own board and the stage of the game (the round, and whether the
seat still feeds in it), so it is remembered by the board's contents (`board_value`): an action changes
one board (or, at a reveal, each board once), and every other board's value is looked up, not re-scored.
A board not seen before reuses what does not depend on its resources (its score and future spaces,
`_fixed_part`), and the feeding solver's best gain comes from `feeding.best_gain`, which looks only at the
sets of plants the resources could pay for. `steps.step_values` gives the value after each of a seat's
actions from the change it makes.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

import random

from .engine import CHOOSE, FEED, OVER, PlantedGame, PlantedState
from .feeding import best_gain
from .scoring import board_total
from .views import NURSERY_GUESS

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
#: What a board's value needs besides its resources: (score, points of the spaces later rounds could fill,
#: tool kinds, decoration kinds).
FixedPart = tuple[float, float, tuple[int, ...], tuple[int, ...]]


@dataclass
class Memory:
    """What one game's evaluation remembers (each game has its own card data); every part is emptied when full.

    `boards`: a board's value by (stage, board). `fixed`: the parts of a value that do not depend on the
    resources (see `_fixed_part`) by stage and board less resources. `steps`: the values a seat's own board
    takes after each of a list of actions (`steps.step_values`) by stage, board and actions.
    """

    boards: dict[tuple, float] = field(default_factory=dict)
    fixed: dict[tuple, FixedPart] = field(default_factory=dict)
    steps: dict[tuple, list[float]] = field(default_factory=dict)


_memories: weakref.WeakKeyDictionary[PlantedGame, Memory] = weakref.WeakKeyDictionary()
_last: list = [None, None]  # the game last asked about and its memory (saves the weak lookup; keeps that game)


def memory_of(game: PlantedGame) -> Memory:
    """What `game`'s evaluation remembers."""
    if _last[0] is not game:
        memory = _memories.get(game)
        if memory is None:
            memory = _memories[game] = Memory()
        _last[0], _last[1] = game, memory
    return _last[1]


def remember(table: dict, key: tuple, value: Any) -> Any:
    """Store `value` under `key` in one of a memory's tables (emptied first when full) and return it."""
    if len(table) >= BOARD_CACHE_SIZE:
        table.clear()
    table[key] = value
    return value


def stage_of(state: PlantedState, seat: int) -> int:
    """The part of the game's progress a seat's value depends on (see OVER_STAGE)."""
    if state.phase == OVER:
        return OVER_STAGE
    return 2 * state.round + (state.phase != FEED or not state.fed[seat])


def board_of(state: PlantedState, seat: int) -> Board:
    """`seat`'s board as plain tuples: what its value depends on besides the stage."""
    return (state.propagation[seat], tuple(state.plants[seat]), tuple(state.growth[seat]),
            tuple(state.resources[seat]), tuple(state.tools[seat]), tuple(state.decorations[seat]))


def board_value(game: PlantedGame, stage: int, board: Board, memory: Memory) -> float:
    """The value of a board at a stage, from `memory` or computed (and remembered)."""
    key = (stage, board)
    value = memory.boards.get(key)
    if value is None:
        value = remember(memory.boards, key, _board_value(game, stage, board, memory))
    return value


def _board_value(game: PlantedGame, stage: int, board: Board, memory: Memory) -> float:
    propagation, plants, growth, resources, tools, decorations = board
    score, future, tool_kinds, decoration_kinds = _fixed_part(game, stage, board, memory)
    if stage == OVER_STAGE:
        return score
    feeding_now = stage & 1
    gain = best_gain(game.cards, plants, growth, resources, tool_kinds, decoration_kinds, propagation) \
        if feeding_now else 0
    return score + gain + FUTURE_WEIGHT * future + RESOURCE_WEIGHT * sum(resources)


def _fixed_part(game: PlantedGame, stage: int, board: Board, memory: Memory) -> FixedPart:
    """What `_board_value` needs besides the resources: the score, the points of the spaces later rounds
    could fill, and the kinds of the tools and decorations (remembered by stage and board less resources)."""
    propagation, plants, growth, _, tools, decorations = board
    key = (stage, propagation, plants, growth, tools, decorations)
    found = memory.fixed.get(key)
    if found is not None:
        return found
    cards = game.cards
    tool_kinds = tuple(cards.tool_of[c] for c in tools)
    decoration_kinds = tuple(cards.decoration_of[c] for c in decorations)
    score = float(board_total(cards, plants, growth, propagation, tool_kinds, decoration_kinds))
    later_rounds = cards.rounds - (stage >> 1) - 1
    future = 0.0
    if stage != OVER_STAGE and later_rounds > 0:
        feeding_now = stage & 1
        for plant_id, tokens in zip(plants, growth):
            spaces = cards.plants[plant_id].spaces
            start = tokens + feeding_now
            future += sum(spaces[start:start + later_rounds])
    return remember(memory.fixed, key, (score, future, tool_kinds, decoration_kinds))


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
    if state.phase == OVER:
        stages = [OVER_STAGE] * state.players
    elif state.phase == FEED:
        stages = [2 * state.round + (not fed) for fed in state.fed]
    else:
        stages = [2 * state.round + 1] * state.players
    values = []
    for seat, stage in enumerate(stages):
        board = board_of(state, seat)
        value = memory.boards.get((stage, board))
        values.append(board_value(game, stage, board, memory) if value is None else value)
    return values


def evaluate(game: PlantedGame, state: PlantedState, seat: int) -> float:
    """`seat`'s value minus the best other seat's (each board's value looked up by its contents)."""
    values = seat_values(game, state)
    mine = values.pop(seat)
    return mine - max(values)


def guess(game: PlantedGame, state: PlantedState, seat: int, rng: random.Random) -> str:
    """A guess at what another seat does at the same time (`Heuristics.guess`). Choosing: as `determinize`
    guesses a choice already made, a card of its hand at random, called for Nursery with the chance
    NURSERY_GUESS where the seat may call. Feeding: the solver's best feeding."""
    legal = game.legal_actions(state, seat)
    if state.phase == FEED:
        return legal[0]
    if state.phase != CHOOSE:
        return legal[rng.randrange(len(legal))]
    hand = state.hands[seat]
    card = hand[rng.randrange(len(hand))]
    call = game.actions.nursery_text[card]
    if call in legal and rng.random() < NURSERY_GUESS:
        return call
    return game.actions.play_text[card]
