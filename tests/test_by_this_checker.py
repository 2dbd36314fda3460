"""The forward-model checker on a By This variant, and the heuristics.

The package's declared checks run in test_core_checker_games.py.
"""

from __future__ import annotations

import random

import pytest

from tablepress.core.checker import check_game
from tablepress.core.registry import get_game
from tablepress.games.by_this import GAME, PACKAGE
from tablepress.games.by_this.heuristics import (CLOSE_WEIGHT, SPECIAL_WEIGHT, WIN_BONUS, race_shares,
                                                 seat_value)
from tablepress.games.by_this.state import OVER

evaluate = PACKAGE.heuristics.evaluate


def test_checker_with_a_variant() -> None:
    game = get_game("by-this").with_variant({"rules": {"closes_to_end": {"2": 3}, "hand_size": {"2": 8}}})
    report = check_game(game, 2, playouts=60, deep_playouts=4, seed=3)
    assert report.playouts == 60


def test_evaluate_prefers_closing_a_long_shelf_and_is_zero_sum_at_the_start() -> None:
    game = get_game("by-this")
    state = game.new(2, 1)
    assert evaluate(game, state, 0) == pytest.approx(-evaluate(game, state, 1))
    state.shelf = [game.by_name[n] for n in ("Ant", "Rice", "Sand", "Pearl")]
    state.key = game.key_by_plain["Small to Large"]
    state.phase = "close"
    mover = state.current
    closed, kept = game.clone(state), game.clone(state)
    game.apply(closed, mover, "close")
    game.apply(kept, mover, "keep")
    assert evaluate(game, closed, mover) > evaluate(game, kept, mover)


def relative_evaluate(game, state, seat: int) -> float:
    """The evaluation written out in one piece: each standing (with its shelf-race share) minus the best opponent's."""
    values = [state.scores[s] + CLOSE_WEIGHT * state.closes[s] for s in range(state.players)]
    if state.phase == OVER:
        winners = game.winners(state)
        if seat in winners:
            values[seat] += WIN_BONUS / len(winners)
    else:
        shares = race_shares(game, state)
        for s in range(state.players):
            values[s] += shares[s]
            values[s] += SPECIAL_WEIGHT * sum(1 for card in state.hands[s] if card >= game.thing_count)
    others = [values[s] for s in range(state.players) if s != seat]
    return values[seat] - max(others)


def random_positions(count: int):
    """Positions met in seeded random games of 2–4 players, the last one of each game finished."""
    for game_number in range(count):
        players = 2 + game_number % 3
        state = GAME.new(players, 100 + game_number, {"young": game_number % 2 == 1})
        rng = random.Random(game_number)
        while not GAME.is_over(state):
            yield state
            seat = GAME.to_move(state)[0]
            GAME.apply_legal(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        yield state


def test_the_default_margin_of_seat_value_is_the_evaluation_written_out_before_the_end() -> None:
    met = 0
    for state in random_positions(24):
        for seat in range(state.players):
            old, new = relative_evaluate(GAME, state, seat), evaluate(GAME, state, seat)
            if state.phase != OVER:
                assert new == pytest.approx(old)
                met += 1
            else:
                winners = GAME.winners(state)
                if winners == [seat]:
                    assert new == pytest.approx(old)
                elif seat in winners:  # a shared win: level with the other winners, not ahead of them
                    assert new == pytest.approx(old - WIN_BONUS / len(winners))
                else:  # the winners' bonus now counts against a loser
                    assert new < old
    assert met > 1000


def test_seat_value_is_the_seats_own_standing() -> None:
    state = GAME.new(3, 5)
    specials = [sum(1 for card in hand if card >= GAME.thing_count) for hand in state.hands]
    for seat in range(3):
        extra = race_shares(GAME, state)[seat]
        assert seat_value(GAME, state, seat) == pytest.approx(SPECIAL_WEIGHT * specials[seat] + extra)
    state.scores, state.closes, state.phase = [7, 9, 9], [1, 2, 2], OVER
    assert [seat_value(GAME, state, s) for s in range(3)] == pytest.approx(
        [7.1, 9.2 + WIN_BONUS / 2, 9.2 + WIN_BONUS / 2])
