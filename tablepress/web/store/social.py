"""What the store keeps of people: players (a name and the hash of their token), one-time links that carry a
player to another device, lobby tables and who sits at them, the games each player sits in, and each game's
chat. `SocialStore` is the interface; `SocialSql` its SQL, mixed into `sql.SqlStore` for both backends.

Tokens and link codes are kept only as SHA-256 hashes. A link also keeps its player's token sealed with a key
derived from the link's code (`seal`): only whoever holds the code can open it, once, before it expires.
On PostgreSQL `announce` sends a notification on SOCIAL_CHANNEL (web/social.py listens); SQLite, served by
one process, needs none.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from ...core.errors import IllegalAction, TablepressError
from .migrations import Dialect
from .ratings import mark_rated
from .rows import dumps
from .tx import Tx

#: The PostgreSQL channel on which chat messages and lobby changes are announced to every process.
SOCIAL_CHANNEL = "tablepress_social"


class SeatTaken(IllegalAction):
    """No open seat is left at the table, or the player already sits at it (HTTP 409)."""


class ChatLimit(TablepressError):
    """A sender wrote too often, or a game's chat is full (HTTP 429)."""


class SocialStore(Protocol):
    """Players, link codes, lobby tables, players' games and chat."""

    def add_player(self, player_id: str, name: str, token_hash: str, at: float) -> None:
        """Store a new player under the hash of its token."""
        ...

    def player_by_token(self, token_hash: str) -> dict[str, Any] | None:
        """{"id", "name"} of the player whose token has this hash, or None."""
        ...

    def add_link(self, code_hash: str, player_id: str, sealed: str, expires: float, now: float) -> None:
        """Store a one-time link code (and drop the links expired before `now`)."""
        ...

    def redeem_link(self, code_hash: str, now: float) -> tuple[str, str] | None:
        """(player id, sealed token) of an unexpired link code, deleting it; None if there is none."""
        ...

    def add_table(self, table: dict[str, Any], creator_seat: int) -> None:
        """Store a new lobby table with its creator at `creator_seat`."""
        ...

    def table(self, table_id: str) -> dict[str, Any] | None:
        """A stored table with "seats": {seat: {"player", "name", "hash"}}, or None."""
        ...

    def open_tables(self, limit: int) -> list[dict[str, Any]]:
        """The newest `limit` public tables still waiting for players, as `table` gives them."""
        ...

    def take_seat(self, table_id: str, player_id: str, seats: Sequence[int], at: float) -> int:
        """Seat a player at the first free seat of `seats`; the seat. SeatTaken if none is free or the player
        already sits there; KeyError if there is no such waiting table."""
        ...

    def leave_seat(self, table_id: str, seat: int) -> None:
        """Free a seat (a game that could not start)."""
        ...

    def claim_table(self, table_id: str, claim: str) -> bool:
        """Mark a waiting table as starting under `claim`; False if it is not waiting (another claimed it)."""
        ...

    def start_table(self, table_id: str, claim: str, game_id: str | None, seats: dict[int, str], at: float) -> None:
        """Record the game a table claimed under `claim` began (and each seated player's seat in it: `seats`
        maps seat to player id); `game_id` None: it did not begin, the table waits again."""
        ...

    def expire_tables(self, waiting_before: float, started_before: float) -> list[str]:
        """Delete the tables nobody joined since `waiting_before` and those started before `started_before`."""
        ...

    def player_games(self, player_id: str, limit: int) -> list[tuple[str, int]]:
        """The newest `limit` (game id, seat) a player sits in, newest first."""
        ...

    def add_player_game(self, player_id: str, game_id: str, seat: int, at: float) -> None:
        """Record that a player sits at a seat of a game begun for it outside the lobby (nothing if recorded)."""
        ...

    def add_chat(self, game_id: str, seat: int, name: str, text: str, emote: str | None, at: float,
                 window: float, rate: int, most: int) -> dict[str, Any]:
        """Store a chat message of a game's seat; the message. ChatLimit (nothing stored) if the seat wrote
        `rate` messages since `at - window`, or the game holds `most` messages."""
        ...

    def chat(self, game_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        """A game's messages numbered above `after`, oldest first, at most `limit`."""
        ...

    def announce(self, payload: dict[str, Any]) -> None:
        """Tell the other processes (PostgreSQL only) about a chat message or a lobby change."""
        ...


class SocialSql:
    """`SocialStore` in the SQL both backends speak."""

    dialect: Dialect

    def _transaction(self, write: bool = False) -> AbstractContextManager[Tx]:
        raise NotImplementedError

    # ----- players ------------------------------------------------------------------------------------
    def add_player(self, player_id: str, name: str, token_hash: str, at: float) -> None:
        """Store a new player under the hash of its token."""
        with self._transaction(write=True) as tx:
            tx.execute("INSERT INTO players (id, name, token_hash, created) VALUES (?, ?, ?, ?)",
                       (player_id, name, token_hash, at))

    def player_by_token(self, token_hash: str) -> dict[str, Any] | None:
        """{"id", "name"} of the player whose token has this hash, or None."""
        with self._transaction() as tx:
            row = tx.execute("SELECT id, name FROM players WHERE token_hash = ?", (token_hash,)).fetchone()
        return None if row is None else {"id": row[0], "name": row[1]}

    def add_link(self, code_hash: str, player_id: str, sealed: str, expires: float, now: float) -> None:
        """Store a one-time link code (and drop the links expired before `now`)."""
        with self._transaction(write=True) as tx:
            tx.execute("DELETE FROM player_links WHERE expires < ?", (now,))
            tx.execute("INSERT INTO player_links (code_hash, player_id, sealed, expires) VALUES (?, ?, ?, ?)",
                       (code_hash, player_id, sealed, expires))

    def redeem_link(self, code_hash: str, now: float) -> tuple[str, str] | None:
        """(player id, sealed token) of an unexpired link code, deleting it; None if there is none."""
        with self._transaction(write=True) as tx:
            row = tx.execute("SELECT player_id, sealed, expires FROM player_links WHERE code_hash = ?",
                             (code_hash,)).fetchone()
            if row is None:
                return None
            if tx.execute("DELETE FROM player_links WHERE code_hash = ?", (code_hash,)).rowcount != 1:
                return None  # another request used it at the same moment
        return None if row[2] < now else (row[0], row[1])

    # ----- lobby tables -------------------------------------------------------------------------------
    def add_table(self, table: dict[str, Any], creator_seat: int) -> None:
        """Store a new lobby table with its creator at `creator_seat`."""
        with self._transaction(write=True) as tx:
            tx.execute(
                "INSERT INTO lobby_tables (id, game, players, options, ai, private, rated, clock, creator, created,"
                " touched) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table["id"], table["game"], table["players"], dumps(table["options"]), dumps(table["ai"]),
                 int(table["private"]), int(table["rated"]), table["clock"], table["creator"], table["created"],
                 table["created"]))
            tx.execute("INSERT INTO lobby_seats (table_id, seat, player_id) VALUES (?, ?, ?)",
                       (table["id"], creator_seat, table["creator"]))

    def table(self, table_id: str) -> dict[str, Any] | None:
        """A stored table with "seats": {seat: {"player", "name", "hash"}}, or None."""
        with self._transaction() as tx:
            found = self._tables(tx, "t.id = ?", (table_id,), 1)
        return found[0] if found else None

    def open_tables(self, limit: int) -> list[dict[str, Any]]:
        """The newest `limit` public tables still waiting for players, as `table` gives them."""
        with self._transaction() as tx:
            return self._tables(tx, "t.private = 0 AND t.game_id IS NULL", (), limit)

    def _tables(self, tx: Tx, where: str, args: Sequence[Any], limit: int) -> list[dict[str, Any]]:
        rows = tx.execute(
            "SELECT t.id, t.game, t.players, t.options, t.ai, t.private, t.rated, t.clock, t.creator, t.created,"
            f" t.touched, t.game_id FROM lobby_tables t WHERE {where} ORDER BY t.created DESC LIMIT ?",
            (*args, limit)).fetchall()
        tables = []
        for r in rows:
            seats = {int(seat): {"player": pid, "name": name, "hash": digest} for seat, pid, name, digest in tx.execute(
                "SELECT s.seat, p.id, p.name, p.token_hash FROM lobby_seats s JOIN players p ON p.id = s.player_id"
                " WHERE s.table_id = ? ORDER BY s.seat", (r[0],)).fetchall()}
            tables.append({"id": r[0], "game": r[1], "players": int(r[2]), "options": json.loads(r[3]),
                           "ai": {int(k): v for k, v in json.loads(r[4]).items()}, "private": bool(r[5]),
                           "rated": bool(r[6]), "clock": r[7], "creator": r[8], "created": float(r[9]),
                           "touched": float(r[10]), "game_id": r[11], "seats": seats})
        return tables

    def take_seat(self, table_id: str, player_id: str, seats: Sequence[int], at: float) -> int:
        """Seat a player at the first free seat of `seats`; the seat. SeatTaken if none is free or the player
        already sits there; KeyError if there is no such waiting table."""
        with self._transaction(write=True) as tx:
            if tx.execute("SELECT 1 FROM lobby_tables WHERE id = ? AND game_id IS NULL", (table_id,)).fetchone() is None:
                raise KeyError(table_id)
            if tx.execute("SELECT 1 FROM lobby_seats WHERE table_id = ? AND player_id = ?",
                          (table_id, player_id)).fetchone() is not None:
                raise SeatTaken("you already sit at this table")
            for seat in seats:
                if tx.execute("INSERT INTO lobby_seats (table_id, seat, player_id) VALUES (?, ?, ?)"
                              " ON CONFLICT DO NOTHING", (table_id, seat, player_id)).rowcount == 1:
                    tx.execute("UPDATE lobby_tables SET touched = ? WHERE id = ?", (at, table_id))
                    return seat
        raise SeatTaken("this table is full")

    def leave_seat(self, table_id: str, seat: int) -> None:
        """Free a seat (a game that could not start)."""
        with self._transaction(write=True) as tx:
            tx.execute("DELETE FROM lobby_seats WHERE table_id = ? AND seat = ?", (table_id, seat))

    def claim_table(self, table_id: str, claim: str) -> bool:
        """Mark a waiting table as starting under `claim`; False if it is not waiting (another claimed it)."""
        with self._transaction(write=True) as tx:
            return tx.execute("UPDATE lobby_tables SET game_id = ? WHERE id = ? AND game_id IS NULL",
                              (claim, table_id)).rowcount == 1

    def start_table(self, table_id: str, claim: str, game_id: str | None, seats: dict[int, str], at: float) -> None:
        """Record the game a table claimed under `claim` began (and each seated player's seat in it: `seats`
        maps seat to player id; a rated table with two or more of them makes a rated game); `game_id` None: it
        did not begin, the table waits again."""
        with self._transaction(write=True) as tx:
            began = tx.execute("UPDATE lobby_tables SET game_id = ?, touched = ? WHERE id = ? AND game_id = ?",
                               (game_id, at, table_id, claim)).rowcount == 1
            for seat, player_id in seats.items() if game_id is not None else ():
                tx.execute("INSERT INTO player_games (player_id, game_id, seat, joined) VALUES (?, ?, ?, ?)",
                           (player_id, game_id, seat, at))
            if began and game_id is not None:
                mark_rated(tx, table_id, game_id, len(seats), at)

    def expire_tables(self, waiting_before: float, started_before: float) -> list[str]:
        """Delete the tables nobody joined since `waiting_before` and those started before `started_before`."""
        with self._transaction(write=True) as tx:
            ids = [tid for (tid,) in tx.execute(
                "SELECT id FROM lobby_tables WHERE (game_id IS NULL AND touched < ?) OR (game_id IS NOT NULL"
                " AND touched < ?)", (waiting_before, started_before)).fetchall()]
            for tid in ids:
                tx.execute("DELETE FROM lobby_seats WHERE table_id = ?", (tid,))
                tx.execute("DELETE FROM lobby_tables WHERE id = ?", (tid,))
        return ids

    def player_games(self, player_id: str, limit: int) -> list[tuple[str, int]]:
        """The newest `limit` (game id, seat) a player sits in, newest first."""
        with self._transaction() as tx:
            return [(gid, int(seat)) for gid, seat in tx.execute(
                "SELECT game_id, seat FROM player_games WHERE player_id = ? ORDER BY joined DESC LIMIT ?",
                (player_id, limit)).fetchall()]

    def add_player_game(self, player_id: str, game_id: str, seat: int, at: float) -> None:
        """Record that a player sits at a seat of a game begun for it outside the lobby (nothing if recorded)."""
        with self._transaction(write=True) as tx:
            tx.execute("INSERT INTO player_games (player_id, game_id, seat, joined) VALUES (?, ?, ?, ?)"
                       " ON CONFLICT DO NOTHING", (player_id, game_id, seat, at))

    # ----- chat ---------------------------------------------------------------------------------------
    def add_chat(self, game_id: str, seat: int, name: str, text: str, emote: str | None, at: float,
                 window: float, rate: int, most: int) -> dict[str, Any]:
        """Store a chat message of a game's seat; the message. ChatLimit (nothing stored) if the seat wrote
        `rate` messages since `at - window`, or the game holds `most` messages."""
        with self._transaction(write=True) as tx:
            (recent,) = tx.execute("SELECT COUNT(*) FROM chat WHERE game_id = ? AND seat = ? AND at > ?",
                                   (game_id, seat, at - window)).fetchone()
            if recent >= rate:
                raise ChatLimit(f"at most {rate} messages in {window:g} seconds; wait a moment")
            while True:
                (last,) = tx.execute("SELECT COALESCE(MAX(n), 0) FROM chat WHERE game_id = ?", (game_id,)).fetchone()
                if last >= most:
                    raise ChatLimit(f"this game's chat holds {most} messages, the most it keeps")
                if tx.execute("INSERT INTO chat (game_id, n, seat, name, text, emote, at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                              " ON CONFLICT DO NOTHING", (game_id, last + 1, seat, name, text, emote, at)).rowcount:
                    return chat_message(last + 1, seat, name, text, emote, at)

    def chat(self, game_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        """A game's messages numbered above `after`, oldest first, at most `limit`."""
        with self._transaction() as tx:
            rows = tx.execute("SELECT n, seat, name, text, emote, at FROM chat WHERE game_id = ? AND n > ?"
                              " ORDER BY n LIMIT ?", (game_id, after, limit)).fetchall()
        return [chat_message(*row) for row in rows]

    def _forget_social(self, tx: Tx, game_id: str) -> None:
        """Delete what belongs to a game being deleted: its chat and its players' seats in it."""
        tx.execute("DELETE FROM chat WHERE game_id = ?", (game_id,))
        tx.execute("DELETE FROM player_games WHERE game_id = ?", (game_id,))

    def announce(self, payload: dict[str, Any]) -> None:
        """Tell the other processes (PostgreSQL only) about a chat message or a lobby change."""
        if self.dialect.name != "postgresql":
            return
        with self._transaction() as tx:
            tx.execute("SELECT pg_notify(?, ?)", (SOCIAL_CHANNEL, json.dumps(payload, ensure_ascii=False)))


def chat_message(n: int, seat: int, name: str, text: str, emote: str | None, at: float) -> dict[str, Any]:
    """A chat message as the API gives it."""
    return {"n": int(n), "seat": int(seat), "name": name, "text": text, "emote": emote, "at": float(at)}


def hash_code(code: str) -> str:
    """The hash under which a link code is stored."""
    return hashlib.sha256(("link:" + code).encode()).hexdigest()


def _pad(code: str, size: int) -> bytes:
    """`size` key bytes drawn from a link code (HMAC-SHA256 in counter mode)."""
    out = b""
    block = 0
    while len(out) < size:
        out += hmac.new(code.encode(), f"seal:{block}".encode(), hashlib.sha256).digest()
        block += 1
    return out[:size]


def seal(token: str, code: str) -> str:
    """A token sealed with a key drawn from a one-time link code (hex); only `unseal` with that code opens it."""
    data = token.encode()
    return bytes(a ^ b for a, b in zip(data, _pad(code, len(data)))).hex()


def unseal(sealed: str, code: str) -> str:
    """The token `seal` sealed with this code."""
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _pad(code, len(data)))).decode("utf-8", "replace")
