"""Why a Flowers action is not legal: the wrong step, an empty stack, a misspelt card, a cell out of reach."""

from __future__ import annotations

from .cards import FlowersCards
from .notation import DRAW, PLACE, format_cell, parse_cell
from .state import FlowersState


def explain_illegal(cards: FlowersCards, state: FlowersState, action: str) -> str:
    """Say what is wrong with an action that is not among the legal ones, and how to write it."""
    verb, _, rest = action.strip().partition(" ")
    if state.drawn is None:
        if verb != DRAW:
            return "draw a card first: draw 1, draw 2 or draw 3"
        stacks = ", ".join(str(i + 1) for i, s in enumerate(state.stacks) if s)
        return f"there is no stack {rest!r} to draw from (stacks: {stacks})"
    code = cards.codes[state.drawn]
    if verb != PLACE:
        return f"place the {code} you drew: place {code} x,y"
    parts = rest.split()
    if len(parts) != 2 or parts[0] != code:
        return f"write place {code} x,y (you drew {code})"
    try:
        cell = parse_cell(parts[1])
    except ValueError as exc:
        return str(exc)
    return _out_of_reach(cell, state.areas[state.current])


def _out_of_reach(cell: tuple[int, int], area: dict) -> str:
    """Why a cell may not take the card: it touches your area only at a corner, or is that far from it."""
    x, y = cell
    distance = min(abs(x - cx) + abs(y - cy) for cx, cy in area)
    nearest = min(area, key=lambda c: (abs(x - c[0]) + abs(y - c[1]), c[1], c[0]))
    where = ("it touches them only at a corner" if any(abs(x - cx) == 1 and abs(y - cy) == 1 for cx, cy in area)
             else f"it is {distance} steps from your nearest card (at {format_cell(nearest)})")
    return (f"cell {format_cell(cell)} neither holds nor touches one of your cards ({where}): place a card on an "
            "empty cell beside one of yours (up, down, left or right) or on top of one")
