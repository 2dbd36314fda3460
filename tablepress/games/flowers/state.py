"""The Flowers game state: plain data (the generic `core.plain.clone` copies it); zones.py says where its cards lie."""

from __future__ import annotations

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

