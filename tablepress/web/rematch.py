"""Rematch: a finished game's people play again — same game, options, variant, seats and names, a new deal.

The first seat to ask makes the new game (`Hub.rematch`, stored with the old game, so any process gives the
same one); every view of the old game then names it (`"rematch": ID`), on every process, and each seat's
table asks for its own way in. A seat asking with its old token gets a new token for the same seat in the
rematch, and nothing else: the new token is worked out from the old one and the rematch's id (an HMAC), so
asking again — on any process — gives the same token, and no seat can read or act for another. A player
signed in by cookie needs no token: the rematch keeps the old game's players in their seats.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from starlette.requests import HTTPConnection

from .hub import Hub
from .requests import bearer_token
from .rooms import Room
from .store import hash_token


def rematch_token(old_token: str, rematch_id: str) -> str:
    """The token of the seat that `old_token` opened, in the rematch `rematch_id` (only its holder can work it out)."""
    digest = hmac.new(old_token.encode(), f"rematch {rematch_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


async def rematch(hub: Hub, room: Room, seat: int, request: HTTPConnection,
                  client: str | None = None) -> tuple[str, dict[str, str]]:
    """(rematch id, {seat: its token}) for the seat `request` speaks for: by its old seat token, a new token
    for that seat alone; by its player cookie, none (the player keeps the seat)."""
    new = await hub.rematch(room, client)
    old_token = bearer_token(request.headers.get("authorization"))
    if old_token is None:
        return new.id, {}
    token = rematch_token(old_token, new.id)
    await hub.grant_seat(new, hash_token(token), seat)
    return new.id, {str(seat): token}
