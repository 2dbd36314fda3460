"""A points-like standing of one seat in a By This state, for the agents (used on determinized states).

seat_value(seat) = points so far + small terms for closes (the tie-break) and specials in hand + the
seat's expected share of the shelves still to close; at the end, points and closes plus each winner's
share of a win bonus. The package's evaluate is the margin of it over the best rival.

Who gets a shelf is a race (rules.md, Close): at the end of every turn whoever holds a shelf
of the minimum length may close it, so a shelf kept open is offered to the next player, who may extend
it first. `shelf_race` plays the next turns out in the (determinized) state with every seat placing
the thing that grows the close the most and closing as soon as it may: each close in the horizon is
credited to its closer, discounted by how far ahead it lies. So closing now is weighed against
keeping: keeping is worth its longer shelf only if the race brings the shelf back to the keeper, and it
also counts who is placed to close the next shelf (with 4 players the closer places the next 4th card).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...agents.presets import RolloutImprovement
from .engine import CLOSE_STEP, OVER, ByThisGame, ByThisState
from .scoring import close_points

CLOSE_WEIGHT = 0.1  # a close breaks ties
SPECIAL_WEIGHT = 0.5  # a special in hand: a future option
GROWTH_DISCOUNT = 0.8  # a close that still needs the closer's own placement is not yet on the shelf
TURN_DISCOUNT = 0.7  # per turn ahead: hands change, specials re-key or dump the shelf
WIN_BONUS = 0.5
#: ismcts preset (agents/presets.py), at every player count: greedy's 4 best actions each rolled out on shared
#: determinizations, every seat playing as the greedy player, through 3 of the seat's own turns; the best mean
#: chosen. How strong it is and what else was tried: docs/strength.md.
SEARCH = RolloutImprovement(candidates=4, rollout_turns=3)


#: The last race and what it was run on: margins ask every seat's value of the same state in a row.
_last: list[tuple[tuple, list[float]]] = []


def race_shares(game: ByThisGame, state: ByThisState) -> list[float]:
    """`shelf_race` of the state, remembered for the next call on a state with the same contents."""
    key = (game, state.key, state.current, state.phase == CLOSE_STEP, state.total_closes, tuple(state.shelf),
           tuple(state.floor), tuple(map(tuple, state.hands)), tuple(state.deck))
    if _last and _last[0][0] == key:
        return _last[0][1]
    shares = shelf_race(game, state)
    _last[:] = [(key, shares)]
    return shares


def shelf_race(game: ByThisGame, state: ByThisState) -> list[float]:
    """Each seat's discounted points from the closes the next turns are likely to bring (see the module doc).

    Turn by turn from the seat acting now: the seat draws to a full hand (from the determinized deck),
    places the thing from its hand or the Floor that makes the shelf's close score most (if any fits),
    and closes if the shelf is long enough. The race stops after `close_min + players` turns or when
    the closes end the game. A seat deciding to close now (the close step) closes without placing.

    The shelf is carried as its length, its end numbers and its close score: a thing placed on an end
    scores 2 more with that end's number, 1 more with another (scoring.close_points).
    """
    players = state.players
    shares = [0.0] * players
    least = game.close_min(state)
    numbers = game.shelf_numbers(state)
    length, points = len(numbers), close_points(numbers)
    left, right = (numbers[0], numbers[-1]) if numbers else (0, 0)
    key_numbers = game.key_numbers[state.key]
    ascending = game.key_ascending[state.key]
    limit = game.thing_count
    hand_size = game.cards.hand_size[players]
    closes_left = game.cards.closes_to_end[players] - state.total_closes
    deck = [card for card in state.deck if card < limit]
    floor = list(state.floor)
    hands = [[card for card in hand if card < limit] for hand in state.hands]
    specials = [len(hand) - len(hands[s]) for s, hand in enumerate(state.hands)]
    seat, placed_now = state.current, state.phase == CLOSE_STEP
    for ahead in range(least + players):
        if ahead:
            need = hand_size - len(hands[seat]) - specials[seat]
            while need > 0 and deck:
                hands[seat].append(deck.pop())
                need -= 1
        grew = False
        ready = float(points) if length >= least else 0.0  # closing without placing
        if not placed_now:
            choice = _best_placement(hands[seat], floor, key_numbers, ascending, length, left, right, points)
            if choice is not None:
                pool, card, left, right, points = choice
                pool.remove(card)
                length += 1
                grew = True
        placed_now = False
        if length >= least:
            close = max(ready, GROWTH_DISCOUNT * points) if grew else ready
            shares[seat] += TURN_DISCOUNT ** ahead * close
            length = points = 0
            closes_left -= 1
            if closes_left <= 0:
                break
        seat = (seat + 1) % players
    return shares


def _best_placement(hand: list[int], floor: list[int], key_numbers: Sequence[int], ascending: bool, length: int,
                    left: int, right: int, points: int) -> tuple[list[int], int, int, int, int] | None:
    """The first placement (hand before Floor, each in order, left end before right) whose close scores
    most: (its pool, the card, the shelf's new ends and close score), or None if nothing fits."""
    if not length:  # any thing starts the shelf, for 1
        pool = hand or floor
        return (pool, pool[0], key_numbers[pool[0]], key_numbers[pool[0]], 1) if pool else None
    best = -1
    choice = None
    top = points + 2  # a thing beside its own number: nothing scores more
    for pool in (hand, floor):
        for card in pool:
            n = key_numbers[card]
            if (n <= left) if ascending else (n >= left):
                gain = points + 1 + (n == left)
                if gain > best:
                    best, choice = gain, (pool, card, n, right, gain)
            if (n >= right) if ascending else (n <= right):
                gain = points + 1 + (n == right)
                if gain > best:
                    best, choice = gain, (pool, card, left, n, gain)
            if best == top:
                return choice
    return choice


def seat_value(game: ByThisGame, state: ByThisState, seat: int) -> float:
    """The seat's own standing in points: score, closes, specials in hand, its share of the shelf race."""
    value = state.scores[seat] + CLOSE_WEIGHT * state.closes[seat]
    if state.phase == OVER:
        winners = game.winners(state)
        return value + WIN_BONUS / len(winners) if seat in winners else value
    value += race_shares(game, state)[seat]
    return value + SPECIAL_WEIGHT * sum(1 for card in state.hands[seat] if card >= game.thing_count)
