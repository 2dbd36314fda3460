"""Whose seat a request at a game speaks for: its seat token, else the signed-in player's HttpOnly cookie.

Two kinds of credential open a seat. A **seat token** (one per human seat of `POST /api/games`, handed out
in share links `/play/ID#seat=N&token=T`) is anonymous: whoever holds the link plays the seat, so the
table page keeps it in the browser (localStorage) to come back to the game. A **player** (web/players.py)
has a token too, but the browser never stores it where scripts can read it: the server keeps it in the
HttpOnly SameSite=Lax cookie `players.COOKIE`, and a game begun at a lobby table counts the player's token
as that seat's token. So a request with no `Authorization` header (a WebSocket with no `?token=`) is the
cookie's player: it gets that player's seat at this game, or the spectator's view if the player does not
sit there (never a 403: a signed-in spectator is still a spectator). A wrong bearer token stays a 403.

The cookie is not sent with another site's requests (SameSite=Lax); a WebSocket, which a page of any
origin may open, uses the cookie only when its `Origin` is this site's.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

from .players import COOKIE
from .requests import Forbidden, bearer_token
from .rooms import Room


def request_seat(room: Room, request: HTTPConnection) -> int | None:
    """The seat a request speaks for at `room`'s game: its bearer token's (Forbidden if that token is no seat's
    there), else its player cookie's, else None (a spectator)."""
    token = bearer_token(request.headers.get("authorization"))
    if token is not None:
        seat = room.seat_for_token(token)
        if seat is None:
            raise Forbidden("wrong token for this game")
        return seat
    return cookie_seat(room, request)


def cookie_seat(room: Room, connection: HTTPConnection) -> int | None:
    """The seat of the connection's player cookie at `room`'s game, or None (no cookie, not seated there, or a
    WebSocket opened by another site's page)."""
    cookie = connection.cookies.get(COOKIE)
    if not cookie or (connection.scope["type"] == "websocket" and not same_origin(connection)):
        return None
    return room.seat_for_token(cookie)


def same_origin(connection: HTTPConnection) -> bool:
    """Whether a connection's `Origin` (if it sends one) is this site: the host it asked for, or the site's
    public address."""
    origin = connection.headers.get("origin")
    if origin is None:
        return True
    host = urlsplit(origin).netloc.lower()
    public = urlsplit(getattr(connection.app.state, "public_url", "") or "").netloc.lower()
    return bool(host) and host in {connection.headers.get("host", "").lower(), public}
