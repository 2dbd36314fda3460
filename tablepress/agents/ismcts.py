"""The `ismcts` agent: a search from the deciding seat's information set, with the game's presets.

Each decision takes the preset the game declares for its number of players (`Heuristics.search`, see
agents/presets.py) and runs its algorithm: a `TreeSearch` is information-set MCTS
(agents/tree_search.py), a `RolloutImprovement` compares greedy's best root actions by greedy rollouts on
shared determinizations (agents/rollout_improvement.py). Both draw determinizations from the seat's
information only (`SeatInfo.determinize` with the agent's seeded generator) and share the game's
heuristics, fast paths and rewards (agents/decision.py, agents/rewards.py).

`ismcts:N` runs N iterations a decision (default 300); `ismcts:2s` runs for two seconds (then results
depend on the machine's speed, not only on the seed). The agent keeps no tree between decisions and
holds only plain data, so it pickles for process pools and Ray.
"""

from __future__ import annotations

import random
from typing import Any

from ..core.game import Game
from .allowance import Allowance
from .base import Agent, Seconds, SeatInfo
from .decision import Decision
from .evaluation import search_presets_for
from .presets import Preset, SearchPresets, TreeSearch, by_players, checked_changes, preset_for, with_changes
from .rollout_improvement import rollout_improvement
from .tree_search import tree_search

DEFAULT_ITERATIONS = 300


class IsmctsAgent(Agent):
    """A search agent: `budget` iterations a decision (an int) or seconds (`Seconds`).

    `search` replaces the game's presets (a preset, a table by player count, or a function of players);
    `changes` are settings by name made to whichever preset a decision uses (`rollout_depth=0`,
    `rivals="policy"`), checked when the agent is made (presets.checked_changes).
    """

    def __init__(self, seed: int = 0, budget: int | float | None = None, search: SearchPresets | None = None,
                 **changes: Any):
        if budget is not None and (isinstance(budget, bool) or not budget > 0):
            raise ValueError(f"ismcts takes a positive budget, not {budget!r}")
        if isinstance(budget, float) and not isinstance(budget, Seconds):
            budget = Seconds(budget)
        if isinstance(search, dict):
            by_players(search)
        self.search = search
        self.changes = checked_changes(changes)
        self.rng = random.Random(seed)
        self.budget: int | Seconds = budget if budget is not None else DEFAULT_ITERATIONS
        #: Iterations run in the last decision (for benchmarks).
        self.last_iterations = 0

    def reseed(self, seed: int) -> None:
        """Restart from `seed`."""
        self.rng = random.Random(seed)

    def preset_for(self, game: Game, players: int) -> Preset:
        """The preset a decision in `game` at `players` uses: the agent's or the game's, with the agent's changes."""
        declared = self.search if self.search is not None else search_presets_for(game)
        return with_changes(preset_for(declared, players), self.changes)

    def choose(self, info: SeatInfo) -> str:
        """Search from the seat's information set with the preset for its game and number of players."""
        actions = info.legal_actions()
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        game = info.game
        state = info.determinize(self.rng)
        players = len(game.scores(state))
        preset = self.preset_for(game, players)
        decision = Decision.of(game, info.seat, players, self.rng, preset.backup, preset.end_bonus)
        allowance = Allowance(self.budget)
        if isinstance(preset, TreeSearch):
            action, self.last_iterations = tree_search(info, actions, state, decision, preset, allowance)
        else:
            plan = DEFAULT_ITERATIONS if isinstance(self.budget, Seconds) else self.budget
            action, self.last_iterations = rollout_improvement(info, actions, state, decision, preset, allowance, plan)
        return action
