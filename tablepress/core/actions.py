"""Fixed action spaces and observation planes: what a game declares for learning agents.

A learning agent needs every action to have one id for the whole game at a player count (a policy
network's output k must mean the same move in every state) and an observation whose parts mean
something. A game's package may declare both (`package(..., actions=..., observation=...)`):

* `actions(game, players, options) -> ActionSpace`: id ↔ action. `ActionTable` is the usual one: a
  table of action names, one per id, and a `key` that turns a legal action text (with the seat's view)
  (with the seat) into its name — the text itself, or a shorter name where the text spells out what the view already
  says (Planted's `play 24 LW` is `play 24`). A legal action outside the table (a Flowers cell beyond
  the bounded grid) has no id and is not offered to a learning agent.
* `observation(game, players, options) -> Observation`: named planes (`Plane`) of a float vector made
  from the seat's view alone (hidden information stays hidden).

A game that declares neither still works: `tablepress.rl` then uses action k = the k-th legal action
(`fixed` False) and a hashed encoding of the view.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover - only for type checkers
    import numpy as np

    from .game import Game


@runtime_checkable
class ActionSpace(Protocol):
    """The actions of one game at one player count, each with one id."""

    #: True when an id means the same action in every state; False for the legal-index default.
    fixed: bool
    #: How many ids there are (ids are 0 … size − 1).
    size: int

    def name(self, action_id: int) -> str:
        """What id `action_id` means, as text."""

    def ids(self, view: Mapping[str, Any], seat: int, legal: Sequence[str]) -> list[int | None]:
        """The id of each legal action of `seat` (None: outside the space), from its view."""


def identity_key(view: Mapping[str, Any], seat: int, text: str) -> str:
    """The default key: an action's name is its text."""
    return text


@dataclass(frozen=True)
class ActionTable:
    """An action space given as a table of names, id = position (see the module docstring)."""

    names: tuple[str, ...]
    key: Callable[[Mapping[str, Any], int, str], str | None] = identity_key
    fixed: bool = True
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {name: i for i, name in enumerate(self.names)}
        if len(index) != len(self.names):
            raise ValueError("action names must be distinct")
        object.__setattr__(self, "_index", index)

    @property
    def size(self) -> int:
        """How many ids there are."""
        return len(self.names)

    def name(self, action_id: int) -> str:
        """The name of id `action_id`."""
        return self.names[action_id]

    def id_of(self, name: str) -> int | None:
        """The id of an action name, or None if the table has no such action."""
        return self._index.get(name)

    def ids(self, view: Mapping[str, Any], seat: int, legal: Sequence[str]) -> list[int | None]:
        """The id of each legal action's name (None: not in the table)."""
        index, key = self._index, self.key
        return [index.get(key(view, seat, text)) for text in legal]  # type: ignore[arg-type]

    def digest(self) -> str:
        """A hash of the whole id ↔ name map (tests pin it: ids must stay stable across versions)."""
        return hashlib.sha256("\n".join(self.names).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Plane:
    """One named part of an observation vector: `size` floats that mean `meaning`."""

    name: str
    size: int
    meaning: str


class Planes:
    """The layout of an observation vector: planes one after another, filled by name."""

    def __init__(self, planes: Sequence[Plane]):
        self.planes = tuple(planes)
        self.offsets: dict[str, int] = {}
        offset = 0
        for plane in self.planes:
            self.offsets[plane.name] = offset
            offset += plane.size
        self.size = offset
        self._sizes = {plane.name: plane.size for plane in self.planes}

    def zeros(self) -> "np.ndarray":
        """An all-zero float32 vector of this layout."""
        import numpy as np

        return np.zeros(self.size, dtype=np.float32)

    def put(self, vector: "np.ndarray", plane: str, index: int, value: float = 1.0) -> None:
        """Set entry `index` of `plane`; an index outside the plane is dropped (beyond a documented bound)."""
        if 0 <= index < self._sizes[plane]:
            vector[self.offsets[plane] + index] = value

    def add(self, vector: "np.ndarray", plane: str, index: int, value: float) -> None:
        """Add to entry `index` of `plane` (dropped outside it)."""
        if 0 <= index < self._sizes[plane]:
            vector[self.offsets[plane] + index] += value

    def part(self, vector: "np.ndarray", plane: str) -> "np.ndarray":
        """The slice of `vector` that is `plane` (a view: writing to it writes the vector)."""
        start = self.offsets[plane]
        return vector[start:start + self._sizes[plane]]


@runtime_checkable
class Observation(Protocol):
    """A game's observation tensor for one player count: planes made from a seat's view."""

    planes: tuple[Plane, ...]

    def encode(self, view: Mapping[str, Any], seat: int) -> "np.ndarray":
        """The float32 vector (the planes one after another) of `seat`'s view."""


ActionSpaceMaker = Callable[["Game", int, Mapping[str, Any]], ActionSpace]
ObservationMaker = Callable[["Game", int, Mapping[str, Any]], Observation]


def one_hot_index(options: Sequence[Any], value: Any) -> int:
    """The position of `value` in `options`, or -1 (dropped by `Planes.put`)."""
    try:
        return list(options).index(value)
    except ValueError:
        return -1
