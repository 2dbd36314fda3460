"""The server's store: games and their actions, saved variants and simulation jobs, in one database.

`open_store(where)` opens it: an embedded SQLite file (the default) or PostgreSQL (`postgresql://` URL).
Both implement `interface.Store` with the SQL of `sql.SqlStore` and the numbered schema `migrations`.
"""

from .interface import Readiness, Stale, Store
from .migrations import LATEST
from .rows import DONE, FAILED, QUEUED, RUNNING, GameRow, hash_token
from .urls import ENV, backend_of, open_store

__all__ = ["DONE", "ENV", "FAILED", "LATEST", "QUEUED", "RUNNING", "GameRow", "Readiness", "Stale", "Store", "backend_of",
           "hash_token", "open_store"]
