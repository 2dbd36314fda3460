"""Seat rotation for a simulation: a balanced Latin square (Williams design) over the turn positions.

Game `index` of a run uses row `index % cycle(players)` of the square: the agent spec at turn position p
(0 = the first to act) is `specs[row[p]]`. Every agent spec then holds every turn position equally often
over each cycle, and (Williams) each spec follows each other spec directly equally often too, so neither
turn position nor the neighbour one plays after favours an agent. A cycle is `players` games for an even
count and `2 × players` for an odd one; a run whose game count is not a multiple of the cycle is balanced
up to its last, partial cycle.
"""

from __future__ import annotations

from functools import lru_cache


#: Designs kept built, one per player count.
DESIGNS_KEPT = 32


@lru_cache(maxsize=DESIGNS_KEPT)
def williams_square(players: int) -> tuple[tuple[int, ...], ...]:
    """The rows of a Williams design for `players` positions (each row a permutation of range(players))."""
    if players < 1:
        raise ValueError("a design needs at least one position")
    first = [0]
    low, high = 1, players - 1
    while len(first) < players:
        first.append(low)
        low += 1
        if len(first) < players:
            first.append(high)
            high -= 1
    rows = [tuple((value + shift) % players for value in first) for shift in range(players)]
    if players % 2:
        rows += [tuple(reversed(row)) for row in rows]
    return tuple(rows)


def cycle(players: int) -> int:
    """Games in one full rotation: every spec in every turn position equally often."""
    return len(williams_square(players))


def position_entrants(players: int, index: int) -> tuple[int, ...]:
    """Which spec (its index in --seats) holds each turn position (0 = first to act) in game `index`."""
    rows = williams_square(players)
    return rows[index % len(rows)]


def seat_entrants(players: int, index: int, first: int) -> list[int]:
    """Which spec sits at each seat in game `index` when seat `first` acts first (seats follow in turn order)."""
    by_position = position_entrants(players, index)
    return [by_position[(seat - first) % players] for seat in range(players)]


def turn_position(seat: int, first: int, players: int) -> int:
    """A seat's turn position in a game (0 = the first to act)."""
    return (seat - first) % players
