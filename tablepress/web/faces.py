"""Card faces for the web table, from the same faces model the print sheets use (`tablepress/faces`).

`/faces/GAME/CARD.svg` serves one card's face (or `?back=1` its back) by key or name, as published;
`?game=ID` draws it from the card data of that game (a game played with a variant shows the variant's
cards), `?variant=ID` from a saved variant's. A game without faces, an unknown card, game or variant is
a 404 and the game's web.js draws its own simple SVG instead.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..core.errors import TablepressError
from ..core.game import Game
from ..core.registry import get_game
from .errors import one_line
from .hub import Hub, NotFound

MAX_CARD = 80

router = APIRouter()


@router.get("/faces/{name}/{card}.svg", include_in_schema=False)
async def card_face(name: str, card: str, request: Request, back: bool = False, game: str | None = None,
                    variant: str | None = None) -> Response:
    """One card's printed face (or back) as SVG: as published, as game `game` plays it, or as saved
    variant `variant` makes it."""
    try:
        if game is not None:
            overrides = game_variant(request.app.state.hub, game[:64], name)
        elif variant is not None:
            overrides = saved_variant(request.app.state.variants, variant[:64], name)
        else:
            overrides = None
    except NotFound as exc:
        return JSONResponse({"detail": one_line(str(exc))}, status_code=404)
    svg = card_svg(name, card, back, variant_key(overrides))
    if svg is None:
        return JSONResponse({"detail": one_line(f"no card face {card!r} for {name!r}")}, status_code=404)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=3600"})


@lru_cache(maxsize=2048)
def card_svg(game_name: str, card: str, back: bool = False, variant: str | None = None) -> str | None:
    """The SVG document of one card of a registered game, or None: from its published card data, or with
    `variant` (card data changes as canonical JSON, see `variant_key`) from that variant's."""
    if len(card) > MAX_CARD:
        return None
    try:
        from ..faces.catalog import svg_for

        game = get_game(game_name) if variant is None else varied_game(game_name, variant)
        return svg_for(game, card, back=back, width="100%")
    except (TablepressError, ImportError):
        return None


@lru_cache(maxsize=64)
def varied_game(game_name: str, variant: str) -> Game:
    """The registered game with a variant's card data (canonical JSON) applied, built once."""
    return get_game(game_name).with_variant(json.loads(variant))


def variant_key(overrides: Mapping[str, Any] | None) -> str | None:
    """A variant's card data changes as canonical JSON (the same changes give the same text), or None."""
    return None if overrides is None else json.dumps(overrides, sort_keys=True, separators=(",", ":"))


def game_variant(hub: Hub, game_id: str, game_name: str) -> Mapping[str, Any] | None:
    """The card data changes a game on the server plays (None: the published cards); NotFound if there is no
    such game of `game_name`. A finished game not in memory is read from its stored row, not replayed."""
    room = hub.rooms.get(game_id)
    row = room.row if room is not None else hub.archive.get(game_id)
    if row is None:
        row = hub.room(game_id).row
    if row.game != game_name:
        raise NotFound(f"game {game_id!r} is not a game of {game_name}")
    return row.variant


def saved_variant(variants: Any, variant_id: str, game_name: str) -> Mapping[str, Any]:
    """The card data changes of the saved variant `variant_id` of `game_name`; NotFound otherwise."""
    try:
        saved = variants.get(variant_id) if variants is not None else None
    except KeyError:
        saved = None
    if saved is None or saved["game"] != game_name:
        raise NotFound(f"no variant {variant_id[:40]!r} of {game_name}")
    return saved["overrides"]
