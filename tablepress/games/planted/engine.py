"""The Planted game (rules.md), composed of its parts: the state (`state`), setup and the
moves on (`flow`), legal actions (`legal`), typed forms and explanations (`explain`), who sees what
(`views`, with `zones`: where the cards lie, whence the hidden zones and card counts) and scoring
(`scoring`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...core.zoned import ZonedGame
from ...core.zones import Seen
from . import explain, flow, legal, views, zones
from .cards import PlantedCards, load_data
from .feeding import Feeding
from .notation import parse_position
from .scoring import BoardScore, score_board, scores, seat_score
from .state import BUY, CHOOSE, FEED, OVER, PlantedState
from .zones import PLANT_KEY



class PlantedGame(ZonedGame[PlantedState]):
    """Planted for 2–5 players."""

    name = "planted"
    title = "Planted"
    min_players = 2
    max_players = 5
    default_players = 3
    public_actions = False
    summary = (
        "Planted — a pick-and-pass plant growing game. Each turn everyone chooses a card at once: take its "
        "resources, place a tool or decoration, or call Nursery to buy a plant instead. Pass your hand on; "
        "after 8 turns feed your plants (each at most once, 2 Green Thumbs for a missing resource) and turn "
        "every 2 leftovers into a propagation token. After 4 rounds, most points wins."
    )

    def __init__(self, data: Mapping[str, Any] | None = None):
        self.data = dict(data) if data is not None else load_data()
        self.cards = PlantedCards.from_data(self.data)
        self.actions = legal.Actions(self.cards)
        self.plant_index = self.actions.plant_index
        self.plant_names = self.actions.plant_names
        self.layout = zones.layout(self.cards)

    def load_data(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The card data (cards.toml) with a variant's `overrides` merged in."""
        return load_data(overrides)

    # ----- flow --------------------------------------------------------------------------------
    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> PlantedState:
        """Deal beginner plants, shuffle the decks, turn up the nursery row and deal the first hands."""
        self.check_players(players)
        self.normalise_options(options)
        return flow.new_state(self.cards, players, seed)

    def to_move(self, state: PlantedState) -> tuple[int, ...]:
        """Choose: every seat with cards that has not chosen; buy: the next Nursery caller; feed: the unfed."""
        return legal.to_move(state)

    def legal_actions(self, state: PlantedState, seat: int) -> list[str]:
        """Every legal action of `seat` now, in a stable order (for feeding: the solver's best first)."""
        return self.actions.legal(state, seat)

    def feedings(self, state: PlantedState, seat: int) -> list[Feeding]:
        """Every legal feeding of `seat` now (scored), the solver's best first."""
        return self.actions.feedings(state, seat)

    def apply_legal(self, state: PlantedState, seat: int, action: str) -> None:
        """Apply a legal action in place: a hidden choice, a purchase or a feeding."""
        flow.apply_legal(self.actions, state, seat, action)

    def canonical(self, state: PlantedState, seat: int, action: str) -> str:
        """The action a typed text means (`play 15` → `play 15 LL`; see `explain.canonical`)."""
        return explain.canonical(self.actions, state, seat, action)

    def explain_illegal(self, state: PlantedState, seat: int, action: str) -> str:
        """Say what is wrong with an action: wrong step, a card not in hand, the 6-plant limit, a bad feeding."""
        return explain.explain_illegal(self.actions, state, seat, action)

    def public_action(self, state: PlantedState, seat: int, action: str) -> str:
        """Other seats see that a card was chosen, never which card or whether it calls Nursery."""
        return views.public_action(state, seat, action)

    # ----- information -------------------------------------------------------------------------
    def known_seats(self, state: PlantedState, seat: int) -> list[int]:
        """The other seats whose hands `seat` knows: the hands it held this round and passed on."""
        return views.known_seats(self.cards, state, seat)

    def view(self, state: PlantedState, seat: int | None) -> dict[str, Any]:
        """Boards, the nursery row, deck sizes, discards and revealed cards are public; hands and hidden choices private."""
        return views.view(self.actions, state, seat)

    def seen(self, state: PlantedState, seat: int | None) -> list[Seen]:
        """The hands `seat` held this round and passed on (zones.py)."""
        return zones.seen(self.cards, state, seat)

    def determinize(self, state: PlantedState, seat: int, rng: random.Random) -> PlantedState:
        """Resample what `seat` cannot know (`views.determinize`): the game's own, not the zones' deal, because
        a card chosen face down at the same time as the others hides even its back, so it is drawn among all
        the cards its seat holds (hand and choice together) and a Nursery call is guessed with it — zones
        deal a hand and a choice apart, each by its back. The hidden zones and card counts come from the zones."""
        return views.determinize(self.cards, state, seat, rng)

    # ----- results -----------------------------------------------------------------------------
    def turn(self, state: PlantedState) -> int:
        """Turns completed so far."""
        return state.turn

    def is_over(self, state: PlantedState) -> bool:
        """Whether the last round has been fed."""
        return state.phase == OVER

    def board_score(self, state: PlantedState, seat: int) -> BoardScore:
        """The score of one seat's board now, with its breakdown."""
        return seat_score(self.cards, state, seat)

    def scores(self, state: PlantedState) -> list[int]:
        """Each seat's points now: plants, propagation and decorations."""
        return scores(self.cards, state)

    def winners(self, state: PlantedState) -> list[int]:
        """Most points; ties: most growth tokens on plants; still tied, shared."""
        keys = [(self.board_score(state, s).total, sum(state.growth[s])) for s in range(state.players)]
        best = max(keys)
        return [seat for seat, key in enumerate(keys) if key == best]

    def breakdown(self, state: PlantedState) -> list[dict[str, Any]]:
        """Each seat's total with plants, propagation, decorations and the detail of each."""
        return [self.board_score(state, seat).as_dict() for seat in range(state.players)]

    # ----- people ------------------------------------------------------------------------------
    def score_position(self, text: str, source: str = "position") -> dict[str, Any]:
        """Score end-of-game boards (docs/reference.md): {"game", "players": [{"name", "total", ...}]}."""
        result = []
        for name, board in parse_position(text, self.cards, source):
            score = score_board(self.cards, board.plants, board.growth, board.propagation, board.tools,
                                board.decorations)
            result.append({"name": name, **score.as_dict()})
        return {"game": self.name, "players": result}


__all__ = ["PlantedGame", "PlantedState", "CHOOSE", "BUY", "FEED", "OVER", "PLANT_KEY"]
