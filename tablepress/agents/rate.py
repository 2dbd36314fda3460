"""`tablepress rate GAME`: measure a game's AI levels by a round robin with random play, into `levels.json`.

Every pair of entrants (random play and each declared level, as `level:NAME`) plays `games` two-player games
as a ladder rung (agents/ladder.py: seats alternating, a shared victory half each); the ratings are fitted
from all the pairs at once (agents/elo.py) with random play held at 1000. The file keeps the ratings, every
pair's result, the seed, the CPU time and the machine, so a rating can be traced to the games behind it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from itertools import combinations
from pathlib import Path
from typing import Any

from ..core.errors import TablepressError
from ..core.registry import get_package
from ..sim.provenance import git_commit, machine, typed_command, version
from .elo import ANCHOR_RATING, PRIOR_DRAWS, Result, fit
from .ladder import run_rung
from .level_ratings import RATINGS_FILE
from .levels import LEVEL

#: The entrant every rating is measured from.
ANCHOR = "random"
#: Levels are rated at this many players (a pairwise result needs two).
PLAYERS = 2
#: The most games a pair may be given.
MAX_GAMES = 100_000


def entrants(game_name: str) -> list[str]:
    """Random play, then each level of the game as a seat spec (`level:casual`), weakest first."""
    return [ANCHOR, *(f"{LEVEL}:{level.name}" for level in get_package(game_name).levels)]


def round_robin(game_name: str, games: int, seed: int = 0, jobs: int = 1,
                on_pair: Callable[[str, str], None] | None = None,
                on_rows: Callable[[int], None] | None = None) -> list[tuple[Result, float]]:
    """Every pair of entrants' result over `games` games, with the CPU seconds the pair took."""
    played = []
    for a, b in combinations(entrants(game_name), 2):
        if on_pair is not None:
            on_pair(a, b)
        rung = run_rung(game_name, PLAYERS, a, b, games, seed, jobs, on_rows=on_rows)
        played.append((Result(a, b, rung.games, rung.wins), rung.seconds))
    return played


def ratings_file(game_name: str, played: Sequence[tuple[Result, float]], games: int, seed: int,
                 started: float) -> dict[str, Any]:
    """What `levels.json` holds: each entrant's rating and interval, every pair, and where they come from."""
    package = get_package(game_name)
    ratings = fit([result for result, _ in played], ANCHOR)
    levels = {f"{LEVEL}:{level.name}": level for level in package.levels}
    rows = []
    for name in entrants(game_name):
        rating = ratings[name]
        level = levels.get(name)
        rows.append({"entrant": name, "level": level.name if level else None,
                     "agent": level.agent if level else name, "random_moves": level.random_moves if level else 0.0,
                     "rating": round(rating.rating, 1), "interval": [round(rating.low, 1), round(rating.high, 1)],
                     "games": rating.games})
    return {
        "game": package.name, "players": PLAYERS, "games_per_pair": games, "seed": seed,
        "anchor": {"entrant": ANCHOR, "rating": ANCHOR_RATING}, "prior_draws_per_pair": PRIOR_DRAWS,
        "method": "Elo (Bradley-Terry) by maximum likelihood over all pairs; 95% intervals from the likelihood's "
                  "curvature; a shared victory counts half",
        "ratings": rows,
        "pairs": [{"a": r.a, "b": r.b, "games": r.games, "a_score": round(r.a_score, 3),
                   "cpu_seconds": round(seconds, 1)} for r, seconds in played],
        "cpu_seconds": round(sum(seconds for _, seconds in played), 1),
        "date": datetime.fromtimestamp(started, timezone.utc).isoformat(timespec="seconds"),
        "wall_seconds": round(time.time() - started, 1),
        "machine": machine(), "tablepress": version(), "commit": git_commit(), "command": typed_command(),
    }


def rate_command(game_name: str, games: int, seed: int = 0, jobs: int = 1, out: Path | None = None) -> dict[str, Any]:
    """The `tablepress rate` command: play the round robin with a progress bar on stderr, print the ratings
    and write them to `out` (default: the game's own `levels.json`)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    package = get_package(game_name)
    package.game.check_players(PLAYERS)
    if not package.levels:
        raise TablepressError(f"{package.name} declares no AI levels to rate")
    if not 1 <= games <= MAX_GAMES:
        raise TablepressError(f"--games must be from 1 to {MAX_GAMES}, not {games}")
    if jobs < 1:
        raise TablepressError(f"--jobs must be at least 1, not {jobs}")
    target = out or package.folder / RATINGS_FILE
    if not target.resolve().parent.is_dir():
        raise TablepressError(f"{target}: the folder {target.resolve().parent} does not exist")
    pairs = len(entrants(package.name)) * (len(entrants(package.name)) - 1) // 2
    started = time.time()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games, ETA"),
               TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("rate", total=pairs * games)
        played = round_robin(package.name, games, seed, jobs,
                             on_pair=lambda a, b: progress.update(task, description=f"{package.name}: {a} v {b}"),
                             on_rows=lambda n: progress.advance(task, n))
    data = ratings_file(package.name, played, games, seed, started)
    try:
        target.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise TablepressError(f"{target}: cannot write the file ({exc.strerror or exc})") from None
    table = Table(title=f"{package.name}: ratings at {PLAYERS} players (random = {ANCHOR_RATING:g})")
    for column in ("entrant", "agent", "rating", "95% interval", "games"):
        table.add_column(column, justify="right")
    for row in data["ratings"]:
        low, high = row["interval"]
        table.add_row(row["entrant"], row["agent"] + (f" +{row['random_moves']:.0%} random" if row["random_moves"] else ""),
                      f"{row['rating']:.0f}", f"{low:.0f}–{high:.0f}", str(row["games"]))
    console = Console()
    console.print(table)
    console.print(f"{data['cpu_seconds']} CPU s; written to {target}", highlight=False)
    return data
