"""Where AI seats think: search agents in a pool of worker processes (so that long searches use every
core and never hold up the web server), instant ones in a thread.

Each decision makes a fresh agent seeded from the game's seed, the seat and the action number, so a
server restarted mid-game goes on choosing as it would have.

Every decision is bounded whatever its spec says, and the caps are applied when it is made (so a spec
stored before a restart gets them too): a time budget is cut to THINK_SECONDS, an iteration budget to
MAX_ITERATIONS, and a decision still thinking THINK_SECONDS + GRACE after it started is stopped in its
worker (OutOfTime). A worker that does not answer even GRACE later is killed. A job holds a worker
from start to end (at most one job per worker), so time spent waiting for a free worker never counts.
Checking a variant (one seeded random game) runs the same way, within VARIANT_SECONDS.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache
from typing import Any, NamedTuple

from ..agents.base import Seconds, make_agent, parse_spec
from ..core.errors import DataError, TablepressError
from ..core.game import Game
from ..core.match import Match, SeatInfo
from ..core.registry import get_game
from ..core.rng import derive_seed
from ..core.variants import apply_variant
from ..core.worker_signals import watch_parent, workers_start_deaf_to_ctrl_c
from .logs import setup_worker

#: Agents quick enough to run on the server's own thread pool.
INSTANT = {"random"}
#: The longest time budget an AI decision gets on the server (seconds).
THINK_SECONDS = 10.0
#: The most iterations (or determinizations) an AI decision gets on the server.
MAX_ITERATIONS = 5000
#: How long past its limit a job may run before it is stopped (and, again as long later, killed).
GRACE = 2.0
#: The longest a variant's check (setting up and playing one random game) may take (seconds).
VARIANT_SECONDS = 5.0
#: Variant checks run in a pool of their own (so they never hold up an AI decision): its workers, and how
#: much lower their CPU priority is than the server's.
CHECK_WORKERS = 1
CHECK_NICENESS = 5


class OutOfTime(BaseException):
    """A job ran past its time limit and was stopped (a BaseException, so no `except Exception` in an agent swallows it)."""


def capped(spec: str, seconds: float = THINK_SECONDS, iterations: int = MAX_ITERATIONS) -> str:
    """`spec` with its budget cut to at most `seconds` (a time budget) or `iterations` (a count).

    A stored spec whose budget its agent cannot take (kept by an older server) loses the budget.
    """
    try:
        name, budget = parse_spec(spec, max_count=10**18, max_seconds=float("inf"))
    except TablepressError:
        name, budget = parse_spec(spec.partition(":")[0])
    if budget is None:
        return name
    if isinstance(budget, str):  # a level (its agent is capped where it is declared) or a file
        return f"{name}:{budget}"
    if isinstance(budget, Seconds):
        return f"{name}:{Seconds(min(float(budget), seconds))}"
    return f"{name}:{min(budget, iterations)}"


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise OutOfTime in the block after `seconds` (SIGALRM; only on the main thread, a no-op elsewhere)."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(_signum: int, _frame: Any) -> None:
        raise OutOfTime(f"stopped after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@lru_cache(maxsize=64)
def _game(name: str, variant: str | None) -> Game:
    game = get_game(name)
    return game.with_variant(json.loads(variant)) if variant is not None else game


class Played(NamedTuple):
    """How a match reached its state — players, seed, options and every (seat, action) — for an agent that
    reads the moves it has seen (`SeatInfo.history`)."""

    players: int
    seed: int
    options: dict[str, Any]
    moves: list[tuple[int, str]]


def played(match: Match) -> Played:
    """What `decide` needs to rebuild `match`'s moves in a worker."""
    return Played(match.players, match.seed, dict(match.options), match.actions)


def decide(game_name: str, variant: str | None, state: Any, seat: int, spec: str, seed: int,
           limit: float | None = None, past: Played | None = None) -> str:
    """One AI decision: the agent `spec` seeded with `seed` chooses for `seat` within `limit` seconds
    (runs in a worker process; OutOfTime past the limit). With `past` the seat also sees the moves that
    led to `state`, as it would in a simulation, and decides a simultaneous choice from the position before
    anyone chose in it (`Match.seat_info`)."""
    game = _game(game_name, variant)
    with time_limit(limit):
        match = _rebuilt(game, state, past)
        info = match.seat_info(seat) if match is not None else SeatInfo(game, state, seat)
        return make_agent(spec, seed).choose(info)


def _rebuilt(game: Game, state: Any, past: Played | None) -> Match | None:
    """The match `past` describes, if its moves lead to `state`; else None (the seat then sees no moves)."""
    if past is None:
        return None
    match = Match(game, past.players, past.seed, past.options)
    try:
        for mover, action in past.moves:
            match.act(mover, action)
    except TablepressError:
        return None
    return match if match.state == state else None


def check_variant(game_name: str, variant: Mapping[str, Any], players: int, options: Mapping[str, Any],
                  limit: float | None = None) -> None:
    """DataError unless the variant sets up and plays one random game (see `apply_variant`) within `limit`
    seconds (runs in a worker process; OutOfTime past the limit, also where no alarm stopped it)."""
    started = time.perf_counter()
    with time_limit(limit):
        try:
            apply_variant(variant, get_game(game_name), players, options, "variant")
        except MemoryError:
            raise DataError("variant: it needs more memory than this server gives a game") from None
    used = time.perf_counter() - started
    if limit is not None and used > limit:
        raise OutOfTime(f"finished after {used:.2g} s, over {limit:g} s")


def start_worker(parent: int, niceness: int = 0) -> None:
    """A worker's start: its log is JSON lines (`logs.setup_worker`), it runs `niceness` lower in CPU priority,
    and it exits when the server is gone."""
    setup_worker()
    watch_parent(parent)
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)


def decision_seed(match_seed: int, seat: int, index: int) -> int:
    """The seed of the agent deciding action number `index` for `seat`."""
    return derive_seed(match_seed, "web-agent", seat, index)


def decision_index(match: Match, seat: int) -> int:
    """The action number `seat` decides as: the number of moves so far, or, in a simultaneous choice it has not
    made yet, the number when that choice began. So a seat's choice is the same whether the others choosing
    with it chose before or after it (it decides from the same information, `Match.seat_info`, with the same seed)."""
    step = match.simultaneous
    if step is not None and seat in step.movers and seat not in step.chosen:
        return step.moves
    return len(match.moves)


class Thinker:
    """Runs AI decisions and variant checks: in worker processes, one job per worker, each bounded in time."""

    def __init__(self, workers: int | None = None, seconds: float = THINK_SECONDS, grace: float = GRACE,
                 niceness: int = 0):
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self.niceness = niceness
        self.seconds = seconds
        self.grace = grace
        self._pool: ProcessPoolExecutor | None = None
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _processes(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=start_worker, initargs=(os.getpid(), self.niceness))
        return self._pool

    def _free_worker(self) -> asyncio.Semaphore:
        """One slot per worker (made anew for each event loop the thinker serves)."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._loop is not loop:
            self._slots, self._loop = asyncio.Semaphore(self.workers), loop
        return self._slots

    async def choose(self, game: Game, state: Any, seat: int, spec: str, seed: int, past: Played | None = None) -> str:
        """The action the AI seat `spec` (its budget capped) takes now, having seen the moves `past`;
        OutOfTime if it thinks too long."""
        variant = None if game.variant is None else json.dumps(game.variant, sort_keys=True)
        spec = capped(spec, self.seconds)
        name, _budget = parse_spec(spec)
        if name in INSTANT:
            return await asyncio.to_thread(decide, game.name, variant, state, seat, spec, seed)
        return await self.run(decide, game.name, variant, state, seat, spec, seed, self.seconds + self.grace,
                              past, limit=self.seconds + self.grace)

    async def check_variant(self, game: Game, variant: Mapping[str, Any], players: int,
                            options: Mapping[str, Any]) -> None:
        """DataError naming the fault unless the variant sets up and plays within VARIANT_SECONDS."""
        limit = min(VARIANT_SECONDS, self.seconds)
        try:
            await self.run(check_variant, game.name, dict(variant), players, dict(options), limit,
                           limit=limit + self.grace)
        except OutOfTime:
            raise DataError(f"variant: setting it up and playing one random game takes over {limit:g} s"
                            " on this server") from None
        except BrokenProcessPool:
            raise DataError("variant: checking it needs more memory than this server gives a game") from None

    async def run(self, job: Callable[..., Any], *args: Any, limit: float) -> Any:
        """`job(*args)` in a worker of its own; OutOfTime if it has not answered `limit` + grace seconds
        after it started (its pool is then killed). A pool broken under it (another job's worker
        killed) is replaced and the job run once more."""
        async with self._free_worker():
            try:
                return await self._once(job, args, limit)
            except BrokenProcessPool:
                return await self._once(job, args, limit)

    async def _once(self, job: Callable[..., Any], args: tuple[Any, ...], limit: float) -> Any:
        pool = self._processes()
        try:
            with workers_start_deaf_to_ctrl_c():  # submitting may start a worker
                future = pool.submit(job, *args)
            return await asyncio.wait_for(asyncio.wrap_future(future), limit + self.grace)
        except asyncio.TimeoutError:
            self._kill(pool)
            raise OutOfTime(f"no answer after {limit + self.grace:g} s") from None
        except BrokenProcessPool:
            self._drop(pool)
            raise

    def _kill(self, pool: ProcessPoolExecutor) -> None:
        """Kill the pool's workers (one ignores its time limit) and start afresh on the next job."""
        for process in list(getattr(pool, "_processes", {}).values()):
            process.kill()
        self._drop(pool)

    def _drop(self, pool: ProcessPoolExecutor) -> None:
        pool.shutdown(wait=False, cancel_futures=True)
        if self._pool is pool:
            self._pool = None

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._drop(self._pool)
