"""Pressed for learning agents: the fixed action space and the observation planes (docs/RL.md).

Actions at P players (C = the bed's columns, R = its rows at most, K = every flower of the data; ids in
this order): `plant CODE COLUMN` for each flower and column, with every `choose CODE` of a Tulip-like
flower (one that counts a chosen flower) and every `copy CODE` / `copy CODE choose CODE` of a Baby's
Breath-like one; `noswap`, then `swap R,A R,B` (A < B) for every row and pair of columns; `pick COLUMN`;
`press` of every multiset of `press` flowers in flower order. Every legal action has an id.

Observation planes (relative seats, "you" first): `bed`: per column, per row (R), the flower one-hot;
`taken`: per column, free / taken; `hand`, `to press`, `pressed`: counts of each flower (yours, / 4);
`picked`: per relative seat the flowers of the column it picked this round (counts / 4); `seen
discards`: counts of the unpicked columns' flowers; `phase` one-hot (plant, swap, pick, press, over);
`swap row` one-hot; `to move` relative seats; `scores` / 50 and `pressed counts` / 12 by relative
seat; `round` / rounds; `deck` / 100.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from ...core.actions import ActionTable, Plane, Planes, one_hot_index
from .cards import CHOSEN, COPY
from .state import EFFECT, NOSWAP, OVER, PICK, PLANT, PRESS

PHASES = (PLANT, EFFECT, PICK, PRESS, OVER)


def rows_bound(cards: Any, players: int) -> int:
    """The most rows a column can reach in a round: the starting bed's rows plus every card planted."""
    return len(cards.beds[players]) + players * cards.hand


def action_space(game: Any, players: int, options: Mapping[str, Any]) -> ActionTable:
    """The fixed action table of Pressed at `players` (see the module docstring)."""
    cards = game.cards
    codes, columns, rows = cards.codes, cards.columns(players), rows_bound(cards, players)
    kinds = range(len(codes))
    names: list[str] = []
    for kind in kinds:
        for column in range(1, columns + 1):
            head = f"plant {codes[kind]} {column}"
            names.append(head)
            if cards.effects[kind] == COPY:
                for copy in kinds:
                    if cards.counts[copy] == CHOSEN:
                        names += [f"{head} copy {codes[copy]} choose {codes[t]}" for t in kinds]
                    else:
                        names.append(f"{head} copy {codes[copy]}")
            elif cards.counts[kind] == CHOSEN:
                names += [f"{head} choose {codes[t]}" for t in kinds]
    names.append(NOSWAP)
    names += [f"swap {r},{a} {r},{b}" for r in range(1, rows + 1)
              for a in range(1, columns + 1) for b in range(a + 1, columns + 1)]
    names += [f"pick {column}" for column in range(1, columns + 1)]
    names += ["press " + " ".join(codes[k] for k in choice)
              for choice in combinations_with_replacement(kinds, cards.press)]
    return ActionTable(tuple(names))


class PressedObservation:
    """The observation planes of Pressed at one player count (see the module docstring)."""

    def __init__(self, game: Any, players: int, options: Mapping[str, Any]):
        cards = game.cards
        self.players = players
        self.codes = list(cards.codes)
        self.rounds = cards.rounds
        self.columns, self.rows = cards.columns(players), rows_bound(cards, players)
        k = len(self.codes)
        self.layout = Planes([
            Plane("bed", self.columns * self.rows * k, "per column, per row: the flower one-hot"),
            Plane("taken", self.columns, "per column: 1 if a seat has picked it"),
            Plane("hand", k, "flowers in your hand (counts / 4)"),
            Plane("to press", k, "flowers of your picked column awaiting the press (counts / 4)"),
            Plane("pressed", k, "flowers you have pressed (counts / 4)"),
            Plane("picked", players * k, "per relative seat: the flowers of the column it picked this round"),
            Plane("seen discards", k, "flowers of the unpicked columns discarded (counts / 4)"),
            Plane("phase", len(PHASES), "plant, swap, pick, press, over"),
            Plane("swap row", self.rows, "the row of a pending Anemone swap"),
            Plane("to move", players, "the seats to move, relative"),
            Plane("scores", players, "scores / 50, relative seats"),
            Plane("pressed counts", players, "cards pressed / 12, relative seats"),
            Plane("round", 1, "round / rounds"),
            Plane("deck", 1, "cards in the deck / 100"),
        ])
        self.planes = self.layout.planes

    def _counts(self, vector: np.ndarray, plane: str, codes: list[str], offset: int = 0) -> None:
        for code, count in Counter(codes).items():
            self.layout.put(vector, plane, offset + one_hot_index(self.codes, code), count / 4)

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        """The planes of `seat`'s view."""
        public, private = view["public"], view.get("private") or {}
        layout, vector, players, k = self.layout, self.layout.zeros(), self.players, len(self.codes)
        for column, cards in enumerate(public["bed"][: self.columns]):
            for row, code in enumerate(cards[: self.rows]):
                layout.put(vector, "bed", (column * self.rows + row) * k + one_hot_index(self.codes, code))
        for column, who in enumerate(public["taken"]):
            layout.put(vector, "taken", column, float(who is not None))
        self._counts(vector, "hand", private.get("hand", []))
        self._counts(vector, "to press", private.get("to_press", []))
        self._counts(vector, "pressed", private.get("pressed", []))
        rounds = public["picks"]
        if rounds and public["phase"] in (PICK, PRESS):
            for owner, pick in enumerate(rounds[-1]):
                if pick is not None:
                    self._counts(vector, "picked", pick["cards"], ((owner - seat) % players) * k)
        self._counts(vector, "seen discards", public["seen_discards"])
        layout.put(vector, "phase", one_hot_index(PHASES, public["phase"]))
        if public["swap_row"] is not None:
            layout.put(vector, "swap row", public["swap_row"] - 1)
        for mover in public["to_move"]:
            layout.put(vector, "to move", (mover - seat) % players)
        for owner in range(players):
            relative = (owner - seat) % players
            layout.put(vector, "scores", relative, public["scores"][owner] / 50)
            layout.put(vector, "pressed counts", relative, public["pressed_counts"][owner] / 12)
        layout.put(vector, "round", 0, public["round"] / self.rounds)
        layout.put(vector, "deck", 0, public["deck_size"] / 100)
        return vector


def observation(game: Any, players: int, options: Mapping[str, Any]) -> PressedObservation:
    """The observation planes of Pressed for `players` (see the module docstring)."""
    return PressedObservation(game, players, options)
