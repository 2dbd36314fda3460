"""The action space, observation and information state of a game at a player count, for every adapter.

A game's package declares its fixed action space and observation planes (`core.actions`; the four
built-in games do, in `games/<name>/actions.py`). A game that declares none still works here:

* `LegalIndexSpace` — id k is the k-th legal action now (`fixed` False: an id means a different move
  in different states); its size is `encoding.bounds(...).actions`.
* `HashedObservation` — the view hashed into one plane (`encoding.encode_view`).

`InfoState` is the perfect-recall information state: the observation planes, then `own action
counts` (how often this seat took each id) and `own actions` ((id + 1) / size of its k-th action).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.actions import ActionSpace, Observation, Plane, Planes
from ..core.errors import TablepressError
from ..core.game import Game
from ..core.registry import package_of
from .encoding import bounds, encode_view

#: The hashed observation's length for a game that declares no planes.
HASHED_SIZE = 512


class ActionSpaceExceeded(TablepressError):
    """A state has more legal actions than the legal-index action space measured for the game."""


class NoActionInSpace(TablepressError):
    """A seat must move but none of its legal actions has an id in the game's action space."""


class LegalIndexSpace:
    """The default action space of a game that declares none: id k = the k-th legal action now."""

    fixed = False

    def __init__(self, size: int, game_name: str = "game"):
        self.size = size
        self.game_name = game_name

    def name(self, action_id: int) -> str:
        """What id `action_id` means: the legal action at that position, whatever it is."""
        return f"legal action {action_id + 1}"

    def ids(self, view: Mapping[str, Any], seat: int, legal: Sequence[str]) -> list[int | None]:
        """0 … n − 1; raises if the state has more legal actions than the space."""
        if len(legal) > self.size:
            raise ActionSpaceExceeded(
                f"{self.game_name}: {len(legal)} legal actions exceed the action space of {self.size}; "
                "declare the package's actions (core/actions.py) or Game.action_bound")
        return list(range(len(legal)))


class HashedObservation:
    """The default observation of a game that declares none: the view hashed into one plane."""

    def __init__(self, size: int = HASHED_SIZE):
        self.planes = (Plane("hashed view", size, "feature hashing of the view's path=value leaves"),)
        self.size = size

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        """The hashed features of `seat`'s view."""
        return encode_view(view, seat, self.size)


class InfoState:
    """The perfect-recall information state: the observation, then this seat's own action history."""

    def __init__(self, observation: Observation, actions: ActionSpace, horizon: int):
        self.observation = observation
        self.actions = actions
        self.horizon = horizon
        self.layout = Planes([
            *observation.planes,
            Plane("own action counts", actions.size, "how often this seat took each action id"),
            Plane("own actions", horizon, "(id + 1) / size of this seat's k-th action, 0 after the last"),
        ])
        self.planes = self.layout.planes

    def encode(self, view: Mapping[str, Any], seat: int, own_ids: Sequence[int]) -> np.ndarray:
        """The information state of `seat`: its observation and the ids it took, in order."""
        vector = self.layout.zeros()
        vector[: self.layout.offsets["own action counts"]] = self.observation.encode(view, seat)
        size = self.actions.size
        for k, action_id in enumerate(own_ids):
            self.layout.add(vector, "own action counts", action_id, 1.0)
            self.layout.put(vector, "own actions", k, (action_id + 1) / size)
        return vector


@dataclass(frozen=True)
class Spaces:
    """What every adapter uses for one game at one player count and options."""

    game: Game
    players: int
    actions: ActionSpace
    observation: Observation
    info_state: InfoState

    @property
    def observation_size(self) -> int:
        """The observation vector's length."""
        return sum(plane.size for plane in self.observation.planes)

    def legal(self, view: Mapping[str, Any], seat: int, legal: Sequence[str]) -> dict[int, str]:
        """{id: legal text} for the legal actions inside the space, by id; raises if a seat to move has none."""
        by_id: dict[int, str] = {}
        for action_id, text in zip(self.actions.ids(view, seat, legal), legal):
            if action_id is not None:
                by_id.setdefault(action_id, text)
        if legal and not by_id:
            raise NoActionInSpace(f"{self.game.name}: none of seat {seat + 1}'s {len(legal)} legal actions "
                                  "has an id in the action space")
        return dict(sorted(by_id.items()))

    def mask(self, by_id: Mapping[int, str]) -> np.ndarray:
        """The int8 legal mask over the action space."""
        mask = np.zeros(self.actions.size, dtype=np.int8)
        mask[list(by_id)] = 1
        return mask


def _options_key(options: Mapping[str, Any] | None) -> str:
    return json.dumps(dict(options or {}), sort_keys=True, default=str)


@lru_cache(maxsize=64)
def _cached(game: Game, players: int, options_key: str) -> Spaces:
    options = json.loads(options_key)
    package = package_of(game)
    measured = bounds(game, players, options)
    actions = (package.actions(game, players, options) if package.actions is not None
               else LegalIndexSpace(measured.actions, game.name))
    observation = (package.observation(game, players, options) if package.observation is not None
                   else HashedObservation())
    return Spaces(game, players, actions, observation, InfoState(observation, actions, measured.length))


def spaces(game: Game, players: int, options: Mapping[str, Any] | None = None) -> Spaces:
    """The action space, observation and information state of `game` at `players` (cached)."""
    return _cached(game, players, _options_key(options))
