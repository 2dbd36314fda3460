"""A room: one game being played on the server — its match, seats, tokens, undo points and live watchers.

Every view a room hands out is built from `game.view(state, seat)`; the move log is the match's moves,
showing a seat its own actions in full and everyone else's as they saw them (in full for everyone once
the game is over, when the record is public too).
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..agents.base import HUMAN
from ..core.match import Match, UndoPoint
from ..core.narration import Narration, sentence
from ..core.preview import hints
from ..core.registry import get_game, package_of
from ..core.variants import base_data, variant_changes
from .store import GameRow, hash_token
from .views import ViewCache

#: How many views may wait for one slow watcher before the oldest are dropped.
WATCH_QUEUE = 64


@dataclass(eq=False)
class Watcher:
    """One live connection (a WebSocket) of a seat (None: a spectator), fed views (JSON text) and other messages
    (dictionaries) through a queue."""

    seat: int | None
    queue: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(maxsize=WATCH_QUEUE))

    def push(self, view: str | dict[str, Any] | None) -> None:
        """Queue a view (None: the connection must end), dropping the oldest one if the watcher has fallen far behind."""
        if self.queue.full():
            try:
                self.queue.get_nowait()
            except asyncio.QueueEmpty:  # pragma: no cover - single-threaded event loop
                pass
        self.queue.put_nowait(view)


class Room:
    """One game on the server. Mutations happen only under `lock`, on the event loop."""

    def __init__(self, row: GameRow, match: Match):
        self.row = row
        self.id = row.id
        self.match = match
        self.lock = asyncio.Lock()
        self.watchers: set[Watcher] = set()
        self.ai_task: asyncio.Task | None = None
        self.used = time.monotonic()  # when someone last asked for it
        self.error: str | None = None
        self._views = ViewCache()  # views of the current revision, by seat
        #: Grows with every change (microseconds, so it keeps growing across restarts); clients keep the newest view.
        self.revision = _now_us()
        #: Where the match was before each action that may be taken back, newest last (all one seat's).
        self.undo_stack: list[UndoPoint] = []
        #: AI seat → its agent spec; these seats move by themselves.
        self.ai_seats: dict[int, str] = {seat: spec for seat, spec in enumerate(match.seats) if spec != HUMAN}
        #: The log in words, narrated from views as moves come (core/narration.py).
        self.narration = Narration(match.game, match.players, match.seed, match.options,
                                   package_of(match.game).narrate)
        self._variant: dict[str, Any] | None = None
        #: Gives {move number: sentence} of moves the log explains to every reader, before the move's own lines
        #: (a turn clock's "Time ran out for Ana: …", web/clocks.py); None: no such moves.
        self.notes: Callable[[], dict[int, str]] | None = None
        #: Called first whenever the game changes here or is found changed in the store (web/clocks.py then works
        #: out whom the game waits on); it must not raise.
        self.on_change: Callable[[], None] | None = None

    @property
    def variant(self) -> dict[str, Any] | None:
        """The variant this game plays — {"name", "id", "changes": [{"field", "old", "new", "text"}]} — or None
        for the published cards (worked out once)."""
        if self.row.variant is None:
            return None
        if self._variant is None:
            self._variant = variant_facts(self.row)
        return self._variant

    # ----- who is who ------------------------------------------------------------------------
    def seat_for_token(self, token: str) -> int | None:
        """The human seat a token belongs to, or None for a wrong token (compared in constant time)."""
        found = self._token_entry(token)
        return found if found is not None and found >= 0 else None

    def lent_seat_for_token(self, token: str) -> int | None:
        """The seat a token held before it was lent to an AI (`Hub.hand_to_ai`), or None."""
        found = self._token_entry(token)
        return -found - 1 if found is not None and found < 0 else None

    def _token_entry(self, token: str) -> int | None:
        """The stored entry of a token: its seat, or −(seat + 1) while that seat is lent to an AI."""
        wanted = hash_token(token)
        found = None
        for digest, seat in self.row.token_hashes.items():
            if hmac.compare_digest(digest, wanted):
                found = seat
        return found

    def can_undo(self, seat: int | None) -> bool:
        """Whether `seat` may take back the last action (its own, revealing nothing, nobody acting since)."""
        if seat is None or not self.undo_stack or self.match.is_over:
            return False
        moves = self.match.moves
        index = self.undo_stack[-1].moves
        return index == len(moves) - 1 and moves[index].seat == seat

    def keep_undo(self, seat: int, point: UndoPoint | None) -> None:
        """After `seat` acted: keep `point` (from before the action) if the action may be taken back.

        Only an unbroken run of one seat's undoable actions is kept; any other action forgets them all.
        """
        moves = self.match.moves
        if point is None or (self.undo_stack and moves[self.undo_stack[-1].moves].seat != seat):
            self.undo_stack.clear()
        if point is not None:
            self.undo_stack.append(point)

    def ai_to_move(self) -> list[int]:
        """The AI seats that must act now."""
        if self.match.is_over:
            return []
        return [seat for seat in self.match.to_move() if seat in self.ai_seats]

    @property
    def status(self) -> str:
        """`playing` or `over`."""
        return "over" if self.match.is_over else "playing"

    # ----- what a seat sees ------------------------------------------------------------------
    def log_for(self, seat: int | None, upto: int | None = None, reveal: bool | None = None) -> list[dict[str, Any]]:
        """The move log as `seat` may read it: its own actions in full, the others' public text.

        Each entry has the action as written (`text`) and the move in words (`lines`: sentences with the
        players' names, each `{"kind", "seat", "text"}`), both as `seat` may read them.
        """
        show_all = self.match.is_over if reveal is None else reveal
        moves = self.match.moves if upto is None else self.match.moves[:upto]
        told = self.narration.catch_up(self.match.moves)
        names = list(self.row.names)
        notes = self.notes() if self.notes is not None else {}
        return [
            {"n": n, "seat": move.seat, "text": move.action if show_all else move.seen_by(seat), "at": move.at,
             "lines": [*([{"kind": "note", "seat": move.seat, "text": notes[n]}] if n in notes else []),
                       *({"kind": line.kind, "seat": line.seat, "text": sentence(line, names)}
                         for line in told[n - 1].for_reader(seat, reveal=show_all))]}
            for n, move in enumerate(moves, start=1)
        ]

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """The contract's view of `seat` (None: spectator) with the room's extras (seats, names, log).

        Views are built once per revision (web/views.py); callers must not modify what they get.
        """
        return self._views.get(self.revision, seat, lambda: self._build_view(seat)).view

    def view_body(self, seat: int | None) -> bytes:
        """`view_for(seat)` as JSON bytes, encoded once per revision."""
        return self._views.get(self.revision, seat, lambda: self._build_view(seat)).body

    def view_text(self, seat: int | None) -> str:
        """`view_for(seat)` as JSON text, encoded once per revision."""
        return self._views.get(self.revision, seat, lambda: self._build_view(seat)).text

    def _build_view(self, seat: int | None) -> dict[str, Any]:
        """Work out `seat`'s view of the game as it is now, hints included."""
        match = self.match
        view = build_view(self, match.view(seat), seat, match,
                          legal=match.legal(seat) if seat is not None and not match.is_over else [],
                          log=self.log_for(seat))
        view["can_undo"] = self.can_undo(seat)
        view["revision"] = self.revision
        view["hints"] = self.hints_for(seat)
        return view

    def hints_for(self, seat: int | None) -> dict[str, Any]:
        """What each legal action would do for a human seat to move (core/preview.py): {action: hint}."""
        match = self.match
        if seat is None or seat in self.ai_seats or match.is_over or seat not in match.to_move():
            return {}
        found = hints(match.game, match.seat_info(seat), package_of(match.game).note)
        return {action: hint.as_json() for action, hint in found.items()}

    def changed(self) -> None:
        """The game moved on: tell `on_change`, forget the cached views and push every watcher its new one."""
        if self.on_change is not None:
            self.on_change()
        self._views.clear()
        self.revision = max(self.revision + 1, _now_us())
        self.notify()

    def summary(self) -> dict[str, Any]:
        """What the lobby's list shows of this game (public facts only)."""
        game, state = self.match.game, self.match.state
        over = self.match.is_over
        return {
            "id": self.id,
            "game": game.name,
            "title": game.title,
            "status": self.status,
            "players": self.match.players,
            "seats": list(self.match.seats),
            "names": list(self.row.names),
            "to_move": list(self.match.to_move()),
            "actions": len(self.match.moves),
            "created": self.row.created,
            "scores": game.scores(state) if over else None,
            "winners": game.winners(state) if over else None,
            "error": self.error,
            "variant": variant_label(self.row),
        }

    def notify(self) -> None:
        """Push every watcher its seat's view of the game as it is now."""
        for watcher in list(self.watchers):
            watcher.push(self.view_text(watcher.seat))


def variant_label(row: GameRow) -> str | None:
    """The name of the variant a stored game plays (None: the published cards)."""
    if row.variant is None:
        return None
    return row.variant_name or "unnamed variant"


def variant_facts(row: GameRow) -> dict[str, Any]:
    """What the table says of a game's variant: its name, its saved id (None for card data given whole) and
    every change from the published cards."""
    return {"name": variant_label(row), "id": row.variant_id,
            "changes": variant_changes(row.variant or {}, base_data(get_game(row.game)))}


def _now_us() -> int:
    return time.time_ns() // 1000


def build_view(room: Room, seen: dict[str, Any], seat: int | None, match: Match, legal: list[str],
               log: list[dict[str, Any]]) -> dict[str, Any]:
    """Assemble the reply: status, to_move, public, private, legal_actions, scores, plus the room's extras.

    Scores come from `Game.public_scores` while the game runs (None where they would reveal hidden
    cards), and from the game once it is over.
    """
    game, state = match.game, match.state
    over = game.is_over(state)
    public = seen.get("public", {})
    private = seen.get("private", {}) if seat is not None else {}
    if over:
        scores: Any = game.scores(state)
    else:
        scores = game.public_scores(state)
    view: dict[str, Any] = {
        "status": "over" if over else "playing",
        "to_move": list(game.to_move(state)),
        "public": public,
        "private": private,
        "legal_actions": legal,
        "scores": scores,
        "id": room.id,
        "game": game.name,
        "title": game.title,
        "seat": seat,
        "seats": list(match.seats),
        "names": list(room.row.names),
        "options": room.row.options,
        "variant": room.variant,
        "rated": room.row.rated,
        "rematch": room.row.rematch_id,
        "log": log,
        "version": len(log),
    }
    if over:
        view["winners"] = game.winners(state)
        view["breakdown"] = game.breakdown(state)
    return view
