"""The store's interface: everything the server keeps, whichever database keeps it.

The hub (games and their actions) and the workshop (saved variants, simulation jobs) use only these
methods; `sqlite.SqliteStore` and `postgres.PostgresStore` implement them with the SQL of `sql.SqlStore`.
Every write goes through a method here and is committed when it returns; every write to a game bumps
that game's `revision`, so a process holding a game in memory can tell whether another one changed it. A
write to a game may name the revision it expects (`expect`): the store then makes it only if the game is
still at that revision (compare-and-set), else raises Stale and writes nothing — of two processes acting
on one game at once, one wins and the other learns it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ...core.errors import TablepressError
from .rows import GameRow
from .ratings import RatingStore
from .social import SocialStore


class Stale(TablepressError):
    """A conditional write to a game was refused: the game is no longer at the revision the writer read
    (another process wrote to it first), or no longer stored. Nothing was written."""

    def __init__(self, message: str, game_id: str, revision: int | None):
        super().__init__(message)
        self.game_id = game_id
        self.revision = revision  # the stored revision found (None: the game is gone)


@dataclass(frozen=True)
class Readiness:
    """Whether the store answers and its schema is the one this code expects (for `/readyz`)."""

    ok: bool
    version: int | None  # the schema version found (None: the store did not answer)
    expected: int  # the schema version this code writes
    reason: str = ""  # why not, on one line (empty when ok)


class Store(SocialStore, RatingStore, Protocol):
    """Games, actions, saved variants and simulation jobs (and players, tables and chat: `social.SocialStore`;
    ratings: `ratings.RatingStore`), kept in one database."""

    #: What `open_store` takes to open this store again (a SQLite file's path or a PostgreSQL URL).
    url: str
    #: The same as `url`: a job's worker process reopens the store from it.
    path: str
    #: `url` with any password hidden, for messages and logs.
    shown: str

    def check(self) -> Readiness:
        """Whether the store answers now and its schema is current; never raises."""
        ...

    def close(self) -> None:
        """Close the store's connections (a second close does nothing)."""
        ...

    # ----- games ---------------------------------------------------------------------------------
    def create_game(self, row: GameRow) -> None:
        """Insert a new game (committed when this returns)."""
        ...

    def has(self, game_id: str) -> bool:
        """Whether a game with this id is stored (readable or not)."""
        ...

    def expire(self, open_before: float, over_before: float) -> list[str]:
        """Delete the unfinished games with no action since `open_before` and the finished ones whose last
        action was before `over_before`; return their ids (committed when this returns)."""
        ...

    def append_action(self, game_id: str, index: int, seat: int, action: str, public: str, at: float,
                      status: str | None = None, scores: list[int] | None = None,
                      winners: list[int] | None = None, expect: int | None = None) -> int:
        """Append action number `index` (from 0) of a game, taken at time `at`, and its new status; the
        game's new revision (committed when this returns). Stale, storing nothing, unless the game is at
        revision `expect` (when given)."""
        ...

    def update_seats(self, game_id: str, seats: list[str], names: list[str], token_hashes: dict[str, int],
                     expect: int | None = None) -> int:
        """Store who sits where now (an AI taking over a seat); the game's new revision. Stale, storing
        nothing, unless the game is at revision `expect` (when given)."""
        ...

    def delete_last_action(self, game_id: str, index: int, expect: int | None = None) -> int:
        """Remove action number `index` of a game (an undo); the game's new revision. RuntimeError if it is not
        the game's last action; Stale, changing nothing, unless the game is at revision `expect` (when given)."""
        ...

    def revisions(self) -> dict[str, int]:
        """Every stored game's revision, by id."""
        ...

    def load_game(self, game_id: str) -> GameRow | None:
        """One stored game with all its actions (finished or not), or None if there is none or it does not
        read (then logged as `row_skipped`)."""
        ...

    def load_games(self) -> list[GameRow]:
        """Every stored game, oldest first: the actions of unfinished games, only the count of finished ones'.
        A row that does not read is logged (event `row_skipped`) and left out."""
        ...

    def load_actions(self, game_id: str) -> list[tuple[int, str, str, float]]:
        """One game's actions in order: (seat, action, public text, time)."""
        ...

    def create_rematch(self, game_id: str, row: GameRow) -> tuple[str, int]:
        """Store `row` as the rematch of game `game_id` unless it has one already (whichever process asked
        first): (the rematch's id, `game_id`'s revision now). A new rematch gets the old game's players' seats
        (their token hashes in `row.token_hashes`, and the game among their games) and raises the old game's
        revision. Stale if `game_id` is gone."""
        ...

    def load_since(self, game_id: str, count: int) -> GameRow | None:
        """One stored game with only its actions from number `count` (from 0) on, in order, or None if there
        is none or it does not read. Every write to a game raises its revision by exactly one and an append adds
        exactly one action, so a game `k` revisions on with `k` actions past `count` was only appended to."""
        ...

    # ----- AI leases ------------------------------------------------------------------------------
    def take_lease(self, game_id: str, holder: str, until: float, now: float) -> bool:
        """Whether `holder` now holds the lease on moving a game's AI seats until time `until`: taken if nobody
        holds it or its holder's expired before `now`, renewed if `holder` has it already."""
        ...

    def drop_lease(self, game_id: str, holder: str) -> None:
        """Give up `holder`'s lease on a game's AI seats (nothing if another holds it)."""
        ...

    # ----- saved variants ------------------------------------------------------------------------
    def add_variant(self, variant_id: str, game: str, name: str, toml: str, overrides: dict[str, Any],
                    client: str | None, owner: str | None = None, public: bool = True) -> None:
        """Store a checked variant (committed when this returns), made by `owner` (None: nobody may delete it)."""
        ...

    def variant(self, variant_id: str) -> dict[str, Any]:
        """{"id", "game", "name", "toml", "overrides", "owner", "public"} of a stored variant; KeyError if there is
        none or its row does not read (then logged as `row_skipped`)."""
        ...

    def variants_of(self, game: str, limit: int, owners: Sequence[str] = ()) -> list[dict[str, Any]]:
        """The newest `limit` variants of a game that are public or made by one of `owners`:
        {"id", "name", "created", "public", "owner"}, newest first."""
        ...

    def delete_variant(self, variant_id: str, owner: str) -> bool:
        """Delete the variant `variant_id` if `owner` made it; whether it did (games keep their own card data)."""
        ...

    def set_variant_public(self, variant_id: str, owner: str, public: bool) -> bool:
        """List (`public`) or unlist the variant `variant_id` if `owner` made it; whether it did."""
        ...

    def count_variants(self) -> int:
        """How many variants are stored."""
        ...

    # ----- simulation jobs -----------------------------------------------------------------------
    def add_job(self, job_id: str, request: dict[str, Any], games: int, client: str | None) -> None:
        """Queue a simulation job (committed when this returns)."""
        ...

    def job(self, job_id: str) -> dict[str, Any]:
        """A job's status, progress and (once done) summary; KeyError if there is none or its row does not
        read (then logged as `row_skipped`)."""
        ...

    def report(self, job_id: str) -> str | None:
        """A finished job's HTML report (None before it is done); KeyError if there is no such job."""
        ...

    def job_ids(self, status: str) -> list[str]:
        """The ids of the readable jobs in `status`, oldest first (a row that does not read is logged and
        left out)."""
        ...

    def count_jobs(self, *statuses: str, client: str | None = None) -> int:
        """How many jobs are in any of `statuses` (only `client`'s, if given)."""
        ...

    def start_job(self, job_id: str) -> int | None:
        """Claim a queued job for this process: mark it running with a fresh heartbeat; its new attempt number
        (fencing the worker's writes), or None if it is not queued (another process claimed it first)."""
        ...

    def claim_job(self) -> tuple[str, int] | None:
        """Claim the oldest queued job as `start_job` does: (id, attempt), or None when none is queued. Processes
        asking at once get different jobs. A queued job whose row does not read is failed, saying so, and logged."""
        ...

    def beat(self, job_id: str, attempt: int) -> bool:
        """Stamp a running job's heartbeat with the database's clock; whether the job is still running this
        attempt (False: it finished, failed, or was given to another process after its heartbeat stopped)."""
        ...

    def stalled_jobs(self, seconds: float) -> list[dict[str, Any]]:
        """The running jobs whose heartbeat stopped over `seconds` ago by the database's clock (or never came),
        oldest first: {"id", "attempt", "done", "games"}."""
        ...

    def requeue(self, job_id: str, attempt: int | None = None, stalled: float | None = None) -> bool:
        """Put a running job back in the queue (its games start again from the first); whether it was. Only
        while it runs `attempt` (when given) and its heartbeat has stopped over `stalled` seconds (when given)."""
        ...

    def progress(self, job_id: str, attempt: int, done: int) -> None:
        """A worker's count of games played so far."""
        ...

    def finish(self, job_id: str, attempt: int, summary: dict[str, Any], report: str) -> None:
        """A worker's result: the summary (`simulate --json`) and the HTML report."""
        ...

    def fail(self, job_id: str, reason: str, attempt: int | None = None) -> None:
        """Stop a job with a reason (only its current attempt's, when `attempt` is given)."""
        ...

    def forget_jobs(self, keep: int) -> int:
        """Delete the oldest finished jobs past the newest `keep` of them; returns how many went."""
        ...
