"""Fair shares of bounded work: at most so many held at once in all and of one client (`Slots`), and at most so
many started by one client in a window of time (`Rate`). Taking is synchronous under a lock — nothing waits
between the check and the take — so a burst is admitted exactly up to the bound, from any thread.

A client is its `clients.client_address`; None (no address known) counts against the total only.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from .hub import QuotaExceeded


class Slots:
    """At most `total` held at once, and at most `per_client` of them by one client."""

    def __init__(self, total: int, per_client: int, what: str):
        self.total, self.per_client, self.what = total, per_client, what
        self.held: dict[str | None, int] = {}
        self._lock = threading.Lock()

    def count(self, client: str | None = None) -> int:
        """How many are held (by `client`, when given)."""
        with self._lock:
            return self.held.get(client, 0) if client is not None else sum(self.held.values())

    def take(self, client: str | None) -> None:
        """Hold one for `client`; QuotaExceeded (nothing held) if all are held or the client holds its share."""
        with self._lock:
            if sum(self.held.values()) >= self.total:
                raise QuotaExceeded(f"{self.total} {self.what} are open, the most this server keeps; try again later")
            mine = self.held.get(client, 0)
            if client is not None and mine >= self.per_client:
                raise QuotaExceeded(f"you have {mine} {self.what} open, the most one client may; close one first")
            self.held[client] = mine + 1

    def give_back(self, client: str | None) -> None:
        """Release one of `client`'s."""
        with self._lock:
            left = self.held.get(client, 0) - 1
            if left > 0:
                self.held[client] = left
            else:
                self.held.pop(client, None)

    @contextlib.contextmanager
    def holding(self, client: str | None) -> Iterator[None]:
        """Hold one for `client` during the block (see `take`)."""
        self.take(client)
        try:
            yield
        finally:
            self.give_back(client)


class Rate:
    """At most `count` starts by one client in any `seconds`."""

    def __init__(self, count: int, seconds: float, what: str, clock: Callable[[], float] = time.monotonic):
        self.count, self.seconds, self.what, self.clock = count, seconds, what, clock
        self.starts: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def start(self, client: str | None) -> None:
        """Count one start for `client`; QuotaExceeded (not counted) past its rate."""
        if client is None:
            return
        with self._lock:
            now = self.clock()
            starts = self.starts.setdefault(client, deque())
            while starts and starts[0] <= now - self.seconds:
                starts.popleft()
            if len(starts) >= self.count:
                wait = max(1, round(starts[0] + self.seconds - now))
                raise QuotaExceeded(f"you asked for {self.count} {self.what} in {self.seconds:g} s, the most one client"
                                    f" may; try again in {wait} s")
            starts.append(now)
            if len(self.starts) > 10_000:  # forget the clients idle longest
                for idle in [c for c, s in self.starts.items() if not s or s[-1] <= now - self.seconds][:5_000]:
                    del self.starts[idle]


#: Variant checks (`POST /api/variants`, `?dry_run=1` or not) running or waiting at once at most, of them one
#: client's, and the checks one client may ask for a minute.
MAX_CHECKS = 8
CLIENT_CHECKS = 2
CHECKS_A_MINUTE = 60


class Gate:
    """Slots and a rate together: a client enters if it has a slot free and is within its rate."""

    def __init__(self, slots: Slots, rate: Rate):
        self.slots, self.rate = slots, rate

    @contextlib.contextmanager
    def entering(self, client: str | None) -> Iterator[None]:
        """Hold a slot for `client` during the block, counting one start; QuotaExceeded (nothing held) if not."""
        self.slots.take(client)
        try:
            self.rate.start(client)
        except QuotaExceeded:
            self.slots.give_back(client)
            raise
        try:
            yield
        finally:
            self.slots.give_back(client)


def variant_checks(state: Any) -> Gate:
    """The app's gate for variant checks (made on first use and kept on `state`, the app's state)."""
    gate = getattr(state, "variant_checks", None)
    if gate is None:
        gate = state.variant_checks = Gate(Slots(MAX_CHECKS, CLIENT_CHECKS, "variant checks"),
                                           Rate(CHECKS_A_MINUTE, 60, "variant checks"))
    return gate
