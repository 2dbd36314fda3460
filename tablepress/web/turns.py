"""Your-turn notices on every device: `GET /api/players/me/events` (the player's cookie, or a Bearer token) is a
stream of server-sent events, `event: games` with the player's games as `GET /api/players/me` lists them, each
game the player must move in carrying the deadline of its turn clock, with `your_turn` (how many wait on the
player) and the server's `now` — sent at once and again whenever one of those games moves on or its clock
starts again.

What the stream watches is read from the store (store/clocks.py `turns_of`: the revision of each of the
player's games and the deadline of its seat), every POLL_SECONDS, so it is the same whichever process serves
the page and whichever process the game moved on in: a player signed in on a second device (the one-time link
sets the same player's cookie there) is told as the first is.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from .hub import Hub, HubFull
from .players import MAX_MY_GAMES, my_game, player_of, store_of
from .store.clocks import ClockTables

router = APIRouter()

#: Seconds between two looks at the store for a stream's games.
POLL_SECONDS = 2.0
#: A stream ends after this many seconds (the browser's EventSource opens it again) and says something at least
#: every KEEPALIVE seconds so that proxies keep it open.
STREAM_SECONDS = 300
KEEPALIVE = 15
#: Your-turn streams one process serves at most.
MAX_TURN_STREAMS = 500


def my_games(request: Request, player_id: str, now: float) -> dict[str, Any]:
    """{"games", "your_turn", "now"}: the player's games (your turn first), those waiting on the player with their
    turn's deadline (null without a clock)."""
    hub: Hub = request.app.state.hub
    store = store_of(request)
    games = [game for gid, seat in store.player_games(player_id, MAX_MY_GAMES)
             if (game := my_game(hub, gid, seat)) is not None]
    games.sort(key=lambda g: (g["status"] != "playing", not g["your_turn"]))
    deadlines = ClockTables(store).deadlines_of([g["id"] for g in games if g["your_turn"]])
    for game in games:
        if game["your_turn"]:
            game["deadline"] = deadlines.get((game["id"], game["seat"]))
    return {"games": games, "your_turn": sum(1 for g in games if g["your_turn"]), "now": now}


def catch_up(hub: Hub, seen: list[tuple[str, int, int, float | None]]) -> bool:
    """Have the hub bring the player's games it holds to their stored revisions (`seen`: `turns_of`'s rows; a
    room nobody here watches is refreshed when next asked for, one that someone watches soon after); whether
    every one of them is there already."""
    current = True
    for gid, _seat, revision, _deadline in seen:
        room = hub.rooms.get(gid)
        if room is not None and room.row.revision < revision:
            hub.changed_elsewhere(gid, revision)
            current = False
    return current


def open_streams(state: Any) -> set[object]:
    """The app's open your-turn streams (made on first use)."""
    streams = getattr(state, "turn_streams", None)
    if streams is None:
        streams = state.turn_streams = set()
    return streams


@router.get("/api/players/me/events", include_in_schema=False)
async def turn_events(request: Request) -> StreamingResponse:
    """Server-sent events: `event: games` with the player's games now and whenever one of them moves on."""
    player = player_of(request)
    assert player is not None
    streams = open_streams(request.app.state)
    if len(streams) >= MAX_TURN_STREAMS:
        raise HubFull(f"{MAX_TURN_STREAMS} your-turn streams are open here, the most; reload the page later")
    mine = object()
    streams.add(mine)
    tables = ClockTables(store_of(request))
    clocks = getattr(request.app.state, "clocks", None)

    async def events() -> AsyncIterator[str]:
        """The games when what they depend on changed; a comment every KEEPALIVE seconds; ends after STREAM_SECONDS."""
        loop = asyncio.get_running_loop()
        ends = loop.time() + STREAM_SECONDS
        last: list[Any] | None = None
        said = loop.time()
        try:
            while True:
                seen = tables.turns_of(player["id"])
                if seen != last:
                    current = catch_up(request.app.state.hub, seen)
                    now = clocks.now() if clocks is not None else time.time()
                    yield f"event: games\ndata: {json.dumps(my_games(request, player['id'], now))}\n\n"
                    last = seen if current else None  # a game read before it caught up: told again next look
                    said = loop.time()
                elif loop.time() - said >= KEEPALIVE:
                    yield ": still here\n\n"
                    said = loop.time()
                if loop.time() >= ends:
                    break
                await asyncio.sleep(POLL_SECONDS)
        finally:
            streams.discard(mine)

    return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})
