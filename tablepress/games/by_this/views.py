"""Who sees what in By This (rules.md, Hidden information).

Private: each hand, the deck order, the order of the Keys at the top of the Key deck that nobody has
seen. Public: the Key in play and the two face-up Keys, the Keys gone under the Key deck, the shelf,
the Floor, scores, closes, hand sizes, the lock and every card played.

The zones (zones.py) say the same for the cards: determinize, the hidden zones and the card counts come
from them (`core.zoned.ZonedGame`); the view, drawn by the game's web and terminal tables, is its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import Any

from ...core.zones import Layout, Seen
from . import zones
from .rules import ByThisRules
from .scoring import close_points, piles
from .state import OVER, ByThisState


class ByThisViews(ByThisRules):
    """Views as JSON-ready data, and the zones whose faces say who sees which card."""

    @cached_property
    def layout(self) -> Layout:
        """The cards and zones (zones.py), from this game's card data."""
        return zones.layout(self.cards)

    def seen(self, state: ByThisState, seat: int | None) -> Iterable[Seen]:
        """Everyone has seen the Keys gone under the Key deck (zones.py)."""
        return zones.seen(state, seat)

    def key_view(self, key: int) -> dict[str, Any]:
        """A Key as JSON: name, word, direction and ends (one dictionary per Key, shared: do not change it)."""
        return self._key_views[key]

    @cached_property
    def _key_views(self) -> tuple[dict[str, Any], ...]:
        """Every Key's view, made once (views are built many times a move: hints view every legal action)."""
        return tuple({"name": card.name, "plain": card.plain, "word": card.word, "ascending": card.ascending,
                      "from": card.left, "to": card.right} for card in self.cards.keys)

    @cached_property
    def _numbers_views(self) -> tuple[dict[str, int], ...]:
        """Every thing's four numbers by word, made once (shared: do not change them)."""
        return tuple(self.cards.all_numbers(card) for card in range(self.thing_count))

    def card_view(self, state: ByThisState, card: int, ends: bool = True) -> dict[str, Any]:
        """A card as JSON: a thing with its number under the Key, all four numbers and (optionally) legal ends."""
        if card >= self.thing_count:
            name = self.names[card]
            return {"card": name, "special": True, "effect": self.cards.effect[card],
                    "text": self.cards.special_text[name]}
        view: dict[str, Any] = {"card": self.names[card], "special": False,
                                "number": self.key_numbers[state.key][card],
                                "numbers": self._numbers_views[card]}
        if ends:
            view["ends"] = [end or "any" for end in self.ends(state, card)]
        return view

    def view(self, state: ByThisState, seat: int | None) -> dict[str, Any]:
        """Public: Keys, shelf, Floor, scores, closes, hand sizes, the lock, played cards. Private: the seat's hand."""
        names = self.names
        numbers = self.shelf_numbers(state)
        shelf = [self.card_view(state, card, ends=False) for card in state.shelf]
        pile_list = []
        for start, length, number in piles(numbers):
            if length > 1:
                for entry in shelf[start:start + length]:
                    entry["pile"] = len(pile_list)
                pile_list.append({"number": number, "cards": [names[c] for c in state.shelf[start:start + length]]})
        over = state.phase == OVER
        public = {
            "players": state.players,
            "young": state.young,
            "turn": state.turn,
            "first": state.first,
            "current": None if over else state.current,
            "phase": state.phase,
            "over": over,
            "key": self.key_view(state.key),
            "face_up_keys": [self.key_view(key) for key in state.face_up],
            "key_deck": len(state.key_deck),
            "key_deck_known_under": [self.cards.keys[k].name for k in state.key_deck[state.key_hidden:]],
            "locked": state.locked,
            "bythis_allowed": self.bythis_allowed(state),
            "deck": len(state.deck),
            "hand_sizes": [len(hand) for hand in state.hands],
            "shelf": shelf,
            "piles": pile_list,
            "close_score": close_points(numbers),
            "close_min": self.close_min(state),
            "can_close": len(state.shelf) >= self.close_min(state),
            "floor": [self.card_view(state, card) for card in state.floor],
            "scores": list(state.scores),
            "closes": list(state.closes),
            "total_closes": state.total_closes,
            "closes_to_end": self.cards.closes_to_end[state.players],
            "forced_closes": state.forced_closes,
            "idle_turns": state.idle,
            "spent": [names[c] for c in state.spent],
            "closed": len(state.closed),
            "closed_cards": [names[c] for c in state.closed],
            "shelves": [{"seat": None if closer < 0 else closer, "points": points, "cards": [names[c] for c in cards]}
                        for closer, points, cards in state.shelves],
        }
        private: dict[str, Any] = {}
        if seat is not None:
            private["hand"] = [self.card_view(state, card) for card in state.hands[seat]]
        return {"public": public, "private": private}
