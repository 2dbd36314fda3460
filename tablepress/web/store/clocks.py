"""What the store keeps of turn clocks (web/clocks.py): each clocked game's clock, the seats it waits on
with their deadlines, and the moves the AI made for a seat whose time ran out.

`game_clocks` holds a game's seconds a turn, the AI level that plays a turn at time-out and the game revision
its waits were worked out at (`revision`: a process writes new waits only for a newer revision, so of several
processes working them out for one change the first wins). `clock_waits` holds one row per human seat the game
waits on: the number of moves when its wait began (`since`) and its deadline. `clock_timeouts` holds, per
attempt at a time-out move, the move's number, seat and action; the log marks a move as played at time-out
when an attempt matches the stored move (an attempt whose move was refused is deleted).

`ClockTables` reads and writes them through a store's own transactions (SQLite or PostgreSQL alike), and
reads what a player's your-turn notices watch (`turns_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameClock:
    """A game's turn clock: seconds a turn, and the AI level that plays a turn whose time ran out."""

    seconds: int
    level: str


@dataclass(frozen=True)
class Wait:
    """A human seat the game waits on: the number of moves when the wait began, and its deadline (epoch seconds)."""

    since: int
    deadline: float


@dataclass(frozen=True)
class Overdue:
    """A wait past its deadline, with the game revision the waits were worked out at."""

    game_id: str
    seat: int
    since: int
    deadline: float
    revision: int


class ClockTables:
    """The clock tables of one store (its `_transaction` gives the transactions)."""

    def __init__(self, store: Any):
        self.store = store

    def _tx(self, write: bool = False) -> Any:
        return self.store._transaction(write=write)

    def add(self, game_id: str, seconds: int, level: str) -> None:
        """Give a game a clock (nothing if it has one)."""
        with self._tx(write=True) as tx:
            tx.execute("INSERT INTO game_clocks (game_id, seconds, level, revision) VALUES (?, ?, ?, -1)"
                       " ON CONFLICT DO NOTHING", (game_id, seconds, level))

    def clocks_of(self, game_ids: Iterable[str]) -> dict[str, GameClock]:
        """The clocks of those of `game_ids` that have one."""
        ids = list(dict.fromkeys(game_ids))
        found: dict[str, GameClock] = {}
        with self._tx() as tx:
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                marks = ", ".join("?" for _ in chunk)
                for gid, seconds, level in tx.execute(
                        f"SELECT game_id, seconds, level FROM game_clocks WHERE game_id IN ({marks})", chunk).fetchall():
                    found[gid] = GameClock(int(seconds), level)
        return found

    def waits(self, game_id: str) -> tuple[int, dict[int, Wait]]:
        """(revision the waits were worked out at, {seat: wait}) of a clocked game; (-1, {}) if none were yet."""
        with self._tx() as tx:
            row = tx.execute("SELECT revision FROM game_clocks WHERE game_id = ?", (game_id,)).fetchone()
            rows = tx.execute("SELECT seat, since, deadline FROM clock_waits WHERE game_id = ?", (game_id,)).fetchall()
        revision = -1 if row is None else int(row[0])
        return revision, {int(seat): Wait(int(since), float(deadline)) for seat, since, deadline in rows}

    def set_waits(self, game_id: str, revision: int, waits: Mapping[int, Wait]) -> bool:
        """Replace a game's waits with `waits`, worked out at game revision `revision`, unless waits for that
        revision or a newer one are stored already; whether these were stored."""
        with self._tx(write=True) as tx:
            if tx.execute("UPDATE game_clocks SET revision = ? WHERE game_id = ? AND revision < ?",
                          (revision, game_id, revision)).rowcount != 1:
                return False
            tx.execute("DELETE FROM clock_waits WHERE game_id = ?", (game_id,))
            for seat, wait in sorted(waits.items()):
                tx.execute("INSERT INTO clock_waits (game_id, seat, since, deadline) VALUES (?, ?, ?, ?)",
                           (game_id, seat, wait.since, wait.deadline))
            return True

    def overdue(self, now: float, limit: int) -> list[Overdue]:
        """The waits whose deadline is `now` or earlier, earliest first, at most `limit`."""
        with self._tx() as tx:
            rows = tx.execute(
                "SELECT w.game_id, w.seat, w.since, w.deadline, c.revision FROM clock_waits w JOIN game_clocks c"
                " ON c.game_id = w.game_id WHERE w.deadline <= ? ORDER BY w.deadline LIMIT ?", (now, limit)).fetchall()
        return [Overdue(gid, int(seat), int(since), float(deadline), int(revision))
                for gid, seat, since, deadline, revision in rows]

    def deadlines_of(self, game_ids: Iterable[str]) -> dict[tuple[str, int], float]:
        """{(game id, seat): deadline} of the waits of `game_ids`."""
        ids = list(dict.fromkeys(game_ids))
        found: dict[tuple[str, int], float] = {}
        with self._tx() as tx:
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                marks = ", ".join("?" for _ in chunk)
                for gid, seat, deadline in tx.execute(
                        f"SELECT game_id, seat, deadline FROM clock_waits WHERE game_id IN ({marks})", chunk).fetchall():
                    found[(gid, int(seat))] = float(deadline)
        return found

    def add_timeout(self, game_id: str, index: int, attempt: str, seat: int, action: str, at: float) -> None:
        """Note an attempt at move number `index` (from 0) made by the AI for `seat` at time-out."""
        with self._tx(write=True) as tx:
            tx.execute("INSERT INTO clock_timeouts (game_id, idx, attempt, seat, action, at) VALUES (?, ?, ?, ?, ?, ?)",
                       (game_id, index, attempt, seat, action, at))

    def drop_timeout(self, game_id: str, attempt: str) -> None:
        """Forget an attempt whose move was not stored."""
        with self._tx(write=True) as tx:
            tx.execute("DELETE FROM clock_timeouts WHERE game_id = ? AND attempt = ?", (game_id, attempt))

    def timeouts(self, game_id: str) -> list[tuple[int, int, str]]:
        """(move number from 0, seat, action) of every attempt at a time-out move in a game, in move order."""
        with self._tx() as tx:
            return [(int(idx), int(seat), action) for idx, seat, action in tx.execute(
                "SELECT idx, seat, action FROM clock_timeouts WHERE game_id = ? ORDER BY idx, at",
                (game_id,)).fetchall()]

    def turns_of(self, player_id: str) -> list[tuple[str, int, int, float | None]]:
        """(game id, seat, game revision, deadline or None) of every game a player sits in, by game id: what
        changes whenever one of the player's games moves on or its clock starts again."""
        with self._tx() as tx:
            return [(gid, int(seat), int(revision), None if deadline is None else float(deadline))
                    for gid, seat, revision, deadline in tx.execute(
                        "SELECT p.game_id, p.seat, g.revision, w.deadline FROM player_games p JOIN games g ON"
                        " g.id = p.game_id LEFT JOIN clock_waits w ON w.game_id = p.game_id AND w.seat = p.seat"
                        " WHERE p.player_id = ? ORDER BY p.game_id", (player_id,)).fetchall()]

    def forget_gone(self) -> int:
        """Delete the clocks, waits and time-out notes of games no longer stored; how many clocks went."""
        with self._tx(write=True) as tx:
            tx.execute("DELETE FROM clock_waits WHERE game_id NOT IN (SELECT id FROM games)")
            tx.execute("DELETE FROM clock_timeouts WHERE game_id NOT IN (SELECT id FROM games)")
            return tx.execute("DELETE FROM game_clocks WHERE game_id NOT IN (SELECT id FROM games)").rowcount

