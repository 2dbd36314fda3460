"""A zone declared wrongly is caught by the checker at every player count: an owner-only hand declared face
up (its view still hides it: determinize would keep the real hands), a face-down pile declared face up or
left to a hook that never deals it (search would know the next draw), a pile left out of the zones (its
cards are not conserved), a `Seen` fact claiming more than the view shows."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from tablepress.core.checker import CheckFailure, check_game
from tablepress.core.registry import get_game
from tablepress.core.zoned import ZonedGame
from tablepress.core.zones import UP, Layout, Seen, Zone

Change = Callable[[tuple[Zone, ...]], tuple[Zone, ...]]


def _mutant(name: str, change: Change) -> ZonedGame:
    """The registered game `name` with its layout's zones changed by `change`."""
    game = get_game(name)
    kind = type(f"Mutant{type(game).__name__}", (type(game),), {})
    mutant = kind(game.load_data())
    layout = game.layout
    mutant.layout = Layout(tuple(layout.sets.values()), change(layout.zones), layout.chance)
    return mutant


def _face_up(zone_name: str) -> Change:
    return lambda zones: tuple(dataclasses.replace(z, face=UP) if z.name == zone_name else z for z in zones)


def _left_to_a_hook(zone_name: str) -> Change:
    return lambda zones: tuple(dataclasses.replace(z, redeal=False) if z.name == zone_name else z for z in zones)


def _left_out(zone_name: str) -> Change:
    return lambda zones: tuple(z for z in zones if z.name != zone_name)


def _cases(name: str, zone: str, change: Callable[[str], Change], caught: str, most: int | None = None) -> list:
    """One case a player count, every count the game has (up to `most`)."""
    game = get_game(name)
    return [pytest.param(name, zone, change, players, caught, id=f"{name}-{change.__name__[1:]}-{zone}-{players}p")
            for players in range(game.min_players, (most or game.max_players) + 1)]


CASES = [
    *_cases("by-this", "hand", _face_up, "zone 'hand' is declared known to everyone"),
    *_cases("pressed", "hand", _face_up, "zone 'hand' is declared known to everyone"),
    *_cases("by-this", "deck", _face_up, "zone 'deck' is declared known to everyone"),
    *_cases("flowers", "stack", _face_up, "zone 'stack' is declared known to everyone"),
    *_cases("pressed", "deck", _face_up, "zone 'deck' is declared known to everyone"),
    *_cases("planted", "resource deck", _face_up, "zone 'resource deck' is declared known to everyone"),
    *_cases("by-this", "deck", _left_to_a_hook, "state.deck holds face-down cards"),
    *_cases("by-this", "deck", _left_out, "not conserved"),
    # at 4 players the box holds the violets alone, which everyone knows: nothing in it to deal anew
    *_cases("flowers", "box", _left_to_a_hook, "state.box holds face-down cards", most=3),
]


@pytest.mark.parametrize(("name", "zone", "change", "players", "caught"), CASES)
def test_a_zone_declared_wrongly_is_caught(name, zone, change, players, caught):
    mutant = _mutant(name, change(zone))
    with pytest.raises(CheckFailure, match=caught):
        check_game(mutant, players, playouts=4, deep_playouts=4)


@pytest.mark.parametrize("name", ["by-this", "flowers", "pressed", "planted"])
def test_the_unchanged_layout_passes(name):
    game = get_game(name)
    report = check_game(_mutant(name, lambda zones: zones), game.min_players, playouts=4, deep_playouts=4)
    assert report.leak_checks > 0


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_seen_fact_claiming_too_much_is_caught(players):
    """Flowers saying everyone has seen every stack whole (not only a face-up top): the view shows the tops
    alone, and determinize would keep the stacks in their true order."""
    game = get_game("flowers")

    class SeesTheStacks(type(game)):  # type: ignore[misc]
        def seen(self, state, seat):
            facts = list(super().seen(state, seat))
            return facts + [Seen("stack")] if seat is None else facts

    with pytest.raises(CheckFailure, match="zone 'stack' is declared known to everyone"):
        check_game(SeesTheStacks(game.load_data()), players, playouts=4, deep_playouts=4)
