"""Games and their actions over HTTP: list and create games, a seat's view, and what a seat does — act, undo,
hand itself to an AI, take its seat back, ask for a rematch.

A seat is named by its token (`Authorization: Bearer TOKEN`) or, without one, by the signed-in player's cookie
(web/seats.py); a request without a seat sees the spectator's view.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..core.errors import TablepressError
from .clients import client_address
from .faults import StoreDown, StoreFull
from .hub import Hub, HubFull, QuotaExceeded
from .players import request_token
from .rematch import rematch
from .requests import BadRequest, Forbidden, known_levels, parse_action, parse_agent, parse_create, read_body
from .rooms import Room
from .seats import request_seat

log = logging.getLogger("tablepress.web")

router = APIRouter()


def hub_of(request: Request) -> Hub:
    """The app's hub of games."""
    return request.app.state.hub


@router.get("/api/games")
async def list_games(request: Request) -> dict[str, Any]:
    """Every game on the server, newest first (public facts only)."""
    return {"games": hub_of(request).summaries()}


@router.post("/api/games", status_code=201)
async def create_game(request: Request) -> dict[str, Any]:
    """Create a game: 201 {"id", "tokens": {"SEAT": TOKEN}} — one token per human seat."""
    body = parse_create(await read_body(request))
    try:
        room, tokens = await hub_of(request).create(body.game, body.seats, body.options, body.seed, body.names,
                                                    body.variant, client=client_address(request))
    except (QuotaExceeded, HubFull, StoreFull, StoreDown):
        raise
    except TablepressError as exc:
        raise BadRequest(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - options no check caught; the game refused them
        log.warning("game setup refused: %r", exc)
        raise BadRequest(f"invalid game setup: {exc}") from None
    return {"id": room.id, "tokens": tokens}


@router.get("/api/games/{game_id}", response_model=dict[str, Any])
async def get_view(game_id: str, request: Request) -> Response:
    """The token's seat's view (without one, the signed-in player's seat there: web/seats.py), else the
    spectator's (public only)."""
    room = hub_of(request).room(game_id)
    return view_response(room, request_seat(room, request))


@router.post("/api/games/{game_id}/actions", response_model=dict[str, Any])
async def post_action(game_id: str, request: Request) -> Response:
    """Take one of the seat's legal actions; the reply is the seat's new view."""
    hub = hub_of(request)
    room = hub.room(game_id)
    seat = seated(room, request, "acting needs a seat's token (Authorization: Bearer TOKEN)")
    action = parse_action(await read_body(request))
    await hub.act(room, seat, action)
    return view_response(room, seat)


@router.post("/api/games/{game_id}/undo")
async def post_undo(game_id: str, request: Request) -> dict[str, Any]:
    """Take back the seat's last action when it revealed nothing and nobody has acted since."""
    hub = hub_of(request)
    room = hub.room(game_id)
    seat = seated(room, request, "undoing needs a seat's token (Authorization: Bearer TOKEN)")
    await hub.undo(room, seat)
    return room.view_for(seat)


@router.post("/api/games/{game_id}/bot")
async def post_bot(game_id: str, request: Request) -> dict[str, Any]:
    """The token's seat hands itself to an AI (`{"agent": SPEC}`, greedy by default) for the rest of the game.

    The token no longer works afterwards; the reply is the spectator's view.
    """
    hub = hub_of(request)
    room = hub.room(game_id)
    seat = seated(room, request, "handing a seat to an AI needs that seat's token")
    spec = parse_agent(await read_body(request))
    known_levels(room.match.game.name, [spec], "agent")
    await hub.hand_to_ai(room, seat, spec)
    return room.view_for(None)


@router.post("/api/games/{game_id}/reclaim")
async def post_reclaim(game_id: str, request: Request) -> dict[str, Any]:
    """The person whose seat went to an AI takes it back with its old token; the reply is that seat's view."""
    hub = hub_of(request)
    room = hub.room(game_id)
    token = request_token(request)
    if token is None:
        raise Forbidden("taking a seat back needs that seat's token")
    seat = await hub.reclaim(room, token)
    return room.view_for(seat)


@router.post("/api/games/{game_id}/rematch", status_code=201)
async def post_rematch(game_id: str, request: Request) -> dict[str, Any]:
    """A finished game's seat asks for a rematch: `201 {"id", "tokens": {SEAT: TOKEN}}` with only the asking
    seat's new token (none for a player's cookie, which keeps its seat); the same game and token if asked
    again, on any process. Every view of the old game then names the rematch, so each seat's table asks."""
    hub = hub_of(request)
    room = hub.room(game_id)
    seat = seated(room, request, "a rematch needs a seat's token")
    new_id, tokens = await rematch(hub, room, seat, request, client_address(request))
    return {"id": new_id, "tokens": tokens}


def seated(room: Room, request: Request, missing: str) -> int:
    """The seat of the request's token; Forbidden saying `missing` without one."""
    seat = request_seat(room, request)
    if seat is None:
        raise Forbidden(missing)
    return seat


def view_response(room: Room, seat: int | None) -> Response:
    """A seat's view as a JSON response, its body encoded once per revision (web/views.py)."""
    return Response(room.view_body(seat), media_type="application/json")
