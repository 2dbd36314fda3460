"""How a finished rated game moves its players' ratings: Elo, each person against every other person.

Which games count: a game begun from a lobby table marked rated (the default; its creator may make it
unrated) at which at least two seats were taken by players, people with a name. AI seats never count: a table
with AI seats is rated between its people when it seats two or more, and a game with one person, or only AI
seats, or made without a table (`POST /api/games`), changes no rating. A seat its player handed to an AI
during the game still counts as that player's: leaving does not dodge a loss.

Places: the game's winners (after its own tie-breaks) share first place; every other seat is placed by its
final score, equal scores sharing a place. Only the people are placed against each other.

Change: every player starts a game's ladder at START. Each pair of people at the table is one Elo game: the
better place scores 1, a shared place 1/2, the worse 0, against the expected share 1 / (1 + 10^((Rb − Ra) /
400)) (`agents.elo.expected`). A player's change is K / (n − 1) times the sum, over the n − 1 other people, of
score minus expected share: two equals at a two-player table move ±16, and a table of many people moves a
rating about as far as one two-player game would, however many sit. Every change is worked out from the
ratings before the game, so a game's changes add up to zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from ..agents.elo import expected

#: A new player's rating in each game.
START = 1500.0
#: Elo's K: the most one game between two people can move a rating.
K = 32.0

Key = TypeVar("Key")


def rates(table_rated: bool, people: int) -> bool:
    """Whether a game a lobby table begins is rated: the table is marked rated and two or more people sit at it."""
    return bool(table_rated) and people >= 2


def places(scores: Sequence[float], winners: Sequence[int], seats: Sequence[int]) -> dict[int, int]:
    """Each of `seats`' place (0 is first; equal places tie): the winners first, then the others by score."""
    winning = set(winners)

    def rank(seat: int) -> tuple[bool, float]:
        return (seat in winning, float(scores[seat]) if seat not in winning else 0.0)

    keys = {seat: rank(seat) for seat in seats}
    return {seat: sum(1 for other in seats if keys[other] > keys[seat]) for seat in seats}


def changes(ratings: Mapping[Key, float], placed: Mapping[Key, int], k: float = K) -> dict[Key, float]:
    """Each player's rating change from one game (module docstring): `ratings` before it, `placed` the places."""
    people = list(placed)
    if len(people) < 2:
        return {person: 0.0 for person in people}
    share = k / (len(people) - 1)
    moved = {}
    for person in people:
        total = 0.0
        for other in people:
            if other == person:
                continue
            score = 1.0 if placed[person] < placed[other] else 0.5 if placed[person] == placed[other] else 0.0
            total += score - expected(ratings[person], ratings[other])
        moved[person] = share * total
    return moved
