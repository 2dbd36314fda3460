"""A game that declares its cards and zones (`core.zones.Layout`) and gets its information handling from them.

`ZonedGame` implements `view`, `determinize`, `hidden_zones`, `card_counts` and `hidden_information` from
`layout`, so a game writes only its rules (setup, whose turn, legal actions, applying them, scoring). Hooks
remain for what zones cannot say:

- `seen(state, seat)`: the `Seen` facts a seat knows beyond the zones' faces (None: what everyone knows);
- `table(state)`: the public facts besides the cards (whose turn, the scores) for the default view;
- `determinize_rest(sample, seat, rng)`: resampling what follows rules zones cannot say (a hidden choice
  among public cards), run after the zones are dealt anew and before the chance to come is drawn.

A game may still write its own `view` (its web and terminal drawing read its shape) or `determinize` (and
say why in its docstring); the checker holds either to the declared zones.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .game import Game, State
from .zones import Facts, Known, Layout, resolve


class ZonedGame(Game[State]):
    """A `Game` whose information handling comes from its declared `layout` (see the module docstring)."""

    #: The game's cards and zones: a class attribute, or set in `__init__` from the game's card data.
    layout: Layout

    @property
    def hidden_information(self) -> bool:  # type: ignore[override]
        """Whether some zone is not face up or chance is still to come."""
        return self.layout.hidden

    # ----- hooks -----------------------------------------------------------------------------------
    def seen(self, state: State, seat: int | None) -> Facts:
        """What `seat` has seen beyond the zones' faces (None: what every seat has seen). Default: nothing."""
        return ()

    def table(self, state: State) -> dict[str, Any]:
        """The public facts of the default view besides the cards (whose turn, scores). Default: none."""
        return {}

    def determinize_rest(self, sample: State, seat: int, rng: random.Random) -> None:
        """Resample, in place, what zones cannot say (after the zones are dealt anew). Default: nothing."""

    # ----- from the zones --------------------------------------------------------------------------
    def known(self, state: State, seat: int | None) -> Known:
        """The slots `seat` knows beyond the zones' faces (None: those every seat knows), resolved."""
        layout = self.layout
        known = layout.facts(state, self.seen(state, None))
        return known if seat is None else layout.facts(state, self.seen(state, seat), known)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """`table` and every zone as everyone sees it; privately, the zones `seat` sees more of."""
        layout = self.layout
        public = self.known(state, None)
        view: dict[str, Any] = {"public": {**self.table(state), "zones": layout.view_zones(state, None, public, public)},
                                "private": {}}
        if seat is not None:
            mine = layout.view_zones(state, seat, self.known(state, seat), public)
            if mine:
                view["private"]["zones"] = mine
        return view

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A copy with every card `seat` cannot know dealt anew (`Layout.redeal`), then `determinize_rest`,
        then the chance to come drawn anew."""
        sample = self.clone(state)
        layout = self.layout
        layout.redeal(sample, seat, rng, self.known(state, seat))
        self.determinize_rest(sample, seat, rng)
        layout.rechance(sample, rng)
        return sample

    def hidden_zones(self, state: State, seat: int) -> dict[str, Any]:
        """The cards of the dealt zones that no seat knows, by zone, and the chance to come."""
        seats = (None, *range(self.players_in(state)))
        return self.layout.hidden_zones(state, resolve(self.layout, state, lambda who: self.seen(state, who), seats))

    def card_counts(self, state: State) -> Counter:
        """Every card in every zone."""
        return self.layout.card_counts(state)

    def players_in(self, state: State) -> int:
        """How many seats `state` has (its `players` field)."""
        return state.players  # type: ignore[attr-defined]
