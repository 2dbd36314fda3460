"""Card faces for the web table, from the same faces model the print sheets use (`tablepress/faces`).

`/faces/GAME/CARD.svg` serves one card's face (or `?back=1` its back) by key or name; a game without
faces, or an unknown card, is a 404 and the game's web.js draws its own simple SVG instead.
"""

from __future__ import annotations

from functools import lru_cache

from ..core.errors import TablepressError
from ..core.registry import get_game

MAX_CARD = 80


@lru_cache(maxsize=2048)
def card_svg(game_name: str, card: str, back: bool = False) -> str | None:
    """The SVG document of one card of a registered game (published card data), or None."""
    if len(card) > MAX_CARD:
        return None
    try:
        from ..faces.catalog import svg_for

        return svg_for(get_game(game_name), card, back=back, width="100%")
    except (TablepressError, ImportError):
        return None
