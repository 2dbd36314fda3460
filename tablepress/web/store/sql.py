"""The store's SQL, written once for both backends (`?` placeholders; PostgreSQL's connection turns them
into `%s`). A backend subclasses SqlStore and gives it transactions (`_transaction`) and its `Dialect`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from ..logs import event
from . import migrations
from .interface import Readiness, Stale
from .migrations import Dialect
from .ratings import RatingSql
from .social import SocialSql
from .rows import (DONE, FAILED, QUEUED, RUNNING, UNREADABLE, GameRow, dumps, read_job, read_row, read_token_hashes,
                   read_variant)
from .tx import Tx

log = logging.getLogger("tablepress.web")

GAME_COLUMNS = ("g.id, g.game, g.players, g.options, g.seats, g.names, g.seed, g.variant, g.token_hashes, g.created,"
                " g.status, g.scores, g.winners, g.client, g.variant_id,"
                " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id), g.revision, g.variant_name, g.rematch_id,"
                " EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id)")
JOB_COLUMNS = "id, request, status, done, games, attempt, summary, error, created, started, finished"


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (a database's error may span several)."""
    return " ".join(str(exc).split()) or type(exc).__name__


class SqlStore(SocialSql, RatingSql):
    """Every method of `interface.Store`, over the transactions a backend gives."""

    dialect: Dialect

    def __init__(self, url: str, shown: str):
        self.url = self.path = url
        self.shown = shown
        self._unreadable: set[str] = set()  # games logged as `row_skipped` already (logged once a process)

    def _transaction(self, write: bool = False) -> AbstractContextManager[Tx]:
        """A transaction, committed when the block ends and rolled back if it raises; `write`: it will write
        (SQLite then takes the write lock at once, so it never waits in the middle of the transaction)."""
        raise NotImplementedError

    def _migrate(self) -> None:
        """Refuse a damaged or newer schema, else bring it to the current version (all in one transaction)."""
        with self._transaction(write=True) as tx:
            migrations.migrate(tx, self.dialect, self.shown)

    def check(self) -> Readiness:
        """Whether the store answers now and its schema is current; never raises."""
        try:
            with self._transaction() as tx:
                version = migrations.current_version(tx, self.dialect)
        except Exception as exc:  # noqa: BLE001 - any failure means: not ready
            return Readiness(False, None, migrations.LATEST, f"{self.shown}: {one_line(exc)}")
        if version != migrations.LATEST:
            return Readiness(False, version, migrations.LATEST,
                             f"{self.shown}: schema version {version}, this tablepress needs {migrations.LATEST}")
        return Readiness(True, version, migrations.LATEST)

    # ----- games ---------------------------------------------------------------------------------
    def create_game(self, row: GameRow) -> None:
        """Insert a new game (committed when this returns)."""
        with self._transaction(write=True) as tx:
            self._insert_game(tx, row)

    def _insert_game(self, tx: Tx, row: GameRow) -> None:
        """Insert a new game's row in `tx`, announced when it commits."""
        tx.execute(
            "INSERT INTO games (id, game, players, options, seats, names, seed, variant, token_hashes,"
            " created, status, client, variant_id, variant_name, revision)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
            (row.id, row.game, row.players, dumps(row.options), dumps(row.seats), dumps(row.names), row.seed,
             None if row.variant is None else dumps(row.variant), dumps(row.token_hashes), row.created,
             row.status, row.client, row.variant_id, row.variant_name))
        self._changed(tx, row.id, 0)

    def create_rematch(self, game_id: str, row: GameRow) -> tuple[str, int]:
        """Store `row` as the rematch of game `game_id` unless it has one already (whichever process asked
        first): (the rematch's id, `game_id`'s revision now). A new rematch gets the old game's players' seats —
        each player's token hash keeps its seat in `row.token_hashes` and the game is among the player's games —
        and raises the old game's revision, so that every process tells its watchers. Stale if `game_id` is gone."""
        with self._transaction(write=True) as tx:
            found = tx.execute("SELECT rematch_id, revision, token_hashes FROM games WHERE id = ?"
                               + self.dialect.for_update, (game_id,)).fetchone()
            if found is None:
                raise Stale(f"game {game_id!r} is no longer stored", game_id, None)
            if found[0] is not None:
                return str(found[0]), int(found[1])
            try:
                seats = read_token_hashes(found[2])
            except UNREADABLE:
                seats = {}  # the rematch still begins; nobody's seat is carried over
            if seats:
                marks = ", ".join("?" * len(seats))
                players = {h for (h,) in tx.execute(f"SELECT token_hash FROM players WHERE token_hash IN ({marks})",
                                                   tuple(seats)).fetchall()}
                row.token_hashes = {h: seat for h, seat in seats.items() if h in players}
            self._insert_game(tx, row)
            tx.execute("INSERT INTO player_games (player_id, game_id, seat, joined)"
                       " SELECT player_id, ?, seat, ? FROM player_games WHERE game_id = ?", (row.id, row.created, game_id))
            return row.id, self._bump(tx, game_id, int(found[1]), ", rematch_id = ?", (row.id,))

    def has(self, game_id: str) -> bool:
        """Whether a game with this id is stored (readable or not)."""
        with self._transaction() as tx:
            return tx.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is not None

    def expire(self, open_before: float, over_before: float) -> list[str]:
        """Delete the unfinished games with no action since `open_before` and the finished ones whose last
        action was before `over_before`; return their ids (committed when this returns)."""
        last = "COALESCE((SELECT MAX(a.at) FROM actions a WHERE a.game_id = g.id), g.created)"
        with self._transaction(write=True) as tx:
            ids = [gid for (gid,) in tx.execute(
                f"SELECT g.id FROM games g WHERE (g.status != 'over' AND {last} < ?) OR (g.status = 'over' AND {last} < ?)",
                (open_before, over_before)).fetchall()]
            for gid in ids:
                tx.execute("DELETE FROM actions WHERE game_id = ?", (gid,))
                self._forget_social(tx, gid)
                self._forget_ratings(tx, gid)
                tx.execute("DELETE FROM games WHERE id = ?", (gid,))
                self._changed(tx, gid, None)
        return ids

    def append_action(self, game_id: str, index: int, seat: int, action: str, public: str, at: float,
                      status: str | None = None, scores: list[int] | None = None,
                      winners: list[int] | None = None, expect: int | None = None) -> int:
        """Append action number `index` (from 0) of a game, taken at time `at`, and its new status; the
        game's new revision (committed when this returns). Stale, storing nothing, unless the game is at
        revision `expect` (when given)."""
        with self._transaction(write=True) as tx:
            if status is None:
                revision = self._bump(tx, game_id, expect)
            else:
                revision = self._bump(tx, game_id, expect, ", status = ?, scores = ?, winners = ?",
                                      (status, None if scores is None else dumps(scores),
                                       None if winners is None else dumps(winners)))
            tx.execute("INSERT INTO actions (game_id, idx, seat, action, public, at) VALUES (?, ?, ?, ?, ?, ?)",
                       (game_id, index, seat, action, public, at))
            return revision

    def update_seats(self, game_id: str, seats: list[str], names: list[str], token_hashes: dict[str, int],
                     expect: int | None = None) -> int:
        """Store who sits where now (an AI taking over a seat); the game's new revision. Stale, storing
        nothing, unless the game is at revision `expect` (when given)."""
        with self._transaction(write=True) as tx:
            return self._bump(tx, game_id, expect, ", seats = ?, names = ?, token_hashes = ?",
                              (dumps(seats), dumps(names), dumps(token_hashes)))

    def delete_last_action(self, game_id: str, index: int, expect: int | None = None) -> int:
        """Remove action number `index` of a game (an undo); the game's new revision. RuntimeError if it is not
        the game's last action; Stale, changing nothing, unless the game is at revision `expect` (when given)."""
        with self._transaction(write=True) as tx:
            revision = self._bump(tx, game_id, expect)
            gone = tx.execute("DELETE FROM actions WHERE game_id = ? AND idx = ? AND"
                              " idx = (SELECT MAX(idx) FROM actions WHERE game_id = ?)",
                              (game_id, index, game_id)).rowcount
            if gone != 1:
                raise RuntimeError(f"action {index} of game {game_id} is not its last")
            return revision

    def _bump(self, tx: Tx, game_id: str, expect: int | None, sets: str = "", args: Sequence[Any] = ()) -> int:
        """Raise the game's revision by one (and set `sets` to `args`) if it is at `expect` (any, if None): the
        new revision, announced to the other processes when the transaction commits. Stale otherwise."""
        fence, more = ("", ()) if expect is None else (" AND revision = ?", (expect,))
        bumped = tx.execute(f"UPDATE games SET revision = revision + 1{sets} WHERE id = ?{fence}",
                            (*args, game_id, *more)).rowcount
        if bumped != 1:
            found = _revision(tx, game_id)
            if found is None:
                raise Stale(f"game {game_id!r} is no longer stored", game_id, None)
            raise Stale(f"game {game_id!r} changed meanwhile (revision {found}, not {expect})", game_id, found)
        revision = _revision(tx, game_id)
        assert revision is not None
        self._changed(tx, game_id, revision)
        return revision

    def _changed(self, tx: Tx, game_id: str, revision: int | None) -> None:
        """Tell the other processes, once `tx` commits, that a game is now at `revision` (None: deleted).
        Nothing to do here; PostgreSQL sends a notification."""

    def revisions(self) -> dict[str, int]:
        """Every stored game's revision, by id."""
        with self._transaction() as tx:
            return {gid: int(revision) for gid, revision in tx.execute("SELECT id, revision FROM games").fetchall()}

    def load_game(self, game_id: str) -> GameRow | None:
        """One stored game with all its actions (finished or not), or None if there is none or it does not
        read (then logged as `row_skipped`)."""
        return self.load_since(game_id, 0)

    def load_games(self) -> list[GameRow]:
        """Every stored game, oldest first: the actions of unfinished games, only the count of finished ones'.
        A row that does not read is logged (event `row_skipped`) and left out."""
        with self._transaction() as tx:
            games = tx.execute(f"SELECT {GAME_COLUMNS} FROM games g ORDER BY g.created, g.id").fetchall()
            actions = tx.execute(
                "SELECT game_id, seat, action, public, at FROM actions WHERE game_id IN"
                " (SELECT id FROM games WHERE status != 'over') ORDER BY game_id, idx").fetchall()
        rows: dict[str, GameRow] = {}
        for stored in games:
            try:
                rows[stored[0]] = read_row(*stored)
            except UNREADABLE as exc:
                self._skipped_game(stored[0], exc)
        for gid, seat, action, public, at in actions:
            if gid in rows:
                rows[gid].actions.append((seat, action, public, at))
        return list(rows.values())

    def load_actions(self, game_id: str) -> list[tuple[int, str, str, float]]:
        """One game's actions in order: (seat, action, public text, time)."""
        with self._transaction() as tx:
            return [tuple(r) for r in tx.execute(
                "SELECT seat, action, public, at FROM actions WHERE game_id = ? ORDER BY idx", (game_id,)).fetchall()]

    def load_since(self, game_id: str, count: int) -> GameRow | None:
        """One stored game with only its actions from number `count` on (see interface.Store.load_since)."""
        with self._transaction() as tx:
            stored = tx.execute(f"SELECT {GAME_COLUMNS} FROM games g WHERE g.id = ?", (game_id,)).fetchone()
            actions = tx.execute("SELECT seat, action, public, at FROM actions WHERE game_id = ? AND idx >= ?"
                                 " ORDER BY idx", (game_id, count)).fetchall()
        return self._row_with(game_id, stored, [tuple(a) for a in actions])

    def _row_with(self, game_id: str, stored: Sequence[Any] | None,
                  actions: list[tuple[int, str, str, float]]) -> GameRow | None:
        """The GameRow of a `games` row read with GAME_COLUMNS, holding `actions`; None (logged) if it does not read."""
        if stored is None:
            return None
        try:
            row = read_row(*stored)
        except UNREADABLE as exc:
            self._skipped_game(game_id, exc)
            return None
        row.actions = actions
        return row

    def _skipped_game(self, game_id: str, exc: BaseException) -> None:
        """Log a game row that does not read, once (it is asked for again each time someone opens it)."""
        if game_id not in self._unreadable:
            self._unreadable.add(game_id)
            skipped("game", game_id, exc)

    # ----- AI leases ------------------------------------------------------------------------------
    def take_lease(self, game_id: str, holder: str, until: float, now: float) -> bool:
        """Whether `holder` now holds the lease on moving a game's AI seats until time `until`: taken if nobody
        holds it or its holder's expired before `now`, renewed if `holder` has it already."""
        with self._transaction(write=True) as tx:
            return tx.execute(
                "INSERT INTO ai_leases (game_id, holder, expires) VALUES (?, ?, ?) ON CONFLICT (game_id) DO UPDATE"
                " SET holder = excluded.holder, expires = excluded.expires"
                " WHERE ai_leases.holder = excluded.holder OR ai_leases.expires < ?",
                (game_id, holder, until, now)).rowcount == 1

    def drop_lease(self, game_id: str, holder: str) -> None:
        """Give up `holder`'s lease on a game's AI seats (nothing if another holds it)."""
        with self._transaction(write=True) as tx:
            tx.execute("DELETE FROM ai_leases WHERE game_id = ? AND holder = ?", (game_id, holder))

    # ----- saved variants ------------------------------------------------------------------------
    def add_variant(self, variant_id: str, game: str, name: str, toml: str, overrides: dict[str, Any],
                    client: str | None, owner: str | None = None, public: bool = True) -> None:
        """Store a checked variant (committed when this returns), made by `owner` (None: nobody may delete it)."""
        with self._transaction(write=True) as tx:
            tx.execute("INSERT INTO variants (id, game, name, toml, overrides, client, created, owner, public)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (variant_id, game, name, toml, dumps(overrides), client, time.time(), owner, int(public)))

    def variant(self, variant_id: str) -> dict[str, Any]:
        """{"id", "game", "name", "toml", "overrides", "owner", "public"} of a stored variant; KeyError if there is
        none or its row does not read (then logged as `row_skipped`)."""
        with self._transaction() as tx:
            row = tx.execute("SELECT id, game, name, toml, overrides, owner, public FROM variants WHERE id = ?",
                             (variant_id,)).fetchone()
        if row is None:
            raise KeyError(variant_id)
        try:
            return read_variant(*row)
        except UNREADABLE as exc:
            skipped("variant", variant_id, exc)
            raise KeyError(variant_id) from None

    def variants_of(self, game: str, limit: int, owners: Sequence[str] = ()) -> list[dict[str, Any]]:
        """The newest `limit` variants of a game that are public or made by one of `owners`:
        {"id", "name", "created", "public", "owner"}, newest first."""
        mine = " OR owner IN (" + ", ".join("?" * len(owners)) + ")" if owners else ""
        with self._transaction() as tx:
            rows = tx.execute("SELECT id, name, created, public, owner FROM variants"
                              f" WHERE game = ? AND (public <> 0{mine}) ORDER BY created DESC LIMIT ?",
                              (game, *owners, limit)).fetchall()
        return [{"id": r[0], "name": r[1], "created": r[2], "public": bool(r[3]), "owner": r[4]} for r in rows]

    def delete_variant(self, variant_id: str, owner: str) -> bool:
        """Delete the variant `variant_id` if `owner` made it; whether it did (games keep their own card data)."""
        with self._transaction(write=True) as tx:
            return tx.execute("DELETE FROM variants WHERE id = ? AND owner = ?", (variant_id, owner)).rowcount == 1

    def set_variant_public(self, variant_id: str, owner: str, public: bool) -> bool:
        """List (`public`) or unlist the variant `variant_id` if `owner` made it; whether it did."""
        with self._transaction(write=True) as tx:
            return tx.execute("UPDATE variants SET public = ? WHERE id = ? AND owner = ?",
                              (int(public), variant_id, owner)).rowcount == 1

    def count_variants(self) -> int:
        """How many variants are stored."""
        with self._transaction() as tx:
            return tx.execute("SELECT COUNT(*) FROM variants").fetchone()[0]

    # ----- simulation jobs -----------------------------------------------------------------------
    def add_job(self, job_id: str, request: dict[str, Any], games: int, client: str | None) -> None:
        """Queue a simulation job (committed when this returns)."""
        with self._transaction(write=True) as tx:
            tx.execute("INSERT INTO sim_jobs (id, request, status, games, client, created) VALUES (?, ?, ?, ?, ?, ?)",
                       (job_id, dumps(request), QUEUED, games, client, time.time()))

    def job(self, job_id: str) -> dict[str, Any]:
        """A job's status, progress and (once done) summary; KeyError if there is none or its row does not
        read (then logged as `row_skipped`)."""
        with self._transaction() as tx:
            row = tx.execute(f"SELECT {JOB_COLUMNS} FROM sim_jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            raise KeyError(job_id)
        try:
            return read_job(*row)
        except UNREADABLE as exc:
            skipped("job", job_id, exc)
            raise KeyError(job_id) from None

    def report(self, job_id: str) -> str | None:
        """A finished job's HTML report (None before it is done); KeyError if there is no such job."""
        with self._transaction() as tx:
            row = tx.execute("SELECT report FROM sim_jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            raise KeyError(job_id)
        return row[0]

    def job_ids(self, status: str) -> list[str]:
        """The ids of the readable jobs in `status`, oldest first (a row that does not read is logged and
        left out)."""
        with self._transaction() as tx:
            rows = tx.execute(f"SELECT {JOB_COLUMNS} FROM sim_jobs WHERE status = ? ORDER BY created, id",
                              (status,)).fetchall()
        ids = []
        for row in rows:
            try:
                ids.append(read_job(*row)["id"])
            except UNREADABLE as exc:
                skipped("job", row[0], exc)
        return ids

    def count_jobs(self, *statuses: str, client: str | None = None) -> int:
        """How many jobs are in any of `statuses` (only `client`'s, if given)."""
        marks = ", ".join("?" for _ in statuses)
        mine, args = ("", ()) if client is None else (" AND client = ?", (client,))
        with self._transaction() as tx:
            return tx.execute(f"SELECT COUNT(*) FROM sim_jobs WHERE status IN ({marks}){mine}",
                              (*statuses, *args)).fetchone()[0]

    def start_job(self, job_id: str) -> int | None:
        """Claim a queued job for this process: mark it running with a fresh heartbeat; its new attempt number
        (fencing the worker's writes), or None if it is not queued (another process claimed it first)."""
        with self._transaction(write=True) as tx:
            return self._claim(tx, job_id)

    def claim_job(self) -> tuple[str, int] | None:
        """Claim the oldest queued job as `start_job` does: (id, attempt), or None when none is queued. Processes
        asking at once get different jobs (PostgreSQL skips a row another's transaction is claiming; SQLite's
        writers take turns). A queued job whose row does not read is failed, saying so, and logged."""
        with self._transaction(write=True) as tx:
            while True:
                row = tx.execute(f"SELECT {JOB_COLUMNS} FROM sim_jobs WHERE status = ? ORDER BY created, id"
                                 f" LIMIT 1{self.dialect.skip_locked}", (QUEUED,)).fetchone()
                if row is None:
                    return None
                try:
                    read_job(*row)
                except UNREADABLE as exc:
                    skipped("job", row[0], exc)
                    tx.execute("UPDATE sim_jobs SET status = ?, error = ?, finished = ? WHERE id = ?",
                               (FAILED, "its stored request does not read", time.time(), row[0]))
                    continue
                attempt = self._claim(tx, row[0])
                return None if attempt is None else (row[0], attempt)

    def _claim(self, tx: Tx, job_id: str) -> int | None:
        claimed = tx.execute(f"UPDATE sim_jobs SET status = ?, done = 0, attempt = attempt + 1, started = ?,"
                             f" heartbeat = {self.dialect.now} WHERE id = ? AND status = ?",
                             (RUNNING, time.time(), job_id, QUEUED)).rowcount
        if claimed != 1:
            return None
        return int(tx.execute("SELECT attempt FROM sim_jobs WHERE id = ?", (job_id,)).fetchone()[0])

    def beat(self, job_id: str, attempt: int) -> bool:
        """Stamp a running job's heartbeat with the database's clock; whether the job is still running this
        attempt (False: it finished, failed, or was given to another process after its heartbeat stopped)."""
        with self._transaction(write=True) as tx:
            return tx.execute(f"UPDATE sim_jobs SET heartbeat = {self.dialect.now}"
                              " WHERE id = ? AND attempt = ? AND status = ?", (job_id, attempt, RUNNING)).rowcount == 1

    def stalled_jobs(self, seconds: float) -> list[dict[str, Any]]:
        """The running jobs whose heartbeat stopped over `seconds` ago by the database's clock (or never came),
        oldest first: {"id", "attempt", "done", "games"}."""
        with self._transaction() as tx:
            rows = tx.execute(f"SELECT id, attempt, done, games FROM sim_jobs WHERE status = ? AND (heartbeat IS NULL"
                              f" OR heartbeat < {self.dialect.now} - ?) ORDER BY created, id",
                              (RUNNING, seconds)).fetchall()
        return [{"id": r[0], "attempt": int(r[1]), "done": r[2], "games": r[3]} for r in rows]

    def requeue(self, job_id: str, attempt: int | None = None, stalled: float | None = None) -> bool:
        """Put a running job back in the queue (its games start again from the first); whether it was. Only
        while it runs `attempt` (when given) and its heartbeat has stopped over `stalled` seconds (when given)."""
        fence, args = "", []
        if attempt is not None:
            fence, args = " AND attempt = ?", [attempt]
        if stalled is not None:
            fence += f" AND (heartbeat IS NULL OR heartbeat < {self.dialect.now} - ?)"
            args.append(stalled)
        with self._transaction(write=True) as tx:
            return tx.execute(f"UPDATE sim_jobs SET status = ?, done = 0 WHERE id = ? AND status = ?{fence}",
                              (QUEUED, job_id, RUNNING, *args)).rowcount == 1

    def progress(self, job_id: str, attempt: int, done: int) -> None:
        """A worker's count of games played so far."""
        with self._transaction(write=True) as tx:
            tx.execute("UPDATE sim_jobs SET done = ? WHERE id = ? AND attempt = ? AND status = ?",
                       (done, job_id, attempt, RUNNING))

    def finish(self, job_id: str, attempt: int, summary: dict[str, Any], report: str) -> None:
        """A worker's result: the summary (`simulate --json`) and the HTML report."""
        with self._transaction(write=True) as tx:
            tx.execute("UPDATE sim_jobs SET status = ?, done = games, summary = ?, report = ?, finished = ?"
                       " WHERE id = ? AND attempt = ? AND status = ?",
                       (DONE, dumps(summary), report, time.time(), job_id, attempt, RUNNING))

    def fail(self, job_id: str, reason: str, attempt: int | None = None) -> None:
        """Stop a job with a reason (only its current attempt's, when `attempt` is given)."""
        fence, args = ("", ()) if attempt is None else (" AND attempt = ?", (attempt,))
        with self._transaction(write=True) as tx:
            tx.execute(f"UPDATE sim_jobs SET status = ?, error = ?, finished = ? WHERE id = ? AND status IN (?, ?){fence}",
                       (FAILED, reason, time.time(), job_id, QUEUED, RUNNING, *args))

    def forget_jobs(self, keep: int) -> int:
        """Delete the oldest finished jobs past the newest `keep` of them; returns how many went."""
        with self._transaction(write=True) as tx:
            return tx.execute(
                "DELETE FROM sim_jobs WHERE status IN (?, ?) AND id NOT IN (SELECT id FROM sim_jobs WHERE status"
                " IN (?, ?) ORDER BY created DESC LIMIT ?)", (DONE, FAILED, DONE, FAILED, keep)).rowcount


def _revision(tx: Tx, game_id: str) -> int | None:
    row = tx.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()
    return None if row is None else int(row[0])


def skipped(kind: str, key: str, exc: BaseException) -> None:
    """Log a stored row that does not read (event `row_skipped`, naming it by its kind: game, variant, job)."""
    event(log, "row_skipped", logging.ERROR, **{kind: key}, error=f"{type(exc).__name__}: {one_line(exc)}")
