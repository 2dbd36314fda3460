"""The greedy player's evaluation of Planted states: points-like, from the seat's side."""

from __future__ import annotations

from tablepress.games.planted import GAME, PACKAGE
from tablepress.games.planted.engine import OVER
from tablepress.games.planted.heuristics import seat_value

evaluate = PACKAGE.heuristics.evaluate

PLANT = {p.name: i for i, p in enumerate(GAME.cards.plants)}


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
