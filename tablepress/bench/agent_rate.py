"""Whole self-play games with one agent spec in every seat, timed in CPU seconds.

Imported by `tablepress bench`, and run as a script by `bench --against` with another tree first on the
path (`python agent_rate.py TREE GAME PLAYERS SPEC SECONDS SEED [GAMES]` prints {"games", "decisions",
"seconds"} as JSON), so it uses only what every tablepress tree has: the registry, `Match` and `make_agent`.
"""

from __future__ import annotations

import contextlib
import json
import random
import sys
import time


def agent_games(game, players: int, spec: str, seconds: float = 2.0, seed: int = 0,
                games_wanted: int | None = None) -> tuple[int, int, float]:
    """(games, decisions, CPU seconds) of whole games with `spec` in every seat, through `Match`, for about
    `seconds` of CPU time (at least one game), or exactly `games_wanted` games when given. Setting up agents
    is included."""
    from tablepress.agents.base import make_agent
    from tablepress.core.match import Match

    try:
        from tablepress.core.collector import games_running
    except ImportError:  # a tree from before runs of games set the collector: timed as it ran
        games_running = contextlib.nullcontext
    rng = random.Random(seed)
    games = decisions = 0
    start = time.process_time()
    with games_running():
        while (games < games_wanted if games_wanted is not None
               else time.process_time() - start < seconds or games == 0):
            match = Match(game, players, rng.getrandbits(32))
            agents = [make_agent(spec, rng.getrandbits(32)) for _ in range(players)]
            while not match.is_over:
                seat = match.next_mover()
                match.act(seat, agents[seat].choose(match.seat_info(seat)))
                decisions += 1
            games += 1
    return games, decisions, time.process_time() - start


def main(argv: list[str]) -> None:
    """Time `SPEC` games of `GAME` with the tree `TREE` (which must be the tablepress imported) and print JSON;
    an optional last argument `GAMES` plays exactly that many games instead of `SECONDS`."""
    tree, name, players, spec, seconds, seed, *wanted = argv
    import tablepress
    from tablepress.core.registry import get_game

    if not tablepress.__file__.startswith(tree):
        raise SystemExit(f"imported tablepress from {tablepress.__file__}, not from {tree}")
    games, decisions, used = agent_games(get_game(name), int(players), spec, float(seconds), int(seed),
                                         int(wanted[0]) if wanted else None)
    print(json.dumps({"games": games, "decisions": decisions, "seconds": used}))


if __name__ == "__main__":
    main(sys.argv[1:])
