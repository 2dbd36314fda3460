"""The Planted state: plain data, and its steps and action verbs.

Steps (the state's `phase`):
- `choose` — every seat with cards chooses one at once: `play N LABEL` or `nursery N LABEL` (N is the
  card's number). Each choice is stored hidden; the last one reveals them all and resolves them.
- `buy` — the seats that called Nursery take a plant in the order of their cards' numbers, lowest
  first: `buy NAME` (with Trowels: `buy NAME +L`). Then hands pass; after the last card, feeding.
- `feed` — every seat feeds at once: `feed NAME+NAME` or `feed none`; the solver's best is listed
  first. Feeding is public and touches nobody else, so each is applied at once.
- `over` — the last round has been fed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

CHOOSE, BUY, FEED, OVER = "choose", "buy", "feed", "over"
PLAY, NURSERY = "play", "nursery"


@dataclass(slots=True)
class PlantedState:
    """Everything about one game of Planted. Plain data: cheap to clone, picklable, comparable.

    Hands are kept sorted (a hand's order tells nothing). Decks have their top card last.
    """

    players: int
    rng: int
    hands: list[list[int]]
    resource_deck: list[int]
    item_deck: list[int]
    plant_deck: list[int]
    row: list[int]
    put_away: list[int]
    plants: list[list[int]]
    growth: list[list[int]]
    resources: list[list[int]]
    tools: list[list[int]]
    decorations: list[list[int]]
    propagation: list[int]
    chosen: list[int]  # the hidden card of each seat (0: not chosen)
    nursery: list[bool]  # whether that hidden choice is a Nursery call
    fed: list[bool]
    feeds: list[str]  # each seat's feeding this round ("" until fed)
    resource_discard: list[int] = field(default_factory=list)
    item_discard: list[int] = field(default_factory=list)
    calls: list[tuple[int, int]] = field(default_factory=list)  # pending Nursery calls (card, seat)
    revealed: list[tuple[int, int, bool]] = field(default_factory=list)  # last reveal (seat, card, nursery)
    bought: list[tuple[int, int]] = field(default_factory=list)  # plants bought at the last reveal (seat, plant)
    phase: str = CHOOSE
    round: int = 0
    step: int = 0  # turns completed in this round
    turn: int = 0

