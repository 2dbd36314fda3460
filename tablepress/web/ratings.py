"""Players' ratings on the site: each game's leaderboard and what a finished rated game changed.

`GET /api/ratings/{game}` → `[{"player", "name", "rating", "games"}]`, best first, at most MAX_LISTED (404
for an unknown game); `GET /api/games/{id}/ratings` → `{"rated", "game", "changes": [{"seat", "player",
"name", "before", "after"}]}` (the changes once the game is over); `/games/{name}/ratings` is the leaderboard page.
Ratings are shown as whole numbers.

Who is rated and how is `rating_rule`; the store applies a finished game's changes exactly once
(`store/ratings.py`). The hub calls `settle` when a game ends in this process; the routes settle again
whatever has ended but is not applied yet (a process stopped in between, or another process ended the
game), which finds nothing to do once it is.
"""

from __future__ import annotations

import logging
import time
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from ..core.registry import game_names
from .hub import Hub, NotFound
from .logs import event
from .pages.content import facts_of
from .pages.shell import attr, page
from .players import request_token, store_of
from .rating_rule import START
from .site import unknown
from .store import Store, hash_token

log = logging.getLogger("tablepress.web")
router = APIRouter()

#: Players a leaderboard lists at most (the best).
MAX_LISTED = 100
#: Finished games whose changes a request applies at most, if none did yet.
SETTLE_AT_ONCE = 20
YOU_ROW = ' class="you"'
YOU = ' <span class="muted">(you)</span>'


def settle(store: Store, game_id: str) -> list[dict[str, Any]] | None:
    """Apply a finished game's rating changes if it is rated and nobody did yet; the changes as shown (None:
    not rated). A failure is logged, never raised: the next request for the game tries again."""
    try:
        found = store.settle_ratings(game_id, time.time())
    except Exception as exc:  # noqa: BLE001 - the game itself is stored; its ratings wait for the next try
        event(log, "ratings_failed", logging.ERROR, game=game_id, error=str(exc))
        return []
    return None if found is None else [shown(change) for change in found]


def settle_waiting(store: Store) -> None:
    """Apply the changes of finished rated games nobody applied yet (at most SETTLE_AT_ONCE)."""
    try:
        waiting = store.unsettled_ratings(SETTLE_AT_ONCE)
    except Exception as exc:  # noqa: BLE001 - a leaderboard a little behind beats none
        event(log, "ratings_failed", logging.ERROR, error=str(exc))
        return
    for game_id in waiting:
        settle(store, game_id)


def settle_when_over(hub: Hub) -> None:
    """Have the hub settle a rated game's ratings when it ends, and settle now the games that ended while no
    process applied their ratings."""
    hub.on_over = lambda room: settle(hub.store, room.id)
    settle_waiting(hub.store)


def shown(change: dict[str, Any]) -> dict[str, Any]:
    """A stored change as the API gives it: ratings as whole numbers."""
    return {"seat": change["seat"], "player": change["player"], "name": change["name"],
            "before": round(change["before"]), "after": round(change["after"])}


def leaderboard(store: Store, game: str) -> list[dict[str, Any]]:
    """A known game's best MAX_LISTED players, with any finished game's changes applied first."""
    settle_waiting(store)
    return [{**row, "rating": round(row["rating"])} for row in store.leaderboard(game, MAX_LISTED)]


def known_game(name: str) -> str:
    """`name` if it is a registered game, else NotFound naming the games there are."""
    if name not in game_names():
        raise NotFound(f"no game {name[:40]!r} (games: {', '.join(game_names())})")
    return name


@router.get("/api/ratings/{game}")
async def ratings(game: str, request: Request) -> list[dict[str, Any]]:
    """A game's leaderboard: [{"player", "name", "rating", "games"}], best first, at most MAX_LISTED."""
    return leaderboard(store_of(request), known_game(game))


@router.get("/api/games/{game_id}/ratings")
async def game_ratings(game_id: str, request: Request) -> dict[str, Any]:
    """Whether a game is rated, which game it is, and (once it is over) each person's rating before and after it."""
    room = request.app.state.hub.room(game_id)
    changes = settle(store_of(request), room.id)
    return {"rated": changes is not None, "game": room.match.game.name, "changes": changes or []}


@router.get("/games/{name}/ratings", include_in_schema=False, response_model=None)
async def leaderboard_page(name: str, request: Request) -> Response:
    """The game's leaderboard as a page (the asking player's own row marked); the 404 page for an unknown game."""
    missing = unknown(name)
    if missing is not None:
        return missing
    store = store_of(request)
    rows = leaderboard(store, name)
    token = request_token(request)
    me = store.player_by_token(hash_token(token)) if token else None
    return HTMLResponse(leaderboard_html(name, rows, None if me is None else me["id"]))


def leaderboard_html(name: str, rows: list[dict[str, Any]], me: str | None) -> str:
    """The leaderboard page: rank, player, rating and games of each listed player."""
    facts = facts_of(name)
    path = f"/games/{quote(name, safe='')}"
    lines = "".join(
        f'<tr{YOU_ROW if row["player"] == me else ""}><td class="num">{rank}</td>'
        f'<th scope="row" class="who">{attr(row["name"])}{YOU if row["player"] == me else ""}</th>'
        f'<td class="num">{row["rating"]}</td><td class="num">{row["games"]}</td></tr>'
        for rank, row in enumerate(rows, start=1))
    table = (
        f'<table class="leaderboard" id="leaderboard"><caption>The best {MAX_LISTED} at most</caption>'
        '<thead><tr><th scope="col">#</th><th scope="col">player</th><th scope="col">rating</th>'
        f'<th scope="col">games</th></tr></thead><tbody>{lines}</tbody></table>'
        if rows else '<p id="no-ratings">No rated game of this one has finished yet: sit at a rated table in the '
                     'lobby with someone.</p>')
    body = (
        '<article class="panel ratings-page">'
        f'<p class="crumbs"><a href="/">Games</a> › <a href="{attr(path)}">{attr(facts.title)}</a> › Ratings</p>'
        f"<h1>{attr(facts.title)}: ratings</h1>"
        f"<p>Players' Elo ratings from finished rated games between people: AI seats do not count. Everyone "
        f"starts at {round(START)}; winning against an equal gains 16 points, and a table of more people moves "
        "a rating about as far as one two-player game.</p>"
        f"{table}"
        f'<p class="more"><a class="button primary" href="/#lobby">Find a table in the lobby</a> '
        f'<a class="button" href="{attr(path)}">{attr(facts.title)}</a></p></article>'
    )
    return page(f"{facts.title} — ratings — Table Press", body,
                f"The best players of {facts.title} on Table Press.",
                body_class="site ratings-site")
