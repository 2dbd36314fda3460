"""Planted for learning agents: the fixed action space and the observation planes (docs/RL.md).

Actions (N = every resource and item card number of the data; ids in this order): `play N` and
`nursery N` (the legal text's label, `play 24 LW`, is what card N shows: the id is the card);
`buy PLANT` and `buy PLANT +XYZ` for every plant of the data and every Trowel choice up to all of the
deck's Trowels together; `feed none` and `feed P+Q+…` for every set of board positions (from 1, board
order, at most `max_plants`): the legal text names the plants, the id names where they sit on your
board. Every legal action has an id.

Observation planes (relative seats, "you" first): `hand`: card numbers in your hand; `known hands`:
per relative seat the card numbers you saw it hold (passed hands); `board +r` for each relative seat:
per plant of the data owned (1) and its growth tokens / spaces, resources L W F G / 5, tools and
decorations by kind (counts / 3), propagation / 10, score / 50; `row`: plants in the nursery row;
`discards`: card numbers in the discard piles; `feed gains`: per feed id, the points the feeding
gains / 20 while you feed (the view's `feedings`); `phase` (choose, buy, feed, over); `to move`;
`round`: round / rounds, step / 8, passing left; `decks`: plant, resource and item decks / 60.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations, combinations_with_replacement
from typing import Any

import numpy as np

from ...core.actions import ActionTable, Plane, Planes, one_hot_index
from .cards import LETTERS
from .state import BUY, CHOOSE, FEED, NURSERY, OVER, PLAY

PHASES = (CHOOSE, BUY, FEED, OVER)
FEED_NONE = "feed none"


def card_numbers(cards: Any) -> list[int]:
    """Every resource and item card number of the data, in order."""
    return sorted((*cards.resource_cards, *cards.item_cards))


def trowel_suffixes(cards: Any) -> list[str]:
    """Every Trowel choice a buy may carry: "" and ` +L`, ` +LW`, … up to all of the deck's Trowels."""
    amount, letters = 0, set()
    for card, kind in cards.tool_of.items():
        tool = cards.tools[kind]
        if tool.effect == "buy":
            amount += tool.amount
            letters.update(tool.choices)
    ordered = sorted(letters, key=LETTERS.index)
    return [""] + [" +" + "".join(combo) for size in range(1, amount + 1)
                   for combo in combinations_with_replacement(ordered, size)]


def feed_sets(cards: Any) -> list[tuple[int, ...]]:
    """Every non-empty set of board positions (0-based), smallest sets first."""
    positions = range(cards.max_plants)
    return [combo for size in range(1, cards.max_plants + 1) for combo in combinations(positions, size)]


def feed_name(positions: tuple[int, ...]) -> str:
    """The action name of feeding the plants at these board positions (0-based): `feed 1+3`."""
    return "feed " + "+".join(str(p + 1) for p in positions) if positions else FEED_NONE


def action_key(view: Mapping[str, Any], seat: int, text: str) -> str | None:
    """The action name of a legal text: `play 24 LW` → `play 24`; `feed Monstera+Pothos` → `feed 2+3`."""
    verb, _, rest = text.partition(" ")
    if verb in (PLAY, NURSERY):
        return f"{verb} {rest.split(' ', 1)[0]}"
    if verb != "feed" or text == FEED_NONE:
        return text
    board = [plant["name"] for plant in view["public"]["boards"][seat]["plants"]]
    positions, start = [], 0
    for name in rest.split("+"):
        try:
            start = board.index(name, start)
        except ValueError:
            return None
        positions.append(start)
        start += 1
    return feed_name(tuple(positions))


def action_space(game: Any, players: int, options: Mapping[str, Any]) -> ActionTable:
    """The fixed action table of Planted (see the module docstring); the same at every player count."""
    cards = game.cards
    numbers = card_numbers(cards)
    names = [f"{PLAY} {n}" for n in numbers] + [f"{NURSERY} {n}" for n in numbers]
    names += [f"buy {plant.name}{suffix}" for plant in cards.plants for suffix in trowel_suffixes(cards)]
    names += [FEED_NONE] + [feed_name(positions) for positions in feed_sets(cards)]
    return ActionTable(tuple(names), key=action_key)


class PlantedObservation:
    """The observation planes of Planted at one player count (see the module docstring)."""

    def __init__(self, game: Any, players: int, options: Mapping[str, Any]):
        cards = game.cards
        self.players = players
        self.numbers = card_numbers(cards)
        self.plants = [plant.name for plant in cards.plants]
        self.tools = [tool.name for tool in cards.tools]
        self.decorations = [decoration.name for decoration in cards.decorations]
        self.rounds = cards.rounds
        self.feeds = [FEED_NONE] + [feed_name(positions) for positions in feed_sets(cards)]
        n, p = len(self.numbers), len(self.plants)
        self.board_size = 2 * p + 4 + len(self.tools) + len(self.decorations) + 2
        planes = [
            Plane("hand", n, "card numbers in your hand"),
            Plane("known hands", players * n, "per relative seat: card numbers you saw it hold"),
        ]
        planes += [Plane(f"board +{r}", self.board_size,
                         "plants owned, their tokens / spaces, L W F G / 5, tools, decorations / 3, "
                         "propagation / 10, score / 50") for r in range(players)]
        planes += [
            Plane("row", p, "plants in the nursery row"),
            Plane("discards", n, "card numbers in the discard piles"),
            Plane("feed gains", len(self.feeds), "per feed id: the points it gains / 20 (while you feed)"),
            Plane("phase", len(PHASES), "choose, buy, feed, over"),
            Plane("to move", players, "the seats to move, relative"),
            Plane("round", 3, "round / rounds, step / 8, passing left"),
            Plane("decks", 3, "plant, resource and item decks / 60"),
        ]
        self.layout = Planes(planes)
        self.planes = self.layout.planes

    def _board(self, vector: np.ndarray, plane: str, board: Mapping[str, Any]) -> None:
        layout, p = self.layout, len(self.plants)
        for plant in board["plants"]:
            index = one_hot_index(self.plants, plant["name"])
            layout.put(vector, plane, index)
            layout.put(vector, plane, p + index, plant["tokens"] / max(1, len(plant["spaces"])))
        for i, letter in enumerate(LETTERS):
            layout.put(vector, plane, 2 * p + i, board["resources"][letter] / 5)
        base = 2 * p + 4
        for name in board["tools"]:
            layout.add(vector, plane, base + one_hot_index(self.tools, name), 1 / 3)
        base += len(self.tools)
        for name in board["decorations"]:
            layout.add(vector, plane, base + one_hot_index(self.decorations, name), 1 / 3)
        base += len(self.decorations)
        layout.put(vector, plane, base, board["propagation"] / 10)
        layout.put(vector, plane, base + 1, board["score"] / 50)

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        """The planes of `seat`'s view."""
        public, private = view["public"], view.get("private") or {}
        layout, vector, players, n = self.layout, self.layout.zeros(), self.players, len(self.numbers)
        for card in private.get("hand", []):
            layout.put(vector, "hand", one_hot_index(self.numbers, card["number"]))
        for known in private.get("known_hands", []):
            offset = ((known["seat"] - seat) % players) * n
            for card in known["cards"]:
                layout.put(vector, "known hands", offset + one_hot_index(self.numbers, card["number"]))
        for owner, board in enumerate(public["boards"]):
            self._board(vector, f"board +{(owner - seat) % players}", board)
        for plant in public["row"]:
            layout.put(vector, "row", one_hot_index(self.plants, plant["name"]))
        for number in (*public["resource_discard"], *public["item_discard"]):
            layout.put(vector, "discards", one_hot_index(self.numbers, number))
        for feeding in private.get("feedings", []):
            name = action_key(view, seat, feeding["action"])
            layout.put(vector, "feed gains", one_hot_index(self.feeds, name), feeding["points"] / 20)
        layout.put(vector, "phase", one_hot_index(PHASES, public["phase"]))
        for mover in public["to_move"]:
            layout.put(vector, "to move", (mover - seat) % players)
        layout.put(vector, "round", 0, public["round"] / self.rounds)
        layout.put(vector, "round", 1, public["step"] / 8)
        layout.put(vector, "round", 2, float(public["direction"] == "left"))
        for i, deck in enumerate(("plant_deck", "resource_deck", "item_deck")):
            layout.put(vector, "decks", i, public[deck] / 60)
        return vector


def observation(game: Any, players: int, options: Mapping[str, Any]) -> PlantedObservation:
    """The observation planes of Planted for `players` (see the module docstring)."""
    return PlantedObservation(game, players, options)
