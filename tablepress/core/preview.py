"""What each legal action would do for the seat taking it: its points now, and the game's own note.

A preview is worked out on determinizations of the seat's information set (never on the true state), and
read back through the seat's own view and the game's public scores, so it tells the seat nothing it could
not work out itself. An action whose preview differs between two determinizations depends on what the
seat cannot know (a face-down draw, another's secret choice) and gets no preview.

A game may add a note per action (the package part `note`): `note(game, seat, before, action, after)`
with the seat's views before and after, e.g. By This's "shelf worth 7". A note that reads only the public
part of the views says so with `public_only = True` (`reads_public_only`): it is then given the spectator's
views, which are cheaper to build (no hand), and hints view every legal action.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .game import Game

Note = Callable[[Game, int, Mapping[str, Any], str, Mapping[str, Any]], str | None]
#: Determinizations a preview is checked on: two that agree are taken to be what the seat knows.
SAMPLES = 2
#: No previews for a position with more legal actions than this (the cost stays bounded).
MAX_ACTIONS = 400


def no_note(game: Game, seat: int, before: Mapping[str, Any], action: str, after: Mapping[str, Any]) -> str | None:
    """The default: no note beyond the points."""
    return None


def reads_public_only(note: Note) -> Note:
    """Mark a note that reads only the views' `public` part: it is given the spectator's views."""
    note.public_only = True  # type: ignore[attr-defined]
    return note


@dataclass(frozen=True)
class Hint:
    """What one action does for its seat: the change in its score (None: not known) and the game's note."""

    points: int | float | None
    note: str | None

    def as_json(self) -> dict[str, Any]:
        """{"points", "note", "text"}: `text` is what a table writes on the action ("+3 · shelf worth 7")."""
        quiet = self.points is None or (self.points == 0 and self.note)
        parts = [] if quiet else [f"{self.points:+g}"]
        if self.note:
            parts.append(self.note)
        return {"points": self.points, "note": self.note, "text": " · ".join(parts)}


def hints(game: Game, info: Any, note: Note = no_note, seed: int = 0) -> dict[str, Hint]:
    """A Hint per legal action of `info.seat` (a `SeatInfo`); actions whose outcome the seat cannot know are left out."""
    actions = info.legal_actions()
    if not actions or len(actions) > MAX_ACTIONS:
        return {}
    rng = random.Random(seed)
    seat = info.seat
    samples = [_Sample(game, info.determinize(rng), seat) for _ in range(SAMPLES if game.hidden_information else 1)]
    found: dict[str, Hint] = {}
    for action in actions:
        seen = {sample.outcome(action, note) for sample in samples}
        if len(seen) == 1:
            hint = seen.pop()
            if hint.points is not None or hint.note:
                found[action] = hint
    if all(not hint.points and not hint.note for hint in found.values()):
        return {}  # nothing to tell: every action leaves the score as it is
    return found


class _Sample:
    """One determinization with the seat's view and the public scores before any action (read once)."""

    def __init__(self, game: Game, state: Any, seat: int):
        self.game, self.state, self.seat = game, state, seat
        self.scores = game.public_scores(state)
        self._view: Mapping[str, Any] | None = None

    def outcome(self, action: str, note: Note) -> Hint:
        """What `action` does here: the change in the seat's score and the game's note (views only with a note)."""
        game, seat = self.game, self.seat
        child = game.clone(self.state)
        game.apply_legal(child, seat, action)
        after = game.scores(child) if game.is_over(child) else game.public_scores(child)
        before = self.scores
        points = None if before is None or after is None else after[seat] - before[seat]
        if note is no_note:
            return Hint(points, None)
        reader = None if getattr(note, "public_only", False) else seat
        if self._view is None:
            self._view = game.view(self.state, reader)
        return Hint(points, note(game, seat, self._view, action, game.view(child, reader)))
