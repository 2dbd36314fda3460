"""The Flowers game state: plain data (the generic `core.plain.clone` copies it), and its cards counted."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .scoring import Cell


@dataclass(slots=True)
class FlowersState:
    """Everything about one game of Flowers. Plain data: cheap to clone, picklable, comparable.

    `core.plain.clone` compiles its copier from these annotations: keep them exact.
    """

    players: int
    summer: bool
    areas: list[dict[Cell, tuple[int, ...]]]
    stacks: list[list[int]]  # the top card is the last
    face_up: list[bool]
    box: list[int]  # out of play, unseen by all (kept sorted)
    removed: list[int]  # removed by the solo timer, seen by all
    current: int = 0
    drawn: int | None = None
    drawn_from: int | None = None
    turn: int = 0
    over: bool = False


def card_counts(state: FlowersState) -> Counter:
    """Every card, wherever it is: box, timer pile, stacks, areas (covered cards too) and the drawn card."""
    counts = Counter(state.box)
    counts.update(state.removed)
    for stack in state.stacks:
        counts.update(stack)
    for area in state.areas:
        for cell in area.values():
            counts.update(cell)
    if state.drawn is not None:
        counts[state.drawn] += 1
    return counts
