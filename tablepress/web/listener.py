"""Hearing what other processes wrote: one task per process LISTENs on PostgreSQL for changed games.

Every write to a game is announced on `store.postgres.CHANNEL` with the game's id and new revision
(`GAME_ID gone` when it is deleted). For each announcement the hub brings the room it holds to the stored
game and pushes the new view to its own WebSocket watchers, so a move taken through one process reaches a
watcher on another within a fraction of a second. The listening connection is made again after a failure
(with the same doubling pause as a failed AI write); each time it starts listening the hub compares every
room it holds with the stored revisions, catching up on whatever was announced while nobody listened.

A SQLite store has no announcements: a process over it learns of another's write only when its own write
to that game is refused as stale. That is why `serve --workers N` needs PostgreSQL for N > 1.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from .faults import backoff
from .logs import event
from .store.postgres import CHANNEL, CONNECT_SECONDS, read_change
from .store.sql import one_line

log = logging.getLogger("tablepress.web")


class Follower(Protocol):
    """What the listener tells (the hub)."""

    def changed_elsewhere(self, game_id: str, revision: int | None) -> None:
        """A game is now at `revision` in the store (None: deleted)."""
        ...

    def resync(self) -> None:
        """Compare every room held with the store (announcements may have been missed)."""
        ...


async def listen(url: str, follower: Follower) -> None:
    """Pass every announcement on CHANNEL of the PostgreSQL database at `url` to `follower`, for ever."""
    import psycopg

    failures = 0
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True, connect_timeout=CONNECT_SECONDS,
                                                             application_name="tablepress-listener") as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                follower.resync()
                if failures:
                    event(log, "listening_again", failures=failures)
                failures = 0
                async for note in conn.notifies():
                    change = read_change(note.payload)
                    if change is not None:
                        follower.changed_elsewhere(*change)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a dropped connection or a restarted database: listen again
            failures += 1
            event(log, "listen_failed", logging.WARNING, failures=failures, error=one_line(exc))
            await asyncio.sleep(backoff(failures))
