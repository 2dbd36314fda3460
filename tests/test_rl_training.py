"""A self-play learning smoke test through the PettingZoo environment: learning beats random on By This."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from tablepress.core.registry import game_names  # noqa: E402
from tablepress.rl import pettingzoo_env  # noqa: E402
from tablepress.rl.train import ActionTextPolicy, reinforce, win_rate  # noqa: E402


@pytest.mark.skipif("by-this" not in game_names(), reason="By This is not registered")
def test_reinforce_improves_over_random_on_by_this() -> None:
    """An untrained policy wins about half its 2-player games against random; training lifts that clearly."""
    env = pettingzoo_env("by-this", players=2)
    before = win_rate(env, ActionTextPolicy(), games=200)
    trained = reinforce(env, games=400, seed=0)
    after = win_rate(env, trained, games=200)
    assert 0.35 <= before <= 0.65
    assert after >= before + 0.15, (before, after)
