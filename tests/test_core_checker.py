"""The forward-model checker must catch broken games, not only pass good ones."""

from __future__ import annotations

import random

import pytest

from tablepress.core.checker import CheckFailure, check_game
from tablepress.games.flowers.engine import FlowersGame


class LeakyView(FlowersGame):
    """Shows the face-down stack's top card to everyone."""

    def view(self, state, seat):
        view = super().view(state, seat)
        view["public"]["secret"] = self.cards.codes[state.stacks[-1][-1]] if state.stacks[-1] else None
        return view


class PeekingDeterminize(FlowersGame):
    """Returns the true state: views agree, but search would see the real hidden cards."""

    def determinize(self, state, seat, rng):
        return self.clone(state)


class HiddenTruthDeterminize(FlowersGame):
    """Shuffles with a generator seeded from the true face-down order — depends on hidden information."""

    def determinize(self, state, seat, rng):
        return super().determinize(state, seat, random.Random(hash(tuple(state.stacks[-1]))))


class SharedClone(FlowersGame):
    """A clone that shares the areas with its original."""

    def clone(self, state):
        copy = super().clone(state)
        copy.areas = state.areas
        return copy


class LosesCards(FlowersGame):
    """Drops the covered card when covering."""

    def apply_legal(self, state, seat, action):
        super().apply_legal(state, seat, action)
        for area in state.areas:
            for cell, stack in area.items():
                if len(stack) > 1:
                    area[cell] = stack[-1:]


class PrivateToEveryone(FlowersGame):
    """Puts the drawer's face-down card in every seat's private view."""

    def view(self, state, seat):
        view = super().view(state, seat)
        if seat is not None and state.drawn is not None:
            view["private"]["drawn"] = self.cards.codes[state.drawn]
        return view


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (LeakyView(), "view differs in a determinization"),
        (PeekingDeterminize(), "determinize never changed the hidden state"),
        (HiddenTruthDeterminize(), "depends on hidden information"),
        (SharedClone(), "changed the original"),
        (LosesCards(), "cards not conserved"),
        (PrivateToEveryone(), "view differs in a determinization"),
    ],
)
def test_checker_catches_broken_games(game, message):
    with pytest.raises(CheckFailure, match=message):
        check_game(game, 2, playouts=6, deep_playouts=6)


def test_checker_passes_the_real_game():
    report = check_game(FlowersGame(), 2, playouts=5, deep_playouts=5)
    assert report.playouts == 5 and report.actions > 0
