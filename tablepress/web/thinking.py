"""Where AI seats think: search agents in a pool of worker processes (so that long searches use every
core and never hold up the web server), instant ones in a thread.

Each decision makes a fresh agent seeded from the game's seed, the seat and the action number, so a
server restarted mid-game goes on choosing as it would have.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache
from typing import Any

from ..agents.base import make_agent, parse_spec
from ..core.game import Game
from ..core.match import SeatInfo
from ..core.registry import get_game
from ..core.rng import derive_seed

log = logging.getLogger("tablepress.web")

#: Agents quick enough to run on the server's own thread pool.
INSTANT = {"random"}


@lru_cache(maxsize=64)
def _game(name: str, variant: str | None) -> Game:
    game = get_game(name)
    return game.with_variant(json.loads(variant)) if variant is not None else game


def decide(game_name: str, variant: str | None, state: Any, seat: int, spec: str, seed: int) -> str:
    """One AI decision: the agent `spec` seeded with `seed` chooses for `seat` (runs in a worker process)."""
    game = _game(game_name, variant)
    return make_agent(spec, seed).choose(SeatInfo(game, state, seat))


def _watch_parent(parent: int) -> None:
    """In a worker: exit as soon as the server that started it is gone (even killed with SIGKILL)."""

    def watch() -> None:
        """Poll for the parent's death (the worker is then adopted by another process)."""
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def decision_seed(match_seed: int, seat: int, index: int) -> int:
    """The seed of the agent deciding action number `index` for `seat`."""
    return derive_seed(match_seed, "web-agent", seat, index)


class Thinker:
    """Runs AI decisions: search agents in worker processes, instant agents in threads."""

    def __init__(self, workers: int | None = None):
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self._pool: Executor | None = None

    def _processes(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_watch_parent, initargs=(os.getpid(),))
        return self._pool

    async def choose(self, game: Game, state: Any, seat: int, spec: str, seed: int) -> str:
        """The action the AI seat `spec` takes now."""
        variant = None if game.variant is None else json.dumps(game.variant, sort_keys=True)
        name, _budget = parse_spec(spec)
        if name in INSTANT:
            return await asyncio.to_thread(decide, game.name, variant, state, seat, spec, seed)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._processes(), decide, game.name, variant, state, seat, spec, seed)
        except BrokenProcessPool:
            log.error("the AI worker pool broke; thinking in a thread instead")
            self._pool = None
            return await asyncio.to_thread(decide, game.name, variant, state, seat, spec, seed)

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
