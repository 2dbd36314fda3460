"""PettingZoo adapter: PettingZoo's own api_test, parallel_api_test, seed_test and max_cycles_test on every
registered game, plus what they cannot see: fixed action ids, observations from the view only."""

from __future__ import annotations

import random
import types
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test  # noqa: E402

from tablepress.core.registry import game_names, get_game  # noqa: E402
from tablepress.rl import pettingzoo_env  # noqa: E402
from tablepress.rl.pettingzoo_env import parallel_env  # noqa: E402
from tablepress.rl.spaces import spaces  # noqa: E402
from tablepress.rl.encoding import encode_view, final_rewards, leaves  # noqa: E402


def _counts() -> list[tuple[str, int]]:
    """Every registered game at 1 (if it has solo), 2 and 3 players, skipping counts it does not support."""
    cases = []
    for name in game_names():
        game = get_game(name)
        cases += [(name, n) for n in (1, 2, 3) if game.min_players <= n <= game.max_players]
    return cases


CASES = _counts()


@pytest.mark.parametrize(("name", "players"), CASES)
def test_pettingzoo_api_test(name: str, players: int) -> None:
    """PettingZoo's own API conformance test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pettingzoo_env(name, players=players), num_cycles=1000)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_pettingzoo_parallel_api_and_seed_tests(name: str, players: int) -> None:
    """PettingZoo's parallel API test (one step is one turn) and its seed test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(parallel_env(name, players=players), num_cycles=300)
        seed_test(lambda: pettingzoo_env(name, players=players), num_cycles=200)


def test_pettingzoo_max_cycles_test() -> None:
    """PettingZoo's max_cycles_test (unmasked random actions, replaced by legal ones) on solo Flowers,
    where every step is the one seat's; with several seats a game is cut once each has acted N times."""
    def env(max_cycles: int):
        return pettingzoo_env("flowers", players=1, max_cycles=max_cycles, on_illegal="replace")

    def par(max_cycles: int):
        return parallel_env("flowers", players=1, max_cycles=max_cycles, on_illegal="replace")

    max_cycles_test(types.SimpleNamespace(env=env, parallel_env=par))
    several = pettingzoo_env("by-this", players=3, max_cycles=5, on_illegal="replace")
    several.reset(seed=1)
    acted = dict.fromkeys(several.possible_agents, 0)
    for agent in several.agent_iter():
        _, _, terminated, truncated, info = several.last()
        if terminated or truncated:
            several.step(None)
            continue
        acted[agent] += 1
        several.step(0)
    assert min(acted.values()) == 5 and all(several.truncations.values())
    assert not several.match.is_over


def test_illegal_actions_are_refused_or_replaced() -> None:
    """By default an id outside the mask is a ValueError; with on_illegal="replace" a legal move is made."""
    env = pettingzoo_env("by-this", players=2)
    env.reset(seed=2)
    outside = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError):
        env.step(outside)
    replacing = pettingzoo_env("by-this", players=2, on_illegal="replace")
    replacing.reset(seed=2)
    agent = replacing.agent_selection
    replacing.step(outside)
    assert replacing.infos[agent] == {"replaced": True} and len(replacing.match.moves) == 1
    with pytest.raises(ValueError):
        pettingzoo_env("by-this", players=2, on_illegal="ignore")


def _random_game(env, seed: int, on_step=None) -> tuple[list[int], dict[str, float]]:
    """Play a whole game with random legal actions; returns the action indices taken and final rewards."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    taken = []
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        if on_step:
            on_step(env, agent, action)
        taken.append(action)
        env.step(action)
    return taken, final


@pytest.mark.parametrize(("name", "players"), CASES)
def test_observation_depends_only_on_the_view(name: str, players: int) -> None:
    """Redeterminising everything a seat cannot see (from the information it decides on: in a simultaneous
    choice, the position before anyone chose) leaves its observation unchanged."""
    env = pettingzoo_env(name, players=players)
    checked = 0

    def check(env, agent, action):
        nonlocal checked
        seat = env.seat_of(agent)
        before = env.observe(agent)
        point = env.match.undo_point()
        env.state = env.match.seat_info(seat).determinize(random.Random(checked))
        after = env.observe(agent)
        env.match.undo(point)
        assert np.array_equal(before["observation"], after["observation"])
        assert np.array_equal(before["action_mask"], after["action_mask"])
        checked += 1

    _random_game(env, seed=11, on_step=check)
    assert checked > 0


@pytest.mark.parametrize("name", game_names())
def test_seeding_reproduces_games_and_rewards_come_at_the_end(name: str) -> None:
    """reset(seed=s) gives the same game; only the final step pays rewards, and they match the engine."""
    players = max(2, get_game(name).min_players)
    env = pettingzoo_env(name, players=players)
    first, final = _random_game(env, seed=5)
    assert _random_game(env, seed=5) == (first, final)
    assert len(final) == players
    env.reset(seed=5)
    paid: list[float] = []
    rng = random.Random(5)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        if not env.game.is_over(env.state):
            paid += [r for r in env.rewards.values() if r]
    assert paid == []
    expected = final_rewards(env.game, env.state, "win")
    assert [final[f"player_{seat}"] for seat in range(players)] == expected


def test_action_ids_mean_the_same_move_in_every_state_and_render_is_text() -> None:
    """The action space is the game's fixed table: the id of `draw 3` draws from stack 3 in any game,
    and a placement's id is its cell (for the card in hand); render() draws the table as text."""
    env = pettingzoo_env("flowers", players=2)
    table = spaces(env.game, 2).actions
    assert env.action_space("player_0").n == table.size == env.num_actions
    for seed in (3, 4):
        env.reset(seed=seed)
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        assert mask.sum() == len(env.legal_actions(agent)) == 3
        env.step(table.id_of("draw 3"))
        view = env.game.view(env.state, env.seat_of(agent))
        assert view["public"]["drawn_from"] == 3
        by_id = env.legal_by_id(agent)
        drawn = view["private"].get("drawn") or view["public"]["drawn"]
        assert by_id[table.id_of("place 0,0")] == f"place {drawn} 0,0"
    text = env.render()
    assert isinstance(text, str) and "Flowers" in text
    with pytest.raises(ValueError):
        env.step(env.num_actions - 1)


def test_options_and_reward_modes() -> None:
    """Game options reach the engine; score mode is a zero-sum margin in [-1, 1]; raw gives scores."""
    env = pettingzoo_env("flowers", players=3, summer=True, reward="score")
    env.reset(seed=1)
    assert env.game.view(env.state, None)["public"]["summer"] is True
    rewards = list(_random_game(env, seed=1)[1].values())
    assert abs(sum(rewards)) < 1e-9 and all(-1 <= r <= 1 for r in rewards)
    raw = pettingzoo_env("flowers", players=1)
    assert list(_random_game(raw, seed=2)[1].values()) == [float(s) for s in raw.game.scores(raw.state)]


def test_simultaneous_choices_are_taken_in_turn() -> None:
    """When several seats must choose, each is selected in turn before anything resolves."""
    seen = 0
    for name in game_names():
        env = pettingzoo_env(name, players=max(2, get_game(name).min_players))
        pending: list[tuple[tuple[int, ...], int]] = []

        def note(env, agent, action):
            seat = env.seat_of(agent)
            assert seat == min(env.game.to_move(env.state))
            pending.append((env.game.to_move(env.state), seat))

        _random_game(env, seed=7, on_step=note)
        for (before, seat), (after, _) in zip(pending, pending[1:]):
            if len(before) > 1:
                seen += 1
                assert after == tuple(s for s in before if s != seat), "a choice resolved before all chose"
    if seen == 0:
        pytest.skip("no registered game has simultaneous choices yet")


def test_feature_hashing_is_stable_and_bounded() -> None:
    """The view encoding is deterministic, in [-1, 1], and sees private data and list bags."""
    view = {"public": {"n": 3, "hand": ["A", "B"]}, "private": {"drawn": "X"}}
    assert ("public.hand[]", "A") in list(leaves(view))
    first = encode_view(view, 0, 64)
    assert np.array_equal(first, encode_view(view, 0, 64))
    assert first.min() >= -1 and first.max() <= 1
    assert not np.array_equal(first, encode_view({**view, "private": {"drawn": "Y"}}, 0, 64))
    assert not np.array_equal(first, encode_view(view, 1, 64))


def test_a_game_without_a_declared_space_still_works(monkeypatch) -> None:
    """A plugin game that declares no actions/observation gets the legal-index space and a hashed view."""
    import dataclasses

    import tablepress.rl.spaces as rl_spaces
    from tablepress.core.registry import package_of
    from tablepress.rl.encoding import bounds

    bare = dataclasses.replace(package_of(get_game("by-this")), actions=None, observation=None)
    monkeypatch.setattr(rl_spaces, "package_of", lambda game: bare)
    rl_spaces._cached.cache_clear()
    try:
        env = pettingzoo_env("by-this", players=2)
        assert not env.spaces.actions.fixed
        assert env.num_actions == bounds(get_game("by-this"), 2).actions
        assert env.spaces.observation_size == rl_spaces.HASHED_SIZE
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(env, num_cycles=200)
        env.reset(seed=1)
        agent = env.agent_selection
        assert env.legal_by_id(agent) == dict(enumerate(env.match.legal(env.seat_of(agent))))
    finally:
        rl_spaces._cached.cache_clear()
