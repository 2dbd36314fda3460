"""Watching a game live (`/ws/games/{game_id}`): the seat's view now and after every change to the game.

A refused WebSocket is accepted and closed at once with a code the client can read: 4404 no such game, 4403
wrong token, 4429 too many watchers of the game, 1013 too many on the server (`app.state.max_sockets`).
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .hub import NotFound
from .rooms import Watcher
from .seats import cookie_seat

#: Live watchers per game at most.
MAX_WATCHERS = 100
#: Live WebSockets over all games at most (create_app's default).
MAX_SOCKETS = 1000

router = APIRouter()


@router.websocket("/ws/games/{game_id}")
async def watch(websocket: WebSocket, game_id: str) -> None:
    """Push the seat's view now and after every change to the game (refusals: see the module's docstring)."""
    await websocket.accept()
    state = websocket.app.state
    try:
        room = state.hub.room(game_id)
    except NotFound:
        await websocket.close(code=4404, reason="no such game")
        return
    token = websocket.query_params.get("token")
    seat = room.seat_for_token(token) if token else cookie_seat(room, websocket)
    if token and seat is None:
        await websocket.close(code=4403, reason="wrong token")
        return
    if len(room.watchers) >= MAX_WATCHERS:
        await websocket.close(code=4429, reason="too many watchers of this game")
        return
    sockets: set[Watcher] = state.sockets
    if len(sockets) >= state.max_sockets:
        await websocket.close(code=1013, reason="too many live connections; try again later")
        return
    watcher = Watcher(seat)
    room.watchers.add(watcher)
    sockets.add(watcher)
    try:
        await websocket.send_text(room.view_text(seat))
        await pump(websocket, watcher)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        room.watchers.discard(watcher)
        sockets.discard(watcher)


async def pump(websocket: WebSocket, watcher: Watcher) -> None:
    """Send queued views until the client goes away; whatever the client sends is read and ignored."""

    async def send() -> None:
        """Forward queued views to the client; None ends the connection (the seat's token stopped working)."""
        while True:
            view = await watcher.queue.get()
            if view is None:
                await websocket.close(code=4403, reason="this seat's token no longer works")
                group.cancel_scope.cancel()
                return
            if isinstance(view, str):
                await websocket.send_text(view)  # a view, encoded once for every watcher of its seat
            else:
                await websocket.send_json(view)

    async with anyio.create_task_group() as group:
        group.start_soon(send)
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
        group.cancel_scope.cancel()
