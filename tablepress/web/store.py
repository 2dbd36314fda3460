"""The SQLite store: every game and every action, written (committed) before the server replies.

Two tables: `games` (everything needed to set a game up again: game, players, options, seats, seed,
variant, names, token hashes) and `actions` (one row per action, in order). On start the server rebuilds
each game by replaying its actions, so a server killed with SIGKILL resumes exactly where it was.
A row that no longer reads (bad JSON, a seed that is not a number) is logged and skipped; a file that
has lost one of its two tables while the other still holds rows is refused, never silently reset.

The database runs in WAL mode with `synchronous=NORMAL`: a commit is in the operating system's hands
when `commit()` returns, which survives the process being killed at any moment (only a power cut
could lose the last commits). Tokens are never stored, only their SHA-256 hashes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import DataError
from .logs import event

log = logging.getLogger("tablepress.web")

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    names TEXT NOT NULL,
    seed INTEGER NOT NULL,
    variant TEXT,
    token_hashes TEXT NOT NULL,
    created REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    scores TEXT,
    winners TEXT,
    client TEXT,
    variant_id TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    public TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, idx)
);
"""


def hash_token(token: str) -> str:
    """The SHA-256 hex digest under which a seat token is stored and looked up."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class GameRow:
    """One stored game: its setup and its actions so far."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seats: list[str]
    names: list[str]
    seed: int
    variant: dict[str, Any] | None
    token_hashes: dict[str, int]
    created: float
    status: str = "playing"
    actions: list[tuple[int, str, str, float]] = field(default_factory=list)  # (seat, action, public, at)
    scores: list[int] | None = None  # final, once over
    winners: list[int] | None = None  # final, once over
    count: int = 0  # actions stored
    client: str | None = None  # the address that created it (for per-client quotas)
    variant_id: str | None = None  # the saved variant it plays (its card data is `variant`)


class Store:
    """A SQLite file holding every game; safe to share between threads (one connection behind a lock)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        try:
            self._check_tables()
        except DataError:
            self._db.close()
            raise
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        for column in ("winners", "client", "variant_id"):  # a database from before these were kept
            if column not in columns:
                self._db.execute(f"ALTER TABLE games ADD COLUMN {column} TEXT")

    def _check_tables(self) -> None:
        """DataError if one of the two tables is gone while the other holds rows (creating it anew
        would reset every stored game to its first turn)."""
        tables = {name for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for kept, missing, what in (("games", "actions", "games"), ("actions", "games", "actions")):
            if kept in tables and missing not in tables:
                (count,) = self._db.execute(f"SELECT COUNT(*) FROM {kept}").fetchone()
                if count:
                    raise DataError(f"{self.path}: the {missing} table is missing while {count} {what} are stored;"
                                    f" restore the file from a backup (starting anyway would reset the games)")

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    def create_game(self, row: GameRow) -> None:
        """Insert a new game (committed when this returns)."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO games (id, game, players, options, seats, names, seed, variant, token_hashes,"
                " created, status, client, variant_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.game, row.players, json.dumps(row.options), json.dumps(row.seats),
                 json.dumps(row.names), str(row.seed), None if row.variant is None else json.dumps(row.variant),
                 json.dumps(row.token_hashes), row.created, row.status, row.client, row.variant_id),
            )

    def has(self, game_id: str) -> bool:
        """Whether a game with this id is stored (readable or not)."""
        with self._lock:
            return self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is not None

    def expire(self, open_before: float, over_before: float) -> list[str]:
        """Delete the unfinished games with no action since `open_before` and the finished ones whose last
        action was before `over_before`; return their ids (committed when this returns)."""
        last = "COALESCE((SELECT MAX(a.at) FROM actions a WHERE a.game_id = g.id), g.created)"
        with self._lock, self._db:
            self._db.execute("BEGIN")
            ids = [gid for (gid,) in self._db.execute(
                f"SELECT g.id FROM games g WHERE (g.status != 'over' AND {last} < ?) OR (g.status = 'over' AND {last} < ?)",
                (open_before, over_before))]
            for gid in ids:
                self._db.execute("DELETE FROM actions WHERE game_id = ?", (gid,))
                self._db.execute("DELETE FROM games WHERE id = ?", (gid,))
        return ids

    def append_action(self, game_id: str, index: int, seat: int, action: str, public: str, at: float,
                      status: str | None = None, scores: list[int] | None = None,
                      winners: list[int] | None = None) -> None:
        """Append action number `index` (from 0) of a game, taken at time `at`, and its new status;
        committed when this returns."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO actions (game_id, idx, seat, action, public, at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, index, seat, action, public, at),
            )
            if status is not None:
                self._db.execute("UPDATE games SET status = ?, scores = ?, winners = ? WHERE id = ?",
                                 (status, None if scores is None else json.dumps(scores),
                                  None if winners is None else json.dumps(winners), game_id))

    def update_seats(self, game_id: str, seats: list[str], names: list[str], token_hashes: dict[str, int]) -> None:
        """Store who sits where now (an AI taking over a seat); committed when this returns."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute("UPDATE games SET seats = ?, names = ?, token_hashes = ? WHERE id = ?",
                             (json.dumps(seats), json.dumps(names), json.dumps(token_hashes), game_id))

    def delete_last_action(self, game_id: str, index: int) -> None:
        """Remove action number `index` of a game (an undo); committed when this returns."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            gone = self._db.execute("DELETE FROM actions WHERE game_id = ? AND idx = ? AND"
                                    " idx = (SELECT MAX(idx) FROM actions WHERE game_id = ?)",
                                    (game_id, index, game_id)).rowcount
            if gone != 1:
                raise RuntimeError(f"action {index} of game {game_id} is not its last")

    def load_games(self) -> list[GameRow]:
        """Every stored game, oldest first: the actions of unfinished games, only the count of finished ones'.

        A row that does not read is logged (event `row_skipped`) and left out.
        """
        with self._lock:
            games = self._db.execute(
                "SELECT g.id, g.game, g.players, g.options, g.seats, g.names, g.seed, g.variant, g.token_hashes,"
                " g.created, g.status, g.scores, g.winners, g.client, g.variant_id,"
                " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id)"
                " FROM games g ORDER BY g.created, g.id"
            ).fetchall()
            actions = self._db.execute(
                "SELECT game_id, seat, action, public, at FROM actions WHERE game_id IN"
                " (SELECT id FROM games WHERE status != 'over') ORDER BY game_id, idx"
            ).fetchall()
        rows: dict[str, GameRow] = {}
        for stored in games:
            try:
                rows[stored[0]] = read_row(*stored)
            except (ValueError, TypeError, RecursionError) as exc:  # json.JSONDecodeError is a ValueError
                event(log, "row_skipped", logging.ERROR, game=stored[0], error=f"{type(exc).__name__}: {exc}")
        for gid, seat, action, public, at in actions:
            if gid in rows:
                rows[gid].actions.append((seat, action, public, at))
        return list(rows.values())

    def load_actions(self, game_id: str) -> list[tuple[int, str, str, float]]:
        """One game's actions in order: (seat, action, public text, time)."""
        with self._lock:
            return [tuple(r) for r in self._db.execute(
                "SELECT seat, action, public, at FROM actions WHERE game_id = ? ORDER BY idx", (game_id,))]


def read_row(gid: str, game: str, players: int, options: str, seats: str, names: str, seed: Any, variant: str | None,
             hashes: str, created: Any, status: str, scores: str | None, winners: str | None, client: str | None,
             variant_id: str | None, count: int) -> GameRow:
    """A `games` row as a GameRow; ValueError or TypeError if a field does not read."""
    return GameRow(
        id=gid, game=game, players=int(players), options=_json(options, dict), seats=_json(seats, list),
        names=_json(names, list), seed=int(seed), variant=None if variant is None else _json(variant, dict),
        token_hashes=_json(hashes, dict), created=float(created), status=status,
        scores=None if scores is None else _json(scores, list),
        winners=None if winners is None else _json(winners, list), count=count, client=client, variant_id=variant_id,
    )


def _json(text: str, kind: type) -> Any:
    value = json.loads(text)
    if not isinstance(value, kind):
        raise TypeError(f"expected a JSON {kind.__name__}, not {type(value).__name__}")
    return value
