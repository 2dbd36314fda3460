"""A points-like evaluation of a full Pressed state for the greedy player (run on determinized states).

A seat's value is its score on the track, plus its pressed collection under final scoring (the
solver's best total; picked cards not yet pressed count as their best press), plus a share of what
the best open column would add while the seat still has a pick to make this round. Greedy play
maximises the margin of that value over the best opponent's.

`step_values` values each planting from what it changes: the planter's points (its row and column)
and the one column it grows; every other column's worth to each seat is worked out once a decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .cards import SWAP
from .engine import PressedGame
from .flow import press_choices
from .scoring import best_total, collection_counts
from .state import OVER, PICK, PLANT, PressedState, collection

#: How much the best open column counts while planting (others may take it first).
PLANT_COLUMN_WEIGHT = 0.25
#: How much the best open column counts during the pick step, before the seat's own pick.
PICK_COLUMN_WEIGHT = 0.5


def best_press_gain(game: PressedGame, counts: tuple[int, ...], picked: Sequence[int]) -> int:
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


def _counts(game: PressedGame, state: PressedState, seat: int) -> tuple[int, ...]:
    return collection_counts(collection(state, seat), game.cards)


def _still_picks(state: PressedState, seat: int) -> bool:
    """Whether `seat` has a pick to make this round (in the plant or pick step)."""
    picked = state.picks[state.round][seat] is not None if state.picks else True
    return state.phase in (PLANT, PICK) and not picked


def seat_value(game: PressedGame, state: PressedState, seat: int) -> float:
    """Points-like value of `seat`'s position: track score, pressed value, a share of an open column."""
    if state.phase == OVER:
        return float(game.scores(state)[seat])
    counts = _counts(game, state, seat)
    value = float(state.scores[seat]) + best_total(counts, game.cards)
    if state.to_press[seat]:
        return value + best_press_gain(game, counts, state.to_press[seat])
    if _still_picks(state, seat):
        weight = PLANT_COLUMN_WEIGHT if state.phase == PLANT else PICK_COLUMN_WEIGHT
        gains = [best_press_gain(game, counts, col) for c, col in enumerate(state.bed)
                 if col and state.taken[c] < 0]
        if gains:
            value += weight * max(gains)
    return value


def evaluate(game: PressedGame, state: PressedState, seat: int) -> float:
    """`seat`'s value minus the best other seat's."""
    if state.phase == OVER:
        values = [float(score) for score in game.scores(state)]
    else:
        values = [seat_value(game, state, other) for other in range(state.players)]
    return values[seat] - max(value for other, value in enumerate(values) if other != seat)


def step_values(game: PressedGame, state: PressedState, seat: int, actions: Sequence[str]) -> list[float]:
    """`evaluate` for `seat` after each of its legal `actions`, without changing `state`.

    A planting (in the plant step, where every seat still has its pick to make and nothing waits to
    be pressed) scores by its row and column and grows one column: each seat's value is its track
    score, its collection and the best of the open columns, of which only the grown one is new. Other
    actions are applied to a copy and evaluated in full.
    """
    if state.phase != PLANT or any(state.to_press) or not all(_still_picks(state, s) for s in range(state.players)):
        return [_by_copying(game, state, seat, action) for action in actions]
    cards = game.cards
    players = state.players
    counts = [_counts(game, state, s) for s in range(players)]
    totals = [best_total(counts[s], cards) for s in range(players)]
    gains = [[best_press_gain(game, counts[s], col) if col and state.taken[c] < 0 else None
              for c, col in enumerate(state.bed)] for s in range(players)]
    last_card = sum(len(hand) for hand in state.hands) == 1
    values = []
    for action in actions:
        column = int(action.split()[2]) - 1
        result = game.plant_result(state, action)
        grown = state.bed[column] + [result.kind]
        bed = [grown if c == column else col for c, col in enumerate(state.bed)]
        if cards.effects[result.acts_as] == SWAP and _swap_offered(bed, len(grown) - 1):
            weight = None  # the swap step follows, in which no seat's value counts a column
        else:
            weight = PICK_COLUMN_WEIGHT if last_card else PLANT_COLUMN_WEIGHT
        seat_values = []
        for s in range(players):
            value = float(state.scores[s] + (result.points if s == seat else 0)) + totals[s]
            if weight is not None:
                open_gains = [gain for c, gain in enumerate(gains[s]) if c != column and gain is not None]
                if state.taken[column] < 0:
                    open_gains.append(best_press_gain(game, counts[s], grown))
                if open_gains:
                    value += weight * max(open_gains)
            seat_values.append(value)
        values.append(seat_values[seat] - max(v for s, v in enumerate(seat_values) if s != seat))
    return values


def _swap_offered(bed: list[list[int]], row: int) -> bool:
    """Whether two columns reaching `row` hold different flowers there (an Anemone's swap is offered)."""
    return len({col[row] for col in bed if len(col) > row}) > 1


def _by_copying(game: PressedGame, state: PressedState, seat: int, action: str) -> float:
    child = game.clone(state)
    game.apply_legal(child, seat, action)
    return evaluate(game, child, seat)
