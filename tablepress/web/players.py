"""Players: a display name and a token, no password (docs/reference.md, "Players, tables and chat").

`POST /api/players {"name"}` → 201 {"id", "name", "token"}, the token also set as the HttpOnly SameSite=Lax
cookie COOKIE; only its hash is stored. `GET /api/players/me` (Bearer token or the cookie) → the player and
its games. `POST /api/players/me/link` → a one-time address (valid LINK_SECONDS) that carries the player to
another device: `/link/CODE` redeems it there (`POST /api/players/link {"code"}`) and sets the cookie.
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse

from .clients import client_address
from .hub import Hub, NotFound
from .pages.shell import page
from .quotas import Rate
from .rooms import variant_label
from .requests import BadRequest, Forbidden, bearer_token, read_json
from .store import Store, hash_token
from .store.social import hash_code, seal, unseal

router = APIRouter()

#: The cookie that keeps a player's token in the browser.
COOKIE = "tp_player"
COOKIE_DAYS = 365
#: Display names: this many characters at most, after trimming.
MAX_NAME = 24
#: Seconds a one-time link works.
LINK_SECONDS = 600
#: Games `GET /api/players/me` lists at most.
MAX_MY_GAMES = 50
#: Players one client (address) may create an hour.
PLAYERS_AN_HOUR = 30


def parse_name(value: Any) -> str:
    """A display name: text, trimmed, inner spaces single, 1 to MAX_NAME characters, no control or format
    characters; BadRequest saying what is wrong."""
    if not isinstance(value, str):
        raise BadRequest("name: must be text")
    name = " ".join(value.split())
    for char in value:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs") and char not in " \t":
            raise BadRequest(f"name: holds a control character (U+{ord(char):04X}); use letters, digits and spaces")
    if not name:
        raise BadRequest("name: give a display name (1 to 24 characters)")
    if len(name) > MAX_NAME:
        raise BadRequest(f"name: at most {MAX_NAME} characters, not {len(name)}")
    return name


def request_token(request: Request) -> str | None:
    """The player token of a request: its `Authorization: Bearer` header, else its COOKIE (None: neither)."""
    return bearer_token(request.headers.get("authorization")) or request.cookies.get(COOKIE) or None


def player_of(request: Request, required: bool = True) -> dict[str, Any] | None:
    """{"id", "name", "token"} of the request's player; Forbidden for a token that is no player's, or (when
    `required`) for none."""
    token = request_token(request)
    if token is None:
        if required:
            raise Forbidden("this needs a player's token (Authorization: Bearer TOKEN, or the player cookie);"
                            " create a player with POST /api/players")
        return None
    found = store_of(request).player_by_token(hash_token(token))
    if found is None:
        raise Forbidden("wrong player token")
    return {**found, "token": token}


def players_made(state: Any) -> Rate:
    """The app's count of players each client created in the last hour (made on first use)."""
    rate = getattr(state, "players_made", None)
    if rate is None:
        rate = state.players_made = Rate(PLAYERS_AN_HOUR, 3600, "new players")
    return rate


def store_of(request: Request) -> Store:
    """The app's store."""
    return request.app.state.hub.store


def with_cookie(request: Request, body: dict[str, Any], status: int) -> JSONResponse:
    """`body` as JSON, setting the player cookie to its token."""
    response = JSONResponse(body, status_code=status)
    response.set_cookie(COOKIE, body["token"], max_age=COOKIE_DAYS * 86_400, httponly=True, samesite="lax",
                        secure=request.app.state.public_url.startswith("https://"), path="/")
    return response


@router.post("/api/players", status_code=201)
async def create_player(request: Request) -> JSONResponse:
    """A new player: 201 {"id", "name", "token"} and the cookie; 422 for a bad name, 429 past the hourly limit."""
    data = await read_json(request)
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object {\"name\": TEXT}")
    name = parse_name(data.get("name"))
    players_made(request.app.state).start(client_address(request))
    player_id, token = secrets.token_hex(6), secrets.token_urlsafe(24)
    store_of(request).add_player(player_id, name, hash_token(token), time.time())
    return with_cookie(request, {"id": player_id, "name": name, "token": token}, 201)


@router.get("/api/players/me")
async def me(request: Request) -> dict[str, Any]:
    """The player and its games: in progress with its turn first, then in progress, then finished with results."""
    player = player_of(request)
    assert player is not None
    hub: Hub = request.app.state.hub
    games = [game for gid, seat in store_of(request).player_games(player["id"], MAX_MY_GAMES)
             if (game := my_game(hub, gid, seat)) is not None]
    games.sort(key=lambda g: (g["status"] != "playing", not g["your_turn"]))
    return {"id": player["id"], "name": player["name"], "games": games}


def my_game(hub: Hub, game_id: str, seat: int) -> dict[str, Any] | None:
    """What `GET /api/players/me` says of one of the player's games (None once it expired)."""
    archived = hub.archive.get(game_id)
    if archived is not None:
        return {"id": game_id, "game": archived.game, "seat": seat, "status": "over", "your_turn": False,
                "names": list(archived.names), "scores": archived.scores, "winners": archived.winners,
                "won": seat in (archived.winners or []), "variant": variant_label(archived)}
    try:
        room = hub.room(game_id)
    except NotFound:
        return None
    match = room.match
    over = match.is_over
    game = {"id": game_id, "game": match.game.name, "seat": seat, "status": room.status,
            "your_turn": not over and seat in match.to_move() and seat not in room.ai_seats,
            "names": list(room.row.names), "variant": variant_label(room.row)}
    if over:
        winners = match.game.winners(match.state)
        game.update(scores=match.game.scores(match.state), winners=winners, won=seat in winners)
    return game


@router.post("/api/players/me/link", status_code=201)
async def make_link(request: Request) -> dict[str, Any]:
    """A one-time address that signs this player in on another device: 201 {"url", "expires"}."""
    player = player_of(request)
    assert player is not None
    code = secrets.token_urlsafe(18)
    now = time.time()
    store_of(request).add_link(hash_code(code), player["id"], seal(player["token"], code), now + LINK_SECONDS, now)
    return {"url": f"{request.app.state.public_url}/link/{code}", "expires": now + LINK_SECONDS,
            "seconds": LINK_SECONDS}


@router.post("/api/players/link")
async def redeem_link(request: Request) -> JSONResponse:
    """Use a one-time link's code: {"id", "name", "token"} and the cookie; 404 if it was used or expired."""
    data = await read_json(request)
    code = data.get("code") if isinstance(data, dict) else None
    if not isinstance(code, str) or not 1 <= len(code) <= 100:
        raise BadRequest("the body must be a JSON object {\"code\": CODE} with the link's code")
    store = store_of(request)
    found = store.redeem_link(hash_code(code), time.time())
    if found is None:
        raise NotFound("this link was used already or has expired; ask for a new one on your other device")
    token = unseal(found[1], code)
    player = store.player_by_token(hash_token(token))
    if player is None or player["id"] != found[0]:
        raise NotFound("this link's player is no longer here")
    return with_cookie(request, {**player, "token": token}, 200)


@router.get("/link/{code}", include_in_schema=False)
async def link_page(code: str) -> HTMLResponse:
    """The page a one-time link opens: its script redeems the code (a link preview, running no script, cannot)."""
    body = ('<section class="panel" id="link-panel"><h1>Carrying your player here…</h1>'
            '<p id="link-status" role="status">One moment.</p><p><a href="/">To the lobby</a></p></section>')
    return HTMLResponse(page("Table Press — sign in on this device", body, scripts=("common.js", "player.js")),
                        headers={"Referrer-Policy": "no-referrer"})
