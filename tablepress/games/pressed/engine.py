"""Pressed as a `Game`: the card data and options, composed from the modules that each do one job.

`state` (the state), `deal` (setup and each round's deal), `flow` (who moves, the legal
actions and their effects; the action notation), `zones` (where the cards lie and who sees them:
determinize, the hidden zones and the card counts come from it), `views` (the view), `results`
(scores and winners), `explain` (why an action is illegal). The full rules for players: `rules.md`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...core.errors import DataError, OptionError
from ...core.game import Option
from ...core.zoned import ZonedGame
from . import deal, flow, results, views, zones
from .cards import ELECTIVES, PressedCards, load_data
from .explain import canonical, explain
from .notation import score_position
from .scoring import PlantScore
from .state import EFFECT, NOSWAP, OVER, PICK, PLANT, PRESS, PressedState

__all__ = ["EFFECT", "NOSWAP", "OVER", "PICK", "PLANT", "PRESS", "PressedGame", "PressedState"]


class PressedGame(ZonedGame[PressedState]):
    """Pressed for 2–5 players: plant flowers for points, pick columns, press sets for final scoring."""

    name = "pressed"
    title = "Pressed"
    min_players = 2
    max_players = 5
    default_players = 3
    public_actions = False  # which cards a player presses is secret
    summary = (
        "Pressed — three rounds. Each round everyone gets 4 cards and a Flower Bed is laid out. Plant one "
        "card at a time below the lowest card of a column and score it at once on its table by counting "
        "its flower in its row and column. Then, lowest score first, each player picks a whole column and "
        "presses 4 of its cards. After three rounds each group of pressed flowers scores once more."
    )

    def __init__(self, data: Mapping[str, Any] | None = None):
        self.data = dict(data) if data is not None else load_data()
        self.cards = PressedCards.from_data(self.data)
        self.layout = zones.layout(self.cards)
        players = self.cards.players()
        self.min_players, self.max_players = min(players), max(players)
        self.default_players = min(max(self.default_players, self.min_players), self.max_players)
        self.options = (
            Option("electives", "set", self.cards.default_electives,
                   f"the {self.cards.elective_count} elective flowers (decks for "
                   f"{', '.join(str(p) for p in players if 'electives' in self.cards.decks[p])} players)",
                   choices=self.cards.electives, size=self.cards.elective_count),
            Option("first", "int", 0, "the seat (1, 2, ...) that plays first in round 1; 0 = at random"),
        )
        for count in players:
            need = self.cards.cards_needed(count)
            have = len(self.cards.deck(count, self.cards.default_electives))
            if have < need:
                raise DataError(f"pressed: {count} players need {need} cards over the game; the deck has {have}")

    def load_data(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The card data (cards.toml) with a variant's `overrides` merged in."""
        return load_data(overrides)

    def normalise_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """As the base, and electives may also be given by code or plural (`AN,BB,TU`, `Babys Breath`)."""
        given = dict(options or {})
        if "electives" in given:
            value = given["electives"]
            items = value if isinstance(value, (list, tuple)) else str(value).split(",")
            named = []
            for item in items:
                kind = self.cards.kind_of(str(item).strip()) if str(item).strip() else None
                named.append(self.cards.names[kind] if kind is not None else str(item))
            given["electives"] = named
        return super().normalise_options(given)

    # ----- flow --------------------------------------------------------------------------------
    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> PressedState:
        """Build the deck for the player count and electives, choose the first player, start round 1."""
        self.check_players(players)
        opts = self.normalise_options(options)
        if tuple(opts["electives"]) != self.cards.default_electives and ELECTIVES not in self.cards.decks[players]:
            using = ", ".join(str(p) for p in self.cards.players() if ELECTIVES in self.cards.decks[p])
            raise OptionError(f"electives are chosen for {using} players only: at {players} players every "
                              "flower is in the deck")
        return deal.setup(self.cards, players, seed, tuple(opts["electives"]), int(opts["first"]))

    def to_move(self, state: PressedState) -> tuple[int, ...]:
        """The planter, the next picker, or every seat still to press."""
        return flow.to_move(state)

    def legal_actions(self, state: PressedState, seat: int) -> list[str]:
        """Every legal action of `seat` now, in a stable order (see `flow`)."""
        return flow.legal_actions(self.cards, state, seat)

    def apply_legal(self, state: PressedState, seat: int, action: str) -> None:
        """Apply a legal action in place."""
        flow.apply_legal(self.cards, state, seat, action)

    def canonical(self, state: PressedState, seat: int, action: str) -> str:
        """The action a typed text means: codes and verbs in any case, pressed cards in any order."""
        return canonical(self.cards, action)

    def explain_illegal(self, state: PressedState, seat: int, action: str) -> str:
        """Say what is wrong with an action in this step."""
        return explain(self.cards, state, seat, action)

    def plant_result(self, state: PressedState, action: str) -> PlantScore:
        """What a `plant ...` action would score now (for previews and heuristics)."""
        return flow.plant_result(self.cards, state, action)

    # ----- information -------------------------------------------------------------------------
    def view(self, state: PressedState, seat: int | None) -> dict[str, Any]:
        """Bed, scores, stack, picks and pressed counts are public; a hand and pressed cards are the owner's."""
        return views.view(self.cards, state, seat)

    def public_action(self, state: PressedState, seat: int, action: str) -> str:
        """Plants, swaps and picks are public; a press shows only how many cards were pressed."""
        return views.public_action(seat, action)

    def determinize_rest(self, sample: PressedState, seat: int, rng: random.Random) -> None:
        """Which cards of their public picks the other seats pressed: a constraint between the pressed cards
        and the discard that zones cannot say (`zones.resample_presses`)."""
        zones.resample_presses(sample, seat, rng)

    # ----- results -----------------------------------------------------------------------------
    def turn(self, state: PressedState) -> int:
        """Turns completed so far."""
        return state.turn

    def is_over(self, state: PressedState) -> bool:
        """Whether the third round has ended."""
        return state.phase == OVER

    def scores(self, state: PressedState) -> list[int]:
        """The score track during play; at the end, the track plus each pressed collection's best score."""
        return results.scores(self.cards, state)

    def winners(self, state: PressedState) -> list[int]:
        """The highest totals (a tie is a shared victory); empty until the game is over."""
        return results.winners(self.cards, state)

    def breakdown(self, state: PressedState) -> list[dict[str, Any]]:
        """Per seat: total, planting points and (once over) the pressed collection's groups."""
        return results.breakdown(self.cards, state)

    def score_position(self, text: str, source: str = "position") -> dict[str, Any]:
        """Score a position file (docs/reference.md): final collections, or a planting query with a `play` line."""
        return score_position(text, self.cards, source)
