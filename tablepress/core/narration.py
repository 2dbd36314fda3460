"""The move log in words people read: "Ana planted Hydrangea in column 5 for 15".

A game's narrator (the package part `narrate`) turns one move into lines of text, and it sees only views:
`narrate(game, before, seat, action, after)` gets the views just before and just after the move and the
action as the reader may know it (once the game is over, the `after` views' public part also names the
`winners` the game's tiebreak picked). Everyone's lines are made from the spectator's views and the move's
public text; the mover's own lines from the mover's views and its full action. A narrator therefore cannot
tell anybody more than their view already does: hidden information stays default-deny by construction.

A line's `seat` is its subject: readers write that seat's name before the text. Other seats inside a text
are written `{P1}`, `{P2}`… (counted from 1, as the table's labels) and filled in by `fill`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .game import Game

#: Kinds of line: a move, something the move made public (cards revealed), the end of a round, the end.
KINDS = ("move", "reveal", "round", "end")
_SEAT_MARK = re.compile(r"\{P(\d{1,2})\}")


@dataclass(frozen=True)
class Line:
    """One sentence of the log: `seat` (or None) is its subject, `text` the rest of it."""

    text: str
    seat: int | None = None
    kind: str = "move"

    def as_json(self) -> dict[str, Any]:
        """The line for the web's log: {"seat", "text", "kind"} (seat counted from 0, as the API counts)."""
        return {"seat": self.seat, "text": self.text, "kind": self.kind}


Narrate = Callable[[Game, Mapping[str, Any], int, str, Mapping[str, Any]], Sequence[Line]]


def plain_narrate(game: Game, before: Mapping[str, Any], seat: int, action: str,
                  after: Mapping[str, Any]) -> list[Line]:
    """The default: the action as written (`Ana: place R2 0,0`)."""
    return [Line(action, seat)]


def seat_mark(seat: int) -> str:
    """How a text names another seat: `{P2}` for seat index 1."""
    return f"{{P{seat + 1}}}"


def fill(text: str, names: Sequence[str]) -> str:
    """A line's text with `{P1}`… replaced by the players' names (an unknown mark is left as `P9`)."""
    def name(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        return names[index] if 0 <= index < len(names) else f"P{index + 1}"

    return _SEAT_MARK.sub(name, text)


def sentence(line: Line, names: Sequence[str]) -> str:
    """A line as one sentence: the subject's name, then the text."""
    text = fill(line.text, names)
    if line.seat is None or not 0 <= line.seat < len(names):
        return text
    return f"{names[line.seat]} {text}"


@dataclass
class Told:
    """One move narrated for both audiences: `public` for everyone, `own` for the seat that moved."""

    seat: int
    public: list[Line]
    own: list[Line]

    def for_reader(self, reader: int | None, reveal: bool = False) -> list[Line]:
        """The lines `reader` may read (None: a spectator); with `reveal` (the game is over), the mover's own."""
        return self.own if reveal or reader == self.seat else self.public


@dataclass
class Narration:
    """Narrates a match's moves as they come: it replays them on its own state, so it never touches the match.

    `catch_up(moves)` narrates the moves not narrated yet; if the match went back (an undo), it starts over.
    """

    game: Game
    players: int
    seed: int
    options: Mapping[str, Any]
    narrate: Narrate = plain_narrate
    told: list[Told] = field(default_factory=list)
    _state: Any = None
    _actions: list[tuple[int, str]] = field(default_factory=list)

    def catch_up(self, moves: Sequence[Any]) -> list[Told]:
        """Narrate every move of `moves` (each with `seat`, `action`, `public`) not narrated yet; all of them."""
        if len(moves) < len(self._actions) or any(
                (move.seat, move.action) != done for move, done in zip(moves, self._actions)):
            self.told, self._actions, self._state = [], [], None
        if self._state is None:
            self._state = self.game.new(self.players, self.seed, self.options)
        for move in moves[len(self._actions):]:
            self.told.append(self._tell(move))
            self._actions.append((move.seat, move.action))
        return self.told

    def _tell(self, move: Any) -> Told:
        game, state = self.game, self._state
        before_public, before_own = game.view(state, None), game.view(state, move.seat)
        game.apply_legal(state, move.seat, move.action)
        after_public, after_own = game.view(state, None), game.view(state, move.seat)
        if game.is_over(state):
            winners = game.winners(state)
            after_public, after_own = with_winners(after_public, winners), with_winners(after_own, winners)
        public = list(self.narrate(game, before_public, move.seat, move.public, after_public))
        own = list(self.narrate(game, before_own, move.seat, move.action, after_own))
        return Told(move.seat, public, own)


def with_winners(view: Mapping[str, Any], winners: Sequence[int]) -> dict[str, Any]:
    """A finished game's view with its public part naming the winners the game's tiebreak picked, so a
    narrator stars those and not every tied score."""
    return {**view, "public": {**view.get("public", {}), "winners": list(winners)}}


def standings(scores: Sequence[Any], winners: Sequence[int] | None = None) -> str:
    """Every seat's score as a log text: `{P1} 34 · {P2} 28` (a star after each winner)."""
    won = set(winners or ())
    return " · ".join(f"{seat_mark(seat)} {score}{' ★' if seat in won else ''}" for seat, score in enumerate(scores))


def listing(items: Sequence[str]) -> str:
    """Names as prose: `A`, `A and B`, `A, B and C`."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
