"""What `tablepress tune` costs (run with `make bench` or `pytest --benchmark-enable -m benchmark`); never asserted.

Each case tunes one field with a small budget and reports, in the benchmark's extra info (and printed):
games per CPU second, CPU seconds per candidate, and tune's CPU per game over one plain simulation of
the same number of games (the price of many small runs: a pool and a summary per candidate and round).
CPU time (this process and its finished workers) holds on a loaded machine; the wall clock does not.
"""

from __future__ import annotations

import io
import time

import pytest
from rich.console import Console

from tablepress.sim.backends import cpu_seconds
from tablepress.sim.service import Arm, run_simulation
from tablepress.sim.tune_command import prepare, run_tune

CASES = [
    ("flowers", "scoring.region_min=2..9", "random", 2, 400),
    ("by-this", "rules.close_min.3=3..5", "greedy", 3, 120),
]


def _cpu(work) -> tuple[float, float, object]:
    """(CPU seconds, wall seconds, result) of work()."""
    cpu, wall = cpu_seconds(), time.perf_counter()
    result = work()
    return cpu_seconds() - cpu, time.perf_counter() - wall, result


@pytest.mark.benchmark
@pytest.mark.parametrize(("game", "vary", "seats", "players", "budget"), CASES)
@pytest.mark.parametrize("jobs", [1, 2])
def test_bench_tune_cost(benchmark, game: str, vary: str, seats: str, players: int, budget: int, jobs: int) -> None:
    setup = prepare(game, [vary], "first-player-fair", budget, seats, players, {}, 1, budget // 10, "local", None)
    games = setup.search_games() + 2 * setup.verify
    quiet = Console(file=io.StringIO())
    cpu, wall, result = benchmark.pedantic(lambda: _cpu(lambda: run_tune(setup, jobs, "local", None, quiet)),
                                           rounds=1, iterations=1)
    plain_cpu, _, _ = _cpu(lambda: run_simulation(game, games, [Arm("published cards")], 1, seats, players,
                                                  jobs=jobs))
    info = {"games": games, "candidates": len(setup.pool), "games per CPU s": round(games / cpu, 1),
            "CPU s per candidate": round(cpu / len(setup.pool), 3), "wall s": round(wall, 2),
            "CPU over one plain simulate": round(cpu / plain_cpu, 2)}
    benchmark.extra_info.update(info)
    print(f"\ntune {game} {seats} x{players}, jobs {jobs}: {info}")
    assert result.ranking
