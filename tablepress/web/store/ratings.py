"""What the store keeps of ratings: each player's rating per game, the games that are rated, and the change
each finished rated game made. `RatingStore` is the interface; `RatingSql` its SQL, mixed into `sql.SqlStore`
for both backends. The rule itself (who counts, places, Elo) is `web/rating_rule.py`.

A game is marked rated when its lobby table begins it (`mark_game_rated`, before its seats are given to the
players, so that every process that reads the game seated reads it rated; `mark_rated` again from
`SocialSql.start_table`, in the same transaction as the start).
`settle_ratings` applies a finished game's changes exactly once, whichever process and however many times
it is called: in one transaction it claims the game's `rated_games` row (`settled IS NULL` → now), locks the
players' rating rows in a fixed order (PostgreSQL: the upsert holds each row until commit, so two games
sharing a player never both start from the same rating), reads the final scores stored with the game, and
writes the new ratings and the changes. A caller that loses the claim reads back the changes the winner
recorded.
"""

from __future__ import annotations

import json
import logging
from contextlib import AbstractContextManager
from typing import Any, Protocol

from ..logs import event
from ..rating_rule import START, changes, places, rates
from .tx import Tx

log = logging.getLogger("tablepress.web")


class RatingStore(Protocol):
    """Players' ratings per game and the changes rated games made."""

    def settle_ratings(self, game_id: str, at: float) -> list[dict[str, Any]] | None:
        """Apply a finished rated game's rating changes, once (module docstring); the changes, each
        {"seat", "player", "name", "before", "after"} by seat (empty while the game goes on). None if the game
        is not rated (or no longer stored)."""
        ...

    def leaderboard(self, game: str, limit: int) -> list[dict[str, Any]]:
        """A game's best `limit` players: {"player", "name", "rating", "games"}, best first."""
        ...

    def unsettled_ratings(self, limit: int) -> list[str]:
        """Rated games that are over but whose changes nobody applied yet (a process stopped in between)."""
        ...

    def mark_game_rated(self, game_id: str, game: str, at: float) -> None:
        """Mark a stored game rated (nothing if it is already)."""
        ...


class RatingSql:
    """`RatingStore` in the SQL both backends speak."""

    def _transaction(self, write: bool = False) -> AbstractContextManager[Tx]:
        raise NotImplementedError

    def settle_ratings(self, game_id: str, at: float) -> list[dict[str, Any]] | None:
        """Apply a finished rated game's rating changes, once (module docstring); the changes, each
        {"seat", "player", "name", "before", "after"} by seat (empty while the game goes on). None if the game
        is not rated (or no longer stored)."""
        with self._transaction() as tx:
            found = tx.execute("SELECT r.settled, g.status FROM rated_games r JOIN games g ON g.id = r.game_id"
                               " WHERE r.game_id = ?", (game_id,)).fetchone()
            if found is None:
                return None
            if found[0] is not None or found[1] != "over":
                return _changes(tx, game_id)
        with self._transaction(write=True) as tx:
            result = tx.execute("SELECT game, scores, winners FROM games WHERE id = ? AND status = 'over'",
                                (game_id,)).fetchone()
            if result is None:
                return []
            if tx.execute("UPDATE rated_games SET settled = ? WHERE game_id = ? AND settled IS NULL",
                          (at, game_id)).rowcount != 1:
                return _changes(tx, game_id)  # another process settled it first
            game = result[0]
            seats = {int(seat): pid for seat, pid in tx.execute(
                "SELECT seat, player_id FROM player_games WHERE game_id = ?", (game_id,)).fetchall()}
            if len(seats) < 2:
                return []
            try:
                placed = places(json.loads(result[1]), json.loads(result[2] or "[]"), sorted(seats))
            except (ValueError, TypeError, IndexError) as exc:  # a stored result that does not read: never rated
                event(log, "ratings_skipped", logging.ERROR, game=game_id, error=str(exc))
                return []
            for pid in sorted(seats.values()):
                tx.execute("INSERT INTO ratings (game, player_id, rating, games, updated) VALUES (?, ?, ?, 0, ?)"
                           " ON CONFLICT (game, player_id) DO UPDATE SET games = ratings.games",
                           (game, pid, START, at))
            marks = ", ".join("?" * len(seats))
            before = {pid: float(rating) for pid, rating in tx.execute(
                f"SELECT player_id, rating FROM ratings WHERE game = ? AND player_id IN ({marks})",
                (game, *seats.values())).fetchall()}
            moved = changes(before, {pid: placed[seat] for seat, pid in seats.items()})
            for seat, pid in sorted(seats.items()):
                after = before[pid] + moved[pid]
                tx.execute("UPDATE ratings SET rating = ?, games = games + 1, updated = ?"
                           " WHERE game = ? AND player_id = ?",
                           (after, at, game, pid))
                tx.execute("INSERT INTO rating_changes (game_id, seat, player_id, old_rating, new_rating)"
                           " VALUES (?, ?, ?, ?, ?)", (game_id, seat, pid, before[pid], after))
            return _changes(tx, game_id)

    def leaderboard(self, game: str, limit: int) -> list[dict[str, Any]]:
        """A game's best `limit` players: {"player", "name", "rating", "games"}, best first."""
        with self._transaction() as tx:
            rows = tx.execute(
                "SELECT r.player_id, p.name, r.rating, r.games FROM ratings r JOIN players p ON p.id = r.player_id"
                " WHERE r.game = ? AND r.games > 0 ORDER BY r.rating DESC, r.games DESC, p.name, r.player_id LIMIT ?",
                (game, limit)).fetchall()
        return [{"player": pid, "name": name, "rating": float(rating), "games": int(games)}
                for pid, name, rating, games in rows]

    def unsettled_ratings(self, limit: int) -> list[str]:
        """Rated games that are over but whose changes nobody applied yet (a process stopped in between)."""
        with self._transaction() as tx:
            return [gid for (gid,) in tx.execute(
                "SELECT r.game_id FROM rated_games r JOIN games g ON g.id = r.game_id WHERE r.settled IS NULL"
                " AND g.status = 'over' ORDER BY r.created LIMIT ?", (limit,)).fetchall()]

    def mark_game_rated(self, game_id: str, game: str, at: float) -> None:
        """Mark a stored game rated (nothing if it is already)."""
        with self._transaction(write=True) as tx:
            tx.execute("INSERT INTO rated_games (game_id, game, created) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                       (game_id, game, at))

    def _forget_ratings(self, tx: Tx, game_id: str) -> None:
        """Delete what belongs to a game being deleted: its rated mark and its changes (the ratings stay)."""
        tx.execute("DELETE FROM rating_changes WHERE game_id = ?", (game_id,))
        tx.execute("DELETE FROM rated_games WHERE game_id = ?", (game_id,))


def mark_rated(tx: Tx, table_id: str, game_id: str, people: int, at: float) -> None:
    """Mark the game a lobby table began as rated, in the transaction that records its start, if the table is
    rated and `people` (two or more) sit at it."""
    found = tx.execute("SELECT game, rated FROM lobby_tables WHERE id = ?", (table_id,)).fetchone()
    if found is not None and rates(found[1], people):
        tx.execute("INSERT INTO rated_games (game_id, game, created) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                   (game_id, found[0], at))


def _changes(tx: Tx, game_id: str) -> list[dict[str, Any]]:
    """The changes a settled game made, by seat."""
    return [{"seat": int(seat), "player": pid, "name": name, "before": float(old), "after": float(new)}
            for seat, pid, name, old, new in tx.execute(
                "SELECT c.seat, c.player_id, p.name, c.old_rating, c.new_rating FROM rating_changes c"
                " JOIN players p ON p.id = c.player_id WHERE c.game_id = ? ORDER BY c.seat", (game_id,)).fetchall()]
