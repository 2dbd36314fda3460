"""The catalog (`GET /api/catalog`): every registered game (plugins too) with what the lobby needs to offer it,
and the seat kinds a web game takes."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Request
from markdown_it import MarkdownIt

from ..agents.base import AGENTS, HUMAN
from ..agents.level_ratings import level_facts
from ..agents.levels import LEVEL
from ..core.errors import TablepressError
from ..core.registry import game_names, get_package
from .requests import SERVER_ONLY

log = logging.getLogger("tablepress.web")

router = APIRouter()


@router.get("/api/catalog")
async def catalog(request: Request) -> dict[str, Any]:
    """Every registered game (plugins too) with its player counts, options and rules; the seat kinds."""
    return {"games": catalog_games(), "agents": [HUMAN, *(a for a in AGENTS if a not in SERVER_ONLY and a != LEVEL)],
            "public_url": request.app.state.public_url}


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
