"""The greedy player's evaluation of Pressed states: its fast planting values equal a full re-score,
final scoring finds the best choices, and greedy decides as it did before incremental evaluation.

tests/data/pressed_greedy_golden.json was recorded before incremental evaluation, and again when the
heuristic learned the pick race (the fast values are held to a full re-score below): for seeds 0-19 at 2
and 4 players, the index in the legal list of every action of a greedy-vs-greedy game (agent seeds
`derive_seed(seed, "seat", seat)`), and `[players, deal, steps, evaluate per seat, seat_value per seat]`
of 300 positions reached by `play_random`.
"""

from __future__ import annotations

import json
import random
from itertools import product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablepress.core.package import margin
from tablepress.games.pressed import ELECTIVE_SETS, GAME, PACKAGE
from tablepress.games.pressed.cards import CHOSEN, COPY
from tablepress.games.pressed.heuristics import (PLANT_RACE_WEIGHT, best_press_gain, pick_race, seat_value, seat_values,
                                                 step_values)
from tablepress.games.pressed.state import collection
from tablepress.games.pressed.scoring import best_final, best_total, collection_counts, final_score

from golden import greedy_indices, play_random as play_random_in

evaluate = PACKAGE.heuristics.evaluate
full_evaluate = margin(seat_value)  # the package default: every seat's value re-scored
GOLDEN = json.loads((Path(__file__).parent / "data" / "pressed_greedy_golden.json").read_text())


def play_random(players, deal, steps, options=None):
    """`golden.play_random` of this file's game."""
    return play_random_in(GAME, players, deal, steps, options)


@pytest.mark.parametrize("key", sorted(GOLDEN["games"]))
def test_greedy_decides_as_it_did_before_incremental_evaluation(key):
    players, seed = map(int, key.split("/"))
    assert greedy_indices(GAME, players, seed) == GOLDEN["games"][key]


def test_values_of_recorded_positions_are_unchanged():
    for players, deal, steps, evaluations, values in GOLDEN["positions"]:
        state = play_random(players, deal, steps)
        for seat in range(players):
            assert evaluate(GAME, state, seat) == pytest.approx(evaluations[seat], abs=1e-9)
            assert seat_value(GAME, state, seat) == pytest.approx(values[seat], abs=1e-9)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), deal=st.integers(0, 2**32 - 1), steps=st.integers(0, 120),
       electives=st.sampled_from((None, *ELECTIVE_SETS)))
def test_fast_values_equal_a_full_re_score(players, deal, steps, electives):
    options = {"electives": electives} if electives and players <= 3 else None
    state = play_random(players, deal, steps, options)
    for seat in GAME.to_move(state):
        actions = GAME.legal_actions(state, seat)
        before = GAME.clone(state)
        fast = step_values(GAME, state, seat, actions)
        assert state == before
        for action, value in zip(actions, fast):
            child = GAME.clone(state)
            GAME.apply_legal(child, seat, action)
            assert value == pytest.approx(full_evaluate(GAME, child, seat), abs=1e-9), action
            assert evaluate(GAME, child, seat) == pytest.approx(value, abs=1e-9), action


def brute_best(counts):
    """The best final total by trying every Baby's Breath placement and every chooser's target."""
    cards = GAME.cards
    groups = [k for k in cards.kinds if counts[k] and cards.effects[k] != COPY]
    if not groups:
        return 0
    free = counts[cards.copy_kind] if cards.copy_kind is not None else 0
    choosers = [k for k in groups if cards.counts[k] == CHOSEN]
    best = None
    for targets in product(*[[g for g in groups if g != t] or [None] for t in choosers]):
        chosen = {t: g for t, g in zip(choosers, targets) if g is not None}
        for placement in product(range(free + 1), repeat=len(groups)):
            if sum(placement) != free:
                continue
            tucked = [0] * len(cards.names)
            for g, extra in zip(groups, placement):
                tucked[g] = extra
            total = final_score(counts, cards, tucked, chosen).total
            best = total if best is None else max(best, total)
    return best


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.integers(0, len(GAME.cards.names) - 1), max_size=12))
def test_final_scoring_finds_the_best_choices(cards):
    counts = [0] * len(GAME.cards.names)
    for card in cards:
        counts[card] += 1
    assert best_total(counts, GAME.cards) == brute_best(counts)
    found = best_final(counts, GAME.cards)
    tucked = [0] * len(GAME.cards.names)
    for group in found.groups:
        tucked[group.kind] = group.tucked
    chosen = {group.kind: group.chosen for group in found.groups if group.chosen is not None}
    assert found.total == final_score(counts, GAME.cards, tucked, chosen).total == best_total(counts, GAME.cards)


def test_the_pick_race_gives_each_seat_what_the_seats_before_it_leave():
    # Columns 0-2; column 2 is not open. Seat 1 picks first and takes the column both want most.
    gains = [[5, 3, None], [6, 1, None]]
    assert pick_race([1, 0], gains) == {1: 6, 0: 3}
    assert pick_race([0, 1], gains) == {0: 5, 1: 1}
    # Ties go to the leftmost column; a seat left with no open column gets nothing.
    assert pick_race([0, 1], [[4, 4, None], [4, 4, None]]) == {0: 4, 1: 4}
    assert pick_race([0, 1], [[2, None, None], [7, None, None]]) == {0: 2}


def test_points_that_cost_the_first_pick_are_weighed_against_the_column_lost():
    # Two seats level on 0: the one lowest in the stack picks first, unless it scores now and so goes last.
    state = play_random(2, 7, 0)
    low, high = state.stack
    values = seat_values(GAME, state)
    scored = GAME.clone(state)
    scored.scores[low] = 1
    scored.stack[:] = [high, low]
    counts = [collection_counts(collection(state, s), GAME.cards) for s in range(2)]
    gains = [[best_press_gain(GAME, counts[s], col) for col in state.bed] for s in range(2)]
    first, second = pick_race([low, high], gains), pick_race([high, low], gains)
    assert first != second  # the deal gives both seats the same best column
    after = seat_values(GAME, scored)
    assert after[low] - values[low] == pytest.approx(1 + PLANT_RACE_WEIGHT * (second[low] - first[low]))
    assert after[high] - values[high] == pytest.approx(PLANT_RACE_WEIGHT * (second[high] - first[high]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), deal=st.integers(0, 2**32 - 1), steps=st.integers(0, 120))
def test_a_remembered_race_is_never_that_of_another_state(players, deal, steps):
    """`seat_value` remembers the last state's race: a state changed in place, or another determinization
    of the same position (other hidden pressed cards), is raced again."""
    state = play_random(players, deal, steps)
    if GAME.is_over(state):
        return
    rng = random.Random(deal)
    for seat in range(players):
        other = GAME.determinize(state, seat, rng)
        for position in (state, other):
            assert [seat_value(GAME, position, s) for s in range(players)] == seat_values(GAME, position)
    mover = GAME.to_move(state)[0]
    seat_value(GAME, state, mover)
    GAME.apply_legal(state, mover, rng.choice(GAME.legal_actions(state, mover)))
    if not GAME.is_over(state):
        assert [seat_value(GAME, state, s) for s in range(players)] == seat_values(GAME, state)
