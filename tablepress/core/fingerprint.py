"""A game's fingerprint: a hash of seeded random playouts, to notice when a game's rules change.

A game's author records it in the package (`Expectations(fingerprint=...)`); tablepress's tests compare
it with a fresh computation. A deliberate rule or card-data change alters it: record the new one then.

    python -c "from tablepress.core.fingerprint import fingerprint; from my_game import GAME; print(fingerprint(GAME))"
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

from .game import Game
from .match import Match, random_playout


def playouts(game: Game) -> Iterator[tuple[list[tuple[int, str]], list[int], Any]]:
    """4 seeded random playouts at each player count (up to 4): each one's actions, final scores and state."""
    for players in range(game.min_players, min(game.max_players, 4) + 1):
        for seed in range(4):
            match = Match(game, players, 12345 + 7919 * seed)
            random_playout(match, random.Random(1000 * players + seed))
            yield match.actions, game.scores(match.state), match.state


def fingerprint(game: Game) -> str:
    """The hash of `playouts`: actions, scores and final states (views are left out: a view may grow
    without the game changing)."""
    digest = hashlib.blake2b(digest_size=12)
    for actions, scores, state in playouts(game):
        digest.update(json.dumps([actions, scores], sort_keys=True, default=str).encode())
        digest.update(repr(state).encode())
    return digest.hexdigest()
