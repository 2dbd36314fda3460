"""The FastAPI application: the HTTP API and WebSocket of docs/reference.md, the lobby and the table pages.

Errors are JSON `{"detail": REASON}`: 403 wrong token, 404 no such game, 409 illegal or out-of-turn
action (or a record asked for too early, or another process acted on the game at the same moment), 413 a
body too large, 414/431 a request line or headers over MAX_HEAD bytes, 422 a malformed body. Nothing
changes on an error, and no traceback ever reaches a client. A browser asking for a page outside /api/
gets the error as an HTML page instead (pages/errors.py). A refused WebSocket is accepted and closed at once with a code the client can read: 4404
no such game, 4403 wrong token, 4429 too many watchers of the game, 1013 too many on the server.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware
from markdown_it import MarkdownIt
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..agents.base import AGENTS, HUMAN
from ..agents.level_ratings import level_facts
from ..agents.levels import LEVEL
from ..core.errors import IllegalAction, TablepressError
from ..core import records
from ..core.registry import game_names, get_package
from .clients import client_address, trust_proxies
from .chat import router as chat_router
from .clocks import mount as mount_clocks
from .errors import one_line
from .faces import card_svg, game_variant, saved_variant, variant_key
from .guides import router as guides_router
from .headers import HeadLimits, SafeHeaders
from .health import READY_TIMEOUT, store_ready
from .faults import StoreDown, StoreFull
from .hub import Hub, HubFull, NotFound, QuotaExceeded
from .jobs_routes import router as simulations_router
from .openapi import describe
from .pages.errors import error_response
from .requests import (SERVER_ONLY, BadRequest, Forbidden, TooLarge, known_levels, parse_action, parse_agent, parse_create,
                       read_body)
from .protocols import MAX_HEAD
from .rematch import rematch
from .players import request_token
from .players import router as players_router
from .ratings import router as ratings_router
from .ratings import settle_when_over
from .rooms import Room, Watcher, build_view
from .seats import cookie_seat, request_seat
from .site import router as site_router
from .social import mount as mount_social
from .store import Stale, open_store
from .tables import router as tables_router
from .workshop import Workshop
from .workshop import router as workshop_router

STATIC = Path(__file__).parent / "static"
#: What `/games/NAME/web.js` serves for a game without a `web.js`: it registers nothing, so the table
#: draws the game generically.
GENERIC_RENDERER = "/* no renderer for this game: the table draws it generically */\n"
log = logging.getLogger("tablepress.web")

#: Live watchers per game at most.
MAX_WATCHERS = 100
#: Live WebSockets over all games at most (create_app's default).
MAX_SOCKETS = 1000
#: Responses this large or larger are gzip-compressed for a client that accepts it.
GZIP_MINIMUM = 1024
#: The site's address in share links, `og:url`, QR codes and invites when none is given (`serve --public-url`).
DEFAULT_PUBLIC_URL = "http://127.0.0.1:8000"


STATUS = {NotFound: 404, Forbidden: 403, IllegalAction: 409, Stale: 409, TooLarge: 413, BadRequest: 422,
          QuotaExceeded: 429, HubFull: 503, StoreDown: 503, StoreFull: 507}


def create_app(db: str | Path = "tablepress.db", ai_delay: float = 0.8, max_sockets: int = MAX_SOCKETS,
               public_url: str = DEFAULT_PUBLIC_URL, forwarded_allow_ips: Sequence[str] = ()) -> FastAPI:
    """The web app over the store at `db` (a SQLite file or a database URL); AI seats pause `ai_delay`
    seconds before each move, and at
    most `max_sockets` WebSockets are live at once. Links the site gives out start with `public_url` (never
    the request's Host); only peers in `forwarded_allow_ips` are believed about a client's address."""
    store = open_store(db)
    hub = Hub(store, ai_delay=ai_delay)
    hub.restore()
    workshop = Workshop(store)
    hub.variants = workshop.variants

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        """Start the restored games' AI seats; on shutdown stop them and close the database."""
        hub.start_ai()
        workshop.start()
        yield
        await workshop.close()
        await hub.close()
        store.close()

    app = FastAPI(title="tablepress", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.hub = hub
    app.state.public_url = public_url.rstrip("/")
    app.state.sockets = sockets = set[Watcher]()
    app.state.workshop, app.state.variants = workshop, workshop.variants
    app.include_router(workshop_router)
    app.include_router(simulations_router)
    app.include_router(guides_router)  # guided first games (web/guides.py)
    app.include_router(players_router)
    app.include_router(tables_router)
    app.include_router(chat_router)
    app.include_router(ratings_router)
    settle_when_over(hub)
    mount_social(app)  # the lobby's and chat's news (web/social.py)
    mount_clocks(app)  # turn clocks and your-turn notices (web/clocks.py, web/turns.py)
    app.include_router(site_router)
    describe(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # Innermost, so it sees whole bodies (the middlewares below stream them); Starlette leaves WebSockets and
    # event streams alone, and bodies under GZIP_MINIMUM bytes go as they are.
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM)

    app.add_middleware(HeadLimits, max_head=MAX_HEAD)  # 414/431 before any route (web/headers.py)
    app.add_middleware(SafeHeaders)  # no-store under /api/, never framed (outside HeadLimits: its refusals too)

    trust_proxies(app, forwarded_allow_ips)

    @app.exception_handler(TablepressError)
    async def _tablepress_error(request: Request, exc: TablepressError) -> Response:
        status = next((code for kind, code in STATUS.items() if isinstance(exc, kind)), 422)
        return error_response(request, status, one_line(str(exc)))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse({"detail": one_line(f"{where}: {first.get('msg', 'invalid request')}")}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return error_response(request, exc.status_code, one_line(str(exc.detail)), exc.headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error: %s", exc)
        return error_response(request, 500, "internal server error")

    # ----- pages ---------------------------------------------------------------------------------
    @app.get("/play/{game_id}", include_in_schema=False)
    async def table_page(game_id: str) -> FileResponse:
        """The table of one game (the page reads the id from its address)."""
        return FileResponse(STATIC / "table.html")

    @app.get("/games/{name}/web.js", include_in_schema=False)
    async def game_renderer(name: str) -> Response:
        """A game's own drawing code (its package's `web.js`), or GENERIC_RENDERER: the table draws it generically."""
        path = game_asset(name, "web.js")
        if path is None:
            return Response(GENERIC_RENDERER, media_type="text/javascript")
        return FileResponse(path, media_type="text/javascript")

    @app.get("/faces/{name}/{card}.svg", include_in_schema=False)
    async def card_face(name: str, card: str, back: bool = False, game: str | None = None,
                        variant: str | None = None) -> Response:
        """One card's printed face (or back) as SVG: as published, as game `game` plays it, or as saved
        variant `variant` makes it (web/faces.py)."""
        try:
            if game is not None:
                overrides = game_variant(hub, game[:64], name)
            elif variant is not None:
                overrides = saved_variant(app.state.variants, variant[:64], name)
            else:
                overrides = None
        except NotFound as exc:
            return JSONResponse({"detail": one_line(str(exc))}, status_code=404)
        svg = card_svg(name, card, back, variant_key(overrides))
        if svg is None:
            return JSONResponse({"detail": one_line(f"no card face {card!r} for {name!r}")}, status_code=404)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=3600"})

    @app.get("/healthz", include_in_schema=False)
    async def health() -> dict[str, Any]:
        """Whether the server is up, and how many games it keeps."""
        return {"ok": True, "games": len(hub.rooms) + len(hub.archive)}

    @app.get("/readyz", include_in_schema=False)
    async def ready() -> JSONResponse:
        """200 when the store answers and its schema is current, else 503 saying why."""
        ok, reason = False, f"the store did not answer within {READY_TIMEOUT:g} seconds"
        with anyio.move_on_after(READY_TIMEOUT):
            ok, reason = await anyio.to_thread.run_sync(store_ready, hub.store, abandon_on_cancel=True)
        return JSONResponse({"ok": True} if ok else {"ok": False, "detail": one_line(reason)},
                            status_code=200 if ok else 503)

    # ----- the API -------------------------------------------------------------------------------
    @app.get("/api/catalog")
    async def catalog() -> dict[str, Any]:
        """Every registered game (plugins too) with its player counts, options and rules; the seat kinds."""
        return {"games": catalog_games(), "agents": [HUMAN, *(a for a in AGENTS if a not in SERVER_ONLY and a != LEVEL)],
                "public_url": app.state.public_url}

    @app.get("/api/games")
    async def list_games() -> dict[str, Any]:
        """Every game on the server, newest first (public facts only)."""
        return {"games": hub.summaries()}

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> dict[str, Any]:
        """Create a game: 201 {"id", "tokens": {"SEAT": TOKEN}} — one token per human seat."""
        body = parse_create(await read_body(request))
        try:
            room, tokens = await hub.create(body.game, body.seats, body.options, body.seed, body.names, body.variant,
                                            client=client_address(request))
        except (QuotaExceeded, HubFull, StoreFull, StoreDown):
            raise
        except TablepressError as exc:
            raise BadRequest(str(exc)) from None
        except Exception as exc:  # noqa: BLE001 - options no check caught; the game refused them
            log.warning("game setup refused: %r", exc)
            raise BadRequest(f"invalid game setup: {exc}") from None
        return {"id": room.id, "tokens": tokens}

    @app.get("/api/games/{game_id}", response_model=dict[str, Any])
    async def get_view(game_id: str, request: Request) -> Response:
        """The token's seat's view (without one, the signed-in player's seat there: web/seats.py), else the
        spectator's (public only)."""
        room = hub.room(game_id)
        return view_response(room, request_seat(room, request))

    @app.post("/api/games/{game_id}/actions", response_model=dict[str, Any])
    async def post_action(game_id: str, request: Request) -> Response:
        """Take one of the seat's legal actions; the reply is the seat's new view."""
        room = hub.room(game_id)
        seat = seated(room, request, "acting needs a seat's token (Authorization: Bearer TOKEN)")
        action = parse_action(await read_body(request))
        await hub.act(room, seat, action)
        return view_response(room, seat)

    @app.post("/api/games/{game_id}/undo")
    async def post_undo(game_id: str, request: Request) -> dict[str, Any]:
        """Take back the seat's last action when it revealed nothing and nobody has acted since."""
        room = hub.room(game_id)
        seat = seated(room, request, "undoing needs a seat's token (Authorization: Bearer TOKEN)")
        await hub.undo(room, seat)
        return room.view_for(seat)

    @app.post("/api/games/{game_id}/bot")
    async def post_bot(game_id: str, request: Request) -> dict[str, Any]:
        """The token's seat hands itself to an AI (`{"agent": SPEC}`, greedy by default) for the rest of the game.

        The token no longer works afterwards; the reply is the spectator's view.
        """
        room = hub.room(game_id)
        seat = seated(room, request, "handing a seat to an AI needs that seat's token")
        spec = parse_agent(await read_body(request))
        known_levels(room.match.game.name, [spec], "agent")
        await hub.hand_to_ai(room, seat, spec)
        return room.view_for(None)

    @app.post("/api/games/{game_id}/reclaim")
    async def post_reclaim(game_id: str, request: Request) -> dict[str, Any]:
        """The person whose seat went to an AI takes it back with its old token; the reply is that seat's view."""
        room = hub.room(game_id)
        token = request_token(request)
        if token is None:
            raise Forbidden("taking a seat back needs that seat's token")
        seat = await hub.reclaim(room, token)
        return room.view_for(seat)

    @app.post("/api/games/{game_id}/rematch", status_code=201)
    async def post_rematch(game_id: str, request: Request) -> dict[str, Any]:
        """A finished game's seat asks for a rematch: `201 {"id", "tokens": {SEAT: TOKEN}}` with only the asking
        seat's new token (none for a player's cookie, which keeps its seat); the same game and token if asked
        again, on any process. Every view of the old game then names the rematch, so each seat's table asks."""
        room = hub.room(game_id)
        seat = seated(room, request, "a rematch needs a seat's token")
        new_id, tokens = await rematch(hub, room, seat, request, client_address(request))
        return {"id": new_id, "tokens": tokens}

    @app.get("/api/games/{game_id}/record")
    async def get_record(game_id: str) -> dict[str, Any]:
        """The game record (for `tablepress replay`), once the game is over."""
        room = hub.room(game_id)
        if not room.match.is_over:
            raise IllegalAction("the record is given once the game is over")
        return room.match.record()

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(game_id: str, request: Request, step: int = 0) -> dict[str, Any]:
        """The game as it stood after `step` actions, seen by the token's seat (or a spectator).

        During the game this is what the seat saw then (its own view at that step, the log as it read it);
        once the game is over every secret choice in the log is shown.
        """
        room = hub.room(game_id)
        return replay_view(room, request_seat(room, request), step)

    @app.websocket("/ws/games/{game_id}")
    async def watch(websocket: WebSocket, game_id: str) -> None:
        """Push the seat's view now and after every change to the game (refusals: see the module's docstring)."""
        await websocket.accept()
        try:
            room = hub.room(game_id)
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
        if len(sockets) >= max_sockets:
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

    def seated(room: Room, request: Request, missing: str) -> int:
        """The seat of the request's token; Forbidden saying `missing` without one."""
        seat = request_seat(room, request)
        if seat is None:
            raise Forbidden(missing)
        return seat

    return app


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


def view_response(room: Room, seat: int | None) -> Response:
    """A seat's view as a JSON response, its body encoded once per revision (web/views.py)."""
    return Response(room.view_body(seat), media_type="application/json")


def replay_view(room: Room, seat: int | None, step: int) -> dict[str, Any]:
    """The view after `step` actions (steps clamp to 0..the number of actions so far)."""
    record = room.match.record()
    total = len(record["actions"])
    step = max(0, min(step, total))
    match = None
    for index, match in enumerate(records.replay({**record, "actions": record["actions"][:step]})):
        if index == step:
            break
    assert match is not None
    game, state = match.game, match.state
    view = build_view(room, game.view(state, seat), seat, match, legal=[],
                      log=room.log_for(seat, upto=step, reveal=room.match.is_over))
    view.update({"step": step, "steps": total, "replay": True})
    return view


def game_asset(name: str, filename: str) -> Path | None:
    """A file in a registered game's folder (e.g. its `web.js`), or None."""
    try:
        return get_package(name).file(filename)
    except TablepressError:
        return None


def catalog_games() -> list[dict[str, Any]]:
    """`game_info` of every registered game; a plugin that fails to load is logged and left out."""
    games = []
    for name in game_names():
        try:
            games.append(game_info(name))
        except TablepressError as exc:
            log.error("the catalog leaves out %s: %s", name, exc)
    return games


def rules_html(text: str) -> str:
    """A game's rules (Markdown) as HTML for the rules panel; raw HTML in the text is escaped."""
    return MarkdownIt("commonmark", {"html": False}).enable("table").render(text)


def game_info(name: str) -> dict[str, Any]:
    """What the lobby needs to offer a game: title, player counts, options, summary and rules (from its package)."""
    package = get_package(name)
    game = package.game
    return {
        "name": game.name,
        "title": game.title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "default_players": game.default_players,
        "summary": game.summary,
        "rules": package.rules(),
        "rules_html": rules_html(package.rules()),
        "options": [
            {"name": o.name, "kind": o.kind, "default": list(o.default) if isinstance(o.default, tuple) else o.default,
             "help": o.help, "choices": list(o.choices), "size": o.size}
            for o in game.options
        ],
        "levels": level_facts(package),
    }
