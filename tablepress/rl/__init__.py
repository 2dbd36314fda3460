"""Research adapters: every tablepress game as a PettingZoo AEC environment and as an OpenSpiel game.

Installed with the `rl` extra. `from tablepress.rl import pettingzoo_env`; `import
tablepress.rl.openspiel` registers `tablepress_<game>` with pyspiel. Both work for every registered
game through the Game protocol alone, with one generic encoding (`tablepress.rl.encoding`):

* actions — action k is the k-th of `legal_actions(state, seat)` in the engine's stable order; the
  space is `action_bound` if the game declares one, else the largest count seen in 32 seeded random
  games, doubled and rounded up to a power of two;
* observations — the seat's view hashed into a fixed-length vector in [-1, 1] (one feature per
  `path=value` leaf of the view JSON, plus squashed magnitudes of numbers);
* rewards — at the end only: "win" (+1 winners / -1 others), "score" (normalised margin) or "raw".
"""

from __future__ import annotations

from typing import Any

__all__ = ["pettingzoo_env"]


def pettingzoo_env(game: Any, players: int | None = None, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment for `game` (see tablepress.rl.pettingzoo_env.pettingzoo_env)."""
    from .pettingzoo_env import pettingzoo_env as make

    return make(game, players, **kwargs)
