"""The Flowers game (rules.md): a thin `Game` that composes the parts, each in its own module.

`state` (the state as data), `flow` (deal, turns, the end), `zones` (where the cards lie and who sees
them: determinize, the hidden zones and the card counts come from it), `views` (the view),
`explain` (why an action is illegal), `scoring` (an area's score, the winners), `notation` (text).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.game import Option
from ...core.zoned import ZonedGame
from ...core.zones import Seen
from . import explain, flow, scoring, views, zones
from .cards import FlowersCards, load_data
from .notation import CardCodes, parse_position
from .scoring import score_area
from .state import FlowersState


class FlowersGame(ZonedGame[FlowersState]):
    """Flowers for 1–4 players, with the Summer variant and the solo timer."""

    name = "flowers"
    title = "Flowers"
    min_players = 1
    max_players = 4
    options = (Option("summer", "bool", False, "Summer variant: every player starts with a violet card"),)
    public_actions = True  # a stack's number and a placed card are seen by all
    summary = (
        "Flowers — draw a card from one of three stacks (two face up, one face down) and place it next "
        "to or on top of a card in your area. When a stack runs out the game ends. Number groups must be "
        "exact: four 4s, three 3s, two 2s, lone 1s — other groups are discarded at −1 a card, covered "
        "cards included. Colour regions of 5+ cards score 1 a card; a butterfly touching its colour scores 1."
    )

    def __init__(self, data: Mapping[str, Any] | None = None):
        self.data = dict(data) if data is not None else load_data()
        self.cards = FlowersCards.from_data(self.data)
        self.codes = CardCodes(self.cards)
        self.layout = zones.layout(self.cards)
        self.first_violet = min(self.cards.violets, default=len(self.cards.codes))

    def load_data(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The card data (cards.toml) with a variant's `overrides` merged in."""
        return load_data(overrides)

    # ----- setup and flow ----------------------------------------------------------------------
    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> FlowersState:
        """Shuffle, give each player a start card (violet in Summer) and build the stacks."""
        self.check_players(players)
        return flow.deal(self.cards, players, seed, self.normalise_options(options)["summer"])

    def to_move(self, state: FlowersState) -> tuple[int, ...]:
        """The current player, until the game ends."""
        return flow.to_move(state)

    def legal_actions(self, state: FlowersState, seat: int) -> list[str]:
        """`draw N` for each stack, or `place CODE x,y` for each cell the drawn card may go."""
        return flow.legal_actions(self.cards, state, seat)

    def apply_legal(self, state: FlowersState, seat: int, action: str) -> None:
        """Draw or place; after placing, end the turn (solo timer, end of game, next player)."""
        flow.apply_legal(state, seat, action)

    def explain_illegal(self, state: FlowersState, seat: int, action: str) -> str:
        """Say what is wrong with an action: wrong step, empty stack, bad cell, not touching."""
        return explain.explain_illegal(self.cards, state, action)

    def undoable(self, state: FlowersState, seat: int, action: str) -> bool:
        """A draw from a face-up stack reveals nothing (the next card turns up at the end of the turn)."""
        return flow.undoable(state, action)

    def action_bound(self, players: int, options: Mapping[str, Any] | None = None) -> int:
        """At most 3n + 2 placements for an area of n cards (n covers, ≤ 2n + 2 empty neighbours)."""
        return flow.action_bound(self.cards, players, self.normalise_options(options)["summer"])

    # ----- information -------------------------------------------------------------------------
    def view(self, state: FlowersState, seat: int | None) -> dict[str, Any]:
        """Areas, stacks' sizes and face-up tops, a face-up draw and live scores; a face-down draw is the drawer's."""
        return views.view(self.cards, state, seat)

    def seen(self, state: FlowersState, seat: int | None) -> list[Seen]:
        """The face-up tops, a face-up draw and the box's violets (everyone); a blind draw (its drawer)."""
        return zones.seen(self.first_violet, state, seat)

    # ----- results -----------------------------------------------------------------------------
    def turn(self, state: FlowersState) -> int:
        """Turns completed so far."""
        return state.turn

    def is_over(self, state: FlowersState) -> bool:
        """Whether a stack has run out."""
        return state.over

    def scores(self, state: FlowersState) -> list[int]:
        """Each player's area score now."""
        return [score_area(area, self.cards).total for area in state.areas]

    def winners(self, state: FlowersState) -> list[int]:
        """Highest total; ties go to fewer discarded cards; still tied, shared. Solo has no winner."""
        if state.players == 1:
            return []
        return scoring.winners([score_area(area, self.cards) for area in state.areas])

    def breakdown(self, state: FlowersState) -> list[dict[str, Any]]:
        """Each area's total with regions, butterflies and discards."""
        return [score_area(area, self.cards).as_dict(self.cards) for area in state.areas]

    # ----- people ------------------------------------------------------------------------------
    def score_position(self, text: str, source: str = "position") -> dict[str, Any]:
        """Score a position file (docs/reference.md): {"game", "players": [{"name", "total", ...}]}."""
        players = parse_position(text, self.cards, source)
        return {
            "game": self.name,
            "players": [
                {"name": name, **score_area(area, self.cards).as_dict(self.cards)} for name, area in players
            ],
        }
