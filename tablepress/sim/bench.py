"""Simulation speed: games per second per core for every game with random and greedy seats, and the
speed-up of two processes over one. Run `python -m tablepress.sim.bench [SECONDS]` (default 10 a cell).
"""

from __future__ import annotations

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


def speedup(spec: SimSpec, games: int, seed: int = 0) -> tuple[float, float]:
    """Wall-clock seconds for `games` games with --jobs 1 and with --jobs 2."""
    times = []
    for jobs in (1, 2):
        start = time.perf_counter()
        run_games(spec, seed, games, jobs=jobs)
        times.append(time.perf_counter() - start)
    return times[0], times[1]


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
    for head in ("game", "games", "jobs 1 s", "jobs 2 s", "speed-up"):
        speed.add_column(head, justify="right")
    for name in game_names():
        players = get_game(name).default_players
        spec = SimSpec(name, players, ("random",) * players)
        _, rate = games_per_second(spec, 1.0)
        games = max(20, int(rate * seconds))
        one, two = speedup(spec, games)
        speed.add_row(name, str(games), f"{one:.2f}", f"{two:.2f}", f"{one / two:.2f}×")
    console.print(speed)


if __name__ == "__main__":
    main()
