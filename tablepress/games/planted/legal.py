"""Who moves in Planted and what they may do, as action text in a stable order.

Search lists legal actions at every node, so the texts of card choices are made once, Trowel choices
once per set of tools, and feedings once per board (the solver is the engine's hot spot).
"""

from __future__ import annotations

from itertools import product

from .cards import LETTERS, PlantedCards
from .feeding import Feeding, feeding_text, feedings
from .state import BUY, CHOOSE, FEED, NURSERY, PLAY, PlantedState

#: Boards whose feedings are remembered.
FEEDING_CACHE_SIZE = 20_000


def to_move(state: PlantedState) -> tuple[int, ...]:
    """Choose: every seat with cards that has not chosen; buy: the next Nursery caller; feed: the unfed."""
    if state.phase == CHOOSE:
        return tuple(s for s in range(state.players) if not state.chosen[s] and state.hands[s])
    if state.phase == BUY:
        return (state.calls[0][1],)
    if state.phase == FEED:
        return tuple(s for s in range(state.players) if not state.fed[s])
    return ()


class Actions:
    """The legal actions of one card set, with what it remembers to list them fast, and the plant names
    their texts are read by."""

    def __init__(self, cards: PlantedCards):
        self.cards = cards
        #: A plant's name → its index; `plant_names` reads a name as people type it.
        self.plant_index = {plant.name: i for i, plant in enumerate(cards.plants)}
        self.plant_names = cards.plant_names()
        labels = {card: cards.label(card) for card in (*cards.resource_cards, *cards.item_cards)}
        self.play_text = {card: f"{PLAY} {card} {label}" for card, label in labels.items()}
        self.nursery_text = {card: f"{NURSERY} {card} {label}" for card, label in labels.items()}
        self._picks: dict[tuple[int, ...], list[str]] = {}
        self._feedings: dict[tuple, list[Feeding]] = {}

    def legal(self, state: PlantedState, seat: int) -> list[str]:
        """Every legal action of `seat` now, in a stable order (for feeding: the solver's best first)."""
        if seat not in to_move(state):
            return []
        if state.phase == CHOOSE:
            hand = state.hands[seat]
            actions = [self.play_text[card] for card in hand]
            if len(state.plants[seat]) < self.cards.max_plants:
                actions += [self.nursery_text[card] for card in hand]
            return actions
        if state.phase == BUY:
            extras = self.trowel_picks(tuple(state.tools[seat]))
            return [f"buy {self.cards.plants[p].name}{extra}" for p in state.row for extra in extras]
        return [feeding_text(self.cards, state.plants[seat], f) for f in self.feedings(state, seat)]

    def feedings(self, state: PlantedState, seat: int) -> list[Feeding]:
        """Every legal feeding of `seat` now (scored), the solver's best first. Cached by the board's contents."""
        cards = self.cards
        key = (tuple(state.plants[seat]), tuple(state.growth[seat]), tuple(state.resources[seat]),
               tuple(sorted(cards.tool_of[c] for c in state.tools[seat])),
               tuple(sorted(cards.decoration_of[c] for c in state.decorations[seat])), state.propagation[seat])
        found = self._feedings.get(key)
        if found is None:
            if len(self._feedings) >= FEEDING_CACHE_SIZE:
                self._feedings.clear()
            found = self._feedings[key] = feedings(cards, *key)
        return found

    def trowel_picks(self, tools: tuple[int, ...]) -> list[str]:
        """The suffixes of a buy for these tools: [""] without Trowels, else ` +L`, ` +W`, ... (sorted multisets)."""
        kinds = tuple(sorted(self.cards.tool_of[c] for c in tools))
        picks = self._picks.get(kinds)
        if picks is None:
            picks = self._picks[kinds] = _picks(self.cards, kinds)
        return picks


def _picks(cards: PlantedCards, kinds: tuple[int, ...]) -> list[str]:
    options = []
    for kind in kinds:
        tool = cards.tools[kind]
        if tool.effect == "buy":
            options += [tool.choices] * tool.amount
    if not options:
        return [""]
    combos = sorted({"".join(sorted(combo, key=LETTERS.index)) for combo in product(*options)},
                    key=lambda text: [LETTERS.index(ch) for ch in text])
    return [f" +{combo}" for combo in combos]
