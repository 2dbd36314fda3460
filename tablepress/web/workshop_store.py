"""Saved variants and simulation jobs are kept by the server's store (`web/store`), beside the games.

This module keeps the names the simulation jobs import: the job states and `WorkshopStore`, which opens
the store at a path or URL as a job's worker process does.
"""

from __future__ import annotations

from pathlib import Path

from .store import DONE, FAILED, QUEUED, RUNNING, Store, open_store

__all__ = ["DONE", "FAILED", "QUEUED", "RUNNING", "WorkshopStore"]


def WorkshopStore(where: str | Path) -> Store:  # noqa: N802 - called as the class it used to be
    """The store at `where` (a SQLite path or a database URL: `Store.path`), without the start's page check."""
    return open_store(where, verify=False)
