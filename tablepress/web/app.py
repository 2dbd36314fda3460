"""The FastAPI application, assembled from routers that each do one job: the HTTP API and WebSocket of
docs/reference.md, the lobby and the table pages.

Errors are JSON `{"detail": REASON}` (web/errors.py): 403 wrong token, 404 no such game, 409 illegal or
out-of-turn action (or a record asked for too early, or another process acted on the game at the same moment),
413 a body too large, 414/431 a request line or headers over MAX_HEAD bytes, 422 a malformed body. Nothing
changes on an error, and no traceback ever reaches a client. A browser asking for a page outside /api/ gets the
error as an HTML page instead (pages/errors.py). A refused WebSocket is closed with a code the client can read
(web/watch.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware

from .catalog import router as catalog_router
from .chat import router as chat_router
from .clients import trust_proxies
from .clocks import Clocks
from .clocks import router as clocks_router
from .errors import handle_errors
from .faces import router as faces_router
from .game_routes import router as games_router
from .guides import router as guides_router
from .headers import HeadLimits, SafeHeaders
from .health import router as health_router
from .hub import Hub
from .jobs_routes import router as simulations_router
from .openapi import describe
from .players import router as players_router
from .protocols import MAX_HEAD
from .ratings import router as ratings_router
from .ratings import settle_when_over
from .replay import router as replay_router
from .site import router as site_router
from .social import Social
from .store import open_store
from .table_page import router as table_page_router
from .tables import router as tables_router
from .turns import router as turns_router
from .watch import MAX_SOCKETS
from .watch import router as watch_router
from .workshop import Workshop
from .workshop import router as workshop_router

STATIC = Path(__file__).parent / "static"
#: Responses this large or larger are gzip-compressed for a client that accepts it.
GZIP_MINIMUM = 1024
#: The site's address in share links, `og:url`, QR codes and invites when none is given (`serve --public-url`).
DEFAULT_PUBLIC_URL = "http://127.0.0.1:8000"

#: The routers before the static files, in the order they match: the workshop (variants, the Make page),
#: simulations, guided first games, players, the lobby's tables, chat, ratings, turn clocks, your-turn notices,
#: the site's pages.
ROUTERS = (workshop_router, simulations_router, guides_router, players_router, tables_router, chat_router,
           ratings_router, clocks_router, turns_router, site_router)
#: The routers after the static files: the table page, card faces, health, the catalog, games and their actions,
#: records and replays, the live view.
LATER_ROUTERS = (table_page_router, faces_router, health_router, catalog_router, games_router, replay_router,
                 watch_router)


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
    settle_when_over(hub)

    app = FastAPI(title="tablepress", lifespan=running, docs_url="/api/docs", redoc_url=None)
    app.state.hub, app.state.workshop, app.state.variants = hub, workshop, workshop.variants
    app.state.social, app.state.clocks = Social(hub), Clocks(hub)
    app.state.public_url = public_url.rstrip("/")
    app.state.sockets, app.state.max_sockets = set(), max_sockets
    for router in ROUTERS:
        app.include_router(router)
    describe(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for router in LATER_ROUTERS:
        app.include_router(router)

    # Innermost, so it sees whole bodies (the middlewares below stream them); Starlette leaves WebSockets and
    # event streams alone, and bodies under GZIP_MINIMUM bytes go as they are.
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM)
    app.add_middleware(HeadLimits, max_head=MAX_HEAD)  # 414/431 before any route (web/headers.py)
    app.add_middleware(SafeHeaders)  # no-store under /api/, never framed (outside HeadLimits: its refusals too)
    trust_proxies(app, forwarded_allow_ips)
    handle_errors(app)
    return app


@contextlib.asynccontextmanager
async def running(app: FastAPI) -> AsyncIterator[None]:
    """While the app serves: the restored games' AI seats, the workshop's simulations, the lobby's and chat's
    news (web/social.py) and the turn clocks run; on shutdown they stop in the reverse order and the database
    closes."""
    state = app.state
    async with contextlib.AsyncExitStack() as stopping:
        stopping.callback(state.hub.store.close)
        stopping.push_async_callback(state.hub.close)
        stopping.push_async_callback(state.workshop.close)
        state.hub.start_ai()
        state.workshop.start()
        state.social.start()
        stopping.push_async_callback(state.social.close)
        state.clocks.start()
        stopping.push_async_callback(state.clocks.close)
        yield
