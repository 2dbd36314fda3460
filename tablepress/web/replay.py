"""A game's record and its replay: `GET /api/games/{id}/record` (for `tablepress replay`, once the game is over)
and `GET /api/games/{id}/replay?step=N` (the game as it stood after N actions, as the asking seat may see it)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ..core import records
from ..core.errors import IllegalAction
from .rooms import Room, build_view
from .seats import request_seat

router = APIRouter()


@router.get("/api/games/{game_id}/record")
async def get_record(game_id: str, request: Request) -> dict[str, Any]:
    """The game record (for `tablepress replay`), once the game is over."""
    room = request.app.state.hub.room(game_id)
    if not room.match.is_over:
        raise IllegalAction("the record is given once the game is over")
    return room.match.record()


@router.get("/api/games/{game_id}/replay")
async def get_replay(game_id: str, request: Request, step: int = 0) -> dict[str, Any]:
    """The game as it stood after `step` actions, seen by the token's seat (or a spectator).

    During the game this is what the seat saw then (its own view at that step, the log as it read it);
    once the game is over every secret choice in the log is shown.
    """
    room = request.app.state.hub.room(game_id)
    return replay_view(room, request_seat(room, request), step)


def replay_view(room: Room, seat: int | None, step: int) -> dict[str, Any]:
    """The view after `step` actions (steps clamp to 0..the number of actions so far)."""
    record = room.match.record()
    total = len(record["actions"])
    step = max(0, min(step, total))
    match = None
    for index, match in enumerate(records.replay({**record, "actions": record["actions"][:step]})):
        if index == step:
            break
    assert match is not None
    game, state = match.game, match.state
    view = build_view(room, game.view(state, seat), seat, match, legal=[],
                      log=room.log_for(seat, upto=step, reveal=room.match.is_over))
    view.update({"step": step, "steps": total, "replay": True})
    return view
