"""Sure endings: the actions that end the game now with a result the deciding seat can be certain of.

A search that backs up a seat's own value (Flowers from 3 players) does not see that drawing a stack's
last face-up card and placing it well wins the game outright, nor that drawing it loses: the end is a
matter of winning, not of points. So before it searches, a seat looks at each legal action and, if its
turn goes on, at each way to finish it (`endings_of`), on a few determinizations of what it knows. An
action is *winning* when one way to finish it ends the game with the seat the sole winner, and *losing*
when every way to finish it ends the game without the seat among the winners — in both cases with the
same final scores in every determinization, so the result rests on what the seat knows, not on hidden
cards a determinization guessed (in Pressed the collections are private: sampled ones would call a loss
a win). These are decisive moves (Teytaud & Teytaud, 2010) for a game whose end is one turn away.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.game import Game
from .base import SeatInfo

#: Determinizations an ending must show the same final scores in.
ENDING_WORLDS = 4

#: One way an action's turn ends the game: the seat's share of the victory and every seat's final score.
Result = tuple[float, tuple[int, ...]]


@dataclass(frozen=True)
class SureEndings:
    """What the ending check found: an action that wins outright (or None) and the actions that lose for sure."""

    winning: str | None = None
    losing: frozenset[str] = frozenset()


def endings_of(game: Game, state: Any, seat: int, action: str) -> tuple[dict[str, Result], bool]:
    """The ways `action` (and, if the seat is still the one to move, its next action) ends the game in
    `state`: {the next action, or "" for `action` alone: its result}, and whether some way goes on instead.
    `state` is not changed."""
    child = game.clone(state)
    game.apply_legal(child, seat, action)
    if game.is_over(child):
        return {"": _result(game, child, seat)}, False
    if tuple(game.to_move(child)) != (seat,):
        return {}, True
    ended: dict[str, Result] = {}
    goes_on = False
    for follow in game.legal_actions(child, seat):
        grandchild = game.clone(child)
        game.apply_legal(grandchild, seat, follow)
        if game.is_over(grandchild):
            ended[follow] = _result(game, grandchild, seat)
        else:
            goes_on = True
    return ended, goes_on


def sure_endings(game: Game, worlds: Sequence[Any], seat: int, actions: Sequence[str]) -> SureEndings:
    """The winning action (the first in `actions`) and the losing ones, judged on `worlds` (determinizations
    of the seat's information). When every action loses for sure, none is called losing: nothing avoids it."""
    first = {action: endings_of(game, worlds[0], seat, action) for action in actions}
    for action in actions:
        wins = {line: result for line, result in first[action][0].items() if result[0] == 1.0}
        for world in worlds[1:]:
            if not wins:
                break
            elsewhere = endings_of(game, world, seat, action)[0]
            wins = {line: result for line, result in wins.items() if elsewhere.get(line) == result}
        if wins:
            return SureEndings(winning=action)
    losing = frozenset(
        action for action in actions
        if first[action][0] and not first[action][1] and all(share == 0.0 for share, _ in first[action][0].values())
        and all(endings_of(game, world, seat, action) == first[action] for world in worlds[1:]))
    return SureEndings(losing=losing if len(losing) < len(actions) else frozenset())


def check_endings(info: SeatInfo, actions: Sequence[str], rng: random.Random) -> SureEndings:
    """`sure_endings` for the seat deciding in `info`, on `ENDING_WORLDS` determinizations drawn with `rng`."""
    worlds = [info.determinize(rng) for _ in range(ENDING_WORLDS)]
    return sure_endings(info.game, worlds, info.seat, actions)


def _result(game: Game, state: Any, seat: int) -> Result:
    winners = game.winners(state)
    return (1.0 / len(winners) if seat in winners else 0.0), tuple(game.scores(state))
