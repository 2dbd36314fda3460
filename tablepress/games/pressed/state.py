"""The state of one game of Pressed, its steps, and its hand-written copy."""

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


def clone(state: PressedState) -> PressedState:
    """A copy sharing nothing mutable with the original.

    Written out because it knows which nested values are immutable tuples: about 6x faster than the
    generic `core.plain.clone`, and search players clone every iteration.
    """
    return PressedState(
        players=state.players,
        electives=state.electives,
        rng=state.rng,
        deck=list(state.deck),
        hands=[list(h) for h in state.hands],
        bed=[list(c) for c in state.bed],
        scores=list(state.scores),
        stack=list(state.stack),
        first=state.first,
        round=state.round,
        phase=state.phase,
        planted=state.planted,
        swap_row=state.swap_row,
        pick_order=list(state.pick_order),
        taken=list(state.taken),
        picks=[list(r) for r in state.picks],
        to_press=[list(p) for p in state.to_press],
        pressed=[list(p) for p in state.pressed],
        discard=list(state.discard),
        seen=list(state.seen),
        turn=state.turn,
        last=state.last,
    )


def collection(state: PressedState, seat: int) -> list[int]:
    """Every card `seat` has pressed so far, sorted."""
    return sorted(card for pressed in state.pressed[seat] for card in pressed)
