"""The rating fit recovers known strengths from synthetic results; a fit that ignores the anchor or swaps
winners and losers is caught by the same check."""

from __future__ import annotations

import random

import pytest

from tablepress.agents.elo import Rating, Result, expected, fit
from tablepress.core.errors import TablepressError

TRUE = {"random": 1000.0, "beginner": 1180.0, "casual": 1450.0, "strong": 1620.0}
DRAWS = 0.04


def synthetic(games: int = 600, seed: int = 3) -> list[Result]:
    """Every pair's `games` games drawn from the Elo model with the TRUE ratings (DRAWS of them drawn)."""
    rng = random.Random(seed)
    names = list(TRUE)
    results = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = expected(TRUE[a], TRUE[b])
            win = (p - DRAWS / 2) / (1 - DRAWS)  # so that a's expected score is p
            score = 0.0
            for _ in range(games):
                if rng.random() < DRAWS:
                    score += 0.5
                elif rng.random() < win:
                    score += 1.0
            results.append(Result(a, b, games, score))
    return results


def recovers(fitter) -> bool:
    """Whether `fitter(results, anchor)` gives every TRUE rating within its 95% interval (widened by 10 points
    for the prior's pull) and the anchor exactly."""
    ratings = fitter(synthetic(), "random")
    if ratings["random"].rating != 1000.0:
        return False
    return all(r.low - 10 <= TRUE[name] <= r.high + 10 and r.high - r.low < 120 for name, r in ratings.items())


def test_the_fit_recovers_known_strengths():
    assert recovers(fit)


def test_a_fit_that_ignores_the_anchor_is_caught():
    def centred(results, anchor):
        ratings = fit(results, anchor)
        shift = 1000.0 - sum(r.rating for r in ratings.values()) / len(ratings)
        return {n: Rating(n, r.rating + shift, r.low + shift, r.high + shift, r.games) for n, r in ratings.items()}

    assert not recovers(centred)


def test_a_fit_that_swaps_winners_is_caught():
    def swapped(results, anchor):
        return fit([Result(r.a, r.b, r.games, r.games - r.a_score) for r in results], anchor)

    assert not recovers(swapped)


def test_ratings_keep_their_order_and_games_from_a_small_round_robin():
    ratings = fit(synthetic(games=30, seed=8), "random")
    assert [n for n, _ in sorted(ratings.items(), key=lambda item: item[1].rating)] == list(TRUE)
    assert all(r.games == 90 for r in ratings.values())


def test_a_clean_sweep_still_has_a_finite_rating_above_the_anchor():
    ratings = fit([Result("random", "strong", 20, 0.0)], "random")
    assert 1300 < ratings["strong"].rating < 2000
    assert ratings["strong"].low < ratings["strong"].rating < ratings["strong"].high


def test_entrants_not_linked_to_the_anchor_are_refused():
    with pytest.raises(TablepressError, match="no games link"):
        fit([Result("random", "a", 4, 2.0), Result("b", "c", 4, 1.0)], "random")
    with pytest.raises(TablepressError, match="played no games"):
        fit([Result("a", "b", 4, 2.0)], "random")
