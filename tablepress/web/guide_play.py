"""A guided first game played without a server, the way the server plays it: the opponent's level decides
with the hub's seeds (`thinking.decision_seed`, `thinking.decision_index`), and the newcomer's views are the
ones the API would give, built by a room.

Tests replay a guide with it (every step's expectations met where it is shown, the newcomer winning by
following the line), and `scripts/guide_line.py` writes a guide's line with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.guide import Guide, Point
from ..core.match import Match, jsonable
from ..core.registry import get_game
from .rooms import Room
from .store import GameRow
from .thinking import decide, decision_index, decision_seed, played

#: Chooses the newcomer's action from the match and the newcomer's seat (used when the line runs out).
Chooser = Callable[[Match, int], str]


@dataclass
class Seen:
    """One moment the newcomer looked at the table: its view and what the guide showed there."""

    view: dict[str, Any]
    point: Point
    #: What the guide's `suggested_by` agent takes there from the newcomer's information (when asked for).
    agent: str | None = None


@dataclass
class GuidedRun:
    """A guided game played to its end: the match, and every moment the newcomer saw, in order."""

    match: Match
    seen: list[Seen] = field(default_factory=list)

    @property
    def won(self) -> bool:
        """Whether the newcomer is the game's only winner."""
        return self.match.game.winners(self.match.state) == [self.seat]

    @property
    def seat(self) -> int:
        """The newcomer's seat."""
        return self.match.seats.index("human")


def new_room(guide: Guide) -> Room:
    """A room holding the guide's game at its start (not stored anywhere)."""
    game = get_game(guide.game)
    match = Match(game, guide.players, guide.seed, guide.options, guide.seats)
    names = ["Newcomer" if spec == "human" else "Beginner AI" for spec in guide.seats]
    row = GameRow(id="guide", game=game.name, players=guide.players, options=jsonable(match.options),
                  seats=list(guide.seats), names=names, seed=guide.seed, variant=None, token_hashes={}, created=0.0)
    return Room(row, match)


def ai_choice(match: Match, seat: int, spec: str) -> str:
    """What an AI seat playing `spec` takes now on the server (the same seed and information as the hub's)."""
    state = match.state
    seed = decision_seed(match.seed, seat, decision_index(match, seat))
    return decide(match.game.name, None, state, seat, spec, seed, past=played(match))


def suggestion(match: Match, seat: int, guide: Guide) -> str:
    """The move the guide's `suggested_by` agent takes in the newcomer's seat now, from that seat's information."""
    return ai_choice(match, seat, guide.suggested_by)


def run_guide(guide: Guide, newcomer_first: bool = False, extend: Chooser | None = None,
              ask_agent: bool = False) -> GuidedRun:
    """Play the guide's game to its end: the newcomer takes the line's moves (then `extend`'s, if given and the
    line runs out), the opponent its level's. In a simultaneous choice the opponent chooses first unless
    `newcomer_first`. The newcomer looks at the table whenever it is to move and once the game is over; with
    `ask_agent`, each time it is to move the guide's `suggested_by` agent is asked too (`Seen.agent`)."""
    room = new_room(guide)
    match, seat = room.match, guide.seat
    run = GuidedRun(match)

    def look() -> Point:
        room.changed()
        view = room.view_for(seat)
        point = guide.at(view)
        moving = ask_agent and not match.is_over and seat in match.to_move()
        run.seen.append(Seen(view, point, suggestion(match, seat, guide) if moving else None))
        return point

    while not match.is_over:
        movers = match.to_move()
        others = [s for s in movers if s != seat]
        if others and (seat not in movers or not newcomer_first):
            if seat in movers:
                look()  # the newcomer sees the table before the opponent has chosen too
            mover = min(others)
            match.act(mover, ai_choice(match, mover, match.seats[mover]))
            continue
        point = look()
        move = point.move
        if move < len(guide.line):
            action = guide.line[move]
        elif extend is not None:
            action = extend(match, seat)
        else:
            raise AssertionError(f"the guide's line ends after {len(guide.line)} moves, before the game does")
        match.act(seat, action)
    look()
    return run
