"""The forward-model checker on Planted variants (every player count runs from the package's checks in
test_core_checker_games.py)."""

from __future__ import annotations

import pytest

from tablepress.core.checker import check_game
from tablepress.core.errors import DataError
from tablepress.games.planted import GAME


def test_checker_catches_a_determinize_that_peeks(monkeypatch):
    """The leak test has teeth: a determinize that keeps every hand as it is fails it."""
    from tablepress.core.checker import CheckFailure

    monkeypatch.setattr(type(GAME), "determinize", lambda self, state, seat, rng: self.clone(state))
    with pytest.raises(CheckFailure):
        check_game(GAME, 3, playouts=2, deep_playouts=1)


def test_variant_changes_the_game_and_still_checks():
    variant = GAME.with_variant({"game": {"rounds": 2, "hand_resources": 3, "hand_items": 1}})
    state = variant.new(4, 1)
    assert all(len(hand) == 4 for hand in state.hands)
    check_game(variant, 4, playouts=5, deep_playouts=1)


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"game": {"rounds": 0}}, "game.rounds"),
        ({"plants": [{"name": "Fern", "type": "Fern", "tier": "beginner", "cost": "WX"}]}, "plants[0].cost"),
        ({"tools": [{"name": "Can", "copies": 1, "effect": "magic"}]}, "tools[0].effect"),
        ({"nonsense": {}}, "no section [nonsense]"),
    ],
)
def test_broken_variant_names_the_field(overrides, field):
    with pytest.raises(DataError, match=field.replace("[", r"\[").replace("]", r"\]")):
        GAME.with_variant(overrides)
