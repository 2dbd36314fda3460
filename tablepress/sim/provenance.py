"""Where a run's numbers come from: the tablepress version (and git commit when known), the command line,
the run seed and each game's seed, seats, players, the time taken and the machine.

Every simulate output carries it (`--json`'s `provenance`, the terminal's last lines, the HTML report's
head), so a number can be traced back to the run that made it and that run repeated.
"""

from __future__ import annotations

import os
import platform
import shlex
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .runner import game_seed

#: Up to this many games the per-game seeds are listed in full; above it the first few and the rule.
SEEDS_LISTED = 1000
SEED_RULE = ("game i (counted from 0) plays seed tablepress.core.rng.derive_seed(RUN_SEED, i); every arm, "
             "variant and player count of the run plays the same game seeds")


def version() -> str:
    """The installed tablepress version (the package's own when it is not installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("tablepress")
    except PackageNotFoundError:
        from .. import __version__

        return __version__


def git_commit(folder: Path | None = None) -> str | None:
    """The git commit of the source tree tablepress runs from (with `+changes` when it has uncommitted
    edits), or None when git or the repository is absent."""
    where = folder or Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=where, capture_output=True, text=True, timeout=5)
        if head.returncode != 0:
            return None
        commit = head.stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "tablepress"],
                               cwd=where, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + ("+changes" if dirty.returncode == 0 and dirty.stdout.strip() else "")


def machine() -> dict[str, Any]:
    """Cores, platform, Python version and the load average (None where the system has none)."""
    try:
        load = [round(v, 2) for v in os.getloadavg()]
    except (OSError, AttributeError):
        load = None
    return {"cores": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
            "implementation": platform.python_implementation(), "load_average": load}


def typed_command() -> str | None:
    """The command line as typed, when this process is the `tablepress` command (not a test or a server)."""
    program = Path(sys.argv[0]).name if sys.argv else ""
    if program in ("tablepress", "tablepress.exe") or program == "__main__.py" and "tablepress" in sys.argv[0]:
        return shlex.join(["tablepress", *sys.argv[1:]])
    return None


def rerun_command(game: str, games: int, seed: int, seats: str | None, players: int | Sequence[int] | None,
                  options: Mapping[str, Any] | None = None, extra: Sequence[str] = ()) -> str:
    """A command line that repeats the run exactly (the run seed filled in), from its parsed arguments."""
    parts = ["tablepress", "simulate", game, "-n", str(games), "--seed", str(seed)]
    if seats:
        parts += ["--seats", seats]
    if players:
        parts += ["--players", ",".join(map(str, players)) if isinstance(players, Sequence) else str(players)]
    for key, value in (options or {}).items():
        shown = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
        parts += ["--option", f"{key}={shown}"]
    return shlex.join([*parts, *extra])


def game_seeds(run_seed: int, games: int) -> dict[str, Any]:
    """The per-game seeds: the rule that derives them and the list (the first SEEDS_LISTED in a longer run)."""
    listed = min(games, SEEDS_LISTED)
    return {"rule": SEED_RULE.replace("RUN_SEED", str(run_seed)), "complete": listed == games,
            "seeds": [game_seed(run_seed, index) for index in range(listed)]}


def collect(game: str, games: int, players: int | Sequence[int], run_seed: int, seats: Sequence[str],
            started: float, command: str | None = None, rerun: str | None = None,
            jobs: int | None = None, backend: str = "local", extra_games: int = 0) -> dict[str, Any]:
    """The provenance of a run that began at `started` (`time.time()`) and ends now.

    `extra_games` counts games played besides the run's own (the skill-gap check of a comparison).
    """
    finished = time.time()
    return {"tablepress": version(), "commit": git_commit(), "command": command or typed_command(),
            "rerun": rerun, "game": game, "games": games, "extra_games": extra_games, "players": players,
            "seats": list(seats), "seed": run_seed, "game_seeds": game_seeds(run_seed, games),
            "jobs": jobs, "backend": backend,
            "started": datetime.fromtimestamp(started, timezone.utc).isoformat(timespec="seconds"),
            "seconds": round(finished - started, 3), "machine": machine()}


def provenance_lines(prov: Mapping[str, Any]) -> list[str]:
    """The provenance as a few plain lines for the terminal and the report's head."""
    mach = prov.get("machine") or {}
    load = mach.get("load_average")
    commit = prov.get("commit")
    seeds = prov.get("game_seeds") or {}
    extra = f" (+{prov['extra_games']} for the skill gap)" if prov.get("extra_games") else ""
    lines = [f"tablepress {prov.get('tablepress')}" + (f", commit {commit}" if commit else ", commit unknown")
             + f"; {prov.get('games')} games{extra} in {prov.get('seconds')} s, started {prov.get('started')}",
             f"machine: {mach.get('cores')} cores, {mach.get('platform')}, Python {mach.get('python')}"
             + (f", load average {' '.join(str(v) for v in load)}" if load else ""),
             f"seed {prov.get('seed')}; players {prov.get('players')}; seats {', '.join(prov.get('seats') or [])}; "
             f"per-game seeds: {seeds.get('rule', '')}"]
    if prov.get("command"):
        lines.append(f"command: {prov['command']}")
    if prov.get("rerun"):
        lines.append(f"to repeat: {prov['rerun']}")
    return lines
