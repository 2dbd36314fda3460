"""Research environments: every tablepress game as a PettingZoo environment and an OpenSpiel game, and
a masked-PPO trainer (docs/RL.md).

Installed with the `rl` extra (training with the `train` extra). `from tablepress.rl import
pettingzoo_env, parallel_env`; `import tablepress.rl.openspiel` registers `tablepress_<game>` with
pyspiel. Both adapters share `spaces.spaces(game, players, options)`:

* actions — the game's fixed action space (`core.actions`, declared in `games/<name>/actions.py`):
  id k means the same move in every state; the legal mask says which ids are legal now. A game that
  declares none gets the legal-index space (id k = the k-th legal action, `fixed` False);
* observations — the game's named planes of the seat's view (a hashed view for a game without any);
  OpenSpiel's information state adds the seat's own action ids (perfect recall);
* rewards — at the end only: "win" (+1 winners / -1 others), "score" (normalised margin) or "raw".

`tablepress train GAME` (`train.py`, `command.py`) trains a `network.PolicyNet`; `policy_agent.PolicyAgent`
plays the checkpoint as the `policy:FILE` seat.
"""

from __future__ import annotations

from typing import Any

__all__ = ["parallel_env", "pettingzoo_env"]


def pettingzoo_env(game: Any, players: int | None = None, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment for `game` (see tablepress.rl.pettingzoo_env.pettingzoo_env)."""
    from .pettingzoo_env import pettingzoo_env as make

    return make(game, players, **kwargs)


def parallel_env(game: Any, players: int | None = None, **kwargs: Any) -> Any:
    """A PettingZoo parallel environment for `game` (see tablepress.rl.pettingzoo_env.parallel_env)."""
    from .pettingzoo_env import parallel_env as make

    return make(game, players, **kwargs)
