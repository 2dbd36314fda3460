"""The table of one game as a page (`/play/{game_id}`), and the drawing code a game ships for it
(`/games/{name}/web.js`; GENERIC_RENDERER for a game without one: the table then draws it generically)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from ..core.errors import TablepressError
from ..core.registry import get_package

STATIC = Path(__file__).parent / "static"
#: What `/games/NAME/web.js` serves for a game without a `web.js`: it registers nothing, so the table
#: draws the game generically.
GENERIC_RENDERER = "/* no renderer for this game: the table draws it generically */\n"

router = APIRouter()


@router.get("/play/{game_id}", include_in_schema=False)
async def table_page(game_id: str) -> FileResponse:
    """The table of one game (the page reads the id from its address)."""
    return FileResponse(STATIC / "table.html")


@router.get("/games/{name}/web.js", include_in_schema=False)
async def game_renderer(name: str) -> Response:
    """A game's own drawing code (its package's `web.js`), or GENERIC_RENDERER: the table draws it generically."""
    path = game_asset(name, "web.js")
    if path is None:
        return Response(GENERIC_RENDERER, media_type="text/javascript")
    return FileResponse(path, media_type="text/javascript")


def game_asset(name: str, filename: str) -> Path | None:
    """A file in a registered game's folder (e.g. its `web.js`), or None."""
    try:
        return get_package(name).file(filename)
    except TablepressError:
        return None
