"""Module-level caches stay bounded however many games, variants or environments pass through a process, and an
object a cache served is freed with its owner."""

from __future__ import annotations

import gc
import weakref

import pytest

from tablepress.games.flowers import heuristics as flowers_heuristics
from tablepress.sim import runner
from tablepress.sim.design import DESIGNS_KEPT, williams_square
from tablepress.sim.runner import GAMES_KEPT, SimSpec, resolve_game

#: As many distinct games or values as the tests push through each cache: more than any bound below.
MANY = 30


def by_this_variants(count: int) -> list[dict]:
    """`count` different By This card data changes (Ant's ABC and Size numbers)."""
    return [{"things": {"Ant": [1 + index % 10, 1 + index // 10, 1, 8]}} for index in range(count)]


def test_a_simulation_worker_keeps_a_bounded_number_of_games(monkeypatch):
    monkeypatch.setattr(runner, "_games", type(runner._games)())
    assert GAMES_KEPT < MANY
    specs = [SimSpec("by-this", 3, ("random",) * 3, variant=variant) for variant in by_this_variants(MANY)]
    games = [resolve_game(spec) for spec in specs]
    assert len({id(game) for game in games}) == MANY  # each variant its own game
    assert len(runner._games) == GAMES_KEPT
    assert resolve_game(specs[-1]) is games[-1]  # a recent one is built once
    assert resolve_game(specs[0]) is not games[0]  # the oldest was let go, and is built again
    assert games[0].cards.numbers == resolve_game(specs[0]).cards.numbers


def test_a_let_go_game_is_freed(monkeypatch):
    monkeypatch.setattr(runner, "_games", type(runner._games)())
    specs = [SimSpec("by-this", 3, ("random",) * 3, variant=variant) for variant in by_this_variants(MANY)]
    first = weakref.ref(resolve_game(specs[0]))
    for spec in specs[1:]:
        resolve_game(spec)
    gc.collect()
    assert first() is None


def test_seat_designs_are_bounded():
    williams_square.cache_clear()
    for players in range(1, 3 * DESIGNS_KEPT):
        williams_square(players)
    assert williams_square.cache_info().currsize <= DESIGNS_KEPT
    assert williams_square(3) == williams_square(3)


def test_flowers_open_group_costs_are_bounded_and_unchanged(monkeypatch):
    monkeypatch.setattr(flowers_heuristics, "OPEN_COSTS_SIZE", 8)
    monkeypatch.setattr(flowers_heuristics, "_open_costs", {})
    shape = (3.0, 1.0, 2.0, 1, (1.0, 0.5, 0.25))
    first = [flowers_heuristics.shape_value(shape, turns, 2) for turns in range(MANY)]
    assert len(flowers_heuristics._open_costs) <= 8
    assert [flowers_heuristics.shape_value(shape, turns, 2) for turns in range(MANY)] == first


def test_a_pettingzoo_parallel_env_is_freed_with_its_spaces():
    pettingzoo_env = pytest.importorskip("tablepress.rl.pettingzoo_env")
    refs = []
    for _ in range(MANY):
        env = pettingzoo_env.TablepressParallelEnv("by-this", 2)
        agent = env.possible_agents[0]
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        refs.append(weakref.ref(env))
    del env
    gc.collect()
    assert sum(ref() is not None for ref in refs) == 0


def test_openspiel_uniform_outcomes_are_bounded():
    openspiel = pytest.importorskip("tablepress.rl.openspiel")
    openspiel._uniform.cache_clear()
    for n in range(1, 2 * openspiel.UNIFORM_KEPT):
        assert openspiel._uniform(n)[0] == (0, 1.0 / n)
    assert openspiel._uniform.cache_info().currsize <= openspiel.UNIFORM_KEPT
