"""Where Flowers' cards lie and who sees them (rules.md), declared as zones.

The three stacks are face down but for the top card of a face-up stack (once its next card has turned up
at the end of the turn); the box (out of play) is face down, though everyone knows the violets in it; a
card drawn from a face-up stack is seen by all, one drawn from the face-down stack by its drawer only.
The timer's pile and every area are face up.
"""

from __future__ import annotations

from bisect import bisect_left

from ...core.zones import UP, Cards, Layout, Seen, Zone
from .cards import FlowersCards
from .state import FlowersState
from .views import drawn_is_public, visible_top


def layout(cards: FlowersCards) -> Layout:
    """The cards (by code, counted by id: several cards share a code) and their zones, in the order a
    determinization deals them: the stacks' unseen cards bottom first, the box's coloured cards, a blind draw."""
    return Layout(
        Cards("card", cards.codes, keys=tuple(range(len(cards.codes)))),
        (
            Zone("stack", "stacks", piles=True),
            Zone("box", "box", ordered=False),
            Zone("drawn", "drawn", single=True),
            Zone("removed", "removed", UP),
            Zone("area", "areas", UP, per_seat=True, nested=True),
        ),
    )


def seen(first_violet: int, state: FlowersState, seat: int | None) -> list[Seen]:
    """Everyone sees the face-up tops and a face-up draw and knows the violets in the box; the drawer alone
    has seen a card drawn face down. The violets are the highest card ids (from `first_violet` on), so in
    the sorted box they are its last cards."""
    if seat is None:
        facts = [Seen("stack", pile=index, start=-1) for index in range(len(state.stacks))
                 if visible_top(state, index) is not None]
        facts.append(Seen("box", start=bisect_left(state.box, first_violet)))
        if drawn_is_public(state):
            facts.append(Seen("drawn"))
        return facts
    if state.drawn is not None and seat == state.current and not drawn_is_public(state):
        return [Seen("drawn")]
    return []
