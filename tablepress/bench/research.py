"""Research benchmark: our engines and ISMCTS against OpenSpiel's, side by side in one run.

1. Search: on the same positions (random points of seeded random games, reached in both worlds by the
   same action indices, OpenSpiel's chance nodes taking the outcomes the seeded engine drew), our
   `IsmctsAgent` and OpenSpiel's Python `ISMCTSBot` run the same number of iterations per decision.
   OpenSpiel's bot rolls every iteration out to the end with a random rollout
   (`RandomRolloutEvaluator(1)`); ours is measured twice: as shipped (heuristic cut-off at the leaf)
   and with a full random rollout like OpenSpiel's. Iterations per second for each.
2. Random play: random-play actions per second of our engines (direct, `bench.engine.random_playouts`), of our
   games through the OpenSpiel adapter, and of OpenSpiel's `python_block_dominoes` (a Python game in
   OpenSpiel's own repository); only decisions count as actions, chance steps are timed but not counted.

Run `tablepress bench --research` (needs the rl extra: OpenSpiel).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as spiel_ismcts
from open_spiel.python.algorithms import mcts as spiel_mcts
from open_spiel.python.games import block_dominoes  # noqa: F401  (registers python_block_dominoes)
from rich.table import Table

from ..agents.ismcts import IsmctsAgent
from ..core.game import Game
from ..core.match import Match
from ..core.registry import game_names, get_game
from ..rl import openspiel as tos
from .engine import random_playouts

FULL_ROLLOUT = 10_000


@dataclass
class SearchRow:
    """Iterations per second of three searches over the same positions of one game."""

    game: str
    players: int
    positions: int
    budget: int
    ours: float
    ours_rollout: float
    openspiel: float


@dataclass
class PlayRow:
    """Random-play decisions per second of one game, measured one way."""

    label: str
    actions_per_second: float


def positions(game: Game, players: int, count: int, seed: int) -> list[tuple[int, list[int]]]:
    """`count` positions with a choice to make: (deal seed < 2**32, action indices from the start).

    Each step is a random action that has an id in the game's fixed action space, so OpenSpiel can replay it.
    """
    from ..rl.spaces import spaces

    rng = random.Random(seed)
    actions = spaces(game, players).actions
    found: list[tuple[int, list[int]]] = []
    while len(found) < count:
        deal = rng.getrandbits(32)
        match = Match(game, players, deal)
        stop = rng.randrange(1, 60)
        path: list[int] = []
        while not match.is_over and len(path) < stop:
            seat = match.next_mover()
            legal = match.legal(seat)
            ids = actions.ids(game.view(match.state, seat), seat, legal)
            index = rng.choice([i for i, found_id in enumerate(ids) if found_id is not None])  # OpenSpiel can play it
            match.act(seat, legal[index])
            path.append(index)
        if not match.is_over and len(match.legal(match.next_mover())) > 1:
            found.append((deal, path))
    return found


def _engine_match(game: Game, players: int, deal: int, path: list[int]) -> Match:
    match = Match(game, players, deal)
    for index in path:
        seat = match.next_mover()
        match.act(seat, match.legal(seat)[index])
    return match


def search_speed(name: str, players: int = 2, budget: int = 50, count: int = 4, seed: int = 0) -> SearchRow:
    """Our ISMCTS (as shipped, and with full random rollouts) and OpenSpiel's, same positions and budget."""
    game = get_game(name)
    spiel_game = pyspiel.load_game(tos.short_name(game), {"players": players})
    found = positions(game, players, count, seed)
    timings = {"ours": 0.0, "ours_rollout": 0.0, "openspiel": 0.0}
    for deal, path in found:
        match = _engine_match(game, players, deal, path)
        seat = match.next_mover()
        for key, depth in (("ours", 0), ("ours_rollout", FULL_ROLLOUT)):
            agent = IsmctsAgent(seed=seed, budget=budget, rollout_depth=depth)
            start = time.perf_counter()
            agent.choose(match.seat_info(seat))
            timings[key] += time.perf_counter() - start
        spiel_state = tos.from_engine_game(spiel_game, deal, path)
        rng = np.random.RandomState(seed)
        bot = spiel_ismcts.ISMCTSBot(spiel_game, spiel_mcts.RandomRolloutEvaluator(1, rng), 2.0,
                                     max_simulations=budget, random_state=rng)
        start = time.perf_counter()
        bot.run_search(spiel_state)
        timings["openspiel"] += time.perf_counter() - start
    iterations = budget * len(found)
    return SearchRow(name, players, len(found), budget,
                     *(iterations / timings[key] for key in ("ours", "ours_rollout", "openspiel")))


def spiel_random_play(spiel_game: pyspiel.Game, seconds: float, seed: int = 0) -> float:
    """Random-play decisions per second of any OpenSpiel game (chance steps timed, not counted)."""
    rng = np.random.RandomState(seed)
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or actions == 0:
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randint(len(legal))])
                actions += 1
    return actions / (time.perf_counter() - start)


def random_play(names: list[str], players: int = 2, seconds: float = 1.0) -> list[PlayRow]:
    """Our engines direct and through the adapter, then OpenSpiel's python_block_dominoes."""
    rows = []
    for name in names:
        game = get_game(name)
        rows.append(PlayRow(f"{name} (tablepress engine)", random_playouts(game, players, seconds).actions_per_second))
        spiel_game = pyspiel.load_game(tos.short_name(game), {"players": players})
        rows.append(PlayRow(f"{name} (through the OpenSpiel adapter)", spiel_random_play(spiel_game, seconds)))
    dominoes = pyspiel.load_game("python_block_dominoes")
    rows.append(PlayRow("python_block_dominoes (OpenSpiel, Python)", spiel_random_play(dominoes, seconds)))
    return rows


def tables(names: list[str] | None = None, budget: int = 50, count: int = 4, seconds: float = 1.0) -> list[Table]:
    """Both comparisons as rich tables, ratios included."""
    names = names or game_names()
    search = Table(title=f"ISMCTS iterations/s, {budget} iterations a decision, same positions (2 players)")
    for column in ("game", "ours (cut-off)", "ours (full rollout)", "OpenSpiel ISMCTS", "ratio cut-off", "ratio rollout"):
        search.add_column(column, justify="right")
    for name in names:
        row = search_speed(name, budget=budget, count=count)
        search.add_row(name, f"{row.ours:,.0f}", f"{row.ours_rollout:,.0f}", f"{row.openspiel:,.0f}",
                       f"{row.ours / row.openspiel:,.1f}×", f"{row.ours_rollout / row.openspiel:,.1f}×")
    play = Table(title="Random play, decisions/s (2 players; dominoes is 2-player)")
    for column in ("engine", "decisions/s", "vs python_block_dominoes"):
        play.add_column(column, justify="right")
    rows = random_play(names, seconds=seconds)
    dominoes = rows[-1].actions_per_second
    for row in rows:
        play.add_row(row.label, f"{row.actions_per_second:,.0f}", f"{row.actions_per_second / dominoes:,.2f}×")
    return [search, play]
