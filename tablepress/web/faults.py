"""Store faults: a write the store could not make (a full disk, a database that does not answer) becomes one
clear error for the client — 507 when the disk or database is out of space, 503 otherwise — and one log
line, with nothing changed (every write is made before anything in memory adopts it).

An AI seat whose write failed tries again after `backoff` seconds, so every game goes on by itself once
the store takes writes again.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import sqlite3
from collections.abc import Iterator
from typing import Any

from ..core.errors import TablepressError
from .logs import event

log = logging.getLogger("tablepress.web")

#: The first and the longest pause (seconds) before an AI seat tries again to store its move.
FIRST_RETRY = 0.5
LONGEST_RETRY = 30.0
#: What a database says when it is out of space (SQLite, PostgreSQL's SQLSTATE 53100 class text).
OUT_OF_SPACE = ("database or disk is full", "no space left on device", "disk full", "could not extend file")


class StoreFull(TablepressError):
    """The store is out of space: nothing was stored (HTTP 507)."""


class StoreDown(TablepressError):
    """The store did not take a write (locked, gone, read-only): nothing was stored (HTTP 503)."""


def out_of_space(exc: BaseException) -> bool:
    """Whether `exc` says the disk or the database is full."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    if getattr(exc, "sqlstate", None) == "53100":  # PostgreSQL: disk_full
        return True
    text = str(exc).lower()
    return any(words in text for words in OUT_OF_SPACE)


def store_error(exc: BaseException) -> bool:
    """Whether `exc` is the store failing (a database or I/O error), not a fault in the server's own code."""
    if isinstance(exc, (sqlite3.Error, OSError)):
        return True
    return any(kind.__module__.split(".")[0] == "psycopg" for kind in type(exc).__mro__)


@contextlib.contextmanager
def writing(what: str, **fields: Any) -> Iterator[None]:
    """Turn a store failure inside the block into StoreFull or StoreDown, logged once as `store_failed`
    with `what` was being written and `fields`; anything else passes through unchanged."""
    try:
        yield
    except TablepressError:
        raise
    except Exception as exc:
        if not store_error(exc):
            raise
        full = out_of_space(exc)
        event(log, "store_failed", logging.ERROR, what=what, full=full, error=f"{type(exc).__name__}: {exc}",
              **fields)
        if full:
            raise StoreFull("the server's disk is full, so nothing was stored; try again later") from None
        raise StoreDown("the server could not store this just now, so nothing changed; try again shortly") from None


def backoff(failures: int) -> float:
    """Seconds to wait before trying again after `failures` failed writes in a row (doubling, bounded)."""
    return min(LONGEST_RETRY, FIRST_RETRY * 2 ** max(0, failures - 1))
