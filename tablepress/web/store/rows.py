"""What the store keeps, as Python values: a game's row, a saved variant, a simulation job.

Every reader here raises ValueError or TypeError when a stored field does not read (bad JSON, a seed
that is not a number); the store then logs the row (event `row_skipped`) and leaves it out.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

#: Job states: waiting for a worker, being played, finished with a summary, or stopped with a reason.
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
JOB_STATES = (QUEUED, RUNNING, DONE, FAILED)

#: The errors a stored row that does not read raises (json.JSONDecodeError is a ValueError).
UNREADABLE = (ValueError, TypeError, RecursionError)


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
    variant_name: str | None = None  # that variant's name when the game began ("custom cards" for unsaved card data)
    rematch_id: str | None = None  # the game its people play next, once one of them asked for a rematch
    revision: int = 0  # stored writes to the game since it was created (actions, undos, seat changes)
    rated: bool = False  # whether its end moves its players' ratings (a rated lobby table began it)


def read_row(gid: str, game: str, players: int, options: str, seats: str, names: str, seed: Any, variant: str | None,
             hashes: str, created: Any, status: str, scores: str | None, winners: str | None, client: str | None,
             variant_id: str | None, count: int, revision: int = 0, variant_name: str | None = None,
             rematch_id: str | None = None, rated: Any = False) -> GameRow:
    """A `games` row as a GameRow; ValueError or TypeError if a field does not read."""
    return GameRow(
        id=gid, game=game, players=int(players), options=_json(options, dict), seats=_json(seats, list),
        names=_json(names, list), seed=int(seed), variant=None if variant is None else _json(variant, dict),
        token_hashes=_json(hashes, dict), created=float(created), status=status,
        scores=None if scores is None else _json(scores, list),
        winners=None if winners is None else _json(winners, list), count=count, client=client, variant_id=variant_id,
        revision=int(revision), variant_name=None if variant_name is None else str(variant_name),
        rematch_id=None if rematch_id is None else str(rematch_id), rated=bool(rated),
    )


def read_variant(vid: str, game: str, name: str, toml: Any, overrides: str, owner: str | None = None,
                 public: Any = 1) -> dict[str, Any]:
    """A `variants` row as {"id", "game", "name", "toml", "overrides", "owner", "public"}; ValueError or TypeError
    if it does not read."""
    if not isinstance(toml, str):
        raise TypeError(f"toml: expected text, not {type(toml).__name__}")
    return {"id": vid, "game": game, "name": name, "toml": toml, "overrides": _json(overrides, dict),
            "owner": owner, "public": bool(public)}


def read_job(jid: str, request: str, status: str, done: Any, games: Any, attempt: Any, summary: str | None,
             error: str | None, created: Any, started: Any, finished: Any) -> dict[str, Any]:
    """A `sim_jobs` row as the job's dict (see Store.job); ValueError or TypeError if it does not read."""
    if status not in JOB_STATES:
        raise ValueError(f"status: {status!r} is not one of {', '.join(JOB_STATES)}")
    return {"id": jid, "request": _json(request, dict), "status": status, "done": _whole(done), "games": _whole(games),
            "attempt": _whole(attempt), "summary": None if summary is None else _json(summary, dict), "error": error,
            "created": float(created), "started": None if started is None else float(started),
            "finished": None if finished is None else float(finished)}


def dumps(value: Any) -> str:
    """The JSON text a field is stored as."""
    return json.dumps(value)


def read_token_hashes(text: str) -> dict[str, int]:
    """A game's stored `token_hashes` (token hash → seat); ValueError or TypeError if it does not read."""
    return {str(key): _whole(seat) for key, seat in _json(text, dict).items()}


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number, not {value!r}")
    return value


def _json(text: str, kind: type) -> Any:
    value = json.loads(text)
    if not isinstance(value, kind):
        raise TypeError(f"expected a JSON {kind.__name__}, not {type(value).__name__}")
    return value
