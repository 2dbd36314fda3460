"""The SQLite store: every game and every action, written (committed) before the server replies.

Two tables: `games` (everything needed to set a game up again: game, players, options, seats, seed,
variant, names, token hashes) and `actions` (one row per action, in order). On start the server rebuilds
each game by replaying its actions, so a server killed with SIGKILL resumes exactly where it was.

The database runs in WAL mode with `synchronous=NORMAL`: a commit is in the operating system's hands
when `commit()` returns, which survives the process being killed at any moment (only a power cut
could lose the last commits). Tokens are never stored, only their SHA-256 hashes.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
    winners TEXT
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
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "winners" not in columns:  # a database from before winners were kept
            self._db.execute("ALTER TABLE games ADD COLUMN winners TEXT")

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
                " created, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.game, row.players, json.dumps(row.options), json.dumps(row.seats),
                 json.dumps(row.names), str(row.seed), None if row.variant is None else json.dumps(row.variant),
                 json.dumps(row.token_hashes), row.created, row.status),
            )

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
        """Every stored game, oldest first: the actions of unfinished games, only the count of finished ones'."""
        with self._lock:
            games = self._db.execute(
                "SELECT g.id, g.game, g.players, g.options, g.seats, g.names, g.seed, g.variant, g.token_hashes,"
                " g.created, g.status, g.scores, g.winners, (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id)"
                " FROM games g ORDER BY g.created, g.id"
            ).fetchall()
            actions = self._db.execute(
                "SELECT game_id, seat, action, public, at FROM actions WHERE game_id IN"
                " (SELECT id FROM games WHERE status != 'over') ORDER BY game_id, idx"
            ).fetchall()
        rows: dict[str, GameRow] = {}
        for gid, game, players, options, seats, names, seed, variant, hashes, created, status, scores, winners, count in games:
            rows[gid] = GameRow(
                id=gid, game=game, players=players, options=json.loads(options), seats=json.loads(seats),
                names=json.loads(names), seed=int(seed), variant=None if variant is None else json.loads(variant),
                token_hashes=json.loads(hashes), created=created, status=status,
                scores=None if scores is None else json.loads(scores),
                winners=None if winners is None else json.loads(winners), count=count,
            )
        for gid, seat, action, public, at in actions:
            rows[gid].actions.append((seat, action, public, at))
        return list(rows.values())

    def load_actions(self, game_id: str) -> list[tuple[int, str, str, float]]:
        """One game's actions in order: (seat, action, public text, time)."""
        with self._lock:
            return [tuple(r) for r in self._db.execute(
                "SELECT seat, action, public, at FROM actions WHERE game_id = ? ORDER BY idx", (game_id,))]
