"""Turn clocks for slow games: a lobby table's `"clock": SECONDS` gives every human seat its game waits on that
many seconds a turn; when they run out, the AI plays that turn for the seat — the game's Casual level (or its
middle one), thinking as AI seats do — and the log says so: "Time ran out for Ana: the AI (Casual) played this
turn." The seat stays the player's; the clock starts again for their next turn.

A seat's wait begins when the game comes to wait on it, and again after each of its own moves if it is still to
move; another seat choosing in a simultaneous step does not restart it. `GET /api/games/{id}/clock` says what
the clock is, its rule in words and how long each waited-on seat has left.

Everything is kept in the store (store/clocks.py), so that any process serves any clocked game:
- Each process works out the waits of a clocked game it holds whenever the game changes there or is found
  changed in the store (`Room.on_change`; a game it learns of late, on its next tick): the first to store a
  revision's waits wins, and the process that changed the game is first by far, so a deadline is the moment of
  the change plus the clock.
- Every TICK_SECONDS each process asks the store for the waits past their deadline. For each, whichever process
  first takes the game's clock lease (an AI lease named `clock:GAME`, web/leases.py) has the AI choose, and
  stores the move only if the game is still where it was when the AI began (the compare-and-set every write to
  a game makes): a turn timed out is played exactly once, and a person moving at that same moment has either
  their move or the AI's refused, with nothing else changed. A restarted process picks overdue clocks up on its
  first tick.

Time is read through `Clocks.now` (time.time unless a test gives another).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, FastAPI, Request

from ..agents.levels import find_level, level_name, levels_of
from ..core.errors import IllegalAction, TablepressError
from .hub import Hub, NotFound
from .logs import event
from .rooms import Room
from .store import Stale
from .store.clocks import ClockTables, GameClock, Overdue, Wait
from .store.sql import one_line
from .thinking import OutOfTime, decision_seed, played

log = logging.getLogger("tablepress.web")
router = APIRouter()

#: Seconds between two looks at the store for waits to work out and clocks that ran out.
TICK_SECONDS = 1.0
#: Overdue waits one look takes on at most.
OVERDUE_BATCH = 50
#: A game this young without a clock is looked up again on each tick (its table gives it one just after it began).
YOUNG_SECONDS = 60.0
#: Seconds between two clear-outs of the clocks of games no longer stored.
FORGET_SECONDS = 600.0


def clock_level(game_name: str) -> str:
    """The seat spec that plays a turn at time-out: the game's Casual level, else its middle level, else greedy."""
    try:
        levels = levels_of(game_name)
    except TablepressError:
        levels = ()
    if any(level.name == "casual" for level in levels):
        return "level:casual"
    return f"level:{levels[len(levels) // 2].name}" if levels else "greedy"


def level_title(game_name: str, spec: str) -> str:
    """A clock's AI as players read it: `Casual` for `level:casual`, else the spec."""
    name = level_name(spec)
    if name is None:
        return spec
    try:
        return find_level(game_name, name).title
    except TablepressError:
        return name


def duration_words(seconds: int) -> str:
    """`90 seconds`, `10 minutes`, `1 hour 30 minutes`, `3 days`: a clock's length in words."""
    units = (("day", 86_400), ("hour", 3_600), ("minute", 60), ("second", 1))
    if seconds < 120 and seconds % 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    parts = []
    left = seconds
    for name, size in units:
        count, left = divmod(left, size)
        if count:
            parts.append(f"{count} {name}{'s' if count != 1 else ''}")
        if len(parts) == 2:
            break
    return " ".join(parts) or "0 seconds"


def clock_rule(seconds: int) -> str:
    """What a clock means, in one sentence: `10 minutes a turn; when time runs out the AI plays that turn`."""
    return f"{duration_words(seconds)} a turn; when time runs out the AI plays that turn"


def waiting_seats(room: Room) -> list[int]:
    """The human seats the game waits on now."""
    if room.match.is_over:
        return []
    return [seat for seat in room.match.to_move() if seat not in room.ai_seats]


def new_waits(room: Room, old: dict[int, Wait], now: float, seconds: int) -> dict[int, Wait]:
    """The waits of `room` as it is now, from those stored before (`old`): a seat waited on since before keeps its
    wait unless it moved since it began; any other seat waited on begins one now."""
    moves = room.match.moves
    count = len(moves)
    waits = {}
    for seat in waiting_seats(room):
        kept = old.get(seat)
        if kept is not None and kept.since <= count and all(move.seat != seat for move in moves[kept.since:]):
            waits[seat] = kept
        else:
            waits[seat] = Wait(count, now + seconds)
    return waits


def person(room: Room, seat: int) -> str:
    """A seat's player's name (without the "(AI: …)" a seat handed to an AI carries)."""
    return room.row.names[seat].rsplit(" (AI: ", 1)[0]


class Clocks:
    """One process's side of the turn clocks of a hub's games."""

    def __init__(self, hub: Hub, now: Callable[[], float] = time.time, tick_seconds: float = TICK_SECONDS):
        self.hub = hub
        self.now = now
        self.tick_seconds = tick_seconds
        self.tables = ClockTables(hub.store)
        #: Game id → its clock, or None for a game known to have none.
        self.known: dict[str, GameClock | None] = {}
        #: Game id → the revision of the game whose waits this process last worked out (or found stored).
        self.armed: dict[str, int] = {}
        #: Game id → the task playing a timed-out turn in it.
        self.timing_out: dict[str, asyncio.Task] = {}
        #: Game id → (revision, {move index: [(seat, action), ...]}) of its time-out attempts as last read.
        self._timeouts: dict[str, tuple[int, dict[int, list[tuple[int, str]]]]] = {}
        self._loop_task: asyncio.Task | None = None
        self._forgot = 0.0

    # ----- which games have a clock --------------------------------------------------------------
    def add(self, room: Room, seconds: int) -> None:
        """Give a game (begun from a table with a clock) its clock, and work out its first waits."""
        clock = GameClock(seconds, clock_level(room.match.game.name))
        self.tables.add(room.id, clock.seconds, clock.level)
        self.known[room.id] = clock
        self.attach(room, clock)
        self.rearm(room, clock)
        event(log, "clock_set", game=room.id, seconds=seconds, ai=clock.level)

    def clock_of(self, room: Room) -> GameClock | None:
        """The game's clock (looked up in the store the first time), or None."""
        if room.id not in self.known or (self.known[room.id] is None and self._young(room)):
            self.known[room.id] = self.tables.clocks_of([room.id]).get(room.id)
        clock = self.known[room.id]
        if clock is not None:
            self.attach(room, clock)
        return clock

    def _young(self, room: Room) -> bool:
        return time.time() - room.row.created < YOUNG_SECONDS

    def attach(self, room: Room, clock: GameClock) -> None:
        """Have the room work out its waits whenever it changes, and its log say which moves the AI made at
        time-out (pushing fresh views if it made some already)."""
        if room.notes is not None:
            return
        game = room.match.game.name
        room.notes = lambda: self.notes(room, level_title(game, clock.level))
        room.on_change = lambda: self._changed(room, clock)
        if self._attempts(room):
            room.changed()

    def _changed(self, room: Room, clock: GameClock) -> None:
        """The room changed: its waits are worked out now (a failure is logged; the next tick tries again)."""
        try:
            self.rearm(room, clock)
        except Exception as exc:  # noqa: BLE001 - the change itself is stored already
            event(log, "clock_rearm_failed", logging.WARNING, game=room.id, error=one_line(exc))

    def _learn(self) -> None:
        """Look up the clocks of the games held here that are not known yet (and of young ones known to have none)."""
        wanted = [gid for gid, room in self.hub.rooms.items()
                  if gid not in self.known or (self.known[gid] is None and self._young(room))]
        if not wanted:
            return
        found = self.tables.clocks_of(wanted)
        for gid in wanted:
            self.known[gid] = found.get(gid)

    # ----- the log ---------------------------------------------------------------------------------
    def _attempts(self, room: Room) -> dict[int, list[tuple[int, str]]]:
        """The game's time-out attempts by move index (read again whenever the game's revision moved on)."""
        cached = self._timeouts.get(room.id)
        if cached is not None and cached[0] == room.row.revision:
            return cached[1]
        found: dict[int, list[tuple[int, str]]] = {}
        for index, seat, action in self.tables.timeouts(room.id):
            found.setdefault(index, []).append((seat, action))
        self._timeouts[room.id] = (room.row.revision, found)
        return found

    def notes(self, room: Room, ai: str) -> dict[int, str]:
        """{move number: "Time ran out for NAME: the AI (LEVEL) played this turn."} for the moves the AI made at
        time-out (an attempt counts when the stored move is the one it made); {} if the store does not answer."""
        try:
            attempts = self._attempts(room)
        except Exception as exc:  # noqa: BLE001 - a view must still be given
            event(log, "clock_notes_failed", logging.WARNING, game=room.id, error=one_line(exc))
            return {}
        moves = room.match.moves
        return {index + 1: f"Time ran out for {person(room, moves[index].seat)}: the AI ({ai}) played this turn."
                for index, tried in attempts.items()
                if index < len(moves) and (moves[index].seat, moves[index].action) in tried}

    # ----- waits ---------------------------------------------------------------------------------
    def rearm(self, room: Room, clock: GameClock) -> dict[int, Wait] | None:
        """Work out and store the room's waits if the stored ones are older than the game as held here; the
        stored waits of the room's revision (None if the store holds a newer revision than this process does)."""
        revision = room.row.revision
        stored, waits = self.tables.waits(room.id)
        self.armed[room.id] = revision
        if stored > revision:
            return None
        if stored == revision:
            return waits
        fresh = new_waits(room, waits, self.now(), clock.seconds)
        if self.tables.set_waits(room.id, revision, fresh):
            return fresh
        stored, waits = self.tables.waits(room.id)
        return waits if stored == revision else None

    def view(self, room: Room) -> dict[str, Any]:
        """`GET /api/games/{id}/clock`: the clock's seconds a turn, its AI, its rule in words and, for each seat
        the game waits on, its deadline and the seconds it has left (`seconds` null: no clock)."""
        clock = self.clock_of(room)
        if clock is None:
            return {"seconds": None, "rule": None, "waiting": []}
        waits = self.rearm(room, clock)
        if waits is None:
            waits = self.tables.waits(room.id)[1]
        now = self.now()
        seats = waiting_seats(room)
        game = room.match.game.name
        return {"seconds": clock.seconds, "level": clock.level, "ai": level_title(game, clock.level),
                "rule": clock_rule(clock.seconds), "now": now,
                "waiting": [{"seat": seat, "name": person(room, seat), "deadline": wait.deadline,
                             "left": max(0.0, wait.deadline - now)}
                            for seat, wait in sorted(waits.items()) if seat in seats]}

    # ----- time-outs -----------------------------------------------------------------------------
    async def tick(self) -> list[asyncio.Task]:
        """One look: learn new clocked games, work out the waits of games that moved on, and start playing the
        turns whose time ran out; the tasks playing them."""
        self._learn()
        for gid, room in list(self.hub.rooms.items()):
            clock = self.known.get(gid)
            if clock is not None:
                self.attach(room, clock)
                if self.armed.get(gid) != room.row.revision:
                    self.rearm(room, clock)
        started = [task for due in self.tables.overdue(self.now(), OVERDUE_BATCH) if (task := self._due(due))]
        if time.monotonic() - self._forgot > FORGET_SECONDS:
            self._forgot = time.monotonic()
            self._forget()
        return started

    def _due(self, due: Overdue) -> asyncio.Task | None:
        """Start playing an overdue wait's turn, if the game is still where its waits were worked out."""
        if due.game_id in self.timing_out:
            return None
        try:
            room = self.hub.room(due.game_id)
        except NotFound:
            return None
        clock = self.clock_of(room)
        if clock is None:
            return None
        if room.row.revision != due.revision or due.seat not in waiting_seats(room):
            self.rearm(room, clock)  # the game moved on: its waits are worked out anew, looked at next tick
            return None
        task = asyncio.get_running_loop().create_task(self._time_out(room, clock, due), name=f"clock-{room.id}")
        self.timing_out[room.id] = task
        task.add_done_callback(lambda _done, gid=room.id: self.timing_out.pop(gid, None))
        return task

    async def _time_out(self, room: Room, clock: GameClock, due: Overdue) -> None:
        """Play the timed-out turn while holding the game's clock lease (another process holding it plays it)."""
        leases = self.hub.leases
        key = f"clock:{room.id}"
        if not leases.take(key):
            return
        renewing = asyncio.get_running_loop().create_task(leases.keep(key), name=f"clock-lease-{room.id}")
        try:
            await self._play(room, clock, due)
        except asyncio.CancelledError:
            raise
        except Stale:
            event(log, "clock_overtaken", game=room.id, seat=due.seat)
        except Exception as exc:  # noqa: BLE001 - tried again on the next tick
            event(log, "clock_failed", logging.ERROR, game=room.id, seat=due.seat, error=one_line(exc))
        finally:
            renewing.cancel()
            leases.drop(key)

    async def _play(self, room: Room, clock: GameClock, due: Overdue) -> None:
        """The AI chooses the seat's action, stored only if the game did not move on meanwhile."""
        match, seat = room.match, due.seat
        state, index, revision = match.state, len(match.moves), room.row.revision
        if revision != due.revision or seat not in waiting_seats(room):
            return
        seed = decision_seed(match.seed, seat, index)
        try:
            action = await self.hub.thinker.choose(match.game, state, seat, clock.level, seed, played(match))
        except asyncio.CancelledError:
            raise
        except (Exception, OutOfTime) as exc:  # noqa: BLE001 - the turn is played all the same
            event(log, "clock_ai_failed", logging.WARNING, game=room.id, seat=seat, error=one_line(exc))
            action = random.Random(seed).choice(match.game.legal_actions(state, seat))
        async with room.lock:
            if self.hub.rooms.get(room.id) is not room or room.match.state is not state \
                    or room.row.revision != revision:
                event(log, "clock_overtaken", game=room.id, seat=seat)  # the person (or another process) moved
                return
            try:
                action = room.match.check(seat, action)
            except IllegalAction:
                action = random.Random(seed).choice(room.match.legal(seat))
            attempt = secrets.token_hex(6)
            self.tables.add_timeout(room.id, index, attempt, seat, action, self.now())
            try:
                await self.hub.commit(room, seat, action)
            except BaseException:
                with contextlib.suppress(Exception):
                    self.tables.drop_timeout(room.id, attempt)
                raise
            room.undo_stack.clear()  # the AI's move is not the person's to take back
            event(log, "clock_timeout", game=room.id, seat=seat, player=person(room, seat), ai=clock.level,
                  action=action, move=index + 1)
        self.hub.kick(room)

    async def settle(self) -> None:
        """Wait for the turns being played at time-out to be stored (or refused)."""
        while self.timing_out:
            await asyncio.gather(*list(self.timing_out.values()), return_exceptions=True)

    async def run_once(self) -> None:
        """One look, and the turns it found timed out played."""
        await self.tick()
        await self.settle()

    def _forget(self) -> None:
        """Clear the clocks of games no longer stored, and what this process remembers of games it no longer holds."""
        try:
            self.tables.forget_gone()
        except Exception as exc:  # noqa: BLE001 - tried again later
            event(log, "clock_forget_failed", logging.WARNING, error=one_line(exc))
        for memo in (self.known, self.armed, self._timeouts):
            for gid in [gid for gid in memo if gid not in self.hub.rooms]:
                del memo[gid]

    # ----- running -------------------------------------------------------------------------------
    def start(self) -> None:
        """Look every TICK_SECONDS, the first time at once (call once the event loop runs)."""
        if self._loop_task is None:
            self._loop_task = asyncio.get_running_loop().create_task(self._looking(), name="clocks")

    async def _looking(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - e.g. the store restarting: look again next tick
                event(log, "clock_tick_failed", logging.WARNING, error=one_line(exc))
            await asyncio.sleep(self.tick_seconds)

    async def close(self) -> None:
        """Stop looking and playing."""
        tasks = [task for task in (self._loop_task, *self.timing_out.values()) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._loop_task = None


def clocks_of(app: FastAPI) -> Clocks | None:
    """The app's turn clocks (`app.state.clocks`; None for an app without them)."""
    return getattr(app.state, "clocks", None)


@router.get("/api/games/{game_id}/clock")
async def game_clock(game_id: str, request: Request) -> dict[str, Any]:
    """The game's turn clock: {"seconds", "level", "ai", "rule", "now", "waiting": [{"seat", "name", "deadline",
    "left"}]}, or {"seconds": null, "rule": null, "waiting": []} for a game without one; 404 for no such game."""
    room = request.app.state.hub.room(game_id)
    clocks = clocks_of(request.app)
    if clocks is None:
        return {"seconds": None, "rule": None, "waiting": []}
    return clocks.view(room)
