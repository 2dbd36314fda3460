"""Elo ratings fitted by maximum likelihood (the Bradley–Terry model on the Elo scale) from head-to-head results.

Entrant i beats j with probability 1 / (1 + 10^((R_j - R_i) / 400)); a draw counts half a win to each. The
ratings are the ones that make every recorded result most likely at once, with one entrant (the anchor,
random play) held at a fixed rating so the scale means the same from game to game. Each pair that met also
counts `prior_draws` imagined drawn games, so an entrant that won every game still gets a finite rating
(BayesElo's device). The 95% intervals come from the curvature of the likelihood at its peak (the
inverse observed information), relative to the anchor.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.errors import TablepressError

#: The rating random play is held at.
ANCHOR_RATING = 1000.0
#: Imagined drawn games added to each pair that met.
PRIOR_DRAWS = 1.0
#: Elo points per natural-log unit of the odds.
SCALE = 400.0 / math.log(10.0)
Z95 = 1.959964


@dataclass(frozen=True)
class Result:
    """The games two entrants played against each other: `a_score` is a's wins plus half its draws."""

    a: str
    b: str
    games: int
    a_score: float


@dataclass(frozen=True)
class Rating:
    """One entrant's fitted rating, its 95% interval and the games it played."""

    name: str
    rating: float
    low: float
    high: float
    games: int


def expected(rating_a: float, rating_b: float) -> float:
    """The share of the points a player rated `rating_a` is expected to take from one rated `rating_b`."""
    return 1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / 400.0))


def fit(results: Sequence[Result], anchor: str, anchor_rating: float = ANCHOR_RATING,
        prior_draws: float = PRIOR_DRAWS) -> dict[str, Rating]:
    """Every entrant's maximum-likelihood rating with `anchor` held at `anchor_rating` (see the module)."""
    names = sorted({r.a for r in results} | {r.b for r in results}, key=lambda n: (n != anchor, n))
    if anchor not in names:
        raise TablepressError(f"the anchor {anchor!r} played no games")
    index = {name: i for i, name in enumerate(names)}
    size = len(names)
    games = np.zeros((size, size))
    points = np.zeros((size, size))
    for r in results:
        if r.games <= 0 or not 0 <= r.a_score <= r.games or r.a == r.b:
            raise TablepressError(f"{r.a} v {r.b}: {r.a_score} points of {r.games} games is no result")
        i, j = index[r.a], index[r.b]
        games[i, j] += r.games
        games[j, i] += r.games
        points[i, j] += r.a_score
        points[j, i] += r.games - r.a_score
    met = games > 0
    games = games + prior_draws * met
    points = points + prior_draws * met / 2
    _check_connected(names, met, 0)
    theta = _newton(games, points)
    covariance = np.linalg.inv(-_hessian(games, theta)[1:, 1:]) if size > 1 else np.zeros((0, 0))
    played = (games - prior_draws * met).sum(axis=1)
    ratings = {}
    for i, name in enumerate(names):
        value = float(anchor_rating + SCALE * theta[i])
        half = Z95 * SCALE * math.sqrt(max(0.0, covariance[i - 1, i - 1])) if i else 0.0
        ratings[name] = Rating(name, value, value - half, value + half, int(round(played[i])))
    return ratings


def _check_connected(names: list[str], met: np.ndarray, start: int) -> None:
    """TablepressError unless every entrant is linked to the anchor by games played."""
    seen, todo = {start}, [start]
    while todo:
        i = todo.pop()
        for j in np.flatnonzero(met[i]):
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    apart = [names[i] for i in range(len(names)) if i not in seen]
    if apart:
        raise TablepressError(f"no games link {', '.join(apart)} to {names[start]}: their ratings cannot be fitted")


def _log_likelihood(games: np.ndarray, points: np.ndarray, theta: np.ndarray) -> float:
    diff = theta[:, None] - theta[None, :]
    return float((points * -np.logaddexp(0.0, -diff)).sum() + ((games - points) * -np.logaddexp(0.0, diff)).sum())


def _hessian(games: np.ndarray, theta: np.ndarray) -> np.ndarray:
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    weight = games * p * (1.0 - p)
    return weight - np.diag(weight.sum(axis=1))


def _newton(games: np.ndarray, points: np.ndarray, steps: int = 100) -> np.ndarray:
    """The log-odds strengths (the anchor, entrant 0, at 0) that maximise the likelihood."""
    theta = np.zeros(len(games))
    if len(games) == 1:
        return theta
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
        gradient = (points - games * p).sum(axis=1)
        step = np.linalg.solve(-_hessian(games, theta)[1:, 1:], gradient[1:])
        now = _log_likelihood(games, points, theta)
        scale = 1.0
        while scale > 1e-6:
            trial = theta.copy()
            trial[1:] += scale * step
            if _log_likelihood(games, points, trial) >= now - 1e-12:
                break
            scale /= 2
        theta = trial
        if np.abs(scale * step).max() < 1e-10:
            break
    return theta
