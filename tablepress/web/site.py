"""The Table Press site: the catalogue at `/`, each game's page, its rules, its shareable intro, its
print-and-play PDF and the intro's QR code (docs/reference.md, "The site").

Pages are HTML built from each game's package (`web/pages/`); an unknown game is a 404 page naming the
games there are. print.pdf, qr.svg and share.png answer errors as the API does (`{"detail": REASON}`: 404 unknown
game or variant, 422 a wrong field, named; 429 the printer is busy).
"""

from __future__ import annotations

from functools import partial
from urllib.parse import quote, urlencode

import anyio
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..core.registry import game_names, get_game
from ..core.variants import base_data, variant_changes
from .clients import client_address
from .faces import variant_key
from .hub import NotFound
from .pages.content import GameFacts, facts_of
from .pages.printer import Printer, draw_pdf, parse_choices, pdf_key, variant_of
from .pages.share import qr_svg
from .pages.share_image import share_png
from .pages.views import catalogue_page, game_page, intro_page, not_found_page, rules_page

router = APIRouter(include_in_schema=False)


def catalogue() -> list[GameFacts]:
    """Every registered game's facts, in the registry's order."""
    return [facts_of(name) for name in game_names()]


def unknown(name: str) -> HTMLResponse | None:
    """The 404 page if `name` is no registered game, else None."""
    if name in game_names():
        return None
    return HTMLResponse(not_found_page(name, catalogue()), status_code=404)


def known(name: str) -> None:
    """NotFound (naming the games there are) unless `name` is a registered game."""
    if name not in game_names():
        raise NotFound(f"no game {name!r} (games: {', '.join(game_names())})")


def public_url(request: Request) -> str:
    """The site's address as the world sees it (`serve --public-url`): links the site gives out start with it,
    whatever Host the request named."""
    return request.app.state.public_url


def printer_of(app: FastAPI) -> Printer:
    """The app's one printer (made on first use)."""
    printer = getattr(app.state, "printer", None)
    if printer is None:
        printer = app.state.printer = Printer()
    return printer


@router.get("/", response_model=None)
def catalogue_view(request: Request) -> Response:
    """The catalogue; `/?game=NAME&from=ID` (the table's "Play again") goes to NAME's Play panel."""
    wanted = request.query_params.get("game")
    if wanted in game_names():
        rest = {key: request.query_params[key] for key in ("from",) if key in request.query_params}
        query = f"?{urlencode(rest)}" if rest else ""
        return RedirectResponse(f"/games/{quote(wanted, safe='')}{query}#play", status_code=303)
    return HTMLResponse(catalogue_page(catalogue()))


@router.get("/games/{name}", response_model=None)
def game_view(name: str, request: Request) -> Response:
    """A game's page: intro, cards, and the Play / Simulate / Print / Share / Make buttons."""
    return unknown(name) or HTMLResponse(game_page(name, public_url(request)))


@router.get("/games/{name}/rules", response_model=None)
def rules_view(name: str) -> Response:
    """A game's full rules with a table of contents."""
    return unknown(name) or HTMLResponse(rules_page(name))


@router.get("/games/{name}/intro", response_model=None)
def intro_view(name: str, request: Request, variant: str | None = None) -> Response:
    """A game's shareable one-page intro (Open Graph and Twitter meta for link previews); `?variant=ID` that
    saved variant's (404 for an unknown one, 422 for another game's)."""
    missing = unknown(name)
    if missing is not None:
        return missing
    shown = None
    if variant is not None:
        saved = variant_of(getattr(request.app.state, "variants", None), variant[:64], name)
        shown = {"id": saved["id"], "name": saved["name"],
                 "changes": variant_changes(saved["overrides"], base_data(get_game(name)))}
    return HTMLResponse(intro_page(name, public_url(request), shown))


@router.get("/games/{name}/qr.svg")
def qr_view(name: str, request: Request) -> Response:
    """The QR code of the game's intro address."""
    known(name)
    url = f"{public_url(request)}/games/{quote(name, safe='')}/intro"
    return Response(qr_svg(url), media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=3600"})


@router.get("/games/{name}/share.png")
async def share_image_view(name: str, request: Request, variant: str | None = None) -> Response:
    """The intro's link-preview picture (og:image): the title beside a few of the game's card faces, as PNG;
    `?variant=ID` that saved variant's, its faces as it makes them (404 for an unknown one, 422 another game's)."""
    known(name)
    if variant is None:
        data = await anyio.to_thread.run_sync(share_png, name)
        return Response(data, media_type="image/png", headers={"Cache-Control": "public, max-age=3600"})
    saved = variant_of(getattr(request.app.state, "variants", None), variant[:64], name)
    data = await anyio.to_thread.run_sync(share_png, name, variant_key(saved["overrides"]), saved["name"])
    return Response(data, media_type="image/png", headers={"Cache-Control": "no-cache"})


@router.get("/games/{name}/print.pdf")
async def print_view(name: str, request: Request) -> Response:
    """The print-and-play PDF: `?paper=a4|letter&backs=0|1&bleed=MM&ink_saver=0|1&duplex=long|short&variant=ID`,
    the same bytes as `tablepress print` with the same choices (a variant as a file named after it)."""
    known(name)
    params = request.query_params
    choices = parse_choices({key: params.getlist(key) for key in dict.fromkeys(params.keys())})
    variant = None
    if choices.variant is not None:
        variant = variant_of(getattr(request.app.state, "variants", None), choices.variant, name)
    printer = printer_of(request.app)
    data = await anyio.to_thread.run_sync(printer.pdf, pdf_key(name, choices, variant),
                                          partial(draw_pdf, name, choices, variant), client_address(request))
    stem = name if variant is None else f"{name}-{variant_slug(variant['name'])}"
    headers = {"Content-Disposition": f'attachment; filename="{stem}-{choices.paper}.pdf"',
               "Cache-Control": "no-cache" if variant else "public, max-age=3600"}
    return Response(data, media_type="application/pdf", headers=headers)


def variant_slug(name: str) -> str:
    """A variant's name as safe file-name characters."""
    cleaned = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_") else "-" for ch in name).strip("-")
    return cleaned[:40] or "variant"
