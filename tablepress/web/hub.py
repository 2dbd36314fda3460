"""The hub: every room on the server — creating games, taking actions, moving AI seats, restoring from disk.

Each action is taken through `Match.act`: checked (and made canonical), committed to the store, then
adopted, and only then answered and pushed to the watchers; a failed check or a failed write changes
nothing. Actions on one game are serialised by its room's lock; games run side by side. AI seats move
by themselves after a short pause (`ai_delay`), their thinking done off the event loop (see `thinking`)
so that other games keep going.

Everything a client can make the server keep is bounded: unfinished games per client and games a
client creates a day, unfinished and kept games server-wide, the cards of a varied game (checked from
the merged card data before anything is built, then set up and played once in a worker within a time
limit), and how long games are kept: an unfinished game with no action for OPEN_DAYS and a finished one
whose last action is FINISHED_DAYS old are deleted at start and every SWEEP_SECONDS.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import random
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..agents.base import HUMAN
from ..core.errors import DataError, IllegalAction, TablepressError
from ..core.game import Game
from ..core.match import Match, Proposal, UndoPoint, jsonable
from ..core.registry import get_game
from ..core.variants import base_data
from .faults import StoreDown, StoreFull, backoff, writing
from .leases import RETRY_SECONDS, Leases
from .logs import event
from .requests import Forbidden
from .refresh import adopt, catch_up, only_appended, replay, take_appended
from .rooms import Room, variant_label
from .store import GameRow, Stale, Store, backend_of, hash_token
from .thinking import (CHECK_NICENESS, CHECK_WORKERS, OutOfTime, Played, Thinker, decision_index, decision_seed,
                       played)

log = logging.getLogger("tablepress.web")

#: Finished games kept replayed in memory at most (more stay in the store until asked for).
MAX_FINISHED_LOADED = 200
#: Unfinished games one client (address) may have at once, and games it may create in a day.
CLIENT_OPEN_GAMES = 50
CLIENT_GAMES_A_DAY = 500
#: Unfinished games, and games of any kind, the server keeps at most.
MAX_OPEN_GAMES = 2_000
MAX_GAMES = 20_000
#: Days an unfinished game is kept without an action, and a finished one after its last action.
OPEN_DAYS = 7
FINISHED_DAYS = 30
#: Seconds between two sweeps for expired games.
SWEEP_SECONDS = 3600
#: Games `GET /api/games` lists at most (the newest).
MAX_LISTED = 100
#: A varied game may have at most this many times the published card copies.
DECK_FACTOR = 10
DAY = 86_400
#: The name a game's variant goes by when it was given as card data rather than a saved variant's id.
CUSTOM_VARIANT = "custom cards"
#: What a player is told when another process wrote to the game between its read and its write (HTTP 409).
MOVED_ON = "the game moved on before this was stored (someone acted at the same moment); nothing changed: look again"


class NotFound(TablepressError):
    """No game with that id."""


class QuotaExceeded(TablepressError):
    """The client already has as many games as one client may (HTTP 429)."""


class HubFull(TablepressError):
    """The server already keeps as many games as it may (HTTP 503)."""


@dataclass
class PendingAction:
    """An action worked out and not yet taken: the proposal, the undo point before it (if it may be taken
    back), and the arguments of `Store.append_action` that store it."""

    proposal: Proposal
    before: UndoPoint | None
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)

    def store_in(self, store: Store) -> int:
        """Store the action; the game's new revision (Stale if another write came first)."""
        return store.append_action(*self.args, **self.kwargs)


class Hub:
    """All rooms, the store behind them, and the AI seats' movers."""

    def __init__(self, store: Store, ai_delay: float = 0.8):
        self.store = store
        self.ai_delay = ai_delay
        self.rooms: dict[str, Room] = {}
        #: Finished games not loaded yet (a finished game is replayed only when someone asks for it).
        self.archive: dict[str, GameRow] = {}
        self.thinker = Thinker()
        #: Which process moves each game's AI seats (one at a time, whichever processes are up).
        self.leases = Leases(store)
        #: Variant checks' own workers: a burst of checks never holds up an AI decision.
        self.checker = Thinker(CHECK_WORKERS, niceness=CHECK_NICENESS)
        #: Saved variants by id (`get(id) -> {"game", "name", "overrides", ...}`, KeyError if none), set by the app.
        self.variants: Any = None
        #: Client → when it created its games of the last day (for CLIENT_GAMES_A_DAY).
        self.created_by: dict[str, list[float]] = {}
        self._sweeper: asyncio.Task | None = None
        #: Listening for other processes' writes (PostgreSQL only), and the refreshes it started.
        self._listener: asyncio.Task | None = None
        self._catching_up: set[asyncio.Task] = set()
        #: Game id → the revision announced for a room nobody here watches or moves (refreshed when next asked for).
        self._behind: dict[str, int] = {}
        self._closing = False
        #: The thread that stores players' and AI seats' actions, off the event loop (see `commit`).
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store-writer")
        #: Called with a room whose game just ended in this process, after its end is stored (web/ratings.py).
        self.on_over: Callable[[Room], None] | None = None

    # ----- start and stop ----------------------------------------------------------------------
    def restore(self) -> None:
        """Rebuild every unfinished game by replaying its actions; finished ones wait until asked for.

        Expired games are deleted first. A game that no longer replays (its rules changed since, or a
        stored row that does not read) is logged and left out.
        """
        self.expire()
        day_ago = time.time() - DAY
        for row in self.store.load_games():
            if row.client is not None and row.created > day_ago:
                self.created_by.setdefault(row.client, []).append(row.created)
            if row.status == "over":
                self.archive[row.id] = row
                continue
            try:
                self.rooms[row.id] = self._rebuild(row)
            except Exception as exc:  # noqa: BLE001 - one broken game must not stop the server
                event(log, "game_not_restored", logging.ERROR, game=row.id, error=str(exc))
        event(log, "restored", open=len(self.rooms), finished=len(self.archive))

    def _rebuild(self, row: GameRow) -> Room:
        game = get_game(row.game)
        if row.variant is not None:
            check_variant_size(game, row.variant)
            game = game.with_variant(row.variant)
        room = Room(row, Match(game, row.players, row.seed, row.options, row.seats))
        replay(room, row.actions)
        return room

    def start_ai(self) -> None:
        """Set every restored game's AI seats moving, and start the sweeps for expired games (call once
        the event loop runs)."""
        for room in self.rooms.values():
            self.kick(room)
        loop = asyncio.get_running_loop()
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = loop.create_task(self._sweep(), name="expire-games")
        if self._listener is None and backend_of(self.store.url)[0] == "postgresql":
            from .listener import listen

            self._listener = loop.create_task(listen(self.store.url, self), name="listen")

    async def _sweep(self) -> None:
        """Delete expired games every SWEEP_SECONDS."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                self.expire()
            except Exception as exc:  # noqa: BLE001 - e.g. a locked database; try again next time
                event(log, "expire_failed", logging.ERROR, error=str(exc))

    async def close(self) -> None:
        """Stop every AI mover and the sweeps."""
        self._closing = True
        tasks = [room.ai_task for room in self.rooms.values() if room.ai_task and not room.ai_task.done()]
        tasks += [task for task in (self._sweeper, self._listener) if task is not None]
        tasks += self._catching_up
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.thinker.close()
        self.checker.close()
        self._writer.shutdown(wait=False)

    def expire(self, now: float | None = None) -> list[str]:
        """Delete the unfinished games with no action for OPEN_DAYS and the finished ones whose last action
        is FINISHED_DAYS old, from the store and from memory; return their ids."""
        now = time.time() if now is None else now
        gone = self.store.expire(now - OPEN_DAYS * DAY, now - FINISHED_DAYS * DAY)
        for game_id in gone:
            room = self.rooms.pop(game_id, None)
            if room is not None and room.ai_task is not None:
                room.ai_task.cancel()
            self.archive.pop(game_id, None)
        if gone:
            event(log, "games_expired", count=len(gone), games=gone[:20])
        return gone

    # ----- games ---------------------------------------------------------------------------------
    def open_games(self) -> int:
        """How many games are not over yet."""
        return sum(1 for room in self.rooms.values() if not room.match.is_over)

    def room(self, game_id: str) -> Room:
        """The room with this id (a finished game, or one another process created, is loaded from the store
        on first use), or NotFound."""
        room = self.rooms.get(game_id)
        if room is not None:
            room.used = time.monotonic()
            if self._behind.get(game_id, -1) > room.row.revision and not room.lock.locked():
                self._bring_up(room)
            return room
        row = self.archive.get(game_id)
        if row is not None:
            row.actions = self.store.load_actions(game_id)
        else:
            row = self.store.load_game(game_id)
            if row is None:
                raise NotFound(f"no game {game_id!r}")
        try:
            room = self._rebuild(row)
        except Exception as exc:  # noqa: BLE001 - the rules changed under an old game
            event(log, "game_not_restored", logging.ERROR, game=game_id, error=str(exc))
            raise NotFound(f"game {game_id!r} no longer replays with these rules") from None
        if row.status == "over" and not room.match.is_over:  # never hand out a finished game reset to an earlier turn
            event(log, "game_not_restored", logging.ERROR, game=game_id,
                  error=f"finished, but its {len(row.actions)} stored actions do not end it")
            raise NotFound(f"game {game_id!r} has lost some of its stored actions")
        row.actions = []
        self.archive.pop(game_id, None)
        self.rooms[game_id] = room
        self._evict()
        self.kick(room)
        return room

    def refresh(self, room: Room) -> None:
        """Bring a room to its game as stored (another process wrote to it), push its watchers the new view
        and set its AI seats moving; a game no longer stored leaves memory. Call with the room's lock held."""
        self._take_stored(room, *self._read_stored(room))

    async def _refresh_off_loop(self, room: Room) -> None:
        """As `refresh`, reading the store on the store's own thread. Call with the room's lock held."""
        stored = await asyncio.get_running_loop().run_in_executor(self._writer, self._read_stored, room)
        self._take_stored(room, *stored)

    def _read_stored(self, room: Room) -> tuple[GameRow | None, bool]:
        """The room's game as stored (None: gone) and whether it was read with only the actions the room lacks
        (every write since was an append) rather than whole."""
        row = self.store.load_since(room.id, len(room.match.moves))
        if row is None or row.revision == room.row.revision or only_appended(room, row):
            return row, True
        return self.store.load_game(room.id), False

    def _take_stored(self, room: Room, row: GameRow | None, appended: bool) -> None:
        """Make the room hold the stored `row` (see `_read_stored`), tell its watchers and set its AI seats moving."""
        if row is None:
            if self.rooms.get(room.id) is room:
                del self.rooms[room.id]
            return
        if row.revision == room.row.revision:
            return
        if appended:
            take_appended(room, row)
        elif not catch_up(room, row):
            adopt(room, self._rebuild(row))
        room.changed()
        self.kick(room)

    def _bring_up(self, room: Room) -> None:
        """Refresh a room another process wrote to while nobody here watched it, before it is used (no await
        between the check and the refresh, so no action of this process is under way on it); NotFound if the
        game is no longer stored. A refresh that fails leaves the room as held: a write to it is then refused
        as stale, which refreshes it."""
        self._behind.pop(room.id, None)
        try:
            self.refresh(room)
        except Exception as exc:  # noqa: BLE001 - the write's own revision check still guards the game
            event(log, "refresh_failed", logging.ERROR, game=room.id, error=str(exc))
        if self.rooms.get(room.id) is not room:
            raise NotFound(f"no game {room.id!r}")

    def changed_elsewhere(self, game_id: str, revision: int | None) -> None:
        """A game is now at `revision` in the store (None: deleted), as another process (or this one) announced:
        a room held at an older revision is refreshed at once if someone here watches it or an AI seat plays
        in it, else when it is next asked for (the lobby may list it a few moves behind meanwhile); a game
        created elsewhere is loaded, so that the lobby lists it."""
        if revision is None:
            self._behind.pop(game_id, None)
            room = self.rooms.pop(game_id, None)
            if room is not None and room.ai_task is not None:
                room.ai_task.cancel()
            self.archive.pop(game_id, None)
            return
        room = self.rooms.get(game_id)
        if room is None:
            if revision == 0 and game_id not in self.archive:
                with contextlib.suppress(NotFound):
                    self.room(game_id)
            return
        if room.row.revision < revision:
            if not room.watchers and not room.ai_seats:
                self._behind[game_id] = max(revision, self._behind.get(game_id, revision))
                return
            task = asyncio.get_running_loop().create_task(self._catch_up(room, revision), name=f"catch-up-{game_id}")
            self._catching_up.add(task)
            task.add_done_callback(self._catching_up.discard)

    async def _catch_up(self, room: Room, revision: int) -> None:
        """Refresh a room under its lock, unless it reached `revision` meanwhile."""
        async with room.lock:
            if self.rooms.get(room.id) is not room or room.row.revision >= revision:
                return
            try:
                await self._refresh_off_loop(room)
            except Exception as exc:  # noqa: BLE001 - the next announcement or request refreshes it
                event(log, "refresh_failed", logging.ERROR, game=room.id, error=str(exc))

    def resync(self) -> None:
        """Compare every room held with the stored revisions and catch up (announcements may have been missed
        while nobody listened)."""
        stored = self.store.revisions()
        for game_id, room in list(self.rooms.items()):
            if stored.get(game_id) != room.row.revision:
                self.changed_elsewhere(game_id, stored.get(game_id))

    @contextlib.contextmanager
    def _fenced(self, room: Room) -> Iterator[None]:
        """Around a write to a room's game made at the revision the room holds: if another process wrote first
        (Stale), refresh the room and refuse with MOVED_ON (HTTP 409), nothing changed here or in the store."""
        try:
            yield
        except Stale as exc:
            try:
                self.refresh(room)
            except Exception as failed:  # noqa: BLE001 - the next request or notification refreshes it
                event(log, "refresh_failed", logging.ERROR, game=room.id, error=str(failed))
            raise Stale(MOVED_ON, room.id, exc.revision) from None

    def _evict(self) -> None:
        """Send the least recently used finished games nobody watches back to the archive, past a limit."""
        finished = [r for r in self.rooms.values() if r.match.is_over and not r.watchers]
        for room in sorted(finished, key=lambda r: r.used)[:max(0, len(finished) - MAX_FINISHED_LOADED)]:
            game, state, row = room.match.game, room.match.state, room.row
            row.status, row.scores, row.winners = "over", game.scores(state), game.winners(state)
            row.count, row.actions = len(room.match.moves), []
            del self.rooms[room.id]
            self.archive[room.id] = row

    def summaries(self, limit: int = MAX_LISTED) -> list[dict[str, Any]]:
        """What the lobby lists of the newest `limit` games, newest first (finished ones from the store, unloaded)."""
        rows = [room.row for room in self.rooms.values()] + list(self.archive.values())
        items = []
        for row in heapq.nlargest(limit, rows, key=lambda r: r.created):
            room = self.rooms.get(row.id)
            if room is not None:
                items.append(room.summary())
                continue
            try:
                title = get_game(row.game).title
            except TablepressError:
                continue
            items.append({"id": row.id, "game": row.game, "title": title, "status": "over", "players": row.players,
                          "seats": list(row.seats), "names": list(row.names), "to_move": [], "actions": row.count,
                          "created": row.created, "scores": row.scores, "winners": row.winners, "error": None,
                          "variant": variant_label(row)})
        return items

    def admit(self, client: str | None) -> None:
        """HubFull if the server keeps as many games as it may; QuotaExceeded if `client` has (None: no
        per-client quota)."""
        if self.open_games() >= MAX_OPEN_GAMES:
            raise HubFull(f"this server already runs {MAX_OPEN_GAMES} unfinished games; try again later")
        if len(self.rooms) + len(self.archive) >= MAX_GAMES:
            raise HubFull(f"this server already keeps {MAX_GAMES} games; try again later")
        if client is None:
            return
        mine = sum(1 for room in self.rooms.values() if room.row.client == client and not room.match.is_over)
        if mine >= CLIENT_OPEN_GAMES:
            raise QuotaExceeded(f"you have {mine} unfinished games here, the most one client may;"
                                " finish one (or wait for it to expire) first")
        day_ago = time.time() - DAY
        recent = self.created_by[client] = [t for t in self.created_by.get(client, []) if t > day_ago]
        if len(recent) >= CLIENT_GAMES_A_DAY:
            raise QuotaExceeded(f"you created {len(recent)} games in the last 24 hours, the most one client may;"
                                " try again later")

    async def create(self, game_name: str, seats: list[str], options: Mapping[str, Any], seed: int | None,
                     names: list[str] | None = None, variant: Mapping[str, Any] | str | None = None,
                     client: str | None = None) -> tuple[Room, dict[str, str]]:
        """A new game, stored; returns its room and one token per human seat (keyed by seat as text).

        `client` (the creator's address) counts against its quotas (see `admit`). A variant (card data
        changes, or a saved variant's id) is checked as `simulate --variant` checks one, in a worker
        within a time limit, after its size is checked; a bad one raises DataError naming the field.
        """
        room = await self._new_room(game_name, seats, options, seed, names, variant, client)
        tokens = {str(seat): secrets.token_urlsafe(24) for seat, spec in enumerate(seats) if spec == HUMAN}
        room.row.token_hashes = {hash_token(token): int(seat) for seat, token in tokens.items()}
        with writing("game", game=room.id, kind=room.row.game, client=client):
            self.store.create_game(room.row)
        self._open(room)
        return room, tokens

    async def rematch(self, room: Room, client: str | None = None) -> Room:
        """The finished game's rematch — same game, options, variant, seats and names, a new deal — made on the
        first call by whichever process, the same one after; no seat token of its own yet (`grant_seat`), but
        the players who sat at the old game keep their seats in it. The old game's watchers learn of it from
        their view (`rematch`)."""
        if not room.match.is_over:
            raise IllegalAction("a rematch starts once the game is over")
        async with room.lock:
            if room.row.rematch_id is None:
                row = room.row
                # The game's own card data, not its saved variant's id: its maker may have deleted that since.
                fresh = await self._new_room(row.game, list(row.seats), row.options, None, list(row.names),
                                             row.variant, client)
                fresh.row.variant_id, fresh.row.variant_name = row.variant_id, row.variant_name
                with self._fenced(room), writing("game", game=fresh.id, kind=row.game, client=client):
                    made, revision = self.store.create_rematch(room.id, fresh.row)
                room.row.rematch_id, room.row.revision = made, revision
                room.changed()
                if made == fresh.id:
                    self._open(fresh)
            rematch_id = room.row.rematch_id
        return self.room(rematch_id)

    async def grant_seat(self, room: Room, token_hash: str, seat: int) -> None:
        """Make the token with this hash open `seat` of the room's game from now on (stored; every process
        learns of it); nothing if it does already. Forbidden if it opens another seat there."""
        async with room.lock:
            held = room.row.token_hashes.get(token_hash)
            if held == seat:
                return
            if held is not None:
                raise Forbidden("that token holds another seat of this game")
            hashes = {**room.row.token_hashes, token_hash: seat}
            with self._fenced(room), writing("seat", game=room.id, seat=seat):
                revision = self.store.update_seats(room.id, list(room.row.seats), list(room.row.names), hashes,
                                                   expect=room.row.revision)
            room.row.token_hashes, room.row.revision = hashes, revision

    async def _new_room(self, game_name: str, seats: list[str], options: Mapping[str, Any], seed: int | None,
                        names: list[str] | None, variant: Mapping[str, Any] | str | None,
                        client: str | None) -> Room:
        """A new game's room, checked and dealt, with no tokens and not yet stored (see `create`)."""
        self.admit(client)
        game = get_game(game_name)
        variant_id = variant_name = None
        if isinstance(variant, str):
            variant_id, (variant_name, variant) = variant, self.saved_variant(variant, game.name)
        elif variant is not None:
            variant_name = CUSTOM_VARIANT
        game.check_players(len(seats))
        options = game.normalise_options(options)
        if variant is not None:
            check_variant_size(game, variant)
            await self.checker.check_variant(game, variant, len(seats), options)
            self.admit(client)  # others may have created games meanwhile
            game = game.with_variant(variant)
        seed = secrets.randbits(63) if seed is None else seed
        match = Match(game, len(seats), seed, options, seats)
        with writing("game", kind=game.name, client=client):
            game_id = secrets.token_hex(5)
            while game_id in self.rooms or self.store.has(game_id):
                game_id = secrets.token_hex(5)
        row = GameRow(
            id=game_id, game=game.name, players=len(seats), options=jsonable(match.options), seats=list(seats),
            names=names or default_names(seats), seed=seed, variant=None if variant is None else dict(variant),
            token_hashes={}, created=time.time(), client=client, variant_id=variant_id, variant_name=variant_name,
        )
        return Room(row, match)

    def _open(self, room: Room) -> None:
        """A stored new game's room joins the hub (counted against its creator's quota) and its AI seats move."""
        self.rooms[room.id] = room
        client = room.row.client
        if client is not None:
            self.created_by.setdefault(client, []).append(room.row.created)
        event(log, "game_created", game=room.id, kind=room.row.game, seats=list(room.row.seats),
              variant=room.row.variant is not None, client=client)
        self.kick(room)

    def saved_variant(self, variant_id: str, game: str) -> tuple[str, dict[str, Any]]:
        """(name, card data changes) of the saved variant `variant_id` of `game`; DataError if there is none."""
        try:
            saved = self.variants.get(variant_id) if self.variants is not None else None
        except KeyError:
            saved = None
        if saved is None:
            raise DataError(f"variant: no saved variant {variant_id!r}")
        if saved["game"] != game:
            raise DataError(f"variant: the variant {saved['name']!r} is for {saved['game']}, not {game}")
        return saved["name"], dict(saved["overrides"])

    async def act(self, room: Room, seat: int, action: str) -> None:
        """Take a human seat's action under the room's lock; IllegalAction (nothing changed) if it may not."""
        async with room.lock:
            await self.commit(room, seat, action)
        self.kick(room)

    async def commit(self, room: Room, seat: int, action: str) -> None:
        """Take one action through the match, stored before it is adopted; tell the watchers. Call with the
        room's lock held. The write runs on the store's own thread, so that the event loop serves other games
        while the database answers (the lock keeps this game's writes in order, and the match, read by others
        meanwhile, changes only once the action is stored)."""
        pending = self._propose(room, seat, action)
        with self._fenced(room), writing("action", game=room.id, seat=seat):
            revision = await asyncio.get_running_loop().run_in_executor(self._writer, pending.store_in, self.store)
        self._adopt(room, pending, revision)

    def _propose(self, room: Room, seat: int, action: str) -> PendingAction:
        """A seat's action worked out, with what storing it takes; IllegalAction if it may not be taken."""
        self._still_here(room)
        match = room.match
        game = match.game
        proposal = match.propose(seat, action, at=time.time())
        move, after = proposal.move, proposal.state
        over = game.is_over(after)
        before = None if over or not game.undoable(match.state, move.seat, move.action) else match.undo_point()
        return PendingAction(proposal, before, (room.id, len(match.moves), move.seat, move.action, move.public, move.at),
                             {"status": "over" if over else None, "scores": game.scores(after) if over else None,
                              "winners": game.winners(after) if over else None, "expect": room.row.revision})

    def _adopt(self, room: Room, pending: PendingAction, revision: int) -> None:
        """The stored action taken in the room's match; its watchers told."""
        room.row.revision = revision
        match = room.match
        move = match.adopt(pending.proposal)
        room.keep_undo(move.seat, pending.before)
        room.changed()
        if match.is_over:
            event(log, "game_over", game=room.id, actions=len(match.moves))
            if self.on_over is not None:
                self.on_over(room)
            self._evict()

    def _still_here(self, room: Room) -> None:
        """NotFound if the room expired (or went back to the archive) since the request found it."""
        if self.rooms.get(room.id) is not room:
            raise NotFound(f"game {room.id!r} is no longer open here")

    async def undo(self, room: Room, seat: int) -> None:
        """Take back `seat`'s last action if it revealed nothing and nobody acted since; else IllegalAction."""
        async with room.lock:
            self._still_here(room)
            if not room.can_undo(seat):
                raise IllegalAction("nothing to undo: only your own last action, if it revealed nothing "
                                    "and nobody has acted since")
            point = room.undo_stack[-1]
            with self._fenced(room), writing("undo", game=room.id, seat=seat):
                room.row.revision = self.store.delete_last_action(room.id, point.moves, expect=room.row.revision)
            room.undo_stack.pop()
            room.match.undo(point)
            room.changed()

    async def hand_to_ai(self, room: Room, seat: int, spec: str) -> None:
        """An AI (`spec`) plays a human seat from now on; the seat's token only watches, until `reclaim`."""
        async with room.lock:
            self._still_here(room)
            if room.match.is_over:
                raise IllegalAction("the game is over")
            seats = list(room.match.seats)
            seats[seat] = spec
            names = list(room.row.names)
            names[seat] = f"{names[seat]} (AI: {spec})"
            hashes = {digest: -(s + 1) if s == seat else s for digest, s in room.row.token_hashes.items()}
            with self._fenced(room), writing("seats", game=room.id, seat=seat):
                room.row.revision = self.store.update_seats(room.id, seats, names, hashes, expect=room.row.revision)
            room.match.seats = seats
            room.row.seats, room.row.names, room.row.token_hashes = seats, names, hashes
            room.ai_seats[seat] = spec
            room.undo_stack.clear()
            for watcher in [w for w in room.watchers if w.seat == seat]:  # that token's live views end
                room.watchers.discard(watcher)
                watcher.push(None)
            room.changed()
        self.kick(room)

    async def reclaim(self, room: Room, token: str) -> int:
        """The person whose seat went to an AI takes it back with the old token; returns the seat."""
        seat = room.lent_seat_for_token(token)
        if seat is None:
            raise Forbidden("this token holds no seat that was handed to an AI")
        async with room.lock:
            self._still_here(room)
            if room.match.is_over:
                raise IllegalAction("the game is over")
            seats, names = list(room.match.seats), list(room.row.names)
            seats[seat] = HUMAN
            names[seat] = names[seat].rsplit(" (AI: ", 1)[0]
            hashes = {digest: -s - 1 if s == -(seat + 1) else s for digest, s in room.row.token_hashes.items()}
            with self._fenced(room), writing("seats", game=room.id, seat=seat):
                room.row.revision = self.store.update_seats(room.id, seats, names, hashes, expect=room.row.revision)
            room.match.seats = seats
            room.row.seats, room.row.names, room.row.token_hashes = seats, names, hashes
            room.ai_seats.pop(seat, None)
            room.changed()
        return seat

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
        room.ai_task = loop.create_task(self._ai_leased(room), name=f"ai-{room.id}")

    async def _ai_leased(self, room: Room) -> None:
        """Move the room's AI seats while this process holds the game's AI lease (renewed meanwhile, given up
        when no AI seat is to move); while another process holds it, try again every RETRY_SECONDS, taking
        over once it expires (its holder died)."""
        while room.ai_to_move() and not self._closing and self.rooms.get(room.id) is room:
            if not self.leases.take(room.id):
                await asyncio.sleep(RETRY_SECONDS)
                continue
            renewing = asyncio.get_running_loop().create_task(self.leases.keep(room.id), name=f"lease-{room.id}")
            try:
                await self._ai_loop(room)
            finally:
                renewing.cancel()
                self.leases.drop(room.id)

    async def _ai_loop(self, room: Room) -> None:
        """Move AI seats one action at a time, with a pause before each so people can follow.

        The AI thinks without holding the room's lock (states are replaced, never changed in place, so
        the position it thinks about stays as it was); people may act meanwhile, as in a simultaneous
        choice. Its action is then taken under the lock if it is still legal, else it thinks again. A move
        the store did not take is tried again after a bounded, growing pause (`faults.backoff`), so the game
        goes on by itself once the store takes writes again.
        """
        failures = 0
        unstored: tuple[int, Any, str] | None = None  # (seat, state, action) of a move the store did not take
        while room.ai_to_move() and not self._closing:
            await asyncio.sleep(backoff(failures) if failures else self.ai_delay)
            seats = room.ai_to_move()
            if not seats:
                break
            seat = min(seats)  # as `Match.next_mover` picks among simultaneous movers
            state, index = room.match.state, decision_index(room.match, seat)  # the same seed whoever chose first
            if unstored is not None and unstored[0] == seat and unstored[1] is state:
                action = unstored[2]  # the same decision again: no need to think it out twice
            else:
                action = await self._choose(room, seat, state, index, played(room.match))
            unstored = None
            async with room.lock:
                if seat not in room.ai_seats:
                    continue  # its person took the seat back meanwhile
                match = room.match
                moved_on = match.state is not state
                try:
                    try:
                        await self.commit(room, seat, action)
                    except IllegalAction as exc:
                        if moved_on:
                            continue  # the game moved on under it: think again
                        event(log, "ai_illegal", logging.ERROR, game=room.id, seat=seat, agent=room.ai_seats[seat],
                              action=action, error=str(exc))  # an agent bug: never freeze the game
                        await self.commit(room, seat, random.choice(match.legal(seat)))
                except NotFound:
                    break  # the game expired meanwhile
                except Stale:
                    continue  # another process wrote first; the room now holds the game as stored
                except (StoreFull, StoreDown):
                    failures += 1  # logged where it failed; try again after the pause
                    unstored = (seat, state, action)
                    continue
                except Exception as exc:  # noqa: BLE001 - a fault of its own: keep serving the rest
                    room.error = f"could not store the AI's action: {exc}"
                    event(log, "ai_stopped", logging.ERROR, game=room.id, seat=seat, error=str(exc))
                    break
                failures = 0

    async def _choose(self, room: Room, seat: int, state: Any, index: int, past: Played | None = None) -> str:
        """The AI seat's choice in `state` (reached by `past`), thought out off the event loop; a failing agent
        plays a random legal action."""
        game = room.match.game
        seed = decision_seed(room.match.seed, seat, index)
        agent = room.ai_seats[seat]
        started = time.monotonic()
        try:
            action = await self.thinker.choose(game, state, seat, agent, seed, past)
        except asyncio.CancelledError:
            raise
        except OutOfTime as exc:
            event(log, "ai_timeout", logging.WARNING, game=room.id, seat=seat, agent=agent,
                  duration=round(time.monotonic() - started, 3), error=str(exc))
        except Exception as exc:  # noqa: BLE001 - an agent bug must not freeze the game
            event(log, "ai_failed", logging.ERROR, game=room.id, seat=seat, agent=agent,
                  duration=round(time.monotonic() - started, 3), error=f"{type(exc).__name__}: {exc}")
        else:
            event(log, "ai_move", logging.DEBUG, game=room.id, seat=seat, agent=agent,
                  duration=round(time.monotonic() - started, 3))
            return action
        return random.Random(seed).choice(game.legal_actions(state, seat))  # never freeze the game


def copies(data: Any) -> float:
    """The card copies in card data: the sum of every `copies` entry (a number, or a table of numbers)."""
    if isinstance(data, list):
        return sum(copies(item) for item in data)
    if not isinstance(data, Mapping):
        return 0
    total: float = 0
    for key, value in data.items():
        if key != "copies":
            total += copies(value)
        elif isinstance(value, Mapping):
            total += sum(v for v in value.values() if _is_number(v))
        elif _is_number(value):
            total += value
    return total


def check_variant_size(game: Game, variant: Mapping[str, Any]) -> None:
    """DataError if the varied card data holds over DECK_FACTOR times the published card copies (checked on
    the merged data, before any card is made)."""
    try:
        published, asked = copies(base_data(game)), copies(game.load_data(variant))
    except TablepressError:
        return  # the full check names the fault
    except RecursionError:
        raise DataError("variant: nested too deeply") from None
    if published and not asked <= DECK_FACTOR * published:
        raise DataError(f"variant: its card copies come to over {DECK_FACTOR * published:g}, the most this server"
                        f" takes ({DECK_FACTOR} times the published {published:g})")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def default_names(seats: list[str]) -> list[str]:
    """`Player 1`, `Bot 2 (greedy)`, ... for seats without names."""
    return [f"Player {i + 1}" if spec == HUMAN else f"Bot {i + 1} ({spec})" for i, spec in enumerate(seats)]

