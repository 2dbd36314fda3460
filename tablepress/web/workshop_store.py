"""The workshop's tables in the web app's SQLite file: saved card-data variants and simulation jobs.

The file is the one `web/store.py` keeps games in; this module has its own connection and its own two
tables (`variants`, `sim_jobs`), so it never touches the games. A job's worker process opens the file
too and writes its progress and result there; the server reads them. Writes of one job's run are
fenced by its `attempt`: a worker left over from before a restart can no longer change the job.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS variants (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    toml TEXT NOT NULL,
    overrides TEXT NOT NULL,
    client TEXT,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sim_jobs (
    id TEXT PRIMARY KEY,
    request TEXT NOT NULL,
    status TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    games INTEGER NOT NULL,
    attempt INTEGER NOT NULL DEFAULT 0,
    summary TEXT,
    report TEXT,
    error TEXT,
    client TEXT,
    created REAL NOT NULL,
    started REAL,
    finished REAL
);
"""

#: Job states: waiting for a worker, being played, finished with a summary, or stopped with a reason.
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"


def connect(path: str) -> sqlite3.Connection:
    """A connection to the shared SQLite file in WAL mode that waits for another writer's lock."""
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA busy_timeout=30000")
    return db


class WorkshopStore:
    """Variants and simulation jobs; safe to share between threads (one connection behind a lock)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = connect(self.path)
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()

    # ----- variants ------------------------------------------------------------------------------
    def add_variant(self, variant_id: str, game: str, name: str, toml: str, overrides: dict[str, Any],
                    client: str | None) -> None:
        """Store a checked variant (committed when this returns)."""
        with self._lock:
            self._db.execute("INSERT INTO variants (id, game, name, toml, overrides, client, created)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (variant_id, game, name, toml, json.dumps(overrides), client, time.time()))

    def variant(self, variant_id: str) -> dict[str, Any]:
        """{"id", "game", "name", "toml", "overrides"} of a stored variant; KeyError if there is none."""
        with self._lock:
            row = self._db.execute("SELECT id, game, name, toml, overrides FROM variants WHERE id = ?",
                                   (variant_id,)).fetchone()
        if row is None:
            raise KeyError(variant_id)
        return {"id": row[0], "game": row[1], "name": row[2], "toml": row[3], "overrides": json.loads(row[4])}

    def variants_of(self, game: str, limit: int) -> list[dict[str, Any]]:
        """The newest `limit` variants of a game: {"id", "name", "created"}, newest first."""
        with self._lock:
            rows = self._db.execute("SELECT id, name, created FROM variants WHERE game = ?"
                                    " ORDER BY created DESC LIMIT ?", (game, limit)).fetchall()
        return [{"id": r[0], "name": r[1], "created": r[2]} for r in rows]

    def count_variants(self) -> int:
        """How many variants are stored."""
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM variants").fetchone()[0]

    # ----- jobs ----------------------------------------------------------------------------------
    def add_job(self, job_id: str, request: dict[str, Any], games: int, client: str | None) -> None:
        """Queue a simulation job (committed when this returns)."""
        with self._lock:
            self._db.execute("INSERT INTO sim_jobs (id, request, status, games, client, created)"
                             " VALUES (?, ?, ?, ?, ?, ?)", (job_id, json.dumps(request), QUEUED, games, client,
                                                            time.time()))

    def job(self, job_id: str) -> dict[str, Any]:
        """A job's status, progress and (once done) summary; KeyError if there is none."""
        with self._lock:
            row = self._db.execute("SELECT id, request, status, done, games, attempt, summary, error, created,"
                                   " started, finished FROM sim_jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            raise KeyError(job_id)
        return {"id": row[0], "request": json.loads(row[1]), "status": row[2], "done": row[3], "games": row[4],
                "attempt": row[5], "summary": None if row[6] is None else json.loads(row[6]), "error": row[7],
                "created": row[8], "started": row[9], "finished": row[10]}

    def report(self, job_id: str) -> str | None:
        """A finished job's HTML report (None before it is done); KeyError if there is no such job."""
        with self._lock:
            row = self._db.execute("SELECT report FROM sim_jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            raise KeyError(job_id)
        return row[0]

    def job_ids(self, status: str) -> list[str]:
        """The ids of the jobs in `status`, oldest first."""
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM sim_jobs WHERE status = ? ORDER BY created, id",
                                                   (status,))]

    def count_jobs(self, *statuses: str, client: str | None = None) -> int:
        """How many jobs are in any of `statuses` (only `client`'s, if given)."""
        marks = ", ".join("?" for _ in statuses)
        mine, args = ("", ()) if client is None else (" AND client = ?", (client,))
        with self._lock:
            return self._db.execute(f"SELECT COUNT(*) FROM sim_jobs WHERE status IN ({marks}){mine}",
                                    (*statuses, *args)).fetchone()[0]

    def start_job(self, job_id: str) -> int:
        """Mark a queued job running; returns its new attempt number (fencing the worker's writes)."""
        with self._lock:
            self._db.execute("UPDATE sim_jobs SET status = ?, done = 0, attempt = attempt + 1, started = ?"
                             " WHERE id = ?", (RUNNING, time.time(), job_id))
            return self._db.execute("SELECT attempt FROM sim_jobs WHERE id = ?", (job_id,)).fetchone()[0]

    def requeue(self, job_id: str) -> None:
        """Put a job that was running back in the queue (its games start again from the first)."""
        with self._lock:
            self._db.execute("UPDATE sim_jobs SET status = ?, done = 0 WHERE id = ?", (QUEUED, job_id))

    def progress(self, job_id: str, attempt: int, done: int) -> None:
        """A worker's count of games played so far."""
        with self._lock:
            self._db.execute("UPDATE sim_jobs SET done = ? WHERE id = ? AND attempt = ? AND status = ?",
                             (done, job_id, attempt, RUNNING))

    def finish(self, job_id: str, attempt: int, summary: dict[str, Any], report: str) -> None:
        """A worker's result: the summary (`simulate --json`) and the HTML report."""
        with self._lock:
            self._db.execute("UPDATE sim_jobs SET status = ?, done = games, summary = ?, report = ?, finished = ?"
                             " WHERE id = ? AND attempt = ? AND status = ?",
                             (DONE, json.dumps(summary), report, time.time(), job_id, attempt, RUNNING))

    def fail(self, job_id: str, reason: str, attempt: int | None = None) -> None:
        """Stop a job with a reason (only its current attempt's, when `attempt` is given)."""
        fence, args = ("", ()) if attempt is None else (" AND attempt = ?", (attempt,))
        with self._lock:
            self._db.execute(f"UPDATE sim_jobs SET status = ?, error = ?, finished = ? WHERE id = ?"
                             f" AND status IN (?, ?){fence}", (FAILED, reason, time.time(), job_id, QUEUED, RUNNING,
                                                               *args))

    def forget_jobs(self, keep: int) -> int:
        """Delete the oldest finished jobs past the newest `keep` of them; returns how many went."""
        with self._lock:
            return self._db.execute(
                "DELETE FROM sim_jobs WHERE status IN (?, ?) AND id NOT IN (SELECT id FROM sim_jobs WHERE status"
                " IN (?, ?) ORDER BY created DESC LIMIT ?)", (DONE, FAILED, DONE, FAILED, keep)).rowcount
