"""Flowers for learning agents: the fixed action space and the observation planes (docs/RL.md).

Actions (ids in this order): `draw 1` … `draw S` (S = the most stacks at any player count), then
`place x,y` — place the card in hand at cell x,y — for every cell of the bounded grid −GRID_RADIUS ≤
x, y ≤ GRID_RADIUS (y outer, x inner). The legal text `place Y4g 1,0` names the card too, but a seat
placing has exactly one card in hand, so the cell alone is the move (as Planted's `play 24 LW` is card
24): one id per cell keeps the policy's output as small as the choice. A placement beyond the grid
has no id: it is not offered to a learning agent. Covering the first card at 0,0 is always legal, so
a seat always has a move inside the space.

Observation planes (relative seats: "you" first, then the next seats in turn order):
`area +r` for each seat r, per grid cell (y outer, x inner) the channels `occupied`, the top card's
colour one-hot (the data's colours, then violet), `value` / top value, its butterfly colour one-hot,
and `height` / 8; `stacks`: per stack cards / 40, face up, top code one-hot; `drawn`: the card in hand
(code one-hot) when this seat may see it; `drawn from`: the stack; `step`: draw, place; `to move`:
this seat, the seat after, …; `scores` / 50 by relative seat; `seen`: cards of each code face up in
areas or the timer pile / copies in the deck; `turn` / 100; `place gains`: per grid cell, the change
of your score / 5 if the card in hand went there (0 where it cannot go); `draw gains`: per stack, the
best such change / 5 for its face-up top. Both are computed from your own area in the view (public)
and cards you see: a one-step lookahead, as a player at the table would count.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core.actions import ActionTable, Plane, Planes, one_hot_index
from .flow import placements
from .notation import DRAW, PLACE
from .scoring import score_area

#: Cells beyond |x| or |y| = GRID_RADIUS have no action id (and are left out of the observation).
GRID_RADIUS = 3
#: Draw stacks at most (three with 2–4 players, two in solo).
MAX_STACKS = 3
SIDE = 2 * GRID_RADIUS + 1
CELLS = [(x, y) for y in range(-GRID_RADIUS, GRID_RADIUS + 1) for x in range(-GRID_RADIUS, GRID_RADIUS + 1)]


def codes_of(game: Any) -> list[str]:
    """Every distinct card code of the game's data, in data order."""
    return list(dict.fromkeys(game.cards.codes))


def action_key(view: Mapping[str, Any], seat: int, text: str) -> str:
    """The action name of a legal text: `place Y4g 1,0` → `place 1,0` (the card is the one in hand)."""
    if text.startswith(PLACE):
        return f"{PLACE} {text.rsplit(' ', 1)[1]}"
    return text


def action_space(game: Any, players: int, options: Mapping[str, Any]) -> ActionTable:
    """The fixed action table of Flowers (see the module docstring); the same at every player count."""
    names = [f"{DRAW} {i + 1}" for i in range(MAX_STACKS)]
    names += [f"{PLACE} {x},{y}" for x, y in CELLS]
    return ActionTable(tuple(names), key=action_key)


def _cell_index(x: int, y: int) -> int:
    if abs(x) > GRID_RADIUS or abs(y) > GRID_RADIUS:
        return -1
    return (y + GRID_RADIUS) * SIDE + (x + GRID_RADIUS)


class FlowersObservation:
    """The observation planes of Flowers at one player count (see the module docstring)."""

    def __init__(self, game: Any, players: int, options: Mapping[str, Any]):
        cards = game.cards
        self.cards = cards
        self.card_of = {code: card for card, code in reversed(list(enumerate(cards.codes)))}
        self.players = players
        self.codes = codes_of(game)
        self.colours = [*cards.colour_names, "V"]
        self.top_value = max(cards.value) or 1
        self.copies = {code: cards.codes.count(code) for code in self.codes}
        self.parts = {code: (cards.colour[i] or "V", cards.value[i], cards.butterfly[i])
                      for i, code in reversed(list(enumerate(cards.codes)))}
        c, k = len(self.colours), len(self.codes)
        self.channels = 1 + c + 1 + c + 1
        planes = [Plane(f"area +{r}", len(CELLS) * self.channels,
                        "per cell: occupied, colour one-hot, value, butterfly one-hot, height")
                  for r in range(players)]
        planes += [
            Plane("stacks", MAX_STACKS * (2 + k), "per stack: cards / 40, face up, top code one-hot"),
            Plane("drawn", k, "the drawn card (code one-hot) if this seat may see it"),
            Plane("drawn from", MAX_STACKS, "the stack the card in hand came from"),
            Plane("step", 2, "draw, place"),
            Plane("to move", players, "the seat to move, relative (this seat first)"),
            Plane("scores", players, "live scores / 50, relative seats"),
            Plane("seen", k, "face-up cards of each code in areas and the timer pile / copies"),
            Plane("turn", 1, "turns played / 100"),
            Plane("place gains", len(CELLS), "per cell: your score's change / 5 if the card in hand went there"),
            Plane("draw gains", MAX_STACKS, "per stack: the best such change / 5 for its face-up top"),
        ]
        self.layout = Planes(planes)
        self.planes = self.layout.planes

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        """The planes of `seat`'s view."""
        public, private = view["public"], view.get("private") or {}
        layout, vector, players = self.layout, self.layout.zeros(), self.players
        seen = dict.fromkeys(self.codes, 0)
        colours, ch = self.colours, self.channels
        for owner, area in enumerate(public["areas"]):
            plane = f"area +{(owner - seat) % players}"
            for cell in area:
                for code in cell["cards"]:
                    seen[code] = seen.get(code, 0) + 1
                index = _cell_index(cell["x"], cell["y"])
                if index < 0 or not cell["cards"]:
                    continue
                colour, value, wing = self.parts.get(cell["cards"][-1], ("V", 0, None))
                base = index * ch
                layout.put(vector, plane, base)
                layout.put(vector, plane, base + 1 + one_hot_index(colours, colour))
                layout.put(vector, plane, base + 1 + len(colours), value / self.top_value)
                if wing is not None:
                    layout.put(vector, plane, base + 2 + len(colours) + one_hot_index(colours, wing))
                layout.put(vector, plane, base + ch - 1, min(len(cell["cards"]), 8) / 8)
        width = 2 + len(self.codes)
        for i, stack in enumerate(public["stacks"][:MAX_STACKS]):
            layout.put(vector, "stacks", i * width, stack["cards"] / 40)
            layout.put(vector, "stacks", i * width + 1, float(stack["face_up"]))
            if stack["top"] is not None:
                layout.put(vector, "stacks", i * width + 2 + one_hot_index(self.codes, stack["top"]))
        drawn = private.get("drawn") or public.get("drawn")
        if drawn is not None:
            layout.put(vector, "drawn", one_hot_index(self.codes, drawn))
        if public.get("drawn_from") is not None:
            layout.put(vector, "drawn from", public["drawn_from"] - 1)
        layout.put(vector, "step", one_hot_index([DRAW, PLACE], public.get("step")))
        if public.get("current") is not None:
            layout.put(vector, "to move", (public["current"] - seat) % players)
        for owner, score in enumerate(public["scores"]):
            layout.put(vector, "scores", (owner - seat) % players, score / 50)
        for code in public.get("removed", []):
            seen[code] = seen.get(code, 0) + 1
        for i, code in enumerate(self.codes):
            layout.put(vector, "seen", i, seen[code] / max(1, self.copies[code]))
        layout.put(vector, "turn", 0, public["turn"] / 100)
        self._gains(vector, public, drawn, seat)
        return vector

    def _gains(self, vector: np.ndarray, public: Mapping[str, Any], drawn: str | None, seat: int) -> None:
        """The lookahead planes: what placing the card in hand (or each face-up top) would score."""
        if public.get("current") != seat:
            return
        card_of = self.card_of
        area = {(c["x"], c["y"]): tuple(card_of[code] for code in c["cards"]) for c in public["areas"][seat]}
        base = score_area(area, self.cards).total
        cells = placements(area)

        def gains(card: int) -> list[tuple[int, float]]:
            found = []
            for cell in cells:
                trial = dict(area)
                trial[cell] = area.get(cell, ()) + (card,)
                found.append((_cell_index(*cell), (score_area(trial, self.cards).total - base) / 5))
            return found

        if public.get("step") == PLACE and drawn is not None:
            for index, gain in gains(card_of[drawn]):
                self.layout.put(vector, "place gains", index, gain)
        elif public.get("step") == DRAW:
            for i, stack in enumerate(public["stacks"][:MAX_STACKS]):
                if stack["top"] is not None:
                    self.layout.put(vector, "draw gains", i, max(g for _, g in gains(card_of[stack["top"]])))


def observation(game: Any, players: int, options: Mapping[str, Any]) -> FlowersObservation:
    """The observation planes of Flowers for `players` (see the module docstring)."""
    return FlowersObservation(game, players, options)
