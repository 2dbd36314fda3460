"""Every registered game passes the forward-model checker, and the checker catches the same mutants of each.

Nothing here names a game: a newly installed game is checked by its package's `checks()` and must fail
the checker when its determinize peeks, its clone is shallow or its view shows something hidden.
"""

from __future__ import annotations

import copy

import pytest

from tablepress.core.checker import CheckFailure, check_game
from tablepress.core.errors import TablepressError
from tablepress.core.game import Game
from tablepress.core.registry import game_names, get_game, get_package

#: Checks with more playouts times players than this take over ten seconds: marked slow.
SLOW_WORK = 2500

RUNS = [
    pytest.param(name, check, id=f"{name}-{check.players}p-{index}",
                 marks=[pytest.mark.slow] if check.playouts * check.players > SLOW_WORK else [])
    for name in game_names()
    for index, check in enumerate(get_package(name).checks())
]


@pytest.mark.parametrize(("name", "check"), RUNS)
def test_every_registered_game_passes_its_checks(name, check):
    report = check_game(get_game(name), check.players, check.options, playouts=check.playouts,
                        deep_playouts=check.deep_playouts)
    assert report.playouts == check.playouts
    if check.deep_playouts and get_game(name).hidden_information:
        assert report.leak_checks > 0 and report.resampled > 0


def _players(game: Game) -> int:
    return max(game.min_players, 2)


def _mutant(name: str, mutation: type | None = None) -> Game:
    """The registered game `name` with `mutation`'s methods put over its own, built from the game's card
    data the way `with_variant` builds one (or with no argument, for a game without card data)."""
    game = get_game(name)
    bases = (type(game),) if mutation is None else (mutation, type(game))
    kind = type(f"Mutant{type(game).__name__}", bases, {})
    try:
        data = game.load_data()
    except TablepressError:
        return kind()
    return kind(data)


class IdentityDeterminize:
    """Returns a copy of the true state: every view agrees, and search sees everything."""

    def determinize(self, state, seat, rng):
        return self.clone(state)


class ShallowClone:
    """A clone sharing every list with its original."""

    def clone(self, state):
        return copy.copy(state)


class ShowsAnotherPrivateView:
    """Puts the next seat's private view in each seat's own."""

    def view(self, state, seat):
        view = super().view(state, seat)
        if seat is not None:
            other = (seat + 1) % len(self.scores(state))
            view["private"]["leak"] = super().view(state, other)["private"]
        return view


class ShowsAHiddenCard:
    """Puts the first card of the first non-empty hidden zone (or the chance integer) in each seat's view."""

    def view(self, state, seat):
        view = super().view(state, seat)
        if seat is not None:
            zones = [zone for zone in self.hidden_zones(state, seat).values()
                     if zone or not isinstance(zone, (list, tuple))]
            if zones:
                view["private"]["leak"] = zones[0][0] if isinstance(zones[0], (list, tuple)) else zones[0]
        return view


class AcceptsAnything:
    """Takes any text from the seat to move as if it were legal."""

    def checked(self, state, seat, action, legal=None):
        if seat in self.to_move(state):
            return action
        return super().checked(state, seat, action, legal)


MUTANTS = {
    AcceptsAnything: "(accepted|answered) the illegal action",
    IdentityDeterminize: "determinize (keeps seat .* real private cards|never changes the hidden zone)",
    ShallowClone: "a clone shares state",
    ShowsAnotherPrivateView: "view differs in a determinization",
    ShowsAHiddenCard: "view differs in a determinization",
}


@pytest.mark.parametrize("mutation", list(MUTANTS), ids=lambda mutation: mutation.__name__)
@pytest.mark.parametrize("name", game_names())
def test_the_checker_catches_mutants_of_every_game(name, mutation):
    game = _mutant(name, mutation)
    with pytest.raises(CheckFailure, match=MUTANTS[mutation]):
        check_game(game, _players(game), playouts=4, deep_playouts=4)


@pytest.mark.parametrize("name", game_names())
def test_the_unmutated_copy_passes(name):
    """The mutants fail for their mutation, not for being rebuilt from the game's data."""
    game = _mutant(name)
    check_game(game, _players(game), playouts=4, deep_playouts=4)
