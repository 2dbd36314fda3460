"""A game's levels with their measured ratings, as the catalog and the game page show them.

The ratings are read from the game's `levels.json` (written by `tablepress rate`). A level whose agent
changed since it was measured, or that was never measured, has no rating (null, 0 games).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.levels import Level
from ..core.package import GamePackage

#: The file `tablepress rate` writes in the game's folder.
RATINGS_FILE = "levels.json"


def read_ratings(path: Path | None) -> dict[str, Any]:
    """The contents of a ratings file ({} when there is none or it cannot be read)."""
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def measured(level: Level, data: dict[str, Any]) -> dict[str, Any] | None:
    """The file's entry for `level` if it measured the level as now declared (same agent and random share)."""
    for entry in data.get("ratings") or ():
        if (isinstance(entry, dict) and entry.get("level") == level.name and entry.get("agent") == level.agent
                and entry.get("random_moves", 0.0) == level.random_moves):
            return entry
    return None


def level_facts(package: GamePackage) -> list[dict[str, Any]]:
    """Each declared level: `name`, `title`, `agent`, `random_moves`, `rating` (rounded; null if unmeasured),
    `interval` (95%, or null), `games` (played in the rating run) and `players` (the count it was rated at)."""
    data = read_ratings(package.file(RATINGS_FILE))
    facts = []
    for level in package.levels:
        entry = measured(level, data)
        rating = entry.get("rating") if entry else None
        interval = entry.get("interval") if entry else None
        facts.append({
            "name": level.name, "title": level.title, "agent": level.agent, "random_moves": level.random_moves,
            "rating": round(rating) if isinstance(rating, (int, float)) else None,
            "interval": [round(v) for v in interval] if isinstance(interval, list) and len(interval) == 2 else None,
            "games": int(entry.get("games", 0)) if entry else 0,
            "players": data.get("players") if entry else None,
        })
    return facts
