"""The lobby: tables players create and join; a full table begins its game through the hub.

`POST /api/tables` (player token) → 201 {"id", "invite"}, the creator at seat 0 and AI seats filled at once;
`GET /api/tables` → the public tables still waiting; `GET /api/tables/{id}` → one table (any, private ones
too: its id is the invite's secret), with "game_id" once the game has begun; `POST /api/tables/{id}/join`
→ {"seat"}; `GET /api/tables/events` → server-sent events, the waiting public tables each time they change.

A table nobody joins for WAITING_MINUTES expires; a begun one is forgotten after hub.OPEN_DAYS (its game
stays as long as the hub keeps it). When the last seat is taken, the request that took it claims the table
in the store (so that only one process begins it), begins the game with the players' names, marks it rated
if the table is rated and two or more people sit there (rating_rule.rates), and puts each
player's token hash in the game's tokens, so that the player's token is its seat token there, and gives the game
the table's turn clock if it has one (web/clocks.py). If the hub refuses the game (a full server), the seat is
given back and the table waits again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from ..agents.base import HUMAN
from ..core.errors import TablepressError
from .clients import client_address
from .clocks import clocks_of
from .hub import DAY, OPEN_DAYS, Hub, HubFull, NotFound, QuotaExceeded
from .logs import event
from .players import player_of, store_of
from .quotas import Rate
from .rating_rule import rates
from .requests import BadRequest, game_named, read_json
from .table_ai import ai_name, parse_ai, seat_names
from .social import MAX_LOBBY_STREAMS, Social
from .store import Stale
from .store.social import SeatTaken

log = logging.getLogger("tablepress.web")
router = APIRouter()

#: Minutes a table waits for players without anyone joining before it expires.
WAITING_MINUTES = 30
#: Public tables `GET /api/tables` lists at most (the newest).
MAX_LISTED = 100
#: Tables one client may create an hour.
TABLES_AN_HOUR = 60
#: A table's clock: seconds per player, at least and at most.
CLOCK_RANGE = (10, 7 * DAY)
#: A lobby event stream ends after this many seconds (the browser's EventSource opens it again), and says
#: something every KEEPALIVE seconds so that proxies keep it open.
STREAM_SECONDS = 300
KEEPALIVE = 15
#: Seconds a lobby stream waits after a change before it sends the list, so that a burst of changes (players
#: joining, tables made) is sent once.
COALESCE_SECONDS = 0.25
#: Seconds between two sweeps of expired tables made for the lobby streams of one process.
EXPIRE_EVERY = 10.0
#: What a table's game id is while one request begins its game.
STARTING = "starting:"


class TableGone(NotFound):
    """No such table, or it expired (HTTP 404)."""


def parse_table(data: Any) -> dict[str, Any]:
    """A checked `POST /api/tables` body: game, players, options (as the game reads them), ai {seat: spec}
    (table_ai.py), private, rated, clock; BadRequest naming the field."""
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object {\"game\", \"players\", ...}")
    game = game_named(data.get("game"))
    players = data.get("players", game.default_players)
    if isinstance(players, bool) or not isinstance(players, int) or not game.min_players <= players <= game.max_players:
        raise BadRequest(f"players: a whole number from {game.min_players} to {game.max_players} for {game.name}")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise BadRequest("options: must be a JSON object of option names to values")
    try:
        options = game.normalise_options(options)
    except TablepressError as exc:
        raise BadRequest(f"options: {exc}") from None
    ai = parse_ai(data.get("ai") or {}, players, game.name)
    flags = {key: data.get(key, default) for key, default in (("private", False), ("rated", True))}
    for key, value in flags.items():
        if not isinstance(value, bool):
            raise BadRequest(f"{key}: must be true or false")
    clock = data.get("clock")
    if clock is not None and (isinstance(clock, bool) or not isinstance(clock, int)
                              or not CLOCK_RANGE[0] <= clock <= CLOCK_RANGE[1]):
        raise BadRequest(f"clock: seconds per player, a whole number from {CLOCK_RANGE[0]} to {CLOCK_RANGE[1]}")
    return {"game": game.name, "players": players, "options": json.loads(json.dumps(options, default=list)),
            "ai": ai, "private": flags["private"], "rated": flags["rated"], "clock": clock}


def listed(table: dict[str, Any]) -> dict[str, Any]:
    """What the API shows of a table (never a token's hash)."""
    seats = table["seats"]
    seated = [seats[s]["name"] if s in seats else ai_name(table["game"], table["ai"][s]) if s in table["ai"] else None
              for s in range(table["players"])]
    game_id = table["game_id"]
    status = "waiting" if game_id is None else "starting" if game_id.startswith(STARTING) else "playing"
    return {"id": table["id"], "game": table["game"], "players": table["players"], "seated": seated,
            "open_seats": seated.count(None), "options": table["options"], "ai": {str(s): v for s, v in table["ai"].items()},
            "private": table["private"], "rated": table["rated"], "clock": table["clock"], "status": status,
            "created": table["created"], "expires": table["touched"] + WAITING_MINUTES * 60 if game_id is None else None,
            **({"game_id": game_id} if status == "playing" else {})}


def expire(request: Request) -> None:
    """Delete the tables past their time (see the module's docstring); wake the lobby if any went."""
    now = time.time()
    if store_of(request).expire_tables(now - WAITING_MINUTES * 60, now - OPEN_DAYS * DAY):
        social_of(request).tables_changed()


def lobby_json(request: Request) -> str:
    """The waiting public tables as JSON for the lobby streams: read from the store once per change for every
    stream of this process (hundreds of open lobbies must not each read the tables at every change), expired
    tables swept at most every EXPIRE_EVERY seconds."""
    social = social_of(request)
    now = time.monotonic()
    if now - social.expired_at >= EXPIRE_EVERY:
        social.expired_at = now
        expire(request)
    cached = social.lobby_list
    if cached is None or cached[0] != social.lobby_version:
        cached = social.lobby_list = (social.lobby_version, json.dumps(open_tables(request)))
    return cached[1]


def open_tables(request: Request) -> list[dict[str, Any]]:
    """The public tables still waiting, newest first."""
    return [listed(t) for t in store_of(request).open_tables(MAX_LISTED)]


def social_of(request: Request) -> Social:
    """The app's live news (web/social.py)."""
    return request.app.state.social


def table_of(request: Request, table_id: str) -> dict[str, Any]:
    """The stored table, or TableGone."""
    found = store_of(request).table(table_id[:64])
    if found is None:
        raise TableGone(f"no table {table_id[:40]!r}: it never was, or nobody joined it for {WAITING_MINUTES} "
                        "minutes and it expired")
    return found


def tables_made(state: Any) -> Rate:
    """The app's count of tables each client created in the last hour (made on first use)."""
    rate = getattr(state, "tables_made", None)
    if rate is None:
        rate = state.tables_made = Rate(TABLES_AN_HOUR, 3600, "new tables")
    return rate


@router.post("/api/tables", status_code=201)
async def create_table(request: Request) -> dict[str, Any]:
    """A new table, the creator at seat 0: 201 {"id", "invite"}; its game begins at once if AIs fill it."""
    player = player_of(request)
    assert player is not None
    body = parse_table(await read_json(request))
    tables_made(request.app.state).start(client_address(request))
    table = {**body, "id": secrets.token_urlsafe(12), "creator": player["id"], "created": time.time()}
    store_of(request).add_table(table, 0)
    if len(body["ai"]) == body["players"] - 1:
        await begin(request, table["id"], 0)
    social_of(request).tables_changed()
    return {"id": table["id"], "invite": f"{request.app.state.public_url}/?table={table['id']}"}


@router.get("/api/tables")
async def list_tables(request: Request) -> list[dict[str, Any]]:
    """The public tables waiting for players, newest first."""
    expire(request)
    return open_tables(request)


@router.get("/api/tables/events", include_in_schema=False)
async def table_events(request: Request) -> StreamingResponse:
    """Server-sent events: `event: tables` with the waiting public tables now and whenever they change."""
    social = social_of(request)
    if len(social.lobby) >= MAX_LOBBY_STREAMS:
        raise HubFull(f"{MAX_LOBBY_STREAMS} lobby streams are open here, the most; reload the page later")
    changed = asyncio.Event()
    changed.set()
    social.lobby.add(changed)

    async def events() -> AsyncIterator[str]:
        """The list now and when it changes (a burst of changes once); a comment every KEEPALIVE seconds; ends
        after STREAM_SECONDS."""
        loop = asyncio.get_running_loop()
        ends = loop.time() + STREAM_SECONDS
        first = True
        try:
            while loop.time() < ends:
                try:
                    await asyncio.wait_for(changed.wait(), KEEPALIVE)
                except TimeoutError:
                    yield ": still here\n\n"
                    continue
                if not first:
                    await asyncio.sleep(COALESCE_SECONDS)
                first = False
                changed.clear()
                yield f"event: tables\ndata: {lobby_json(request)}\n\n"
        finally:
            social.lobby.discard(changed)

    return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


@router.get("/api/tables/{table_id}")
async def get_table(table_id: str, request: Request) -> dict[str, Any]:
    """One table (a private one too, by its id), with "game_id" once its game began and "you": the asking
    player's seat (null if not seated)."""
    player = player_of(request, required=False)
    expire(request)
    table = table_of(request, table_id)
    mine = [s for s, who in table["seats"].items() if player is not None and who["player"] == player["id"]]
    return {**listed(table), "you": mine[0] if mine else None}


@router.post("/api/tables/{table_id}/join")
async def join_table(table_id: str, request: Request) -> dict[str, Any]:
    """Take the first open seat: {"seat"} (and "game_id" if this filled the table and its game began);
    409 if the table is full, began, or the player sits there already."""
    player = player_of(request)
    assert player is not None
    expire(request)
    table = table_of(request, table_id)
    if table["game_id"] is not None:
        raise SeatTaken("this table's game has begun; every seat is taken")
    free = [s for s in range(table["players"]) if s not in table["ai"] and s not in table["seats"]]
    try:
        seat = store_of(request).take_seat(table["id"], player["id"], free, time.time())
    except KeyError:
        raise SeatTaken("this table's game has begun; every seat is taken") from None
    game_id = None
    now = store_of(request).table(table["id"])
    if now is not None and len(now["seats"]) + len(now["ai"]) == now["players"]:
        game_id = await begin(request, table["id"], seat)
    social_of(request).tables_changed()
    return {"seat": seat, **({"game_id": game_id} if game_id else {})}


async def begin(request: Request, table_id: str, seat: int) -> str | None:
    """Begin the game of a full table (if this request claims it first): its id. If the hub refuses it, the seat
    `seat` is given back, the table waits again, and the hub's error is raised."""
    store = store_of(request)
    claim = STARTING + secrets.token_hex(6)
    if not store.claim_table(table_id, claim):
        return None
    table = store.table(table_id)
    assert table is not None
    hub: Hub = request.app.state.hub
    specs = [table["ai"].get(s, HUMAN) for s in range(table["players"])]
    names = seat_names(table["game"], specs, {s: who["name"] for s, who in table["seats"].items()})
    try:
        room, _tokens = await hub.create(table["game"], specs, table["options"], None, names, None,
                                         client=client_address(request))
    except Exception as exc:
        store.start_table(table_id, claim, None, {}, time.time())
        store.leave_seat(table_id, seat)
        if isinstance(exc, (QuotaExceeded, HubFull)):
            raise
        raise BadRequest(f"the game could not begin: {exc}") from None
    hashes = {who["hash"]: s for s, who in table["seats"].items()}
    rated = rates(table["rated"], len(table["seats"]))
    if rated:  # before the seats: whichever process reads the game seated reads it rated
        store.mark_game_rated(room.id, table["game"], time.time())
    async with room.lock:
        try:
            room.row.revision = store.update_seats(room.id, list(room.match.seats), list(room.row.names), hashes,
                                                   expect=room.row.revision)
        except Stale:
            event(log, "table_tokens_refused", logging.ERROR, table=table_id, game=room.id)
            raise
        room.row.token_hashes = hashes
        room.row.rated = rated
        room.changed()
    store.start_table(table_id, claim, room.id, {s: who["player"] for s, who in table["seats"].items()}, time.time())
    clocks = clocks_of(request.app)
    if table["clock"] is not None and clocks is not None:
        clocks.add(room, table["clock"])
    event(log, "table_began", table=table_id, game=room.id)
    return room.id
