"""PettingZoo AEC environments for every registered game, through the Game protocol only.

Agents are `player_0` … `player_{n-1}` (seat i). The agent to act is the lowest seat in `to_move`;
during a simultaneous choice the seats choose one after another and the engine keeps each choice out
of the others' views until all have chosen. Observations are `{"observation": float32[obs_size] in
[-1, 1], "action_mask": int8[A]}` built from `view(state, seat)` only (see `encoding`); action k is
the k-th legal action in the engine's order. Rewards come once, at the end (`reward=` "win", "score"
or "raw"). `reset(seed=...)` seeds the deal; `render()` returns the spectator's table as text.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.game import Game
from ..core.match import Match
from ..core.registry import package_of
from .encoding import bounds, encode_view, final_rewards, legal_mask, resolve_game, reward_range

DEFAULT_OBS_SIZE = 1024


class TablepressEnv(AECEnv):
    """One tablepress game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "tablepress_v0", "is_parallelizable": False}

    def __init__(self, game: str | Game, players: int | None = None, *, reward: str | None = None,
                 obs_size: int = DEFAULT_OBS_SIZE, max_actions: int | None = None,
                 render_mode: str | None = None, **options: Any):
        super().__init__()
        self.game = resolve_game(game)
        self.players = players or self.game.default_players
        self.game.check_players(self.players)
        self.options = self.game.normalise_options(options)
        self.reward_mode = reward or ("win" if self.players > 1 else "raw")
        if self.reward_mode not in ("win", "score", "raw"):
            raise ValueError(f"reward must be win, score or raw, not {self.reward_mode!r}")
        self.obs_size = obs_size
        self.num_actions = max_actions or bounds(self.game, self.players, self.options).actions
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"tablepress_{self.game.name.replace('-', '_')}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        low, high = reward_range(self.players, self.reward_mode)
        self.reward_range = (low, high)
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(-1.0, 1.0, (obs_size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.num_actions) for agent in self.possible_agents}
        self._rng = random.Random()
        #: The game being played (None before the first reset); every step goes through it.
        self.match: Match | None = None

    # ----- spaces ------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        """The Dict space of `agent`'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """Discrete(A): index into the seat's legal actions."""
        return self.action_spaces[agent]

    @staticmethod
    def seat_of(agent: str) -> int:
        """The seat number of an agent name (`player_2` → 2)."""
        return int(agent.rsplit("_", 1)[1])

    # ----- episode -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. `seed` makes this and every later deal reproducible; `options` is ignored
        (game options are fixed when the environment is made)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.match = Match(self.game, self.players, self._rng.getrandbits(63), self.options,
                           ["rl"] * self.players)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.match.next_mover()]

    @property
    def state(self) -> Any:
        """The engine state of the game being played (None before the first reset)."""
        return None if self.match is None else self.match.state

    @state.setter
    def state(self, state: Any) -> None:
        assert self.match is not None, "reset() first"
        self.match.state = state

    def legal_actions(self, agent: str) -> list[str]:
        """The text of each legal action of `agent` now: index k is action k."""
        if self.match is None or agent != self.agent_selection or self.match.is_over:
            return []
        return self.match.legal(self.seat_of(agent))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """`agent`'s observation from its view; the mask is all zeros unless it is the agent to act."""
        seat = self.seat_of(agent)
        view = self.game.view(self.state, seat)
        mask = legal_mask(self.legal_actions(agent), self.num_actions, self.game.name)
        return {"observation": encode_view(view, seat, self.obs_size), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action k (the k-th legal action); rewards arrive when the game ends."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.legal_actions(agent)
        if action is None or not 0 <= int(action) < len(legal):
            raise ValueError(f"{agent}: action {action} is not one of the {len(legal)} legal actions")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.match.act(self.seat_of(agent), legal[int(action)])
        if self.match.is_over:
            for seat, value in enumerate(final_rewards(self.game, self.state, self.reward_mode)):
                self.rewards[self.possible_agents[seat]] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: {"scores": self.game.scores(self.state)} for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[self.match.next_mover()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    # ----- display -----------------------------------------------------------------------------
    def render(self) -> str | None:
        """The spectator's table as text (the game's terminal renderer, or its public view as JSON)."""
        if self.state is None:
            return None
        view = self.game.view(self.state, None)
        names = list(self.possible_agents)
        renderer = package_of(self.game).terminal
        from rich.console import Console

        buffer = io.StringIO()
        console = Console(file=buffer, width=110, color_system=None, force_terminal=False)
        console.print(renderer.render(view, None, names))
        return buffer.getvalue()

    def close(self) -> None:
        """Nothing to release."""


def pettingzoo_env(game: str | Game, players: int | None = None, **kwargs: Any) -> TablepressEnv:
    """A PettingZoo AEC environment for `game` (a registered name or a Game, e.g. a variant).

    Keyword arguments: reward ("win", "score", "raw"), obs_size, max_actions, render_mode, and the
    game's own options (e.g. summer=True for Flowers).
    """
    return TablepressEnv(game, players, **kwargs)

