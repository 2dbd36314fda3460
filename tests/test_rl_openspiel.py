"""OpenSpiel adapter: OpenSpiel's own random_sim_test and ISMCTS bot on every registered game."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import tablepress.rl.openspiel as tos  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from tablepress.core.registry import game_names, get_game  # noqa: E402

NAMES = game_names()


def _counts() -> list[tuple[str, int]]:
    cases = []
    for name in NAMES:
        game = get_game(name)
        cases += [(name, n) for n in (1, 2, 3) if game.min_players <= n <= game.max_players]
    return cases


def _load(name: str, players: int, **params) -> "pyspiel.Game":
    return pyspiel.load_game(tos.short_name(get_game(name)), {"players": players, **params})


def _dealt(game: "pyspiel.Game", seed: int, moves: int = 0) -> "pyspiel.State":
    """A state after the deal and `moves` random actions."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(int(rng.randint(256)))
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_every_registered_game_is_registered_with_pyspiel() -> None:
    """Importing the module registers tablepress_<game> for every game in the registry."""
    registered = set(pyspiel.registered_names())
    for name in NAMES:
        assert "tablepress_" + name.replace("-", "_") in registered


@pytest.mark.parametrize(("name", "players"), _counts())
def test_openspiel_random_sim_test(name: str, players: int) -> None:
    """OpenSpiel's own C++ random simulation test, with serialisation round trips."""
    pyspiel.random_sim_test(_load(name, players), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_resample_from_infostate_keeps_what_the_player_knows(name: str) -> None:
    """Resampled states share the player's information state and observation, and differ elsewhere."""
    game = _load(name, 2)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for moves in (0, 1, 5, 20):
        state = _dealt(game, seed=3, moves=moves)
        if state.is_terminal():
            continue
        player = state.current_player()
        samples = [state.resample_from_infostate(player, sampler) for _ in range(8)]
        for sample in samples:
            assert sample.information_state_string(player) == state.information_state_string(player)
            assert sample.observation_string(player) == state.observation_string(player)
            assert np.array_equal(sample.information_state_tensor(player), state.information_state_tensor(player))
            assert sample.legal_actions() == state.legal_actions()
            assert sample.history() == state.history()
        assert any(str(sample) != str(state) for sample in samples), "nothing hidden was resampled"


@pytest.mark.parametrize("name", NAMES)
def test_ismcts_bot_plays_a_whole_game(name: str) -> None:
    """OpenSpiel's Python ISMCTS bot plays every seat of a whole game through resample_from_infostate."""
    game = _load(name, 2)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, max_simulations=3, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.randint(256)))
        else:
            state.apply_action(bot.step(state))
    returns = state.returns()
    assert len(returns) == 2 and all(-1 <= r <= 1 for r in returns)


def test_serialisation_pickle_strings_and_history_replay() -> None:
    """States pickle and deserialise to the same engine state; infostates hide the chance bytes."""
    game = _load("flowers", 3, summer=True)
    state = _dealt(game, seed=5, moves=7)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    new_game, replayed = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(replayed) == str(state)
    assert "summer=True" in str(new_game)
    info = state.information_state_string(1)
    assert "deal" not in info and info.startswith("seat 1")
    assert state.action_to_string(state.current_player(), 0) == state.tablepress_game.legal_actions(
        state._engine, state.current_player())[0]


def test_returns_follow_the_engine_winners() -> None:
    """Win mode pays +1 to winners and -1 to the rest; score mode is a zero-sum margin."""
    for reward in ("win", "score"):
        game = _load("flowers", 3, reward=reward)
        state = _dealt(game, seed=9, moves=10_000)
        assert state.is_terminal()
        returns = state.returns()
        engine = state.tablepress_game
        if reward == "win":
            winners = engine.winners(state._engine)
            if len(winners) < 3:
                assert [r == 1.0 for r in returns] == [seat in winners for seat in range(3)]
        else:
            assert abs(sum(returns)) < 1e-9
    with pytest.raises(Exception):
        _load("flowers", 2, reward="raw")


def test_research_benchmark_runs() -> None:
    """The benchmark's two comparisons run end to end (a tiny budget; speed is never asserted)."""
    from tablepress.rl.bench import search_speed, tables

    row = search_speed(NAMES[0], budget=4, count=1)
    assert row.ours > 0 and row.ours_rollout > 0 and row.openspiel > 0
    search, play = tables([NAMES[0]], budget=2, count=1, seconds=0.05)
    assert search.row_count == 1 and play.row_count == 3
