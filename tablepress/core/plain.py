"""A generic deep copy for plain-data game states: dataclasses of ints, strings, tuples, lists, dicts and sets.

`clone(state)` shares what cannot change (numbers, strings, tuples of them, frozen sets) and copies
every list, dict, set and nested dataclass, so a clone shares nothing mutable with its original. It is
several times faster than `copy.deepcopy`, which matters to search players that clone every iteration.
"""

from __future__ import annotations

import dataclasses
from typing import Any

_ATOMS = (int, str, float, bool, type(None), bytes, frozenset)
_fields: dict[type, tuple[str, ...]] = {}


def _copy(value: Any) -> Any:
    kind = type(value)
    if kind in _ATOMS_SET:
        return value
    if kind is list:
        return [item if type(item) in _ATOMS_SET else _copy(item) for item in value]
    if kind is tuple:
        if all(type(item) in _ATOMS_SET for item in value):
            return value
        return tuple(_copy(item) for item in value)
    if kind is dict:
        return {key: item if type(item) in _ATOMS_SET else _copy(item) for key, item in value.items()}
    if kind is set:
        return set(value)
    if dataclasses.is_dataclass(value):
        return clone(value)
    raise TypeError(f"cannot clone a {kind.__name__}: a game state holds plain data only")


_ATOMS_SET = frozenset(_ATOMS)


def clone(state: Any) -> Any:
    """An independent copy of a plain-data dataclass state (see the module docstring)."""
    kind = type(state)
    names = _fields.get(kind)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(state))
        _fields[kind] = names
    copy = object.__new__(kind)
    for name in names:
        value = getattr(state, name)
        object.__setattr__(copy, name, value if type(value) in _ATOMS_SET else _copy(value))
    return copy
