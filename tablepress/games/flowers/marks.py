"""What the table marks on a Flowers area, cell by cell, from the game's own scoring rules.

Each visible card is in a number group (cards of one value joined orthogonally) that is `exact` (as many
cards as its value: it stays), `short` (fewer: discarded if the game ended now, but it may still grow) or
`over` (more: discarded unless covered). Kept coloured cards form colour regions; a region of
`region_min`+ cards scores a point a card. A butterfly 4 scores when it touches its colour. The marks'
points add up to `scoring.score_area` (a test holds them to it).
"""

from __future__ import annotations

from typing import Any

from .cards import FlowersCards
from .scoring import Area, components, neighbours


def area_marks(area: Area, cards: FlowersCards) -> dict[str, Any]:
    """{"cells": {"x,y": {"group", "need", "region", "butterfly"}}, "regions": [...], "discards", "points"}."""
    top = {cell: stack[-1] for cell, stack in area.items() if stack}
    valued = {cell for cell, card in top.items() if cards.value[card]}
    cells: dict[str, dict[str, Any]] = {f"{x},{y}": {"group": None, "need": None, "region": None, "butterfly": False}
                                        for x, y in top}
    discarded_cells: set[tuple[int, int]] = set()
    for group in components(valued, lambda a, b: cards.value[top[a]] == cards.value[top[b]]):
        value = cards.value[top[group[0]]]
        status = "exact" if len(group) == value else ("short" if len(group) < value else "over")
        if status != "exact":
            discarded_cells.update(group)
        for x, y in group:
            cells[f"{x},{y}"].update(group=status, need=value - len(group))
    kept = {cell: card for cell, card in top.items() if cell not in discarded_cells}
    coloured = {cell for cell, card in kept.items() if cards.colour[card] is not None}
    regions = []
    for region in components(coloured, lambda a, b: cards.colour[kept[a]] == cards.colour[kept[b]]):
        colour = cards.colour[kept[region[0]]]
        scores = len(region) >= cards.region_min
        regions.append({"colour": cards.colour_names[colour], "cards": len(region),
                        "points": len(region) if scores else 0, "short_by": max(0, cards.region_min - len(region))})
        for x, y in region:
            cells[f"{x},{y}"]["region"] = len(regions) - 1
    butterflies = 0
    for cell, card in kept.items():
        if cards.butterfly[card] and any(n in kept and cards.colour[kept[n]] == cards.butterfly[card]
                                         for n in neighbours(cell)):
            cells[f"{cell[0]},{cell[1]}"]["butterfly"] = True
            butterflies += 1
    discards = sum(len(area[cell]) for cell in discarded_cells)
    region_points = sum(region["points"] for region in regions)
    return {
        "cells": cells,
        "regions": regions,
        "discards": discards,
        "points": {"regions": region_points, "butterflies": cards.butterfly_points * butterflies,
                   "discards": cards.discard_points * discards,
                   "total": region_points + cards.butterfly_points * butterflies + cards.discard_points * discards},
    }
