"""Flowers scoring: number groups and discards, colour regions, butterflies (rules.md, Scoring)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import FlowersCards

Cell = tuple[int, int]
Area = Mapping[Cell, Sequence[int]]


def neighbours(cell: Cell) -> Iterator[Cell]:
    """The four orthogonal neighbours of a cell."""
    x, y = cell
    yield x + 1, y
    yield x - 1, y
    yield x, y + 1
    yield x, y - 1


def components(cells: set[Cell], same: Any) -> list[list[Cell]]:
    """Connected groups of `cells` (orthogonally) where `same(a, b)` holds along every link."""
    seen: set[Cell] = set()
    groups = []
    for start in sorted(cells):
        if start in seen:
            continue
        seen.add(start)
        group, frontier = [start], [start]
        while frontier:
            cell = frontier.pop()
            for other in neighbours(cell):
                if other in cells and other not in seen and same(cell, other):
                    seen.add(other)
                    group.append(other)
                    frontier.append(other)
        groups.append(group)
    return groups


@dataclass
class AreaScore:
    """One area's score and how it came about."""

    total: int
    region_points: int
    butterfly_points: int
    discard_points: int
    discarded: list[int] = field(default_factory=list)
    regions: list[tuple[str, int]] = field(default_factory=list)
    butterflies: list[int] = field(default_factory=list)

    def as_dict(self, cards: FlowersCards) -> dict[str, Any]:
        """The breakdown as JSON-ready data (contract: "total" plus its parts)."""
        return {
            "total": self.total,
            "regions": self.region_points,
            "butterflies": self.butterfly_points,
            "discards": len(self.discarded),
            "discard_points": self.discard_points,
            "region_sizes": [
                {"colour": cards.colour_names[col], "cards": size} for col, size in self.regions
            ],
            "discarded_cards": [cards.codes[c] for c in self.discarded],
            "butterfly_cards": [cards.codes[c] for c in self.butterflies],
        }


def score_area(area: Area, cards: FlowersCards) -> AreaScore:
    """Score one player's area: −1 per discarded card, 1 per card in regions of 5+, 1 per butterfly."""
    top = {cell: stack[-1] for cell, stack in area.items() if stack}
    valued = {cell for cell, card in top.items() if cards.value[card]}
    discarded_cells: set[Cell] = set()
    for group in components(valued, lambda a, b: cards.value[top[a]] == cards.value[top[b]]):
        if len(group) != cards.value[top[group[0]]]:
            discarded_cells.update(group)
    discarded = [card for cell in sorted(discarded_cells) for card in area[cell]]
    kept = {cell: card for cell, card in top.items() if cell not in discarded_cells}
    coloured = {cell for cell, card in kept.items() if cards.colour[card] is not None}
    regions = []
    for region in components(coloured, lambda a, b: cards.colour[kept[a]] == cards.colour[kept[b]]):
        if len(region) >= cards.region_min:
            regions.append((cards.colour[kept[region[0]]], len(region)))
    butterflies = [
        card
        for cell, card in sorted(kept.items())
        if cards.butterfly[card]
        and any(n in kept and cards.colour[kept[n]] == cards.butterfly[card] for n in neighbours(cell))
    ]
    region_points = sum(size for _, size in regions)
    butterfly_points = cards.butterfly_points * len(butterflies)
    discard_points = cards.discard_points * len(discarded)
    return AreaScore(
        total=region_points + butterfly_points + discard_points,
        region_points=region_points,
        butterfly_points=butterfly_points,
        discard_points=discard_points,
        discarded=discarded,
        regions=regions,
        butterflies=butterflies,
    )


def winners(results: Sequence[AreaScore]) -> list[int]:
    """The seats with the highest total; ties go to fewer discarded cards; still tied, shared."""
    best = max((r.total, -len(r.discarded)) for r in results)
    return [seat for seat, r in enumerate(results) if (r.total, -len(r.discarded)) == best]
