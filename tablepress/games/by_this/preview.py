"""By This's note on each legal action: what the shelf is worth after it, and what would fall to the Floor."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.game import Game
from ...core.preview import reads_public_only
from .narrate import fell_to_floor


@reads_public_only
def note(game: Game, seat: int, before: Mapping[str, Any], action: str, after: Mapping[str, Any]) -> str | None:
    """`shelf worth 7`, `Needle falls` — for placements, Same Number and By This (None for the rest)."""
    verb = action.split()[0] if action else ""
    if verb not in ("place", "samenumber", "bythis"):
        return None
    shelf = after["public"]["shelf"]
    text = f"shelf worth {after['public']['close_score']}" if shelf else "shelf empty"
    fell = fell_to_floor(before["public"], after["public"])
    if fell:
        text += f"; {', '.join(fell)} fall{'s' if len(fell) == 1 else ''}"
    return text
