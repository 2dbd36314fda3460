"""Who sees what in Flowers: the views (the zones, in zones.py, say the same of the cards, and determinize,
the hidden zones and the card counts come from them).

Public: every area, the stacks' sizes and face-up tops, a face-up draw, the timer's pile, live scores,
the violets in the box (nobody plays them; everyone knows they are there).
The drawer alone sees a face-down draw. Nobody sees the cards below the face-up tops, the face-down
stack, a face-up stack's next card before it is turned up at the end of the turn, or the box's coloured cards.
"""

from __future__ import annotations

from typing import Any

from .cards import FlowersCards
from .marks import area_marks
from .notation import DRAW, PLACE
from .scoring import score_area
from .state import FlowersState


def visible_top(state: FlowersState, index: int) -> int | None:
    """The face-up top card of stack `index`, or None (empty, face down, or its top was just drawn)."""
    stack = state.stacks[index]
    if not stack or not state.face_up[index] or state.drawn_from == index:
        return None
    return stack[-1]


def drawn_is_public(state: FlowersState) -> bool:
    """Whether a card is in hand and was drawn face up."""
    return state.drawn is not None and state.face_up[state.drawn_from]


def view(cards: FlowersCards, state: FlowersState, seat: int | None) -> dict[str, Any]:
    """Areas, stack sizes and face-up tops, a face-up draw and live scores are public; a face-down draw is the drawer's."""
    codes = cards.codes
    public = {
        "players": state.players,
        "summer": state.summer,
        "turn": state.turn,
        "current": None if state.over else state.current,
        "step": None if state.over else (DRAW if state.drawn is None else PLACE),
        "over": state.over,
        "stacks": [
            {
                "stack": i + 1,
                "cards": len(stack),
                "face_up": state.face_up[i],
                "top": None if (top := visible_top(state, i)) is None else codes[top],
            }
            for i, stack in enumerate(state.stacks)
        ],
        "drawn_from": None if state.drawn_from is None else state.drawn_from + 1,
        "drawn": codes[state.drawn] if drawn_is_public(state) else None,
        "areas": [
            [{"x": x, "y": y, "cards": [codes[c] for c in stack]} for (x, y), stack in sorted(area.items())]
            for area in state.areas
        ],
        "removed": [codes[c] for c in state.removed],
        "box_violets": [codes[c] for c in state.box if c in cards.violets],
        "scores": [score_area(area, cards).total for area in state.areas],
        "marks": [area_marks(area, cards) for area in state.areas],
    }
    private: dict[str, Any] = {}
    if seat is not None and seat == state.current and state.drawn is not None and not drawn_is_public(state):
        private["drawn"] = codes[state.drawn]
    return {"public": public, "private": private}
