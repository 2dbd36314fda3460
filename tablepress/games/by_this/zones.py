"""Where By This's cards lie and who sees them (rules.md, Hidden information), declared as zones.

Each hand is its owner's; the deck is face down; the Floor, the shelf, the closed cards, the spent
specials and the Keys in play and face up are seen by all. The Key deck is face down, but everyone has
seen the Keys that went under it: only its top `key_hidden` Keys are unknown.
"""

from __future__ import annotations

from ...core.zones import OWNER, UP, Cards, Layout, Seen, Zone
from .cards import ByThisCards
from .state import ByThisState


def layout(cards: ByThisCards) -> Layout:
    """The cards (things and specials by name; Keys as `Key NAME`) and their zones, the deck first.

    The declaration order is the order a determinization deals in: the deck, then the other hands, then
    the unseen top of the Key deck.
    """
    return Layout(
        (Cards("card", tuple(cards.names)), Cards("key", tuple(f"Key {key.name}" for key in cards.keys))),
        (
            Zone("deck", "deck"),
            Zone("hand", "hands", OWNER, per_seat=True, ordered=False),
            Zone("floor", "floor", UP),
            Zone("shelf", "shelf", UP),
            Zone("closed", "closed", UP),
            Zone("spent", "spent", UP),
            Zone("key", "key", UP, single=True, cards="key"),
            Zone("face-up keys", "face_up", UP, cards="key"),
            Zone("key deck", "key_deck", cards="key"),
        ),
    )


def seen(state: ByThisState, seat: int | None) -> list[Seen]:
    """Everyone has seen the Keys gone under the Key deck, below its unseen top."""
    return [Seen("key deck", start=state.key_hidden)] if seat is None else []
