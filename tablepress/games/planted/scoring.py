"""Planted scoring (rules.md, End and scoring): plants, propagation and each decoration.

A board here is the scoring-relevant part of a player's area: plants with their growth tokens, the
propagation tokens and the kinds of tools and decorations owned. Both the engine and the position
files of `tablepress score planted` score through `score_board`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import Decoration, PlantedCards
from .state import PlantedState


@dataclass
class BoardScore:
    """One board's score and how it came about."""

    total: int
    plants: int
    propagation: int
    decorations: int
    growth_tokens: int
    plant_rows: list[tuple[str, int, int]] = field(default_factory=list)  # (plant, tokens, points)
    decoration_rows: list[tuple[str, int]] = field(default_factory=list)  # (decoration, points)

    def as_dict(self) -> dict[str, Any]:
        """The breakdown as JSON-ready data: "total" first, then its parts, then the detail."""
        return {
            "total": self.total,
            "plants": self.plants,
            "propagation": self.propagation,
            "decorations": self.decorations,
            "growth_tokens": self.growth_tokens,
            "each_decoration": ", ".join(f"{name} {points}" for name, points in self.decoration_rows) or "—",
            "plants_detail": [
                {"plant": name, "tokens": tokens, "points": points} for name, tokens, points in self.plant_rows
            ],
            "decorations_detail": [{"decoration": name, "points": points} for name, points in self.decoration_rows],
        }


def plant_points(spaces: Sequence[int], tokens: int) -> int:
    """Points under the lowest `tokens` spaces of a plant."""
    return sum(spaces[:tokens])


def decoration_points(deco: Decoration, tools: int, type_counts: dict[str, int], grown: int, propagation: int) -> int:
    """What one decoration scores for a board with these counts."""
    if deco.scores == "tools":
        return deco.points * tools
    if deco.scores == "type":
        return deco.points * type_counts.get(deco.type, 0)
    if deco.scores == "types":
        return deco.points * sum(1 for count in type_counts.values() if count)
    if deco.scores == "grown":
        return deco.points * grown
    return deco.points * (propagation // deco.per)


def score_board(
    cards: PlantedCards,
    plants: Sequence[int],
    growth: Sequence[int],
    propagation: int,
    tools: Sequence[int],
    decorations: Sequence[int],
) -> BoardScore:
    """Score a board: plant indices with their growth tokens, propagation tokens, tool and decoration kinds."""
    rows = []
    type_counts: dict[str, int] = {}
    grown = 0
    for plant_id, tokens in zip(plants, growth):
        plant = cards.plants[plant_id]
        rows.append((plant.name, tokens, plant_points(plant.spaces, tokens)))
        type_counts[plant.type] = type_counts.get(plant.type, 0) + 1
        grown += tokens >= len(plant.spaces)
    decos = []
    for kind in decorations:
        deco = cards.decorations[kind]
        decos.append((deco.name, decoration_points(deco, len(tools), type_counts, grown, propagation)))
    plant_total = sum(points for _, _, points in rows)
    deco_total = sum(points for _, points in decos)
    return BoardScore(
        total=plant_total + propagation + deco_total,
        plants=plant_total,
        propagation=propagation,
        decorations=deco_total,
        growth_tokens=sum(growth),
        plant_rows=rows,
        decoration_rows=decos,
    )


def seat_score(cards: PlantedCards, state: PlantedState, seat: int) -> BoardScore:
    """The score of one seat's board in `state` now, with its breakdown."""
    return score_board(cards, state.plants[seat], state.growth[seat], state.propagation[seat],
                       [cards.tool_of[c] for c in state.tools[seat]],
                       [cards.decoration_of[c] for c in state.decorations[seat]])


def scores(cards: PlantedCards, state: PlantedState) -> list[int]:
    """Each seat's points in `state` now: plants, propagation and decorations."""
    return [seat_score(cards, state, seat).total for seat in range(state.players)]


def board_total(
    cards: PlantedCards,
    plants: Sequence[int],
    growth: Sequence[int],
    propagation: int,
    tools: Sequence[int],
    decorations: Sequence[int],
) -> int:
    """Only the total of `score_board` (the same arguments), without the breakdown: for search."""
    type_counts: dict[str, int] = {}
    grown = 0
    total = propagation
    for plant_id, tokens in zip(plants, growth):
        plant = cards.plants[plant_id]
        total += sum(plant.spaces[:tokens])
        type_counts[plant.type] = type_counts.get(plant.type, 0) + 1
        grown += tokens >= len(plant.spaces)
    for kind in decorations:
        total += decoration_points(cards.decorations[kind], len(tools), type_counts, grown, propagation)
    return total
