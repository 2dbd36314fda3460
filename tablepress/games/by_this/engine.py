"""By This as a `Game` (rules.md): the flow, the views and the explanations composed, plus the results.

The parts: state.py (the state), setup.py (dealing), rules.py (card tables and rule questions),
flow.py (legal actions and applying them), zones.py (where the cards lie and who sees them: determinize,
the hidden zones and the card counts come from it), views.py (the view), explain.py (why an action is
illegal), notation.py (action texts and position files), scoring.py (closes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.game import Option
from ...core.zoned import ZonedGame
from .cards import load_data
from .explain import ByThisExplain
from .flow import ByThisFlow
from .notation import parse_position
from .scoring import score_close
from .setup import deal
from .state import CLOSE_STEP, OVER, PLACE_STEP, PLAY, ByThisState
from .views import ByThisViews

__all__ = ["CLOSE_STEP", "OVER", "PLACE_STEP", "PLAY", "ByThisGame", "ByThisState"]

FIRST_CHOICES = ("random", "1", "2", "3", "4")


class ByThisGame(ByThisFlow, ByThisViews, ByThisExplain, ZonedGame[ByThisState]):
    """By This for 2–4 players, with the Young table variant."""

    name = "by-this"
    title = "By This"
    min_players = 2
    max_players = 4
    default_players = 3
    options = (
        Option("young", "bool", False, "Young table: no By This until someone has closed once"),
        Option("first", "choice", "random", "who plays first: random, or a seat number from 1",
               choices=FIRST_CHOICES),
    )
    public_actions = True  # every card played is seen by all
    summary = (
        "By This — the same things live in many true orders. File things on a shared shelf in order under "
        "the Key in play (ABC, Size, Weight or Age, rising or falling), from your hand or the Floor. Close the "
        "shelf to score its length plus its piles of same numbers — or spend a rare key to file it a new way."
    )

    def load_data(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The card data (cards.toml) with a variant's `overrides` merged in."""
        return load_data(overrides)

    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> ByThisState:
        """Shuffle the Keys and the cards, deal hands, turn up the Floor (specials set aside), pick the first player."""
        self.check_players(players)
        opts = self.normalise_options(options)
        return deal(self.cards, players, seed, opts["young"], opts["first"])

    # ----- results -----------------------------------------------------------------------------
    def turn(self, state: ByThisState) -> int:
        """Turns completed so far."""
        return state.turn

    def is_over(self, state: ByThisState) -> bool:
        """Whether the game has ended (enough closes, or no thing left)."""
        return state.phase == OVER

    def scores(self, state: ByThisState) -> list[int]:
        """Each player's points from closes."""
        return list(state.scores)

    def winners(self, state: ByThisState) -> list[int]:
        """Most points; ties go to more closes; still tied, shared."""
        best = max(zip(state.scores, state.closes))
        return [seat for seat in range(state.players) if (state.scores[seat], state.closes[seat]) == best]

    def breakdown(self, state: ByThisState) -> list[dict[str, Any]]:
        """Each seat's total, its number of closes (the tie-break), its best close and every shelf it closed."""
        names = self.names
        parts = []
        for seat, (score, closes) in enumerate(zip(state.scores, state.closes)):
            own = [(points, cards) for closer, points, cards in state.shelves if closer == seat]
            parts.append({"total": score, "closes": closes, "best_close": max((p for p, _ in own), default=0),
                          "shelves": [{"points": points, "things": len(cards), "shelf": ", ".join(names[c] for c in cards)}
                                      for points, cards in own]})
        return parts

    # ----- people ------------------------------------------------------------------------------
    def score_position(self, text: str, source: str = "position") -> dict[str, Any]:
        """Score closing the shelf of a position file (docs/reference.md): {"game", "players": [{"name", "total", ...}]}."""
        players = []
        for shelf in parse_position(text, self.cards, source):
            key = self.cards.keys[shelf.key]
            numbers = [self.key_numbers[shelf.key][c] for c in shelf.things]
            result = score_close([self.names[c] for c in shelf.things], numbers).as_dict()
            players.append({
                "name": shelf.name,
                **result,
                "key": key.name,
                "shelf": [{"thing": self.names[c], "number": n} for c, n in zip(shelf.things, numbers)],
            })
        return {"game": self.name, "players": players}

    def rules_text(self) -> str:
        """The short summary for `help`, with this game's extra terminal commands (the full rules: rules.md)."""
        return (f"{self.summary}\nAlso: numbers (all four numbers of the shelf, Floor and hand), "
                "thing NAME (one thing's numbers).")
