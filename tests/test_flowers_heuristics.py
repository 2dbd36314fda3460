"""The Flowers heuristic's incremental evaluation (issue 21): the same values and the same greedy decisions.

tests/data/flowers_greedy_golden.json was recorded before the heuristic was made incremental: the
greedy-vs-greedy games (each action as its index in the legal list) and the value of random positions.
"""

from __future__ import annotations

import gc
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablepress.core.registry import get_game, package_of
from tablepress.games.flowers import heuristics
from tablepress.games.flowers.engine import FlowersState
from tablepress.games.flowers.flow import placements
from tablepress.games.flowers.heuristics import seat_value, shape_value, step_values, turns_left
from tablepress.games.flowers.incremental import AreaModel, Tables, area_key, child_area, score
from tablepress.games.flowers.scoring import score_area

from golden import greedy_indices

FLOWERS = get_game("flowers")
TABLES = Tables(FLOWERS.cards)
GOLDEN = json.loads((Path(__file__).parent / "data" / "flowers_greedy_golden.json").read_text())
QUICK_SEEDS = 3


def full_value(state: FlowersState, seat: int) -> float:
    """`seat_value` re-scored from nothing: no memo, no parent (the exact score when no turns are left)."""
    area, turns = state.areas[seat], turns_left(state)
    if turns <= 0:
        return float(score_area(area, FLOWERS.cards).total)
    return shape_value(AreaModel(TABLES, area).shape, turns, FLOWERS.cards.butterfly_points)


def golden_position(index: int) -> FlowersState:
    """Position `index` of the fixture: deal 1000 + index, then random steps chosen by random.Random(index)."""
    players, summer, steps, _ = GOLDEN["positions"][index]
    rng = random.Random(index)
    assert rng.randrange(0, 120) == steps
    state = FLOWERS.new(players, 1000 + index, {"summer": summer})
    for _ in range(steps):
        if FLOWERS.is_over(state):
            break
        seat = FLOWERS.to_move(state)[0]
        FLOWERS.apply_legal(state, seat, rng.choice(FLOWERS.legal_actions(state, seat)))
    return state


def random_position(players: int, deal: int, steps: int, walk: int) -> FlowersState:
    """A position `steps` random actions into a game (fewer if it ends first)."""
    rng = random.Random(walk)
    state = FLOWERS.new(players, deal, {"summer": walk % 3 == 0})
    for _ in range(steps):
        if FLOWERS.is_over(state):
            break
        seat = FLOWERS.to_move(state)[0]
        FLOWERS.apply_legal(state, seat, rng.choice(FLOWERS.legal_actions(state, seat)))
    return state


def assert_steps_rescore(state: FlowersState) -> None:
    """`step_values` of every legal action equals applying it to a clone and re-scoring from nothing."""
    if FLOWERS.is_over(state):
        return
    seat = FLOWERS.to_move(state)[0]
    actions = FLOWERS.legal_actions(state, seat)
    before = FLOWERS.clone(state)
    values = step_values(FLOWERS, state, seat, actions)
    assert state == before, "step_values changed the state"
    for action, value in zip(actions, values):
        child = FLOWERS.clone(state)
        FLOWERS.apply_legal(child, seat, action)
        assert value == pytest.approx(full_value(child, seat), abs=1e-9), action
        assert seat_value(FLOWERS, child, seat) == pytest.approx(value, abs=1e-9), action



def _golden_games() -> list:
    games = []
    for key in GOLDEN["games"]:
        players, seed = map(int, key.split("/"))
        marks = () if seed < QUICK_SEEDS else (pytest.mark.slow,)
        games.append(pytest.param(players, seed, id=key, marks=marks))
    return games


@pytest.mark.parametrize(("players", "seed"), _golden_games())
def test_greedy_makes_the_recorded_decisions(players: int, seed: int) -> None:
    """Greedy (4 determinizations, the fast one-step values) plays every recorded game exactly as before."""
    assert greedy_indices(FLOWERS, players, seed) == GOLDEN["games"][f"{players}/{seed}"]


def test_values_are_the_recorded_ones() -> None:
    """seat_value, evaluate and the full re-score give the recorded value of every position, every seat."""
    evaluate = package_of(FLOWERS).heuristics.evaluate
    for index, (players, _, _, recorded) in enumerate(GOLDEN["positions"]):
        state = golden_position(index)
        for seat in range(players):
            assert seat_value(FLOWERS, state, seat) == pytest.approx(recorded[seat], abs=1e-9), (index, seat)
            assert evaluate(FLOWERS, state, seat) == pytest.approx(recorded[seat], abs=1e-9), (index, seat)
            assert full_value(state, seat) == pytest.approx(recorded[seat], abs=1e-9), (index, seat)


def test_step_values_equal_rescoring_each_child_on_the_recorded_positions() -> None:
    """On every fixture position, step_values equals clone + apply + re-score for each legal action."""
    for index in range(len(GOLDEN["positions"])):
        assert_steps_rescore(golden_position(index))


def test_the_package_declares_step_values() -> None:
    """Greedy and ismcts find the fast path through the package's heuristics."""
    assert package_of(FLOWERS).heuristics.step_values is step_values


def test_last_turn_is_valued_at_the_exact_score() -> None:
    """When a draw empties a stack, every placement after it is valued at the child's exact score."""
    state = FLOWERS.new(2, 7)
    rng = random.Random(7)
    while min(len(stack) for stack in state.stacks) > 1 or state.drawn is not None:
        seat = FLOWERS.to_move(state)[0]
        FLOWERS.apply_legal(state, seat, rng.choice(FLOWERS.legal_actions(state, seat)))
    seat = FLOWERS.to_move(state)[0]
    last = next(i for i, stack in enumerate(state.stacks) if len(stack) == 1)
    FLOWERS.apply_legal(state, seat, f"draw {last + 1}")
    actions = FLOWERS.legal_actions(state, seat)
    for action, value in zip(actions, step_values(FLOWERS, state, seat, actions)):
        child = FLOWERS.clone(state)
        FLOWERS.apply_legal(child, seat, action)
        assert child.over and value == FLOWERS.scores(child)[seat]


@settings(max_examples=60, deadline=None)
@given(players=st.integers(1, 4), deal=st.integers(0, 10_000), steps=st.integers(0, 140), walk=st.integers(0, 10_000))
def test_step_values_equal_rescoring_on_random_positions(players: int, deal: int, steps: int, walk: int) -> None:
    """Property: on positions reached by random play, the incremental values equal the full re-score."""
    assert_steps_rescore(random_position(players, deal, steps, walk))


CELLS = st.tuples(st.integers(-2, 2), st.integers(-2, 2))
STACKS = st.lists(st.integers(0, len(FLOWERS.cards.value) - 1), min_size=1, max_size=3).map(tuple)


@settings(max_examples=300, deadline=None)
@given(area=st.dictionaries(CELLS, STACKS, min_size=1, max_size=18), card=st.integers(0, len(FLOWERS.cards.value) - 1),
       pick=st.integers(0, 10_000), final=st.booleans())
def test_one_placement_updates_like_a_full_analysis(area: dict, card: int, pick: int, final: bool) -> None:
    """Property: on any crowded area (big groups, covered cards, violets: a determinization may draw one from
    the box), a placement's incremental shape is the shape of the area analysed from nothing after it;
    `final` shapes give the exact score."""
    cell = placements(area)[pick % len(placements(area))]
    child = child_area(area, cell, card)
    incremental = AreaModel(TABLES, area, final=final).child(cell, card)
    full = AreaModel(TABLES, child, final=final).shape
    assert incremental[:2] == full[:2] and incremental[3:] == full[3:]
    assert incremental[2] == pytest.approx(full[2], abs=1e-9)
    if final:
        assert score(incremental, TABLES) == score_area(child, FLOWERS.cards).total


@settings(max_examples=150, deadline=None)
@given(area=st.dictionaries(CELLS, STACKS, min_size=1, max_size=18), picks=st.lists(st.integers(0, 10_000), min_size=1,
       max_size=6), order=st.randoms(use_true_random=False), final=st.booleans())
def test_one_model_gives_every_card_on_every_cell_like_a_full_analysis(area: dict, picks: list, order,
                                                                      final: bool) -> None:
    """Property: one model asked for many children (every card, on several cells, in any order: the parts it
    shares between cards of one value are reused) gives each the shape of the area analysed from nothing."""
    cells = placements(area)
    model = AreaModel(TABLES, area, final=final)
    asks = [(cells[pick % len(cells)], card) for pick in picks for card in range(len(FLOWERS.cards.value))]
    order.shuffle(asks)
    for cell, card in asks:
        incremental = _assert_child_like_full_analysis(model, area, cell, card, final)
        if final:
            assert score(incremental, TABLES) == score_area(child_area(area, cell, card), FLOWERS.cards).total
    assert model.shape == AreaModel(TABLES, area, final=final).shape


@settings(max_examples=40, deadline=None)
@given(area=st.dictionaries(CELLS, STACKS, min_size=1, max_size=12), card=st.integers(0, len(FLOWERS.cards.value) - 1),
       pick=st.integers(0, 10_000), shift=st.tuples(st.integers(-5000, 5000), st.integers(-5000, 5000)))
def test_a_model_does_not_depend_on_where_the_area_lies(area: dict, card: int, pick: int, shift: tuple) -> None:
    """Property: an area moved anywhere on the grid (cells far from 0,0, negative ones) has the same shape and
    the same children (a model numbers its cells)."""
    dx, dy = shift
    moved = {(x + dx, y + dy): stack for (x, y), stack in area.items()}
    x, y = placements(area)[pick % len(placements(area))]
    pairs = [(AreaModel(TABLES, moved).shape, AreaModel(TABLES, area).shape),
             (AreaModel(TABLES, moved).child((x + dx, y + dy), card), AreaModel(TABLES, area).child((x, y), card))]
    for there, here in pairs:
        assert there[:2] == here[:2] and there[3:] == here[3:]
        assert there[2] == pytest.approx(here[2], abs=1e-9)



@settings(max_examples=40, deadline=None)
@given(deal=st.integers(0, 10_000), steps=st.integers(0, 140), walk=st.integers(0, 10_000),
       cards=st.lists(st.integers(0, len(FLOWERS.cards.value) - 1), min_size=1, max_size=4),
       order=st.randoms(use_true_random=False), final=st.booleans())
def test_every_placement_of_a_few_cards_is_like_a_full_analysis(deal: int, steps: int, walk: int, cards: list,
                                                                order, final: bool) -> None:
    """Property: one model of an area from random play, asked for a few cards on every cell as search asks
    (placements that lose the card, or change which other cards are kept, share work with others of the
    same value), gives each the shape of the area analysed from nothing."""
    area = random_position(2, deal, steps, walk).areas[walk % 2]
    model = AreaModel(TABLES, area, final=final)
    asks = [(cell, card) for cell in placements(area) for card in cards]
    order.shuffle(asks)
    for cell, card in asks:
        _assert_child_like_full_analysis(model, area, cell, card, final)


def _assert_child_like_full_analysis(model: AreaModel, area: dict, cell: tuple, card: int, final: bool) -> tuple:
    """`model.child(cell, card)`, checked against the child area analysed from nothing (credit to 1e-9)."""
    incremental = model.child(cell, card)
    full = AreaModel(TABLES, child_area(area, cell, card), final=final).shape
    assert incremental[:2] == full[:2] and incremental[3:] == full[3:], (cell, FLOWERS.cards.codes[card])
    assert incremental[2] == pytest.approx(full[2], abs=1e-9), (cell, FLOWERS.cards.codes[card])
    return incremental


def test_a_models_remembered_parts_are_not_tracked_by_the_garbage_collector() -> None:
    """Search keeps hundreds of models; parts held in sets would be walked by every full collection (in
    greedy games that once took a fifth of the time). Tuples of numbers are dropped from tracking."""
    area = random_position(2, 7, 90, 3).areas[1]
    model = AreaModel(TABLES, area)
    for cell in placements(area):
        for card in range(0, len(FLOWERS.cards.value), 5):
            model.child(cell, card)
    parts = [model.child_parts, model.hole_parts, model.lost_parts, model.lost_children, model.beside_parts,
             model.leave_groups, model.children]
    assert all(parts), "every kind of part is asked for"
    for _ in range(4):  # a tuple is dropped once what it holds is: each level of nesting takes a pass
        gc.collect()
    tracked = [part for memo in parts for entry in memo.items() for part in entry if gc.is_tracked(part)]
    assert not tracked, tracked[:3]


def test_an_areas_key_is_reused_for_the_same_contents_and_never_for_others() -> None:
    """Clones of a state get the very key object of their area (the memos then match it by identity); an
    area changed in place after it was keyed gets a new key, so the cache holds copies, not the areas."""
    memo = heuristics._memo_of(FLOWERS)
    state = random_position(2, 11, 40, 5)
    area = state.areas[0]
    key = memo.key(area)
    assert memo.key(FLOWERS.clone(state).areas[0]) is key
    cell = next(iter(placements(area)))
    area[cell] = (*area.get(cell, ()), 0)
    changed = memo.key(area)
    assert changed == area_key(area) and changed != key
    assert memo.key({**area}) is changed
