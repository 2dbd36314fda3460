"""Simulation speed: games per second per core for every game with random and greedy seats, and the
speed-up of two processes over one. Run `python -m tablepress.sim.bench [SECONDS]` (default 10 a cell).
"""

from __future__ import annotations

import resource
import sys
import time

from rich.console import Console
from rich.table import Table

from ..core.registry import game_names, get_game
from .backends import run_games
from .runner import SimSpec, play_one


def games_per_second(spec: SimSpec, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Play games of `spec` in this process for about `seconds` of CPU time; (games, games per CPU second).

    CPU time, not wall-clock time, so that the rate per core holds on a machine shared with other work.
    """
    start = time.process_time()
    games = 0
    while games == 0 or time.process_time() - start < seconds:
        play_one(spec, seed, games)
        games += 1
    return games, games / (time.process_time() - start)


def speedup(spec: SimSpec, games: int, seed: int = 0) -> list[tuple[float, float]]:
    """(wall seconds, CPU seconds of this process and its workers) for `games` games with --jobs 1 and 2.

    On a machine shared with other work the wall-clock ratio understates the gain; the CPU seconds show
    whether the pool adds work (their ratio is the speed-up on idle cores, bounded by the core count).
    """
    out = []
    for jobs in (1, 2):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu, start = time.process_time(), time.perf_counter()
        run_games(spec, seed, games, jobs=jobs)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        children = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        out.append((time.perf_counter() - start, time.process_time() - cpu + children))
    return out


def main(argv: list[str] | None = None) -> None:
    """Print the speed table."""
    args = sys.argv[1:] if argv is None else argv
    seconds = float(args[0]) if args else 10.0
    console = Console()
    table = Table(title="Simulation speed (one process, per CPU second)")
    for head in ("game", "players", "seats", "games", "games/s per core"):
        table.add_column(head, justify="right")
    for name in game_names():
        players = get_game(name).default_players
        for agent in ("random", "greedy"):
            spec = SimSpec(name, players, (agent,) * players)
            games, rate = games_per_second(spec, seconds)
            table.add_row(name, str(players), agent, str(games), f"{rate:.2f}")
    console.print(table)
    speed = Table(title="--jobs 2 over --jobs 1 (random seats)")
    for head in ("game", "games", "wall s: jobs 1", "jobs 2", "speed-up", "CPU s: jobs 1", "jobs 2 (all)",
                 "ideal speed-up"):
        speed.add_column(head, justify="right")
    for name in game_names():
        players = get_game(name).default_players
        spec = SimSpec(name, players, ("random",) * players)
        _, rate = games_per_second(spec, 1.0)
        games = max(20, int(rate * seconds))
        (wall1, cpu1), (wall2, cpu2) = speedup(spec, games)
        speed.add_row(name, str(games), f"{wall1:.2f}", f"{wall2:.2f}", f"{wall1 / wall2:.2f}×", f"{cpu1:.2f}",
                      f"{cpu2:.2f}", f"{2 * cpu1 / cpu2:.2f}×")
    console.print(speed)


if __name__ == "__main__":
    main()
