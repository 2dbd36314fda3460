"""OpenSpiel adapter: OpenSpiel's own random_sim_test, MCTS and ISMCTS bots and evaluation tools on every
registered game, fixed action ids, observation planes, and chance nodes that are the engines' own draws."""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import tablepress.rl.openspiel as tos  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from tablepress.core.registry import game_names, get_game, package_of  # noqa: E402
from tablepress.core.rng import record_chance  # noqa: E402
from tablepress.rl.spaces import spaces  # noqa: E402

NAMES = game_names()


def _counts() -> list[tuple[str, int]]:
    cases = []
    for name in NAMES:
        game = get_game(name)
        cases += [(name, n) for n in (1, 2, 3) if game.min_players <= n <= game.max_players]
    return cases


def _load(name: str, players: int, **params) -> "pyspiel.Game":
    return pyspiel.load_game(tos.short_name(get_game(name)), {"players": players, **params})


def _resolve_chance(state: "pyspiel.State", rng: np.random.RandomState) -> None:
    """Apply uniformly random chance outcomes until the state is not a chance node."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randint(len(outcomes))][0])


def _dealt(game: "pyspiel.Game", seed: int, moves: int = 0) -> "pyspiel.State":
    """A state after the setup and `moves` random actions, with every chance node resolved at random."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    _resolve_chance(state, rng)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
        _resolve_chance(state, rng)
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
            _resolve_chance(state, rng)
        else:
            state.apply_action(bot.step(state))
    returns = state.returns()
    assert len(returns) == 2 and all(-1 <= r <= 1 for r in returns)


def test_serialisation_pickle_strings_and_history_replay() -> None:
    """States pickle and deserialise to the same engine state; infostates hide the chance outcomes."""
    game = _load("flowers", 3, summer=True)
    state = _dealt(game, seed=5, moves=7)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    new_game, replayed = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(replayed) == str(state)
    assert "summer=True" in str(new_game)
    info = state.information_state_string(1)
    assert "chance" not in info and "pending" not in info and info.startswith("seat 1")
    player = state.current_player()
    first = state.legal_actions()[0]
    engine_legal = state.tablepress_game.legal_actions(state._engine, player)
    assert state.action_to_string(player, first) in engine_legal


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
    from tablepress.bench.research import search_speed, tables

    row = search_speed(NAMES[0], budget=4, count=1)
    assert row.ours > 0 and row.ours_rollout > 0 and row.openspiel > 0
    search, play = tables([NAMES[0]], budget=2, count=1, seconds=0.05)
    assert search.row_count == 1 and play.row_count == 3


# ----- chance nodes are the engines' own draws --------------------------------------------------
def _engine_game(name: str, players: int, seed: int) -> tuple[list[tuple[int, int]], list[int], list, object, list]:
    """A seeded random engine game: its chance log, the action indices, each decision's views, the end,
    the action texts."""
    game = get_game(name)
    rng = np.random.RandomState(seed)
    views, path, texts = [], [], []
    space = spaces(game, players)  # before recording: the first call measures bounds in random games
    with record_chance() as draws:
        state = game.new(players, seed)
        while not game.is_over(state):
            seat = game.to_move(state)[0]
            legal = game.legal_actions(state, seat)
            views.append([game.view(state, s) for s in range(players)])
            ids = space.actions.ids(game.view(state, seat), seat, legal)
            inside = [i for i, action_id in enumerate(ids) if action_id is not None]  # Flowers: inside the grid
            path.append(inside[int(rng.randint(len(inside)))])
            texts.append(legal[path[-1]])
            game.apply_legal(state, seat, legal[path[-1]])
    return draws, path, views, state, texts


@pytest.mark.parametrize("name", NAMES)
def test_chance_nodes_are_uniform_over_the_engines_draws(name: str) -> None:
    """The setup is one chance node per draw the engine makes in `new` (a k-card shuffle: k−1 nodes
    with k, k−1, … outcomes), each uniform over n outcomes with n taken from the engine's own draw."""
    game = _load(name, 2)
    with record_chance() as draws:
        get_game(name).new(2, 7)
    assert draws and all(n > 1 for n, _ in draws)
    state = game.new_initial_state()
    for n, outcome in draws:
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert [o for o, _ in outcomes] == list(range(n))
        assert all(p == pytest.approx(1.0 / n) for _, p in outcomes)
        assert state.legal_actions() == list(range(n))
        assert n <= game.max_chance_outcomes()
        state.apply_action(outcome)
    assert not state.is_chance_node(), "the setup had more chance than the engine drew"
    assert len(state.history()) == len(draws)


def test_flowers_setup_shuffles_the_coloured_deck() -> None:
    """Flowers' first chance node has one outcome per coloured card (the deck its setup shuffles)."""
    game = _load("flowers", 3)
    deck = len(get_game("flowers").cards.coloured)
    assert deck > 50
    state = game.new_initial_state()
    assert len(state.chance_outcomes()) == deck
    for n in range(deck, 1, -1):
        assert len(state.chance_outcomes()) == n
        state.apply_action(0)
    assert state.current_player() == 0 and len(state.history()) == deck - 1


def _without_chance_integer(state: object) -> str:
    """The engine state's repr without its chance integer (meaningless when chance is scripted)."""
    return re.sub(r"\brng=\d+", "rng=?", repr(state))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_an_openspiel_game_reproduces_a_seeded_engine_game(name: str, seed: int) -> None:
    """Chance outcomes mirroring a seeded engine game's draws, and the same actions, give the same game
    in OpenSpiel: the same views at every decision, chance nodes after the setup where the engine
    shuffles again (Pressed every round; Planted when a deck runs out), and the same final state."""
    draws, path, views, final, texts = _engine_game(name, 2, seed)
    game = _load(name, 2)
    state = game.new_initial_state()
    outcomes = iter(draws)
    chance_after_setup = 0
    for step, index in enumerate([*path, None]):
        while state.is_chance_node():
            n, outcome = next(outcomes)
            assert len(state.chance_outcomes()) == n
            state.apply_action(outcome)
            chance_after_setup += step > 0
        if index is None:
            break
        assert [state.view(s) for s in range(2)] == views[step], f"views differ at decision {step}"
        text = texts[step]
        by_text = {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}
        state.apply_action(by_text[text])
    assert next(outcomes, None) is None
    assert state.is_terminal()
    assert _without_chance_integer(state._engine) == _without_chance_integer(final)
    assert state.returns() == tos.final_rewards(get_game(name), final, "win")
    if name == "pressed":
        assert chance_after_setup > 0, "each round's shuffle should be chance nodes"
    again = tos.from_engine_game(game, seed, path)
    assert str(again) == str(state)


@pytest.mark.parametrize("name", NAMES)
def test_different_outcomes_give_different_games(name: str) -> None:
    """Two different outcome sequences at the setup give different engine states."""
    game = _load(name, 2)
    first, last = game.new_initial_state(), game.new_initial_state()
    while first.is_chance_node():
        first.apply_action(0)
    while last.is_chance_node():
        last.apply_action(len(last.chance_outcomes()) - 1)
    assert str(first) != str(last)
    assert len(first.history()) == len(last.history())


def _at_chance_after_setup(game: "pyspiel.Game", seed: int) -> "pyspiel.State":
    """A state waiting on chance caused by a player's action (a mid-game reshuffle), two draws in."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    _resolve_chance(state, rng)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
        if state.is_chance_node():
            state.apply_action(0)
            state.apply_action(0)
            return state
    raise AssertionError("no chance after the setup")


def test_resampling_keeps_future_chance_as_chance_nodes() -> None:
    """A resampled state (Pressed, round 1) still meets the next round's shuffle as chance nodes; at a
    chance node resampling restarts the pending call's chance, unseen by the player."""
    game = _load("pressed", 2)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = _dealt(game, seed=4, moves=1)
    player = state.current_player()
    sample = state.resample_from_infostate(player, sampler)
    rng = np.random.RandomState(0)
    met_chance = 0
    while not sample.is_terminal():
        if sample.is_chance_node():
            met_chance += 1
            _resolve_chance(sample, rng)
        else:
            sample.apply_action(int(rng.choice(sample.legal_actions())))
    assert met_chance > 0
    pending = _at_chance_after_setup(game, seed=4)
    for player in range(2):
        samples = [pending.resample_from_infostate(player, sampler) for _ in range(4)]
        for again in samples:
            assert again.is_chance_node()
            assert again.information_state_string(player) == pending.information_state_string(player)
            _resolve_chance(again, rng)
            assert not again.is_terminal() and again.current_player() >= 0
    setup = game.new_initial_state()
    setup.apply_action(1)
    again = setup.resample_from_infostate(0, sampler)
    assert again.is_chance_node() and again.information_state_string(0) == setup.information_state_string(0)


def test_chance_outcomes_are_checked() -> None:
    """An outcome outside the chance node's outcomes is refused."""
    state = _load("by-this", 2).new_initial_state()
    n = len(state.chance_outcomes())
    with pytest.raises(Exception):
        state.apply_action(n)


# ----- fixed action ids, observation planes, OpenSpiel's own algorithms ---------------------------
@pytest.mark.parametrize(("name", "players"), _counts())
def test_action_ids_are_the_games_fixed_space(name: str, players: int) -> None:
    """num_distinct_actions is the fixed space's size; a legal id's string is a legal text whose id it is."""
    if package_of(get_game(name)).actions is None:
        pytest.skip(f"{name} declares no action space: its ids are legal-action indices, not one per move")
    game = _load(name, players)
    space = spaces(get_game(name), players)
    assert game.num_distinct_actions() == space.actions.size
    state = _dealt(game, seed=2, moves=3)
    player = state.current_player()
    view = state.view(player)
    for action in state.legal_actions():
        text = state.action_to_string(player, action)
        assert space.actions.ids(view, player, [text]) == [action]
    outside = next(a for a in range(space.actions.size) if a not in state.legal_actions())
    assert state.action_to_string(player, outside) == space.actions.name(outside)
    with pytest.raises(Exception):
        state.apply_action(outside)


@pytest.mark.parametrize(("name", "players"), _counts())
def test_observation_tensor_shapes(name: str, players: int) -> None:
    """Observation tensor = the game's planes; information state = planes + own action counts + own ids;
    the observer names every plane."""
    game = _load(name, players)
    space = spaces(get_game(name), players)
    assert game.observation_tensor_shape() == [space.observation_size]
    assert game.information_state_tensor_shape() == [space.observation_size + space.actions.size
                                                     + space.info_state.horizon]
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    assert list(observer.dict) == [plane.name for plane in space.observation.planes]
    state = _dealt(game, seed=1, moves=4)
    observer.set_from(state, state.current_player())
    assert np.array_equal(observer.tensor, np.asarray(state.observation_tensor(state.current_player())))


def test_information_state_tensor_remembers_own_actions() -> None:
    """Perfect recall: the information-state tensor holds the seat's own action ids in order."""
    game = _load("by-this", 2)
    space = spaces(get_game("by-this"), 2)
    state = _dealt(game, seed=3)
    taken = []
    rng = np.random.RandomState(0)
    while len(taken) < 3:
        player = state.current_player()
        action = int(rng.choice(state.legal_actions()))
        if player == 0:
            taken.append(action)
        state.apply_action(action)
        _resolve_chance(state, rng)
    tensor = np.asarray(state.information_state_tensor(0))
    start = space.observation_size + space.actions.size
    expected = [(a + 1) / space.actions.size for a in taken]
    assert tensor[start:start + 3].tolist() == pytest.approx(expected)
    counts = tensor[space.observation_size:start]
    assert counts.sum() == len(taken)


@pytest.mark.parametrize("name", NAMES)
def test_mcts_bot_and_evaluate_bots_run_unchanged(name: str) -> None:
    """OpenSpiel's MCTS bot (random rollouts) and its evaluate_bots tool play whole games against
    OpenSpiel's uniform random bot."""
    game = _load(name, 2)
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    randoms = pyspiel.make_uniform_random_bot(1, 7)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [bot, randoms], rng)
    assert len(returns) == 2 and all(-1 <= r <= 1 for r in returns)
