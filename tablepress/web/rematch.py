"""Rematch: a finished game's people play again — same game, options, variant, seats and names, a new deal.

The first seat to ask creates the new game; asking again gives the same one. Every human seat watching the
finished game gets its own new seat link over its live connection (a `{"rematch": ...}` message carrying
only that seat's token), so nobody has to pass links around again.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction
from .hub import Hub
from .rooms import Room


async def rematch(hub: Hub, room: Room, client: str | None = None) -> tuple[str, dict[str, str]]:
    """(new game id, a token per human seat) of the finished game's rematch, created on the first call."""
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
    return room.rematch
