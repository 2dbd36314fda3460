"""Chat per game: `POST /api/games/{id}/chat` (the seat's token or the seated player's, as Bearer or the player
cookie) `{"text"}` or `{"emote": NAME}` → 201 the message, pushed to the game's WebSocket watchers as
`{"chat": MESSAGE}`; `GET /api/games/{id}/chat?after=N` → the messages, oldest first (anyone may read).

Messages are plain text of at most MAX_TEXT characters on one line (pages show them as text, never as HTML);
a seat may send RATE messages in WINDOW seconds (429 past that, counted in the store, so across processes),
and a game keeps at most MOST_MESSAGES. Chat is stored with its game and deleted with it.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from .hub import Hub, QuotaExceeded
from .players import request_token, store_of
from .requests import BadRequest, Forbidden, read_json
from .fields import text_fault
from .store.social import ChatLimit

router = APIRouter()

#: The longest message, in characters.
MAX_TEXT = 300
#: Messages one seat may send in WINDOW seconds.
RATE = 5
WINDOW = 10.0
#: Messages a game's chat keeps at most.
MOST_MESSAGES = 2000
#: Messages one `GET` gives at most.
MAX_READ = 500
#: The quick emotes: name → the text shown.
EMOTES = {"hello": "👋 Hello!", "gg": "🤝 Good game!", "nice": "👏 Nice move!", "think": "🤔 Thinking…",
          "oops": "😅 Oops!", "thanks": "🙏 Thanks!"}


def parse_chat(data: Any) -> tuple[str, str | None]:
    """(text, emote name or None) of a chat body; BadRequest saying what is wrong."""
    if not isinstance(data, dict) or not ("text" in data) ^ ("emote" in data):
        raise BadRequest("the body must be a JSON object {\"text\": TEXT} or {\"emote\": NAME}")
    if "emote" in data:
        emote = data["emote"]
        if not isinstance(emote, str) or emote not in EMOTES:
            raise BadRequest(f"emote: one of {', '.join(EMOTES)}")
        return EMOTES[emote], emote
    text = data["text"]
    fault = text_fault(text, MAX_TEXT)
    if fault is None and not text.strip():
        fault = "write something"
    if fault is not None:
        raise BadRequest(f"text: {fault}")
    return " ".join(text.split()), None


@router.post("/api/games/{game_id}/chat", status_code=201)
async def post_chat(game_id: str, request: Request) -> JSONResponse:
    """Say something at a game's table: 201 the message; 403 without a seat's or seated player's token."""
    hub: Hub = request.app.state.hub
    room = hub.room(game_id)
    token = request_token(request)
    if token is None:
        raise Forbidden("chatting needs a seat's or a seated player's token; spectators read the chat")
    seat = room.seat_for_token(token)
    if seat is None:
        raise Forbidden("wrong token for this game: only its seated players chat, spectators read")
    text, emote = parse_chat(await read_json(request))
    try:
        message = store_of(request).add_chat(room.id, seat, room.row.names[seat], text, emote, time.time(),
                                             WINDOW, RATE, MOST_MESSAGES)
    except ChatLimit as exc:
        raise QuotaExceeded(str(exc)) from None
    request.app.state.social.chat_posted(room.id, message)
    return JSONResponse(message, status_code=201)


@router.get("/api/games/{game_id}/chat")
async def get_chat(game_id: str, request: Request, after: int = 0) -> list[dict[str, Any]]:
    """A game's messages numbered above `after`, oldest first (at most MAX_READ)."""
    room = request.app.state.hub.room(game_id)
    return store_of(request).chat(room.id, min(max(0, after), MOST_MESSAGES), MAX_READ)
