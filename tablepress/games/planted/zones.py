"""Where Planted's cards lie and who sees them (rules.md), declared as zones.

Hands and the card each seat chose face down are their owner's, and a seat remembers the hands it held
this round and passed on; the three decks are face down; the nursery row, the discards and every board
(plants, tools, decorations) are face up. The put-away beginners are face down, but everyone can tell
which they are (every seat's first plant is its beginner): nobody deals them anew.

A card's back shows whether it is a resource or an item card. The determinization stays the game's own
(views.determinize): a face-down choice hides even that back, so it is drawn among all the cards a seat
holds, hand and choice together, and zones deal a hand and a choice apart, each by its back.
"""

from __future__ import annotations

from ...core.zones import OWNER, UP, Cards, Layout, Seen, Zone
from .cards import PlantedCards
from .state import PlantedState
from .views import known_seats

#: Plants are counted as PLANT_KEY + index, resource and item cards by their number.
PLANT_KEY = 1000


def layout(cards: PlantedCards) -> Layout:
    """The resource and item cards (numbered from 1, by what they show) and the plants, and their zones."""
    numbers = range(1, len(cards.resource_cards) + len(cards.item_cards) + 1)
    return Layout(
        (
            Cards("card", tuple(cards.label(n) for n in numbers), fields={"kind": tuple(map(cards.kind, numbers))},
                  backs=tuple("resource" if cards.is_resource(n) else "item" for n in numbers), first=1,
                  keys=tuple(numbers)),
            Cards("plant", tuple(plant.name for plant in cards.plants),
                  keys=tuple(PLANT_KEY + index for index in range(len(cards.plants)))),
        ),
        (
            Zone("hand", "hands", OWNER, per_seat=True, ordered=False),
            Zone("chosen", "chosen", OWNER, per_seat=True, single=True, empty=0),
            Zone("resource deck", "resource_deck"),
            Zone("item deck", "item_deck"),
            Zone("resource discard", "resource_discard", UP),
            Zone("item discard", "item_discard", UP),
            Zone("tools", "tools", UP, per_seat=True),
            Zone("decorations", "decorations", UP, per_seat=True),
            Zone("plant deck", "plant_deck", cards="plant"),
            Zone("row", "row", UP, cards="plant"),
            Zone("put away", "put_away", ordered=False, cards="plant", redeal=False),
            Zone("plants", "plants", UP, per_seat=True, cards="plant"),
        ),
        chance="rng",
    )


def seen(cards: PlantedCards, state: PlantedState, seat: int | None) -> list[Seen]:
    """A seat has seen the hands it held this round and passed on (with the card since chosen from them)."""
    if seat is None:
        return []
    return [Seen(zone, pile=other) for other in known_seats(cards, state, seat) for zone in ("hand", "chosen")]
