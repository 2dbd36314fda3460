"""The feeding solver: its feeding scores at least as much as any other legal feeding (hypothesis),
its gains are the real change of the score, and every affordable feeding is offered."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tablepress.games.planted import GAME
from tablepress.games.planted.engine import FEED, PlantedState
from tablepress.games.planted.feeding import feedable, pay

CARDS = GAME.cards
TOOL_CARDS = sorted(CARDS.tool_of)
DECORATION_CARDS = sorted(CARDS.decoration_of)


@st.composite
def boards(draw) -> PlantedState:
    """Seat 0 of a 2-player game in the feeding step with a random board."""
    state = GAME.new(2, draw(st.integers(0, 1000)))
    state.hands = [[], []]
    plants = draw(st.lists(st.integers(0, len(CARDS.plants) - 1), min_size=1, max_size=6, unique=True))
    state.plants[0] = plants
    state.growth[0] = [draw(st.integers(0, len(CARDS.plants[p].spaces))) for p in plants]
    state.resources[0] = [draw(st.integers(0, 6)) for _ in range(4)]
    state.tools[0] = draw(st.lists(st.sampled_from(TOOL_CARDS), max_size=5, unique=True))
    state.decorations[0] = draw(st.lists(st.sampled_from(DECORATION_CARDS), max_size=6, unique=True))
    state.propagation[0] = draw(st.integers(0, 12))
    state.round = draw(st.integers(0, CARDS.rounds - 1))
    state.phase, state.fed, state.step = FEED, [False, True], 8
    return state


def score_after(state: PlantedState, action: str) -> int:
    """Seat 0's score after applying `action` to a copy of `state`."""
    after = GAME.clone(state)
    GAME.apply(after, 0, action)
    return GAME.scores(after)[0]


@settings(max_examples=150, deadline=None)
@given(boards())
def test_solver_feeding_scores_at_least_as_much_as_any_other(state):
    legal = GAME.legal_actions(state, 0)
    before = GAME.scores(state)[0]
    real = {action: score_after(state, action) - before for action in legal}
    assert real[legal[0]] == max(real.values())
    assert {a: f.gain for a, f in zip(legal, GAME.feedings(state, 0))} == real


@settings(max_examples=100, deadline=None)
@given(boards())
def test_every_affordable_feeding_is_offered_and_nothing_else(state):
    legal = set(GAME.legal_actions(state, 0))
    plants, growth = state.plants[0], state.growth[0]
    open_positions = feedable(CARDS, plants, growth)
    expected = set()
    for size in range(len(open_positions) + 1):
        for chosen in combinations(open_positions, size):
            need = [sum(CARDS.plants[plants[p]].cost[r] for p in chosen) for r in range(3)]
            if pay(CARDS, state.resources[0], need) is not None:
                names = "+".join(CARDS.plants[plants[p]].name for p in chosen)
                expected.add(f"feed {names or 'none'}")
    assert legal == expected
