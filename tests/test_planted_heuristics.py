"""The greedy player's evaluation of Planted states: points-like, from the seat's side; its remembered
board values and fast one-step values equal a full re-score, `turn_goes_on` says what applying an action
shows, and greedy decides as before they existed.

tests/data/planted_greedy_golden.json was recorded before incremental evaluation: for seeds 0-19 at 2
and 4 players, the index in the legal list of every action of a greedy-vs-greedy game (agent seeds
`derive_seed(seed, "seat", seat)`), and `[players, deal, steps, evaluate per seat, seat_value per seat]`
of 300 positions reached by `play_random`.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablepress.games.planted import GAME, PACKAGE
from tablepress.games.planted.cards import load_data
from tablepress.games.planted.engine import OVER, PlantedGame
from tablepress.games.planted.feeding import best_gain, feedings
from tablepress.games.planted.heuristics import full_seat_value, seat_value
from tablepress.games.planted.scoring import board_total, score_board
from tablepress.games.planted.steps import step_values, turn_goes_on

from golden import greedy_indices, play_random

evaluate = PACKAGE.heuristics.evaluate

PLANT = {p.name: i for i, p in enumerate(GAME.cards.plants)}
GOLDEN = json.loads((Path(__file__).parent / "data" / "planted_greedy_golden.json").read_text())


def full_margin(game, state, seat):
    """`evaluate` re-scored from scratch: the seat's full value minus the best rival's."""
    values = [full_seat_value(game, state, s) for s in range(state.players)]
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


def test_a_symmetric_start_is_even_and_resources_toward_a_plant_count():
    state = GAME.new(2, 3)
    state.plants = [[PLANT["ZZ Plant"]], [PLANT["Peace Lily"]]]  # same cost (WF) and spaces
    assert evaluate(GAME, state, 0) == 0 == evaluate(GAME, state, 1)
    state.resources[0] = [0, 1, 1, 0]  # enough to feed now: +1 point, and more later
    assert evaluate(GAME, state, 0) >= 1 and evaluate(GAME, state, 1) <= -1


def test_at_the_end_the_value_is_the_score_margin():
    state = GAME.new(3, 3)
    state.phase = OVER
    state.propagation = [5, 2, 7]
    scores = GAME.scores(state)
    assert seat_value(GAME, state, 0) == scores[0]
    assert evaluate(GAME, state, 0) == scores[0] - max(scores[1:])
    assert evaluate(GAME, state, 2) == scores[2] - max(scores[:2])


@pytest.mark.parametrize("key", sorted(GOLDEN["games"]))
def test_greedy_decides_as_it_did_before_incremental_evaluation(key):
    players, seed = map(int, key.split("/"))
    assert greedy_indices(GAME, players, seed) == GOLDEN["games"][key]


def test_values_of_recorded_positions_are_unchanged():
    for players, deal, steps, evaluations, values in GOLDEN["positions"]:
        state = play_random(GAME, players, deal, steps)
        for seat in range(players):
            assert evaluate(GAME, state, seat) == pytest.approx(evaluations[seat], abs=1e-9)
            assert seat_value(GAME, state, seat) == pytest.approx(values[seat], abs=1e-9)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), deal=st.integers(0, 2**32 - 1), steps=st.integers(0, 400))
def test_fast_values_equal_a_full_re_score(players, deal, steps):
    state = play_random(GAME, players, deal, steps)
    for seat in range(players):
        assert seat_value(GAME, state, seat) == pytest.approx(full_seat_value(GAME, state, seat), abs=1e-9)
    for seat in GAME.to_move(state):
        actions = GAME.legal_actions(state, seat)
        before = GAME.clone(state)
        fast = step_values(GAME, state, seat, actions)
        assert state == before
        for action, value in zip(actions, fast):
            child = GAME.clone(state)
            GAME.apply_legal(child, seat, action)
            assert value == pytest.approx(full_margin(GAME, child, seat), abs=1e-9), action


def test_remembered_own_values_hold_in_every_determinization():
    checked = set()
    for deal in range(12):
        for steps in range(0, 240, 7):
            state = play_random(GAME, 3, deal, steps)
            for seat in GAME.to_move(state):
                actions = GAME.legal_actions(state, seat)
                for sample in range(3):
                    world = GAME.determinize(state, seat, random.Random(sample))
                    for action, value in zip(actions, step_values(GAME, world, seat, actions)):
                        child = GAME.clone(world)
                        GAME.apply_legal(child, seat, action)
                        assert value == pytest.approx(full_margin(GAME, child, seat), abs=1e-9), action
                checked.add(state.phase)
    assert checked >= {"choose", "buy", "feed"}


def test_remembered_own_values_are_told_apart_by_stage():
    """The same board and feedings while others still feed, and as the last to feed (the next round's values)."""
    checked = 0
    for deal in range(20):
        state = play_random(GAME, 3, deal, 0)
        rng = random.Random(deal)
        while not GAME.is_over(state) and not (state.phase == "feed" and len(GAME.to_move(state)) >= 2):
            seat = rng.choice(GAME.to_move(state))
            GAME.apply_legal(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        if GAME.is_over(state):
            continue
        seat = GAME.to_move(state)[0]
        last = GAME.clone(state)
        last.fed = [other != seat for other in range(3)]
        for world in (state, last):
            actions = GAME.legal_actions(world, seat)
            for action, value in zip(actions, step_values(GAME, world, seat, actions)):
                child = GAME.clone(world)
                GAME.apply_legal(child, seat, action)
                assert value == pytest.approx(full_margin(GAME, child, seat), abs=1e-9), action
        checked += 1
    assert checked


def assert_turn_goes_on_as_applied(game, state):
    """For every seat to move and each of its legal actions: `turn_goes_on` says what applying it shows."""
    for seat in game.to_move(state):
        for action in game.legal_actions(state, seat):
            before = game.clone(state)
            goes_on = turn_goes_on(game, state, seat, action)
            assert state == before
            child = game.clone(state)
            game.apply_legal(child, seat, action)
            assert goes_on == (seat in game.to_move(child)), (state.phase, seat, action)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), deal=st.integers(0, 2**32 - 1), steps=st.integers(0, 400))
def test_turn_goes_on_says_whether_the_seat_is_still_to_move(players, deal, steps):
    assert_turn_goes_on_as_applied(GAME, play_random(GAME, players, deal, steps))


def test_turn_goes_on_knows_who_is_dealt_cards_from_short_decks():
    assert PACKAGE.heuristics.turn_goes_on is turn_goes_on
    checked = 0
    for players in (2, 3, 5):
        for deal in range(6):
            state = play_random(GAME, players, deal, 0)
            rng = random.Random(deal)
            while not (state.phase == "feed" and len(GAME.to_move(state)) == 1 and state.round < 3):
                if GAME.is_over(state):
                    break
                seat = rng.choice(GAME.to_move(state))
                GAME.apply_legal(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            if GAME.is_over(state):
                continue
            for resources, items in ((0, 0), (0, 1), (1, 0), (6, 0), (7, 2), (12, 3), (13, 5)):
                short = GAME.clone(state)
                short.resource_deck, short.resource_discard = short.resource_deck[:resources // 2], []
                short.resource_discard = state.resource_discard[:resources - len(short.resource_deck)]
                short.item_deck, short.item_discard = short.item_deck[:items], []
                assert_turn_goes_on_as_applied(GAME, short)
                checked += 1
    assert checked


boards = st.builds(
    lambda plants, data: (plants, [data.draw(st.integers(0, len(GAME.cards.plants[p].spaces))) for p in plants]),
    st.lists(st.integers(0, len(GAME.cards.plants) - 1), min_size=1, max_size=6, unique=True), st.data(),
)


@settings(max_examples=300, deadline=None)
@given(board=boards, resources=st.lists(st.integers(0, 6), min_size=4, max_size=4),
       tools=st.lists(st.integers(0, len(GAME.cards.tools) - 1), max_size=4),
       decorations=st.lists(st.integers(0, len(GAME.cards.decorations) - 1), max_size=4),
       propagation=st.integers(0, 9))
def test_best_gain_is_the_solvers_best(board, resources, tools, decorations, propagation):
    plants, growth = board
    args = (GAME.cards, plants, growth, resources, tools, decorations, propagation)
    assert best_gain(*args) == feedings(*args)[0].gain


@settings(max_examples=200, deadline=None)
@given(board=boards, tools=st.lists(st.integers(0, len(GAME.cards.tools) - 1), max_size=4),
       decorations=st.lists(st.integers(0, len(GAME.cards.decorations) - 1), max_size=6),
       propagation=st.integers(0, 9))
def test_board_total_is_the_scored_total(board, tools, decorations, propagation):
    plants, growth = board
    args = (GAME.cards, plants, growth, propagation, tools, decorations)
    assert board_total(*args) == score_board(*args).total


def test_each_card_data_keeps_its_own_remembered_values():
    variant = PlantedGame(load_data({"tiers": {"beginner": [5, 6, 7, 8]}}))
    for game in (GAME, variant, GAME):
        state = play_random(game, 3, 11, 40)
        for seat in range(3):
            assert seat_value(game, state, seat) == full_seat_value(game, state, seat)
    state = play_random(GAME, 3, 11, 40)
    assert seat_value(variant, state, 0) != seat_value(GAME, state, 0)
