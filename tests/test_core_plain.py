"""core.plain.clone: the generic copy every plain-data state gets, checked against the annotations it compiles."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from tablepress.core.plain import clone

Cell = tuple[int, int]


@dataclass
class Inner:
    cards: list[int]


@dataclass(slots=True)
class Everything:
    number: int
    name: str
    hands: list[list[int]]
    areas: list[dict[Cell, tuple[int, ...]]]
    picks: list[list[tuple[int, tuple[int, ...]] | None]]
    drawn: int | None
    seen: set[int]
    frozen: frozenset[int]
    nested: Inner
    maybe: list[int] | None
    anything: Any = None
    table: dict[str, list[int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Frozen:
    cards: list[int]
    size: int


def _sample() -> Everything:
    return Everything(
        number=3, name="x", hands=[[1, 2], [3]], areas=[{(0, 0): (1, 2)}, {}], picks=[[None, (2, (5, 6))]],
        drawn=None, seen={1, 2}, frozen=frozenset({4}), nested=Inner([7, 8]), maybe=[9],
        anything={"deep": [[1], [2]]}, table={"a": [1]},
    )


def _mutate(state: Everything) -> None:
    state.hands[0].append(99)
    state.hands.append([])
    state.areas[0][(1, 1)] = (3,)
    state.picks[0][0] = (1, ())
    state.seen.add(50)
    state.nested.cards.append(0)
    state.maybe.append(1)
    state.anything["deep"][0].append(5)
    state.table["a"].append(2)


def test_a_clone_is_equal_and_shares_nothing_mutable() -> None:
    original = _sample()
    before = pickle.dumps(original)
    copy = clone(original)
    assert copy == original and type(copy) is Everything
    _mutate(copy)
    assert pickle.dumps(original) == before


def test_immutable_parts_are_shared_and_none_is_kept() -> None:
    original = _sample()
    copy = clone(original)
    assert copy.areas[0][(0, 0)] is original.areas[0][(0, 0)]
    assert copy.frozen is original.frozen
    original.maybe = None
    assert clone(original).maybe is None


def test_frozen_dataclasses_are_copied_too() -> None:
    original = Frozen([1, 2], 2)
    copy = clone(original)
    assert copy == original and copy.cards is not original.cards


def test_a_state_that_is_not_plain_data_is_refused() -> None:
    with pytest.raises(TypeError, match="dataclass"):
        clone(object())
    state = _sample()
    state.anything = object()
    with pytest.raises(TypeError, match="plain data"):
        clone(state)
