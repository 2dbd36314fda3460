"""A points-like evaluation of a full Pressed state for the greedy player (run on determinized states).

A seat's value is its score on the track, plus its pressed collection under final scoring (the
solver's best total; picked cards not yet pressed count as their best press), plus a share of the
column it would get this round. Which column that is, is a **pick race**: the seats still to pick take,
in the pick order (rules.md, Pick: lowest score first, ties lowest in the stack; while planting,
the order the scores make now), each the open column whose best press adds most to its collection. So
points on the track are weighed against picking later, and a column is worth to a seat only what the
seats before it leave. Greedy play maximises the margin of that value over the best opponent's.

`step_values` values each planting from what it changes: the planter's points (its row and column, and
its place in the pick order) and the one column it grows; every other column's worth to each seat is
worked out once a decision."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ...agents.presets import RolloutImprovement
from .cards import SWAP
from .engine import PressedGame
from .flow import press_choices
from .scoring import best_total, collection_counts
from .state import OVER, PICK, PLANT, PressedState, collection

#: How much the column a seat would get in the pick race counts while planting (the bed still grows) and
#: in the pick step. The weights tried and how each played are in docs/history/strength-log.md.
PLANT_RACE_WEIGHT = 1.5
PICK_RACE_WEIGHT = 1.0
#: ismcts preset (agents/presets.py): at every player count the tree is replaced by greedy's 12 best root
#: actions, compared by sequential halving on shared determinizations, each rollout every seat playing as the
#: greedy player until the searcher's second turn after this one. How strong it is, and the command that
#: measures it: docs/strength.md.
SEARCH = RolloutImprovement(candidates=12, halving=True, rollout_turns=2)


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
    """Points-like value of `seat`'s position: track score, pressed value, picked cards' best press and
    the share of the column the pick race gives it (see the module doc)."""
    if state.phase == OVER:
        return float(game.scores(state)[seat])
    # A search's cut-off asks every seat's value of one state in a row: one race serves them all.
    key = (game, state.phase, state.round, tuple(state.picks[state.round]) if state.picks else None,
           tuple(map(tuple, state.to_press)), tuple(map(tuple, state.pressed)), tuple(map(tuple, state.bed)),
           tuple(state.taken), tuple(state.scores), tuple(state.stack), tuple(state.pick_order))
    if not _last or _last[0][0] != key:
        _last[:] = [(key, seat_values(game, state))]
    return _last[0][1][seat]


#: The last state `seat_value` raced, by everything the race reads.
_last: list[tuple[tuple, list[float]]] = []


def seat_values(game: PressedGame, state: PressedState) -> list[float]:
    """`seat_value` of every seat, with one pick race for all."""
    cards = game.cards
    players = state.players
    counts = [_counts(game, state, s) for s in range(players)]
    values = [float(state.scores[s]) + best_total(counts[s], cards) for s in range(players)]
    for s in range(players):
        if state.to_press[s]:
            values[s] += best_press_gain(game, counts[s], state.to_press[s])
    pickers = {s for s in range(players) if _still_picks(state, s)}
    if pickers:
        gains = _open_gains(game, state, counts)
        order = state.pick_order if state.phase == PICK else _pick_order(state.scores, state.stack)
        weight = PLANT_RACE_WEIGHT if state.phase == PLANT else PICK_RACE_WEIGHT
        for s, gain in pick_race([s for s in order if s in pickers], gains).items():
            values[s] += weight * gain
    return values


def pick_race(order: Sequence[int], gains: Sequence[Sequence[int | None]]) -> dict[int, int]:
    """What each seat of `order` gains from the column it takes when each in turn takes the open column
    that adds most to its collection (`gains[seat][column]`, None for a column not open; ties: leftmost)."""
    taken: set[int] = set()
    got: dict[int, int] = {}
    for seat in order:
        best, column = None, None
        for c, gain in enumerate(gains[seat]):
            if gain is not None and c not in taken and (best is None or gain > best):
                best, column = gain, c
        if column is not None:
            taken.add(column)
            got[seat] = best
    return got


def _pick_order(scores: Sequence[int], stack: Sequence[int]) -> list[int]:
    """The order seats would pick in with these scores (rules: lowest first, ties lowest in the stack)."""
    return sorted(range(len(scores)), key=lambda s: (scores[s], stack.index(s)))


def _open_gains(game: PressedGame, state: PressedState, counts: Sequence[tuple[int, ...]]) -> list[list[int | None]]:
    """Per seat and column what the column's best press adds to the seat's collection (None: not open)."""
    return [[best_press_gain(game, counts[s], col) if col and state.taken[c] < 0 else None
             for c, col in enumerate(state.bed)] for s in range(state.players)]


def evaluate(game: PressedGame, state: PressedState, seat: int) -> float:
    """`seat`'s value minus the best other seat's."""
    values = [float(score) for score in game.scores(state)] if state.phase == OVER else seat_values(game, state)
    return values[seat] - max(value for other, value in enumerate(values) if other != seat)


def step_values(game: PressedGame, state: PressedState, seat: int, actions: Sequence[str]) -> list[float]:
    """`evaluate` for `seat` after each of its legal `actions`, without changing `state`.

    A planting (in the plant step, where every seat still has its pick to make and nothing waits to
    be pressed) scores by its row and column and grows one column: each seat's value is its track
    score, its collection and the column the pick race gives it, where only the grown column's gains
    are new and the planter's points may move it in the pick order. Other actions are applied to a copy
    and evaluated in full.
    """
    if state.phase != PLANT or any(state.to_press) or not all(_still_picks(state, s) for s in range(state.players)):
        return [_by_copying(game, state, seat, action) for action in actions]
    cards = game.cards
    players = state.players
    counts = [_counts(game, state, s) for s in range(players)]
    totals = [best_total(counts[s], cards) for s in range(players)]
    gains = _open_gains(game, state, counts)
    # After the last card the pick step begins: its order is the one the race runs in.
    weight = PICK_RACE_WEIGHT if sum(len(hand) for hand in state.hands) == 1 else PLANT_RACE_WEIGHT
    values = []
    for action in actions:
        column = int(action.split()[2]) - 1
        result = game.plant_result(state, action)
        grown = state.bed[column] + [result.kind]
        scores, stack = list(state.scores), list(state.stack)
        if result.points:  # the marker moves onto the top of the stack there
            scores[seat] += result.points
            stack.remove(seat)
            stack.append(seat)
        seat_values = [float(scores[s]) + totals[s] for s in range(players)]
        bed = [grown if c == column else col for c, col in enumerate(state.bed)]
        # With a swap to come, no seat's value counts a column (that step is not a plant or a pick).
        if not (cards.effects[result.acts_as] == SWAP and _swap_offered(bed, len(grown) - 1)):
            grown_gains = [[best_press_gain(game, counts[s], grown) if c == column else gain
                            for c, gain in enumerate(gains[s])] for s in range(players)]
            for s, gain in pick_race(_pick_order(scores, stack), grown_gains).items():
                seat_values[s] += weight * gain
        values.append(seat_values[seat] - max(v for s, v in enumerate(seat_values) if s != seat))
    return values


def _swap_offered(bed: list[list[int]], row: int) -> bool:
    """Whether two columns reaching `row` hold different flowers there (an Anemone's swap is offered)."""
    return len({col[row] for col in bed if len(col) > row}) > 1


def _by_copying(game: PressedGame, state: PressedState, seat: int, action: str) -> float:
    child = game.clone(state)
    game.apply_legal(child, seat, action)
    return evaluate(game, child, seat)
