"""By This for learning agents: the fixed action space and the observation planes (docs/RL.md).

Actions (T = the data's things in data order, ids in this order): `close`, `keep`, `dump`, `lock`,
`pass`; `bythis KEY` for each of the 8 Keys; `floor THING`; `place THING`, `place THING left`, `place
THING right` and the same `from floor`; `samenumber THING after|before OTHER` (and `from floor`) for
every ordered pair of different things that share a number under some Key. Every legal action has an id.

Observation planes (relative seats, "you" first): `hand`: things in your hand; `specials`: specials
in your hand (counts); `shelf`: things on the shelf; `shelf position`: (index + 1) / length of each thing on
the shelf; `left end`, `right end`: the thing at each end; `floor`; `gone`: things closed away;
`key`: the Key in play one-hot; `face-up keys`; `end numbers`: the two ends' numbers / 10 under the
Key; `flags`: locked, By This allowed, can close; `phase` (play, place, close, over); `to move`;
`scores` / 20, `closes` / 5, `hand sizes` / 8 by relative seat; `counts`: close score / 20, close
minimum / 10, deck / 50, Key deck / 8, closes to the end / 10, spent specials / 4.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core.actions import ActionTable, Plane, Planes, one_hot_index
from .notation import BYTHIS, CLOSE, DUMP, FLOOR, KEEP, LOCK, PASS, format_place, format_same
from .state import CLOSE_STEP, OVER, PLACE_STEP, PLAY

PHASES = (PLAY, PLACE_STEP, CLOSE_STEP, OVER)


def things_of(game: Any) -> list[str]:
    """The things of the game's data (not the specials), in data order."""
    return list(game.names[: game.thing_count])


def action_space(game: Any, players: int, options: Mapping[str, Any]) -> ActionTable:
    """The fixed action table of By This (see the module docstring); the same at every player count."""
    cards = game.cards
    things = things_of(game)
    names = [CLOSE, KEEP, DUMP, LOCK, PASS]
    names += [f"{BYTHIS} {key.plain}" for key in cards.keys]
    names += [f"{FLOOR} {thing}" for thing in things]
    names += [format_place(thing, end, floor) for floor in (False, True) for thing in things
              for end in (None, "left", "right")]
    numbers = cards.numbers
    for floor in (False, True):
        for a, thing in enumerate(things):
            for b, other in enumerate(things):
                if a != b and any(word[a] == word[b] for word in numbers):
                    names += [format_same(thing, side, other, floor) for side in ("after", "before")]
    return ActionTable(tuple(names))


class ByThisObservation:
    """The observation planes of By This at one player count (see the module docstring)."""

    def __init__(self, game: Any, players: int, options: Mapping[str, Any]):
        self.players = players
        self.things = things_of(game)
        self.specials = list(game.names[game.thing_count:])
        self.keys = [key.plain for key in game.cards.keys]
        t = len(self.things)
        self.layout = Planes([
            Plane("hand", t, "things in your hand"),
            Plane("specials", len(self.specials), "specials in your hand (counts)"),
            Plane("shelf", t, "things on the shelf"),
            Plane("shelf position", t, "(index + 1) / shelf length of each thing on the shelf"),
            Plane("left end", t, "the thing at the shelf's left end"),
            Plane("right end", t, "the thing at the shelf's right end"),
            Plane("floor", t, "things on the Floor"),
            Plane("gone", t, "things closed away"),
            Plane("key", len(self.keys), "the Key in play"),
            Plane("face-up keys", len(self.keys), "the face-up Keys"),
            Plane("end numbers", 2, "the left and right ends' numbers / 10 under the Key"),
            Plane("flags", 3, "locked, By This allowed, can close"),
            Plane("phase", len(PHASES), "play, place, close, over"),
            Plane("to move", players, "the seat to move, relative"),
            Plane("scores", players, "scores / 20, relative seats"),
            Plane("closes", players, "shelves closed / 5, relative seats"),
            Plane("hand sizes", players, "cards in hand / 8, relative seats"),
            Plane("counts", 6, "close score / 20, close minimum / 10, deck / 50, Key deck / 8, "
                               "closes to the end / 10, spent specials / 4"),
        ])
        self.planes = self.layout.planes

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        """The planes of `seat`'s view."""
        public, private = view["public"], view.get("private") or {}
        layout, vector, players, things = self.layout, self.layout.zeros(), self.players, self.things
        for card in private.get("hand", []):
            if card["special"]:
                layout.add(vector, "specials", one_hot_index(self.specials, card["card"]), 1.0)
            else:
                layout.put(vector, "hand", one_hot_index(things, card["card"]))
        shelf = public["shelf"]
        for index, card in enumerate(shelf):
            thing = one_hot_index(things, card["card"])
            layout.put(vector, "shelf", thing)
            layout.put(vector, "shelf position", thing, (index + 1) / len(shelf))
        if shelf:
            layout.put(vector, "left end", one_hot_index(things, shelf[0]["card"]))
            layout.put(vector, "right end", one_hot_index(things, shelf[-1]["card"]))
            layout.put(vector, "end numbers", 0, shelf[0]["number"] / 10)
            layout.put(vector, "end numbers", 1, shelf[-1]["number"] / 10)
        for card in public["floor"]:
            layout.put(vector, "floor", one_hot_index(things, card["card"]))
        for name in public.get("closed_cards", []):
            layout.put(vector, "gone", one_hot_index(things, name))
        layout.put(vector, "key", one_hot_index(self.keys, public["key"]["plain"]))
        for key in public["face_up_keys"]:
            layout.put(vector, "face-up keys", one_hot_index(self.keys, key["plain"]))
        for i, flag in enumerate((public["locked"], public["bythis_allowed"], public["can_close"])):
            layout.put(vector, "flags", i, float(bool(flag)))
        layout.put(vector, "phase", one_hot_index(PHASES, public["phase"]))
        if public.get("current") is not None and not public["over"]:
            layout.put(vector, "to move", (public["current"] - seat) % players)
        for owner in range(players):
            relative = (owner - seat) % players
            layout.put(vector, "scores", relative, public["scores"][owner] / 20)
            layout.put(vector, "closes", relative, public["closes"][owner] / 5)
            layout.put(vector, "hand sizes", relative, public["hand_sizes"][owner] / 8)
        counts = (public["close_score"] / 20, public["close_min"] / 10, public["deck"] / 50,
                  public["key_deck"] / 8, public["closes_to_end"] / 10, len(public["spent"]) / 4)
        for i, value in enumerate(counts):
            layout.put(vector, "counts", i, value)
        return vector


def observation(game: Any, players: int, options: Mapping[str, Any]) -> ByThisObservation:
    """The observation planes of By This for `players` (see the module docstring)."""
    return ByThisObservation(game, players, options)
