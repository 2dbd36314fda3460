"""The greedy player's evaluation of Pressed states: its fast planting values equal a full re-score,
final scoring finds the best choices, and greedy decides as it did before incremental evaluation.

tests/data/pressed_greedy_golden.json was recorded before incremental evaluation: for seeds 0-19 at 2
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
from tablepress.games.pressed.heuristics import seat_value, step_values
from tablepress.games.pressed.scoring import best_final, best_total, final_score

from golden import greedy_indices

evaluate = PACKAGE.heuristics.evaluate
full_evaluate = margin(seat_value)  # the package default: every seat's value re-scored
GOLDEN = json.loads((Path(__file__).parent / "data" / "pressed_greedy_golden.json").read_text())


def play_random(players, deal, steps, options=None):
    """The state after `steps` uniformly random actions from deal `deal` (seat and action drawn by Random(deal))."""
    rng = random.Random(deal)
    state = GAME.new(players, deal, options)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        seat = rng.choice(GAME.to_move(state))
        GAME.apply_legal(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state



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
