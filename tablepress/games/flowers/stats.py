"""Card-level figures of one finished game of Flowers, for `tablepress simulate` (per player, averaged).

discards: cards discarded (covered ones included); discard_points; region_points; regions: colour regions
of scoring size; largest_region: the biggest colour region of any size; butterflies: butterflies that
score; butterfly_points; covered: cards placed on top of another; spread: cells in the area.
"""

from __future__ import annotations

from typing import Any

from ...core.match import Match
from .scoring import components, score_area


def figures(game: Any, match: Match) -> dict[str, float]:
    """Figures of a finished match, each the mean over the players."""
    cards = game.cards
    totals = dict.fromkeys(
        ("discards", "discard_points", "region_points", "regions", "largest_region", "butterflies",
         "butterfly_points", "covered", "spread"),
        0.0,
    )
    areas = match.state.areas
    for area in areas:
        result = score_area(area, cards)
        top = {cell: stack[-1] for cell, stack in area.items() if stack}
        coloured = {cell for cell, card in top.items() if cards.colour[card] is not None}
        regions = components(coloured, lambda a, b: cards.colour[top[a]] == cards.colour[top[b]])
        totals["discards"] += len(result.discarded)
        totals["discard_points"] += result.discard_points
        totals["region_points"] += result.region_points
        totals["regions"] += len(result.regions)
        totals["largest_region"] += max((len(r) for r in regions), default=0)
        totals["butterflies"] += len(result.butterflies)
        totals["butterfly_points"] += result.butterfly_points
        totals["covered"] += sum(len(stack) - 1 for stack in area.values())
        totals["spread"] += len(area)
    return {name: value / len(areas) for name, value in totals.items()}
