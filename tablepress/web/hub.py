"""The hub: every room on the server — creating games, taking actions, moving AI seats, restoring from disk.

Each action is taken through `Match.act`: checked (and made canonical), committed to the store, then
adopted, and only then answered and pushed to the watchers; a failed check or a failed write changes
nothing. Actions on one game are serialised by its room's lock; games run side by side. AI seats move
by themselves after a short pause (`ai_delay`), their thinking done off the event loop (see `thinking`)
so that other games keep going.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Mapping
from typing import Any

from ..agents.base import HUMAN
from ..core.errors import IllegalAction, TablepressError
from ..core.match import Match, Move, UndoPoint, jsonable
from ..core.registry import get_game
from ..core.variants import apply_variant
from .rooms import Room
from .store import GameRow, Store, hash_token
from .thinking import Thinker, decision_seed

log = logging.getLogger("tablepress.web")

#: Finished games kept replayed in memory at most (more stay in the store until asked for).
MAX_FINISHED_LOADED = 200


class NotFound(TablepressError):
    """No game with that id."""


class Hub:
    """All rooms, the store behind them, and the AI seats' movers."""

    def __init__(self, store: Store, ai_delay: float = 0.8):
        self.store = store
        self.ai_delay = ai_delay
        self.rooms: dict[str, Room] = {}
        #: Finished games not loaded yet (a finished game is replayed only when someone asks for it).
        self.archive: dict[str, GameRow] = {}
        self.thinker = Thinker()
        self._closing = False

    # ----- start and stop ----------------------------------------------------------------------
    def restore(self) -> None:
        """Rebuild every unfinished game by replaying its actions; finished ones wait until asked for.

        A game that no longer replays (its rules changed since) is logged and left out.
        """
        for row in self.store.load_games():
            if row.status == "over":
                self.archive[row.id] = row
                continue
            try:
                self.rooms[row.id] = self._rebuild(row)
            except Exception as exc:  # noqa: BLE001 - one broken game must not stop the server
                log.error("game %s could not be restored: %s", row.id, exc)
        log.info("restored %d unfinished games; %d finished ones load when asked for", len(self.rooms), len(self.archive))

    def _rebuild(self, row: GameRow) -> Room:
        game = get_game(row.game)
        if row.variant is not None:
            game = game.with_variant(row.variant)
        match = Match(game, row.players, row.seed, row.options, row.seats)
        for seat, action, _public, at in row.actions:
            match.act(seat, action, at=at)
        return Room(row, match)

    def start_ai(self) -> None:
        """Set every restored game's AI seats moving (call once the event loop runs)."""
        for room in self.rooms.values():
            self.kick(room)

    async def close(self) -> None:
        """Stop every AI mover."""
        self._closing = True
        tasks = [room.ai_task for room in self.rooms.values() if room.ai_task and not room.ai_task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.thinker.close()

    # ----- games ---------------------------------------------------------------------------------
    def open_games(self) -> int:
        """How many games are not over yet."""
        return sum(1 for room in self.rooms.values() if not room.match.is_over)

    def room(self, game_id: str) -> Room:
        """The room with this id (a finished game is loaded on first use), or NotFound."""
        room = self.rooms.get(game_id)
        if room is not None:
            room.used = time.monotonic()
            return room
        row = self.archive.get(game_id)
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        row.actions = self.store.load_actions(game_id)
        try:
            room = self._rebuild(row)
        except Exception as exc:  # noqa: BLE001 - the rules changed under an old game
            log.error("game %s could not be restored: %s", game_id, exc)
            raise NotFound(f"game {game_id!r} no longer replays with these rules") from None
        row.actions = []
        del self.archive[game_id]
        self.rooms[game_id] = room
        self._evict()
        return room

    def _evict(self) -> None:
        """Send the least recently used finished games nobody watches back to the archive, past a limit."""
        finished = [r for r in self.rooms.values() if r.match.is_over and not r.watchers]
        for room in sorted(finished, key=lambda r: r.used)[:max(0, len(finished) - MAX_FINISHED_LOADED)]:
            game, state, row = room.match.game, room.match.state, room.row
            row.status, row.scores, row.winners = "over", game.scores(state), game.winners(state)
            row.count, row.actions = len(room.match.moves), []
            del self.rooms[room.id]
            self.archive[room.id] = row

    def summaries(self) -> list[dict[str, Any]]:
        """What the lobby lists of every game, newest first (finished ones from the store, unloaded)."""
        items = [room.summary() for room in self.rooms.values()]
        for row in self.archive.values():
            try:
                title = get_game(row.game).title
            except TablepressError:
                continue
            items.append({"id": row.id, "game": row.game, "title": title, "status": "over", "players": row.players,
                          "seats": list(row.seats), "names": list(row.names), "to_move": [], "actions": row.count,
                          "created": row.created, "scores": row.scores, "winners": row.winners, "error": None})
        return sorted(items, key=lambda item: item["created"], reverse=True)

    def create(self, game_name: str, seats: list[str], options: Mapping[str, Any], seed: int | None,
               names: list[str] | None = None, variant: Mapping[str, Any] | None = None) -> tuple[Room, dict[str, str]]:
        """A new game, stored; returns its room and one token per human seat (keyed by seat as text).

        A variant is checked as `simulate --variant` checks one; a bad one raises DataError naming the field.
        """
        game = get_game(game_name)
        game.check_players(len(seats))
        options = game.normalise_options(options)
        if variant is not None:
            game = apply_variant(variant, game, len(seats), options, "variant")
        seed = secrets.randbits(63) if seed is None else seed
        match = Match(game, len(seats), seed, options, seats)
        tokens = {str(seat): secrets.token_urlsafe(24) for seat, spec in enumerate(seats) if spec == HUMAN}
        game_id = secrets.token_hex(5)
        while game_id in self.rooms or game_id in self.archive:
            game_id = secrets.token_hex(5)
        row = GameRow(
            id=game_id, game=game.name, players=len(seats), options=jsonable(match.options), seats=list(seats),
            names=names or default_names(seats), seed=seed, variant=None if variant is None else dict(variant),
            token_hashes={hash_token(token): int(seat) for seat, token in tokens.items()}, created=time.time(),
        )
        room = Room(row, match)
        self.store.create_game(row)
        self.rooms[game_id] = room
        self.kick(room)
        return room, tokens

    async def act(self, room: Room, seat: int, action: str) -> None:
        """Take a human seat's action under the room's lock; IllegalAction (nothing changed) if it may not."""
        async with room.lock:
            self._commit(room, seat, action)
        self.kick(room)

    def _commit(self, room: Room, seat: int, action: str) -> None:
        """Take one action through the match, stored before it is adopted; tell the watchers. Call with the lock held."""
        match = room.match
        game = match.game
        kept: list[UndoPoint] = []
        at = time.time()

        def store(move: Move, after: Any) -> None:
            """Commit the move (and, if it ends the game, the result) before the match adopts `after`."""
            over = game.is_over(after)
            before = None if over or not game.undoable(match.state, move.seat, move.action) else match.undo_point()
            self.store.append_action(
                room.id, len(match.moves), move.seat, move.action, move.public, at,
                status="over" if over else None, scores=game.scores(after) if over else None,
                winners=game.winners(after) if over else None,
            )
            if before is not None:
                kept.append(before)

        match.act(seat, action, at=at, commit=store)
        room.keep_undo(seat, kept[0] if kept else None)
        room.changed()
        if match.is_over:
            self._evict()

    async def undo(self, room: Room, seat: int) -> None:
        """Take back `seat`'s last action if it revealed nothing and nobody acted since; else IllegalAction."""
        async with room.lock:
            if not room.can_undo(seat):
                raise IllegalAction("nothing to undo: only your own last action, if it revealed nothing "
                                    "and nobody has acted since")
            point = room.undo_stack[-1]
            self.store.delete_last_action(room.id, point.moves)
            room.undo_stack.pop()
            room.match.undo(point)
            room.changed()

    async def hand_to_ai(self, room: Room, seat: int, spec: str) -> None:
        """An AI (`spec`) takes over a human seat for the rest of the game; that seat's token stops working."""
        async with room.lock:
            if room.match.is_over:
                raise IllegalAction("the game is over")
            seats = list(room.match.seats)
            seats[seat] = spec
            names = list(room.row.names)
            names[seat] = f"{names[seat]} (AI: {spec})"
            hashes = {digest: s for digest, s in room.row.token_hashes.items() if s != seat}
            self.store.update_seats(room.id, seats, names, hashes)
            room.match.seats = seats
            room.row.seats, room.row.names, room.row.token_hashes = seats, names, hashes
            room.ai_seats[seat] = spec
            room.undo_stack.clear()
            for watcher in [w for w in room.watchers if w.seat == seat]:  # that token's live views end
                room.watchers.discard(watcher)
                watcher.push(None)
            room.changed()
        self.kick(room)

    # ----- AI seats ------------------------------------------------------------------------------
    def kick(self, room: Room) -> None:
        """Start the room's AI mover if an AI seat must act and none is running."""
        if self._closing or room.error or not room.ai_to_move():
            return
        if room.ai_task is not None and not room.ai_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not serving yet; start_ai() will do it
        room.ai_task = loop.create_task(self._ai_loop(room), name=f"ai-{room.id}")

    async def _ai_loop(self, room: Room) -> None:
        """Move AI seats one action at a time, with a pause before each so people can follow.

        The AI thinks without holding the room's lock (states are replaced, never changed in place, so
        the position it thinks about stays as it was); people may act meanwhile, as in a simultaneous
        choice. Its action is then taken under the lock if it is still legal, else it thinks again.
        """
        while room.ai_to_move() and not self._closing:
            await asyncio.sleep(self.ai_delay)
            seats = room.ai_to_move()
            if not seats:
                break
            seat = min(seats)  # as `Match.next_mover` picks among simultaneous movers
            state, index = room.match.state, len(room.match.moves)
            action = await self._choose(room, seat, state, index)
            async with room.lock:
                match = room.match
                moved_on = match.state is not state
                try:
                    try:
                        self._commit(room, seat, action)
                    except IllegalAction as exc:
                        if moved_on:
                            continue  # the game moved on under it: think again
                        log.error("game %s: AI seat %s chose an illegal action %r (%s); playing a random one",
                                  room.id, seat, action, exc)  # an agent bug: never freeze the game
                        self._commit(room, seat, random.choice(match.legal(seat)))
                except Exception as exc:  # noqa: BLE001 - e.g. the disk is full; keep serving the rest
                    room.error = f"could not store the AI's action: {exc}"
                    log.error("game %s: %s", room.id, room.error)
                    break

    async def _choose(self, room: Room, seat: int, state: Any, index: int) -> str:
        """The AI seat's choice in `state`, thought out off the event loop; a failing agent plays a random legal action."""
        game = room.match.game
        seed = decision_seed(room.match.seed, seat, index)
        try:
            return await self.thinker.choose(game, state, seat, room.ai_seats[seat], seed)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - an agent bug must not freeze the game
            log.error("game %s: agent %s failed (%s); playing a random legal action", room.id,
                      room.match.seats[seat], exc)
            return random.choice(game.legal_actions(state, seat))


def default_names(seats: list[str]) -> list[str]:
    """`Player 1`, `Bot 2 (greedy)`, ... for seats without names."""
    return [f"Player {i + 1}" if spec == HUMAN else f"Bot {i + 1} ({spec})" for i, spec in enumerate(seats)]

