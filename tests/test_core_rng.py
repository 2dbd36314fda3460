"""core.rng: seeded chance, scripted chance (NeedChance) and recorded chance; engines unchanged by them."""

from __future__ import annotations

import random

import pytest

from tablepress.core.fingerprint import fingerprint, playouts
from tablepress.core.registry import game_names, get_game, get_package
from tablepress.core.rng import (
    NeedChance,
    ScriptedChanceError,
    chance,
    next_rng,
    record_chance,
    scripted_chance,
    scripted_outcomes,
    shuffle,
)

NAMES = game_names()


@pytest.mark.parametrize("name", NAMES)
def test_engines_are_unchanged_without_a_script(name: str) -> None:
    """With scripting off every game is bit for bit what its package recorded: the same seeds give the
    same games. A game that records no fingerprint is still deterministic."""
    game = get_game(name)
    first = fingerprint(game)
    assert fingerprint(game) == first, "two computations differ: the game is not deterministic"
    recorded = get_package(name).expectations.fingerprint
    if recorded is not None:
        assert first == recorded, f"{name}'s rules changed: if that was meant, record {first} in its package"


@pytest.mark.parametrize("name", NAMES)
def test_recorded_chance_replays_the_fingerprinted_games(name: str) -> None:
    """The fingerprint's playouts, with their chance recorded and replayed as a script, are the same games."""
    game = get_game(name)
    with record_chance() as draws:
        seeded = [(actions, scores) for actions, scores, _ in playouts(game)]
    with scripted_chance(scripted_outcomes(draws)):
        scripted = [(actions, scores) for actions, scores, _ in playouts(game)]
    assert draws and scripted == seeded


def test_chance_is_random_random_without_a_script() -> None:
    """Outside a block, chance(seed) draws exactly what random.Random(seed) does; so does next_rng."""
    ours, theirs = chance(42), random.Random(42)
    cards, same = list(range(30)), list(range(30))
    ours.shuffle(cards)
    theirs.shuffle(same)
    assert cards == same and ours.random() == theirs.random()
    rng, successor = next_rng(42)
    reference = random.Random(42)
    assert successor == reference.getrandbits(63) and rng.randrange(10**6) == reference.randrange(10**6)


def test_a_scripted_shuffle_is_one_event_per_card_but_the_last() -> None:
    """A shuffle of k cards under a script needs k, k−1, …, 2 outcomes in turn (Fisher–Yates)."""
    script: list[int] = []
    needs = []
    while True:
        cards = list(range(6))
        try:
            with scripted_chance(script):
                chance(0).shuffle(cards)
            break
        except NeedChance as need:
            needs.append(need.n)
            assert need.then == tuple(range(need.n - 1, 1, -1)), "the rest of the shuffle is known"
            script.append(need.n - 1)
    assert needs == [6, 5, 4, 3, 2]
    assert cards == list(range(6)), "choosing the last position each time leaves the cards in place"


def test_scripted_chance_raises_need_chance_with_the_right_n() -> None:
    """Generators in one block share the script; a 1-outcome event takes none; bad outcomes are refused."""
    with scripted_chance([2, 0]):
        first = chance(1)
        assert first.randrange(3) == 2
        assert first.randrange(1) == 0
        assert chance(99).choice("abcd") == "a"
        with pytest.raises(NeedChance) as need:
            first.randrange(7)
        assert need.value.n == 7
        assert next_rng(5)[1] == 0
    with scripted_chance([5]), pytest.raises(ValueError):
        chance(0).randrange(5)
    with scripted_chance([]):
        for method in (lambda r: r.random(), lambda r: r.uniform(0, 1), lambda r: r.randbytes(2)):
            with pytest.raises(ScriptedChanceError):
                method(chance(0))
    assert isinstance(chance(0), random.Random) and chance(0).random() == random.Random(0).random()


def test_a_recorded_log_replays_as_a_script() -> None:
    """record_chance leaves the draws as they were and logs them; the log as a script gives the same draws."""
    with record_chance() as draws:
        rng = chance(7)
        cards = list(range(20))
        rng.shuffle(cards)
        picks = rng.sample(range(50), 3), rng.randrange(1), rng.randrange(9)
        successor = rng.getrandbits(63)
    reference = random.Random(7)
    same = list(range(20))
    reference.shuffle(same)
    assert (cards, picks, successor) == (same, (reference.sample(range(50), 3), reference.randrange(1),
                                                reference.randrange(9)), reference.getrandbits(63))
    assert all(n > 1 for n, _ in draws) and len(draws) == 19 + 3 + 1
    with scripted_chance(scripted_outcomes(draws)) as script:
        rng = chance(0)
        again = list(range(20))
        rng.shuffle(again)
        assert again == cards and (rng.sample(range(50), 3), rng.randrange(1), rng.randrange(9)) == picks
    assert script == scripted_outcomes(draws)


@pytest.mark.parametrize("name", NAMES)
def test_engines_draw_their_setup_through_chance(name: str) -> None:
    """Under an empty script every game's setup stops at its first draw, with that draw's outcome count;
    a recorded setup replayed as a script gives the same game."""
    game = get_game(name)
    with record_chance() as draws:
        state = game.new(2, 11)
    assert draws
    with scripted_chance([]), pytest.raises(NeedChance) as need:
        game.new(2, 11)
    assert need.value.n == draws[0][0]
    with scripted_chance(scripted_outcomes(draws)):
        again = game.new(2, 0)
    assert [game.view(again, seat) for seat in range(2)] == [game.view(state, seat) for seat in range(2)]
    assert game.card_counts(again) == game.card_counts(state)


@pytest.mark.parametrize("seed", range(40))
def test_the_fast_shuffle_orders_and_leaves_the_generator_as_random_does(seed: int) -> None:
    for size in (0, 1, 2, 3, 7, 31, 32, 33, 90, 257):
        library, ours = random.Random(seed), random.Random(seed)
        expected, got = list(range(size)), list(range(size))
        library.shuffle(expected)
        shuffle(ours, got)
        assert got == expected and ours.getstate() == library.getstate(), size


def test_the_fast_shuffle_leaves_scripted_and_recorded_chance_their_own_shuffle() -> None:
    with record_chance() as draws:
        cards = list(range(6))
        shuffle(chance(3), cards)
    library = list(range(6))
    random.Random(3).shuffle(library)
    assert cards == library and [n for n, _ in draws] == [6, 5, 4, 3, 2]
    with scripted_chance([0, 0, 0]), pytest.raises(NeedChance):
        shuffle(chance(0), list(range(5)))
