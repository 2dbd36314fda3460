"""Rematch: a finished game's people play again — same game, options, variant, seats and names, a new deal.

The first seat to ask creates the new game; asking again gives the same one. Each seat's old token claims
that seat, and only that seat, in the rematch: the answer carries the asking seat's new token and nothing
else, so no seat can read or act for another. Every human seat watching the finished game also gets its
own new link over its live connection (a `{"rematch": ...}` message carrying only that seat's token), so
nobody has to pass links around again.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction
from .hub import Hub
from .rooms import Room


async def rematch(hub: Hub, room: Room, seat: int, client: str | None = None) -> tuple[str, dict[str, str]]:
    """(new game id, {seat: its new token}) for the seat that asks: the finished game's rematch, created on
    the first call; the other seats' tokens stay on the server until each asks with its own old token."""
    if not room.match.is_over:
        raise IllegalAction("a rematch starts once the game is over")
    async with room.lock:
        if room.rematch is None:
            row = room.row
            variant: Any = row.variant_id if row.variant_id else row.variant
            new, tokens = await hub.create(row.game, list(row.seats), row.options, None, names=list(row.names),
                                           variant=variant, client=client)
            room.rematch = (new.id, tokens)
            for watcher in list(room.watchers):
                token = tokens.get(str(watcher.seat)) if watcher.seat is not None else None
                if token is not None:
                    watcher.push({"rematch": {"id": new.id, "seat": watcher.seat, "token": token}})
    new_id, tokens = room.rematch
    own = tokens.get(str(seat))
    return new_id, {} if own is None else {str(seat): own}
