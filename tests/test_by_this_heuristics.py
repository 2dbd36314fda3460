"""The greedy player's evaluation of By This states: greedy decides as it did before the shelf race was
made fast, and the race's shares and every seat's value of recorded positions are unchanged.

tests/data/by_this_greedy_golden.json was recorded before the shelf race read the shelf by its ends
alone: for seeds 0-19 at 2, 3 and 4 players, the index in the legal list of every action of a
greedy-vs-greedy game (agent seeds `derive_seed(seed, "seat", seat)`), and `[players, deal, steps,
shelf_race shares, evaluate per seat, seat_value per seat]` of 300 positions reached by random play.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablepress.games.by_this import GAME, PACKAGE
from tablepress.games.by_this.heuristics import _best_placement, seat_value, shelf_race
from tablepress.games.by_this.scoring import close_points

from golden import greedy_indices, play_random

GOLDEN = json.loads((Path(__file__).parent / "data" / "by_this_greedy_golden.json").read_text())


@pytest.mark.parametrize("key", sorted(GOLDEN["games"]))
def test_greedy_decides_as_it_did_before_the_fast_shelf_race(key):
    players, seed = map(int, key.split("/"))
    assert greedy_indices(GAME, players, seed) == GOLDEN["games"][key]


def test_race_shares_and_values_of_recorded_positions_are_unchanged():
    evaluate = PACKAGE.heuristics.evaluate
    for players, deal, steps, shares, evaluations, values in GOLDEN["positions"]:
        state = play_random(GAME, players, deal, steps)
        assert shelf_race(GAME, state) == pytest.approx(shares, abs=1e-9)
        for seat in range(players):
            assert evaluate(GAME, state, seat) == pytest.approx(evaluations[seat], abs=1e-9)
            assert seat_value(GAME, state, seat) == pytest.approx(values[seat], abs=1e-9)


def test_the_recorded_positions_include_races_that_place_and_close():
    # The check above can only fail if the race did something: many positions credit some seat a close.
    credited = sum(1 for *_, shares, _, _ in GOLDEN["positions"] if any(shares))
    assert credited > 100


@pytest.mark.parametrize(("numbers", "number", "end"), [([3, 5], 5, "right"), ([3, 5], 6, "right"),
                                                      ([3, 5], 3, "left"), ([3, 5], 1, "left"), ([4], 4, "left")])
def test_a_thing_on_an_end_scores_two_more_beside_its_own_number_and_one_more_beside_another(numbers, number, end):
    longer = [number, *numbers] if end == "left" else [*numbers, number]
    beside = numbers[0] if end == "left" else numbers[-1]
    assert close_points(longer) == close_points(numbers) + 1 + (number == beside)


numbers_1_to_10 = st.lists(st.integers(1, 10), max_size=6)


@given(shelf=numbers_1_to_10, hand=numbers_1_to_10, floor=numbers_1_to_10, ascending=st.booleans())
def test_the_best_placement_is_the_first_that_scores_most_of_every_extended_shelf(shelf, hand, floor, ascending):
    shelf = sorted(shelf, reverse=not ascending)
    key_numbers = [*hand, *floor]  # card i has number key_numbers[i]: the hand's cards first, then the Floor's
    hand_cards, floor_cards = list(range(len(hand))), list(range(len(hand), len(key_numbers)))
    # Brute force: every card, hand then Floor, on every end the Key allows, left before right.
    expected = None
    for pool in (hand_cards, floor_cards):
        for card in pool:
            n = key_numbers[card]
            ends = [[n]] if not shelf else []
            if shelf and ((n <= shelf[0]) if ascending else (n >= shelf[0])):
                ends.append([n, *shelf])
            if shelf and ((n >= shelf[-1]) if ascending else (n <= shelf[-1])):
                ends.append([*shelf, n])
            for longer in ends:
                if expected is None or close_points(longer) > expected[4]:
                    expected = (pool, card, longer[0], longer[-1], close_points(longer))
    left, right = (shelf[0], shelf[-1]) if shelf else (0, 0)
    found = _best_placement(hand_cards, floor_cards, key_numbers, ascending, len(shelf), left, right,
                            close_points(shelf))
    assert found == expected
