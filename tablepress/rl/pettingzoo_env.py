"""PettingZoo environments for every registered game: AEC (`pettingzoo_env`) and parallel (`parallel_env`).

Agents are `player_0` … `player_{n-1}` (seat i). The agent to act is the lowest seat in `to_move`;
during a simultaneous choice the seats choose one after another and the engine keeps each choice out
of the others' views until all have chosen. Observations are `{"observation": float32[planes],
"action_mask": int8[A]}` built from `view(state, seat)` only; action ids come from the game's fixed
action space (`tablepress.rl.spaces`: id k means the same move in every state; a game without one
gets the legal-index space). Rewards come once, at the end (`reward=` "win", "score" or "raw").

`max_cycles=N` truncates a game once every seat has acted N times (rewards 0). `on_illegal=` "raise"
(the default: ValueError) or "replace" (an id outside the mask is replaced by a legal one drawn from
the environment's seeded generator; `infos[agent]["replaced"]` says so) — for callers that sample
unmasked actions, such as PettingZoo's `max_cycles_test`. `reset(seed=...)` seeds the deal;
`render()` returns the spectator's table as text.

The parallel environment steps one turn at a time: every seat to move acts (all of them during a
simultaneous choice, else the one), and the actions of the other agents are ignored.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces as gym_spaces
from pettingzoo import AECEnv, ParallelEnv

from ..core.game import Game
from ..core.match import Match
from ..core.registry import package_of
from .encoding import final_rewards, resolve_game, reward_range
from .spaces import Spaces, spaces

ILLEGAL_MODES = ("raise", "replace")


class TablepressEnv(AECEnv):
    """One tablepress game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "tablepress_v1", "is_parallelizable": True}

    def __init__(self, game: str | Game, players: int | None = None, *, reward: str | None = None,
                 max_cycles: int | None = None, on_illegal: str = "raise",
                 render_mode: str | None = None, **options: Any):
        super().__init__()
        self.game = resolve_game(game)
        self.players = players or self.game.default_players
        self.game.check_players(self.players)
        self.options = self.game.normalise_options(options)
        self.reward_mode = reward or ("win" if self.players > 1 else "raw")
        if self.reward_mode not in ("win", "score", "raw"):
            raise ValueError(f"reward must be win, score or raw, not {self.reward_mode!r}")
        if on_illegal not in ILLEGAL_MODES:
            raise ValueError(f"on_illegal must be raise or replace, not {on_illegal!r}")
        self.on_illegal = on_illegal
        self.max_cycles = max_cycles
        self.spaces: Spaces = spaces(self.game, self.players, self.options)
        self.num_actions = self.spaces.actions.size
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"tablepress_{self.game.name.replace('-', '_')}_v1"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        self.reward_range = reward_range(self.players, self.reward_mode)
        size = self.spaces.observation_size
        self.observation_spaces = {
            agent: gym_spaces.Dict({
                "observation": gym_spaces.Box(-np.inf, np.inf, (size,), dtype=np.float32),
                "action_mask": gym_spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: gym_spaces.Discrete(self.num_actions) for agent in self.possible_agents}
        self._rng = random.Random()
        #: The game being played (None before the first reset); every step goes through it.
        self.match: Match | None = None
        self._acted = [0] * self.players

    # ----- spaces ------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gym_spaces.Space:
        """The Dict space of `agent`'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gym_spaces.Space:
        """Discrete(A): the game's fixed action ids."""
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
        self._acted = [0] * self.players
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

    def legal_by_id(self, agent: str) -> dict[int, str]:
        """{action id: legal text} of `agent` now (empty unless it is to move: the selected agent, or
        any seat still to choose in a simultaneous choice)."""
        seat = self.seat_of(agent)
        if (self.match is None or self.match.is_over or seat not in self.game.to_move(self.state)
                or self.terminations.get(agent) or self.truncations.get(agent)):
            return {}
        return self.spaces.legal(self.game.view(self.state, seat), seat, self.match.legal(seat))

    def legal_actions(self, agent: str) -> list[str]:
        """The text of each legal action of `agent` now, in id order."""
        return list(self.legal_by_id(agent).values())

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """`agent`'s observation from its view (in a simultaneous choice, as before anyone chose: see
        `Match.seat_info`); the mask is all zeros unless it is to move."""
        seat = self.seat_of(agent)
        view = self.match.seat_info(seat).view()
        return {"observation": self.spaces.observation.encode(view, seat),
                "action_mask": self.spaces.mask(self.legal_by_id(agent))}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action id; rewards arrive when the game ends."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.legal_by_id(agent)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.infos[agent] = {}
        if action is None or int(action) not in legal:
            if self.on_illegal == "raise":
                raise ValueError(f"{agent}: action {action} is not one of the legal ids {sorted(legal)[:10]}")
            action = self._rng.choice(list(legal))
            self.infos[agent] = {"replaced": True}
        seat = self.seat_of(agent)
        self.match.act(seat, legal[int(action)])
        self._acted[seat] += 1
        if self.match.is_over:
            for s, value in enumerate(final_rewards(self.game, self.state, self.reward_mode)):
                self.rewards[self.possible_agents[s]] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: {"scores": self.game.scores(self.state)} for a in self.agents}
        elif self.max_cycles is not None and min(self._acted) >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
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


class TablepressParallelEnv(ParallelEnv):
    """A tablepress game as a PettingZoo parallel environment: one step is one turn (module docstring)."""

    def __init__(self, game: str | Game, players: int | None = None, **kwargs: Any):
        self.aec = TablepressEnv(game, players, **kwargs)
        self.metadata = self.aec.metadata
        self.possible_agents = self.aec.possible_agents
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent: str) -> gym_spaces.Space:
        """The Dict space of `agent`'s observations (the same object every time, as PettingZoo expects)."""
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> gym_spaces.Space:
        """Discrete(A): the game's fixed action ids (the same object every time)."""
        return self.aec.action_space(agent)

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {agent: self.aec.observe(agent) for agent in self.agents}

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Start a new game; every agent's observation and info."""
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.agents[:]
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions: Mapping[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        """Every seat to move acts with its action (others' actions are ignored); one turn."""
        aec = self.aec
        rewards = dict.fromkeys(self.agents, 0.0)
        movers = [aec.possible_agents[s] for s in sorted(aec.game.to_move(aec.state))]
        for agent in movers:
            if aec.agent_selection != agent or aec.terminations[agent] or aec.truncations[agent]:
                break
            aec.step(actions.get(agent))
            for name, value in aec.rewards.items():
                rewards[name] = rewards.get(name, 0.0) + value
        observations = self._observations()
        terminations = {agent: aec.terminations[agent] for agent in self.agents}
        truncations = {agent: aec.truncations[agent] for agent in self.agents}
        infos = {agent: dict(aec.infos.get(agent, {})) for agent in self.agents}
        self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The spectator's table as text."""
        return self.aec.render()

    def state(self) -> Any:
        """The engine state (for debugging; agents see only their observations)."""
        return self.aec.state

    def close(self) -> None:
        """Nothing to release."""


def pettingzoo_env(game: str | Game, players: int | None = None, **kwargs: Any) -> TablepressEnv:
    """A PettingZoo AEC environment for `game` (a registered name or a Game, e.g. a variant).

    Keyword arguments: reward ("win", "score", "raw"), max_cycles, on_illegal ("raise", "replace"),
    render_mode, and the game's own options (e.g. summer=True for Flowers).
    """
    return TablepressEnv(game, players, **kwargs)


def parallel_env(game: str | Game, players: int | None = None, **kwargs: Any) -> TablepressParallelEnv:
    """A PettingZoo parallel environment for `game` (same keyword arguments as `pettingzoo_env`)."""
    return TablepressParallelEnv(game, players, **kwargs)
