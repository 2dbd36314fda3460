"""Seeded ismcts decisions recorded on the search as it was before its settings became typed presets.

`python tests/ismcts_decisions.py [PATH]` (from the repository root) records tests/data/ismcts_decisions.json
(or PATH) as the agent decides now; the file kept was recorded on the earlier agent, whose keyword settings
`as_presets` translates. For every game and player count a few positions reached by random play, and the
action `ismcts:50` (seeded by the deal) chooses there; then the same positions searched with other settings
(`VARIANTS`, as the old agent's keyword arguments), so that every rival mode, backup and both algorithms
are covered.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from tablepress.agents.evaluation import search_presets_for
from tablepress.agents.presets import Preset, RolloutImprovement, TreeSearch, preset_for
from tablepress.core.game import Game
from tablepress.core.match import SeatInfo
from tablepress.core.registry import get_game

DATA = Path(__file__).parent / "data" / "ismcts_decisions.json"
GAMES = ("by-this", "flowers", "planted", "pressed")
DEALS = (0, 1, 2, 3)
#: Random steps before each deal's position (then on to the first real choice).
STEPS = (3, 8, 13, 30)
#: (game, players, old keyword settings) searched at `budget` 30 on the first two deals' positions.
VARIANTS: list[tuple[str, int, dict[str, Any]]] = [
    ("flowers", 2, {"rivals": "tree", "backup": "best"}),
    ("flowers", 2, {"rivals": "policy", "backup": "mean"}),
    ("flowers", 3, {"rivals": "random"}),
    ("flowers", 3, {"rivals": "random", "backup": "best"}),
    ("flowers", 3, {"rivals": "tree"}),
    ("flowers", 4, {"rivals": "greedy", "backup": "best"}),
    ("flowers", 1, {"rollout_depth": 2, "rollout_sample": 2}),
    ("flowers", 2, {"root_candidates": 3}),
    ("by-this", 2, {"root_candidates": 0}),
    ("by-this", 3, {"root_candidates": 0, "rivals": "policy", "backup": "mean"}),
    ("by-this", 3, {"root_halving": True}),
    ("by-this", 4, {"root_candidates": 3, "rollout_turns": 1}),
    ("by-this", 2, {"root_candidates": 0, "prior_samples": 0}),
    ("by-this", 3, {"root_candidates": 0, "prior_weight": 0.0}),
    ("by-this", 2, {"root_candidates": 0, "finish_turn": False, "rollout_policy": "random"}),
    ("by-this", 2, {"root_candidates": 0, "exploration": 1.0, "widening": 1.0, "widening_power": 0.7}),
    ("pressed", 2, {"root_candidates": 0}),
    ("pressed", 3, {"root_candidates": 0, "rivals": "greedy", "backup": "own"}),
    ("pressed", 4, {"root_halving": False}),
    ("pressed", 2, {"root_candidates": 5, "rollout_turns": 1}),
    ("planted", 3, {"rivals": "policy"}),
    ("planted", 2, {"rivals": "greedy", "backup": "mean"}),
    ("planted", 4, {"root_candidates": 3, "root_halving": True}),
    ("planted", 3, {"rollout_depth": 0}),
]


def position(game: Game, players: int, deal: int) -> tuple[Any, int, int]:
    """(state, seat, steps): the first position from `STEPS[deal]` random steps on where the seat to move
    has a choice."""
    import random

    rng = random.Random(deal)
    state = game.new(players, deal)
    steps = 0
    while True:
        seat = game.to_move(state)[0]
        if steps >= STEPS[deal] and len(game.legal_actions(state, seat)) > 1:
            return state, seat, steps
        mover = rng.choice(game.to_move(state))
        game.apply_legal(state, mover, rng.choice(game.legal_actions(state, mover)))
        steps += 1


def player_counts(game: Game) -> range:
    """Every player count the game allows."""
    return range(game.min_players, game.max_players + 1)


def as_presets(name: str, players: int, old: dict[str, Any]) -> tuple[Preset | None, dict[str, Any]]:
    """The earlier agent's keyword settings as the agent's `search` and changes: `root_candidates` picks the
    algorithm (0: a tree search, k: a rollout improvement of k candidates, either keeping the game's backup
    and end bonus), `root_halving` is `halving`, every other setting keeps its name."""
    changes = {("halving" if key == "root_halving" else key): value
               for key, value in old.items() if key != "root_candidates"}
    if "root_candidates" not in old:
        return None, changes
    game = preset_for(search_presets_for(get_game(name)), players)
    kept = {"backup": game.backup, "end_bonus": game.end_bonus}
    if old["root_candidates"] == 0:
        return (game if isinstance(game, TreeSearch) else TreeSearch(**kept)), changes
    if isinstance(game, RolloutImprovement):
        return replace(game, candidates=old["root_candidates"]), changes
    return RolloutImprovement(candidates=old["root_candidates"], **kept), changes


def record() -> dict[str, Any]:
    """Every recorded decision (see the module doc), made by the agent as it is now."""
    from tablepress.agents.base import make_agent
    from tablepress.agents.ismcts import IsmctsAgent

    plain = {}
    for name in GAMES:
        game = get_game(name)
        for players in player_counts(game):
            for deal in DEALS:
                state, seat, steps = position(game, players, deal)
                choice = make_agent("ismcts:50", deal).choose(SeatInfo(game, state, seat))
                plain[f"{name}/{players}/{deal}"] = choice
                print(name, players, deal, steps, choice, file=sys.stderr)
    variants = []
    for name, players, settings in VARIANTS:
        game = get_game(name)
        for deal in DEALS[:2]:
            state, seat, _ = position(game, players, deal)
            search, changes = as_presets(name, players, settings)
            agent = IsmctsAgent(seed=deal, budget=30, search=search, **changes)
            choice = agent.choose(SeatInfo(game, state, seat))
            variants.append([name, players, deal, settings, choice])
            print(name, players, deal, settings, choice, file=sys.stderr)
    return {"plain": plain, "variants": variants}


if __name__ == "__main__":
    (Path(sys.argv[1]) if len(sys.argv) > 1 else DATA).write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
