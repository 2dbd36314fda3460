"""Speed, for any game: `tablepress bench`, the one benchmark.

- Machine: cores, load average and Python, printed first: the figures are only comparable beside them.
- Engine: uniformly random games back to back, actions and whole games per CPU second (legal_actions and
  apply_legal only: the engine's own speed).
- Agents: whole games per CPU second with `greedy` and with `ismcts:300` in every seat (through `Match`),
  and ISMCTS iterations per CPU second on positions from random games.
- Simulator (`--simulator`): games per CPU second through `tablepress simulate`'s runner with random
  and greedy seats, and what `--jobs 2` does against `--jobs 1`.
- Research (`--research`, the rl extra): our engines and ISMCTS against OpenSpiel's (`bench.research`,
  imported only then).

Speed is measured, never asserted. Every rate is per CPU second of this process (`time.process_time`),
so it holds on a machine shared with other work; the load average says how shared it was.
"""

from __future__ import annotations

import os
import platform
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rich.table import Table

from ..agents.base import make_agent
from ..agents.ismcts import IsmctsAgent
from ..core.collector import games_running
from ..core.errors import TablepressError
from ..core.game import Game
from ..core.match import Match, random_playout
from ..core.registry import game_names, get_game
from ..sim.backends import cpu_seconds, run_games
from ..sim.runner import SimSpec, play_one
from . import agent_rate
from .engine import BenchResult, random_playouts


#: The agents whose whole-game speed `tablepress bench` reports (the same spec in every seat).
AGENT_SPECS = ("greedy", "ismcts:300")


def agent_games(game: Game, players: int, spec: str, seconds: float = 2.0, seed: int = 0) -> BenchResult:
    """Play whole games with the agent `spec` in every seat, through `Match`, for about `seconds` of CPU
    time (at least one game); `actions` counts the agents' decisions. Setting up agents is included."""
    games, decisions, used = agent_rate.agent_games(game, players, spec, seconds, seed)
    return BenchResult(game.name, players, games, decisions, used)


def machine() -> dict[str, str]:
    """What the figures were measured on: cores, load average now, Python and platform."""
    try:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "unknown"
    return {
        "cores": str(os.cpu_count() or "unknown"),
        "load average (1, 5, 15 min)": load,
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
    }


def machine_table(note: str = "") -> Table:
    """The machine (cores, load average) as a small table; `note` says when it was read."""
    table = Table(title=f"Machine{note}")
    table.add_column("what")
    table.add_column("value")
    for what, value in machine().items():
        table.add_row(what, value)
    return table


@dataclass
class SearchSpeed:
    """ISMCTS speed in one game at one player count."""

    game: str
    players: int
    decisions: int
    iterations: int
    seconds: float

    @property
    def iterations_per_second(self) -> float:
        """Search iterations (determinize, select, expand, cut off, back up) per CPU second."""
        return self.iterations / self.seconds if self.seconds else 0.0


#: The ISMCTS budget whose iterations per second the bench reports.
SEARCH_BUDGET = 300


def ismcts_speed(game: Game, players: int, seconds: float = 2.0, seed: int = 0,
                 budget: int = SEARCH_BUDGET) -> SearchSpeed:
    """Run `ismcts:budget` decisions on positions taken at random points of random games for about `seconds`
    of CPU time."""
    rng = random.Random(seed)
    agent = IsmctsAgent(seed=seed, budget=budget)
    speed = SearchSpeed(game.name, players, 0, 0, 0.0)

    def search(match: Match, seat: int, legal: list[str]) -> None:
        if speed.seconds >= seconds and speed.decisions:
            return
        if len(legal) > 1 and rng.random() < 0.05 + 0.2 * stop:
            start = time.process_time()
            agent.choose(match.seat_info(seat))
            speed.seconds += time.process_time() - start
            speed.decisions += 1
            speed.iterations += agent.last_iterations

    with games_running():
        while speed.seconds < seconds or speed.decisions == 0:
            match = Match(game, players, rng.getrandbits(32))
            stop = rng.random()
            random_playout(match, rng, search)
    return speed


def simulated_games_per_second(spec: SimSpec, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Play games of `spec` with the simulator in this process for about `seconds` of CPU time;
    (games, games per CPU second): CPU time, so that the rate per core holds on a shared machine."""
    start = time.process_time()
    games = 0
    with games_running():
        while games == 0 or time.process_time() - start < seconds:
            play_one(spec, seed, games)
            games += 1
    return games, games / (time.process_time() - start)


def pool_speedup(spec: SimSpec, games: int, seed: int = 0) -> list[tuple[float, float]]:
    """(wall seconds, CPU seconds of this process and its workers) for `games` games with --jobs 1 and 2.

    On a machine shared with other work the wall-clock ratio understates the gain; the CPU seconds show
    whether the pool adds work (their ratio is the speed-up on idle cores, bounded by the core count).
    """
    out = []
    for jobs in (1, 2):
        cpu, start = cpu_seconds(), time.perf_counter()
        run_games(spec, seed, games, jobs=jobs)
        out.append((time.perf_counter() - start, cpu_seconds() - cpu))
    return out


def player_counts(game: Game, players: str | None) -> list[int]:
    """The player counts to measure: `players` ("2,4"), or the game's fewest (at least 2) and most."""
    if not players:
        return sorted({max(game.min_players, 2), game.max_players})
    try:
        counts = [int(p) for p in players.split(",")]
    except ValueError:
        raise TablepressError(f"--players takes counts such as 2,4, not {players!r}") from None
    for count in counts:
        game.check_players(count)
    return counts


def bench_tables(games: Sequence[str] | None, players: str | None, seconds: float, ismcts: bool = True,
                 research: bool = False, simulator: bool = False, against: str | None = None) -> Iterator[Table]:
    """The `tablepress bench` tables, each yielded once measured; bad input raises TablepressError.

    First the machine, then per game and player count: random play, whole games of each of
    `AGENT_SPECS` (ismcts only with `ismcts`) and ISMCTS iterations, all per CPU second; then the
    machine again (the load may have changed while measuring). With `against` (a git revision), the agent
    game rates of that commit beside this code's, measured alternately (`bench.against`).
    """
    chosen = [get_game(name) for name in (games or game_names())]
    plan = [(game, player_counts(game, players)) for game in chosen]
    if against is not None:
        from .against import against_table, resolve

        resolve(against)  # a wrong revision is one line before anything is measured
    yield machine_table(" (before)")
    specs = [spec for spec in AGENT_SPECS if ismcts or not spec.startswith("ismcts")]
    table = Table(title="Speed per CPU second: random play, whole agent games, search")
    for column in ("game", "players", "random actions/s", "random games/s",
                   *(f"{spec} games/s" for spec in specs), *([f"ismcts:{SEARCH_BUDGET} it/s"] if ismcts else [])):
        table.add_column(column, justify="right")
    for game, counts in plan:
        for count in counts:
            result = random_playouts(game, count, seconds)
            agents = [agent_games(game, count, spec, seconds) for spec in specs]
            search = ismcts_speed(game, count, seconds) if ismcts else None
            table.add_row(game.name, str(count), f"{result.actions_per_second:,.0f}",
                          f"{result.games_per_second:,.1f}",
                          *(_rate(agent.games_per_second) for agent in agents),
                          *([f"{search.iterations_per_second:,.0f}"] if search else []))
    yield table
    if against is not None:
        yield against_table(against, [(game.name, counts) for game, counts in plan], specs, seconds)
    if simulator:
        yield from simulator_tables(plan, seconds)
    if research:
        try:
            from .research import tables as research_tables
        except ModuleNotFoundError as exc:
            if (exc.name or "").partition(".")[0] not in ("pyspiel", "open_spiel"):
                raise
            raise TablepressError("--research needs OpenSpiel: pip install 'tablepress[rl]'") from None
        yield from research_tables([game.name for game in chosen], seconds=min(seconds, 1.0))
    yield machine_table(" (after)")


def _rate(per_second: float) -> str:
    """A rate with two significant digits below 10 and none above (0.43, 2.7, 62)."""
    return f"{per_second:.2g}" if per_second < 10 else f"{per_second:,.0f}"


def simulator_tables(plan: Sequence[tuple[Game, Sequence[int]]], seconds: float) -> Iterator[Table]:
    """Simulator games per CPU second (random and greedy seats), then --jobs 2 against --jobs 1."""
    rates = Table(title="Simulation speed (one process, per CPU second)")
    for head in ("game", "players", "seats", "games", "games/s per core"):
        rates.add_column(head, justify="right")
    for game, counts in plan:
        for count in counts:
            for agent in ("random", "greedy"):
                games, rate = simulated_games_per_second(SimSpec(game.name, count, (agent,) * count), seconds)
                rates.add_row(game.name, str(count), agent, str(games), f"{rate:.2f}")
    yield rates
    pool = Table(title="--jobs 2 over --jobs 1 (random seats)")
    for head in ("game", "players", "games", "wall s: jobs 1", "jobs 2", "speed-up", "CPU s: jobs 1",
                 "jobs 2 (all)", "ideal speed-up"):
        pool.add_column(head, justify="right")
    for game, counts in plan:
        for count in counts:
            spec = SimSpec(game.name, count, ("random",) * count)
            _, rate = simulated_games_per_second(spec, min(seconds, 1.0))
            games = max(20, int(rate * seconds))
            (wall1, cpu1), (wall2, cpu2) = pool_speedup(spec, games)
            pool.add_row(game.name, str(count), str(games), f"{wall1:.2f}", f"{wall2:.2f}", f"{wall1 / wall2:.2f}×",
                         f"{cpu1:.2f}", f"{cpu2:.2f}", f"{2 * cpu1 / cpu2:.2f}×")
    yield pool
