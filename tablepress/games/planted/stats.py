"""Card-level figures of one finished game of Planted, for `tablepress simulate` (per player, averaged).

plants.TIER: plants owned of each tier; points.TIER: plant points from that tier; plant_points,
growth_tokens, grown (plants with every space filled); decorations and decoration_points; tools;
propagation (tokens = points); nursery_calls: Nursery calls made.
"""

from __future__ import annotations

from typing import Any

from ...core.match import Match
from .cards import TIERS
from .scoring import plant_points


def figures(game: Any, match: Match) -> dict[str, float]:
    """Figures of a finished match, each the mean over the players."""
    cards = game.cards
    state = match.state
    players = match.players
    totals: dict[str, float] = {f"plants.{tier}": 0.0 for tier in TIERS}
    totals.update({f"points.{tier}": 0.0 for tier in TIERS})
    for key in ("plant_points", "growth_tokens", "grown", "decorations", "decoration_points", "tools",
                "propagation", "nursery_calls"):
        totals[key] = 0.0
    for seat in range(players):
        for plant_id, tokens in zip(state.plants[seat], state.growth[seat]):
            plant = cards.plants[plant_id]
            points = plant_points(plant.spaces, tokens)
            totals[f"plants.{plant.tier}"] += 1
            totals[f"points.{plant.tier}"] += points
            totals["plant_points"] += points
            totals["growth_tokens"] += tokens
            totals["grown"] += tokens >= len(plant.spaces)
        board = game.board_score(state, seat)
        totals["decorations"] += len(state.decorations[seat])
        totals["decoration_points"] += board.decorations
        totals["tools"] += len(state.tools[seat])
        totals["propagation"] += board.propagation
    totals["nursery_calls"] = float(sum(1 for _, action in match.actions if action.startswith("nursery ")))
    return {name: value / players for name, value in totals.items()}
