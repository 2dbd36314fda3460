"""Bringing a room held in memory to the game as stored, when another process wrote to it.

Any process may act on any game (docs/DEVELOPING.md, "Running as many processes"); what a process holds
of a game is only a cache of the store. `replay` takes stored actions through a room's match as the hub
took them, keeping the undo points, so that whichever process serves a seat can take its last action back.
`take_appended` brings a room to a newer stored row read with only the actions it lacks, when every
write since was an append (`only_appended`) (the common case: someone acted elsewhere); else `catch_up` takes the whole stored
game and replays the actions it lacks when its moves are a start of the stored ones, or the caller rebuilds
the room from the row (an undo elsewhere) and `adopt`s the new one in place, keeping its lock, watchers and
AI mover.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..agents.base import HUMAN
from ..core.match import UndoPoint
from .rooms import Room
from .store import GameRow

StoredAction = tuple[int, str, str, float]  # (seat, action, public text, time)


def replay(room: Room, actions: Sequence[StoredAction]) -> None:
    """Take stored actions through the room's match, keeping the undo points of the last run of one seat's
    actions (the only ones `Room.keep_undo` would still hold)."""
    match, game = room.match, room.match.game
    run = len(actions)
    while run > 0 and actions[run - 1][0] == actions[-1][0]:
        run -= 1
    for index, (seat, action, _public, at) in enumerate(actions):
        if index < run:
            match.act(seat, action, at=at)
            room.keep_undo(seat, None)
            continue
        kept: list[UndoPoint] = []

        def keep(move: object, after: object, seat: int = seat, action: str = action) -> None:
            """Keep the point before an action that may be taken back (as `Hub.commit` does)."""
            if not game.is_over(after) and game.undoable(match.state, seat, action):
                kept.append(match.undo_point())

        match.act(seat, action, at=at, commit=keep)
        room.keep_undo(seat, kept[0] if kept else None)


def catch_up(room: Room, row: GameRow) -> bool:
    """Bring `room` to the stored `row` (read with all its actions) by replaying the actions it lacks; False,
    changing nothing, when its moves are not a start of the stored ones (then rebuild it and `adopt`)."""
    moves = room.match.moves
    if len(row.actions) < len(moves):
        return False
    if any((move.seat, move.action) != (seat, action) for move, (seat, action, _p, _at) in zip(moves, row.actions)):
        return False
    replay(room, row.actions[len(moves):])
    took_row(room, row)
    return True


def took_row(room: Room, row: GameRow) -> None:
    """After its actions are replayed, the room takes the rest of the stored row: seats, result, rematch,
    whether it is rated, revision."""
    seat_changes(room, row)
    room.row.status, room.row.scores, room.row.winners = row.status, row.scores, row.winners
    room.row.rematch_id, room.row.rated = row.rematch_id, row.rated
    room.row.revision = row.revision


def only_appended(room: Room, row: GameRow) -> bool:
    """Whether every write since the room's revision was an append, for a `row` read with only the actions from
    the room's count on (Store.load_since): as many revisions as new actions, and the count adds up."""
    new = len(row.actions)
    return row.revision - room.row.revision == new and row.count == len(room.match.moves) + new


def take_appended(room: Room, row: GameRow) -> None:
    """Bring `room` to the stored `row`, read with only the actions it lacks, when `only_appended` says so."""
    replay(room, row.actions)
    took_row(room, row)


def adopt(room: Room, fresh: Room) -> None:
    """Make `room` hold what `fresh` (rebuilt from the store) holds, keeping its lock, watchers and AI mover."""
    seat_changes(room, fresh.row)
    fresh.row.actions = []
    room.row = fresh.row
    room.match = fresh.match
    room.narration = fresh.narration
    room.undo_stack = fresh.undo_stack
    room.ai_seats = fresh.ai_seats


def seat_changes(room: Room, row: GameRow) -> None:
    """Take who sits where from `row`; the live views of a seat handed to an AI end (as on the process that
    handed it over)."""
    for seat, (old, new) in enumerate(zip(room.match.seats, row.seats)):
        if old == HUMAN and new != HUMAN:
            for watcher in [w for w in room.watchers if w.seat == seat]:
                room.watchers.discard(watcher)
                watcher.push(None)
    room.match.seats = list(row.seats)
    room.row.seats, room.row.names, room.row.token_hashes = list(row.seats), list(row.names), dict(row.token_hashes)
    room.ai_seats = {seat: spec for seat, spec in enumerate(row.seats) if spec != HUMAN}
