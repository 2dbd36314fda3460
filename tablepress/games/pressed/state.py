"""The state of one game of Pressed and its steps. Plain data: `core.plain.clone` copies it."""

from __future__ import annotations

from dataclasses import dataclass

#: The steps of a round, then the end.
PLANT, EFFECT, PICK, PRESS, OVER = "plant", "swap", "pick", "press", "over"
#: Declining the Anemone's swap.
NOSWAP = "noswap"


@dataclass(slots=True)
class PressedState:
    """Everything about one game of Pressed. Plain data: cheap to clone, picklable, comparable.

    Cards are flower indices. Columns of `bed` list cards from row 1 down. `stack` lists seats in the
    order their markers last moved (bottom first): among seats on one score, earlier is lower.
    """

    players: int
    electives: tuple[str, ...]
    rng: int
    deck: list[int]
    hands: list[list[int]]  # sorted
    bed: list[list[int]]
    scores: list[int]
    stack: list[int]
    first: int
    round: int
    phase: str
    planted: int  # plant turns completed this round
    swap_row: int  # the row of a pending Anemone swap, or -1
    pick_order: list[int]
    taken: list[int]  # per column: the seat that picked it, or -1
    picks: list[list[tuple[int, tuple[int, ...]] | None]]  # per round, per seat: (column, its cards)
    to_press: list[list[int]]  # per seat: picked cards awaiting the press choice (sorted)
    pressed: list[list[tuple[int, ...]]]  # per seat, per round: the cards pressed (sorted)
    discard: list[int]  # face down, sorted
    seen: list[int]  # unpicked columns discarded (seen face up by all), sorted
    turn: int
    last: tuple[int, int, int, int, int, int, int] | None  # seat, kind, row, column, points, copy, choose


def collection(state: PressedState, seat: int) -> list[int]:
    """Every card `seat` has pressed so far, sorted."""
    return sorted(card for pressed in state.pressed[seat] for card in pressed)
