"""AI leases: of all the processes serving a game, one moves its AI seats at a time.

Before a process starts moving a game's AI seats it takes the game's lease, a row in the store
(`ai_leases`: holder and expiry); it renews the lease every RENEW_SECONDS while it thinks and moves, and
gives it up when no AI seat is to move. A process that finds the lease held waits and tries again every
RETRY_SECONDS; if the holder dies (even by SIGKILL) its lease expires after LEASE_SECONDS and another
process takes over. A holder that stalls past its expiry and wakes up late cannot move twice: its move is
written conditionally on the revision it read (`Store.append_action(expect=...)`), and the move made
meanwhile has changed it. Expiries are read on each process's own clock: the machines' clocks must agree
to well under LEASE_SECONDS (NTP does).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time

from .logs import event
from .store import Store

log = logging.getLogger("tablepress.web")

#: How long a lease lasts unless renewed, how often its holder renews it, and how often others try it (seconds).
LEASE_SECONDS = 5.0
RENEW_SECONDS = 1.5
RETRY_SECONDS = 1.0


def holder_name() -> str:
    """This process's name as a lease holder: host, process id and a random part (unique across restarts)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Leases:
    """This process's side of the AI leases over one store."""

    def __init__(self, store: Store, seconds: float = LEASE_SECONDS):
        self.store = store
        self.seconds = seconds
        self.holder = holder_name()

    def take(self, game_id: str) -> bool:
        """Take (or renew) the lease on a game's AI seats; whether this process holds it now. A store that
        does not answer counts as not holding it."""
        now = time.time()
        try:
            return self.store.take_lease(game_id, self.holder, now + self.seconds, now)
        except Exception as exc:  # noqa: BLE001 - e.g. the database restarting: try again later
            event(log, "lease_failed", logging.WARNING, game=game_id, error=" ".join(str(exc).split()))
            return False

    def drop(self, game_id: str) -> None:
        """Give the lease up (another process may take it at once)."""
        try:
            self.store.drop_lease(game_id, self.holder)
        except Exception as exc:  # noqa: BLE001 - it expires by itself
            event(log, "lease_failed", logging.WARNING, game=game_id, error=" ".join(str(exc).split()))

    async def keep(self, game_id: str) -> None:
        """Renew the lease every RENEW_SECONDS until cancelled (a renewal that fails is logged; the conditional
        write still refuses a duplicate move)."""
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            if not self.take(game_id):
                event(log, "lease_lost", logging.WARNING, game=game_id)
