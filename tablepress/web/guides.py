"""Guided first games on the site (core/guide.py): starting one, and the step the table shows.

- `POST /api/guides/{name}` → `201 {"id", "tokens"}` (the shape of `POST /api/games`): a new game of the
  guide's deal, the newcomer's seat human and the others the guide's opponent level. 404 for a game without
  a guide, 429 at the client's limits. Started by a signed-in player (its cookie or player token), the seat is
  named after the player, opens by the player's token as well, and the game is among the player's games.
- `POST /games/{name}/learn` (a plain form, no script needed) → 303 to the new game's table, whose address
  holds `guide=1` and, unless the player's cookie opens the seat, the newcomer's seat link.
- `GET /api/games/{id}/guide` with the seat's token (or its player's cookie, web/seats.py) → what the guide shows that seat now: `{"game", "title",
  "seat", "point": "move"|"waiting"|"end", "move", "moves", "on_path", "reason", "steps": [{"title", "text",
  "rules"}], "rules", "suggest", "revision"}`, each `rules` `{"anchor", "heading", "url"}` or null. It is
  worked out from that seat's view alone. 403 without a seat's credential, 404 for a game that is not a guide's.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from ..core.errors import TablepressError
from ..core.guide import Guide, Point, Step, load_guide
from ..core.match import jsonable
from ..core.registry import game_names, get_package
from .clients import client_address
from .hub import Hub, NotFound
from .pages.content import rules_with_contents
from .players import player_of
from .requests import Forbidden
from .rooms import Room
from .seats import request_seat
from .store import hash_token

router = APIRouter()
#: The newcomer's name at the table when no player's name is known, and the opponent's.
NEWCOMER = "Newcomer"
OPPONENT = "{level} AI"


@lru_cache(maxsize=32)
def guide_for(name: str) -> Guide:
    """The guide of the registered game `name`; NotFound if there is no such game or it has no guide."""
    if name not in game_names():
        raise NotFound(f"no game {name!r} (games: {', '.join(game_names())})")
    guide = load_guide(get_package(name))
    if guide is None:
        raise NotFound(f"{name} has no guided first game")
    return guide


def has_guide(name: str) -> bool:
    """Whether the registered game `name` ships a guide (a broken guide counts as none)."""
    try:
        guide_for(name)
    except TablepressError:
        return False
    return True


@lru_cache(maxsize=32)
def rules_headings(name: str) -> dict[str, str]:
    """Anchor → heading of every heading on the game's rules page (`/games/{name}/rules`)."""
    _html, contents = rules_with_contents(get_package(name).rules())
    return {anchor: text for _level, anchor, text in contents}


def rules_link(name: str, anchor: str | None) -> dict[str, str] | None:
    """`{"anchor", "heading", "url"}` of a heading of the game's rules page, or None."""
    if anchor is None:
        return None
    heading = rules_headings(name).get(anchor, anchor)
    return {"anchor": anchor, "heading": heading, "url": f"/games/{quote(name, safe='')}/rules#{quote(anchor)}"}


def opponent_name(guide: Guide) -> str:
    """The opponent's name at the table: its level's title ("Beginner AI"), or its spec."""
    spec = guide.opponent
    level = spec.partition(":")[2] if spec.startswith("level:") else spec
    return OPPONENT.format(level=level.replace("-", " ").capitalize())


def signed_in(request: Request) -> dict[str, Any] | None:
    """The request's player (its player token or cookie), or None: none, or a token that is no player's."""
    try:
        return player_of(request, required=False)
    except TablepressError:
        return None


async def start(request: Request, name: str) -> tuple[Guide, str, dict[str, str], bool]:
    """Create a game of `name`'s guide for the request: (its guide, the game's id, its tokens, whether a
    signed-in player's cookie opens the newcomer's seat)."""
    guide = guide_for(name)
    hub: Hub = request.app.state.hub
    player = signed_in(request)
    newcomer = player["name"] if player else NEWCOMER
    names = [newcomer if spec == "human" else opponent_name(guide) for spec in guide.seats]
    room, tokens = await hub.create(guide.game, guide.seats, dict(guide.options), guide.seed, names, None,
                                    client=client_address(request))
    if player is not None:
        await seat_player(hub, room, player, guide.seat)
    return guide, room.id, tokens, player is not None


async def seat_player(hub: Hub, room: Room, player: dict[str, Any], seat: int) -> None:
    """The player's token (its cookie) opens `seat` of the new game, which is among the player's games, as a
    game begun from a lobby table is."""
    await hub.grant_seat(room, hash_token(player["token"]), seat)
    hub.store.add_player_game(player["id"], room.id, seat, time.time())


@router.post("/api/guides/{name}", status_code=201)
async def create_guided(name: str, request: Request) -> dict[str, Any]:
    """Start a guided first game of `name`: 201 {"id", "tokens"} with the newcomer's seat's token."""
    _guide, game_id, tokens, _by_cookie = await start(request, name)
    return {"id": game_id, "tokens": tokens}


@router.post("/games/{name}/learn", include_in_schema=False)
async def learn(name: str, request: Request) -> RedirectResponse:
    """The Learn button: start a guided first game and go to its table, the newcomer's seat held (by the
    player's cookie for a signed-in player, else by the seat's link)."""
    guide, game_id, tokens, by_cookie = await start(request, name)
    seat = "" if by_cookie else f"seat={guide.seat}&token={quote(tokens[str(guide.seat)], safe='')}&"
    return RedirectResponse(f"/play/{quote(game_id, safe='')}#{seat}guide=1", status_code=303)


def is_guided(room: Room, guide: Guide) -> bool:
    """Whether the room plays the guide's deal: its game, seed, seats and options."""
    match = room.match
    return (match.game.name == guide.game and match.game.variant is None and match.seed == guide.seed
            and list(match.seats) == guide.seats
            and jsonable(match.options) == jsonable(match.game.normalise_options(guide.options)))


@router.get("/api/games/{game_id}/guide")
async def get_guide(game_id: str, request: Request) -> dict[str, Any]:
    """What the guide shows the token's seat now (see the module docstring)."""
    hub: Hub = request.app.state.hub
    room = hub.room(game_id)
    seat = request_seat(room, request)
    if seat is None:
        raise Forbidden("the guide reads a seat's view: it needs that seat's token (Authorization: Bearer TOKEN)"
                        " or its player's cookie")
    name = room.match.game.name
    guide = guide_for(name) if has_guide(name) else None
    if guide is None or not is_guided(room, guide):
        raise NotFound(f"game {game_id!r} is not a guided first game")
    view = room.view_for(seat)
    return point_json(guide, guide.at(view), seat, view.get("revision"))


def point_json(guide: Guide, point: Point, seat: int, revision: Any) -> dict[str, Any]:
    """A guide's point as the API gives it."""
    return {
        "game": guide.game, "title": guide.title, "seat": seat, "point": point.kind, "move": point.move,
        "moves": len(guide.line), "on_path": point.on_path, "reason": point.reason,
        "steps": [step_json(guide.game, step) for step in point.steps],
        "rules": rules_link(guide.game, point.rules), "suggest": point.suggest, "revision": revision,
    }


def step_json(game: str, step: Step) -> dict[str, Any]:
    """One step as the table shows it: its title, text and rules link."""
    return {"title": step.title, "text": step.text, "rules": rules_link(game, step.rules)}
