"""The rules of By This that every other part asks about: where a thing may go, what a close scores.

`ByThisRules` holds the card tables (from cards.toml or a variant) and answers questions about a
state without changing it. The flow, the views and the explanations build on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import ByThisCards, load_data
from .notation import format_place
from .scoring import close_points
from .state import ByThisState


class ByThisRules:
    """Card tables and the rule questions over a state: legal ends, placements, Same Number gaps, closes."""

    def __init__(self, data: Mapping[str, Any] | None = None):
        self.cards = cards = ByThisCards.from_data(load_data() if data is None else data)
        self.thing_count = cards.thing_count
        self.names = cards.names
        self.by_name = {name: card for card, name in enumerate(cards.names[: cards.thing_count])}
        self.key_by_plain = {key.plain: index for index, key in enumerate(cards.keys)}
        self.key_numbers = [cards.numbers[key.word_index] for key in cards.keys]
        self.key_ascending = [key.ascending for key in cards.keys]
        #: per thing, (from hand, from the Floor) × (empty shelf, left, right): the `place` texts.
        self._place_texts = [
            tuple(tuple(format_place(name, end, from_floor) for end in (None, "left", "right"))
                  for from_floor in (False, True))
            for name in cards.names[: cards.thing_count]
        ]

    def ends(self, state: ByThisState, card: int) -> list[str | None]:
        """The ends of the shelf where a thing may go under the Key: [None] on an empty shelf."""
        shelf = state.shelf
        if not shelf:
            return [None]
        numbers = self.key_numbers[state.key]
        n, left, right = numbers[card], numbers[shelf[0]], numbers[shelf[-1]]
        if self.key_ascending[state.key]:
            return [end for end, ok in (("left", n <= left), ("right", n >= right)) if ok]
        return [end for end, ok in (("left", n >= left), ("right", n <= right)) if ok]

    def placements(self, state: ByThisState, seat: int) -> list[str]:
        """Every `place` action of `seat`: things from the hand first (in hand order), then from the Floor."""
        limit = self.thing_count
        hand = [card for card in state.hands[seat] if card < limit]
        shelf = state.shelf
        texts = self._place_texts
        if not shelf:
            return [texts[card][0][0] for card in hand] + [texts[card][1][0] for card in state.floor]
        numbers = self.key_numbers[state.key]
        left, right = numbers[shelf[0]], numbers[shelf[-1]]
        if not self.key_ascending[state.key]:  # mirror: a falling Key is a rising one on negated numbers
            left, right, sign = -left, -right, -1
        else:
            sign = 1
        actions = []
        for from_floor, cards in ((0, hand), (1, state.floor)):
            for card in cards:
                n = sign * numbers[card]
                if n <= left:
                    actions.append(texts[card][from_floor][1])
                if n >= right:
                    actions.append(texts[card][from_floor][2])
        return actions

    def same_number_slots(self, state: ByThisState, card: int) -> list[tuple[str, int]]:
        """Where Same Number may put a thing: (`after`/`before`, neighbour card), one entry per gap."""
        shelf = state.shelf
        numbers = self.key_numbers[state.key]
        n = numbers[card]
        slots = []
        for gap in range(len(shelf) + 1):
            if gap > 0 and numbers[shelf[gap - 1]] == n:
                slots.append(("after", shelf[gap - 1]))
            elif gap < len(shelf) and numbers[shelf[gap]] == n:
                slots.append(("before", shelf[gap]))
        return slots

    def special_in_hand(self, state: ByThisState, seat: int, effect: str) -> int | None:
        """The id of a special with that effect in the seat's hand, or None."""
        for card in state.hands[seat]:
            if self.cards.effect[card] == effect:
                return card
        return None

    def bythis_allowed(self, state: ByThisState) -> bool:
        """Whether the Key may change now: not locked, and at a Young table only after the first close."""
        return not state.locked and not (state.young and state.total_closes == 0)

    def close_min(self, state: ByThisState) -> int:
        """The fewest things on the shelf for a player to close."""
        return self.cards.close_min[state.players]

    def shelf_numbers(self, state: ByThisState) -> list[int]:
        """The shelf's numbers under the Key in play."""
        numbers = self.key_numbers[state.key]
        return [numbers[card] for card in state.shelf]

    def close_score(self, state: ByThisState) -> int:
        """What closing the shelf now would score."""
        return close_points(self.shelf_numbers(state))
