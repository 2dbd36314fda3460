"""The game's quality figures from result rows: one declared list, shared by `tune`'s guards and A/B verdicts.

A quality measure reads every game's row (see `runner.play_one`) into one number per game and averages
them into an `Estimate` with a 95% interval: a Wilson interval for a share of games, a t interval for a
mean. Each measure says which direction is better: `higher`, `lower`, `closer` (to `goal(players)`,
such as the fair first-player share 1/players) or `none` (a change is only a change: game length).

The API is small:
- `MEASURES`: the declared measures, by name (`turns`, `shared`, `decisive`, `lead_changes`, `spread`,
  `first_gap`, `score`);
- `per_game(rows, name)`: a measure's value in every game (NaN where a game has none), for paired
  comparisons on common seeds; `name` may also be a card-level figure `fig.NAME`;
- `measure(rows, name) -> Estimate` and `figures(rows) -> dict[str, Estimate]` (every measure that
  applies at the rows' player count).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .stats import FIG, mean_ci, wilson

Row = Mapping[str, Any]
Better = Literal["higher", "lower", "closer", "none"]


@dataclass(frozen=True)
class Estimate:
    """A figure over a set of games: its value, 95% interval and how many games measured it."""

    value: float
    ci95: tuple[float, float]
    games: int

    def as_json(self) -> dict[str, Any]:
        """The estimate for `--json` (None for what was never measured)."""
        return {"value": _finite(self.value), "ci95": [_finite(v) for v in self.ci95], "games": self.games}


@dataclass(frozen=True)
class Measure:
    """One quality measure: name, label, the better direction, and how it reads a game.

    `share` measures count games (each game 0 or 1, or a win share) and take a Wilson interval; the others
    a t interval. `goal` gives the value a `closer` measure aims at for a player count.
    """

    name: str
    label: str
    better: Better
    game_value: Callable[[Row], float]
    share: bool = False
    multiplayer: bool = True
    goal: Callable[[int], float] | None = None
    unit: str = ""

    def applies(self, players: int) -> bool:
        """Whether the measure means anything at this player count (solo games have no winners to compare)."""
        return players > 1 or not self.multiplayer


def _players(row: Row) -> int:
    return len(row["scores"])


def _turns(row: Row) -> float:
    return float(row["turns"])


def _shared(row: Row) -> float:
    return float(len(row["winners"]) > 1)


def _decisive(row: Row) -> float:
    leader = row["leader_half"]
    return float(leader >= 0 and leader in row["winners"])


def _lead_changes(row: Row) -> float:
    return float(row["lead_changes"])


def _spread(row: Row) -> float:
    scores = row["scores"]
    return float(max(scores) - min(scores))


def _first_gap(row: Row) -> float:
    return float(row["shares"][row["first"]]) - 1 / _players(row)


def _score(row: Row) -> float:
    scores = row["scores"]
    return float(sum(scores) / len(scores))


#: The quality measures, in the order tables show them. Shared victories: games with two or more winners;
#: decisiveness: games the leader at halfway wins; score spread: top score − bottom score; first-player
#: gap: the first player's win share − the fair 1/players.
MEASURES: dict[str, Measure] = {m.name: m for m in (
    Measure("turns", "game length (turns)", "none", _turns, multiplayer=False, unit="turns"),
    Measure("shared", "shared victories", "lower", _shared, share=True),
    Measure("decisive", "decisiveness", "none", _decisive, share=True),
    Measure("lead_changes", "lead changes a game", "higher", _lead_changes),
    Measure("spread", "score spread", "lower", _spread, unit="points"),
    Measure("first_gap", "first-player gap", "closer", _first_gap, share=True,
            goal=lambda players: 0.0),
    Measure("score", "mean score", "none", _score, multiplayer=False, unit="points"),
)}


def known(name: str) -> bool:
    """Whether `name` is a quality measure or a card-level figure `fig.NAME`."""
    return name in MEASURES or name.startswith(FIG)


def per_game(rows: Sequence[Row], name: str) -> np.ndarray:
    """The measure `name` (or card-level figure `fig.NAME`) in every game; NaN where a game lacks it."""
    if name.startswith(FIG):
        return np.array([float(row.get(name, math.nan)) for row in rows], dtype=float)
    reader = MEASURES[name].game_value
    return np.array([reader(row) for row in rows], dtype=float)


def measure(rows: Sequence[Row], name: str) -> Estimate:
    """The measure `name` over `rows`: mean with a Wilson interval for a share, else a t interval.

    A first-player gap's interval is the Wilson interval of the first player's win share, less 1/players.
    """
    values = per_game(rows, name)
    known_values = values[~np.isnan(values)]
    n = int(known_values.size)
    if n == 0:
        return Estimate(math.nan, (math.nan, math.nan), 0)
    spec = MEASURES.get(name)
    mean = float(known_values.mean())
    if spec is not None and spec.share:
        offset = -1 / _players(rows[0]) if name == "first_gap" else 0.0
        low, high = wilson(float((known_values - offset).sum()), n)
        return Estimate(mean, (low + offset, high + offset), n)
    summary = mean_ci(known_values)
    return Estimate(mean, (summary["ci95"][0], summary["ci95"][1]), n)


def figures(rows: Sequence[Row]) -> dict[str, Estimate]:
    """Every quality measure that applies at the rows' player count, by name, in `MEASURES` order."""
    players = _players(rows[0]) if rows else 2
    return {name: measure(rows, name) for name, spec in MEASURES.items() if spec.applies(players)}


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


# ===== Paired comparisons on common seeds (for simulate's verdict, `verdict.py`) ===================
# Added beside the declared measures above, without changing them: two more measures that are not one
# number per game (the spread of win rates over turn positions, and the skill gap, read from separate
# greedy-against-random rows), and a paired comparison of any measure between two row sets played on the
# same seeds: a paired t test of the per-game differences where the measure is a mean of per-game values,
# a paired bootstrap (the same resampled games for both sets) where it is not (`closer` measures, whose
# distance to the goal is not a mean, and the seat spread).

#: Resamples of the paired bootstrap.
RESAMPLES = 2000
#: The seats of the skill-gap games: one greedy player against random ones (`--seats` form).
SKILL_SEATS = "greedy,random"

EXTRA_MEASURES: dict[str, Measure] = {m.name: m for m in (
    Measure("seat_spread", "seat spread (best − worst turn position's win rate)", "lower", lambda row: math.nan,
            share=True),
    Measure("skill_gap", "skill gap (greedy's win share against random seats)", "higher", lambda row: math.nan,
            share=True),
)}


def position_shares(rows: Sequence[Row]) -> np.ndarray:
    """Games × turn positions: each position's win share (position 1 acts first)."""
    return np.array([[row["shares"][(row["first"] + k) % _players(row)] for k in range(_players(row))]
                     for row in rows], dtype=float)


def skill_shares(rows: Sequence[Row]) -> np.ndarray:
    """The win share of the first --seats spec (greedy in the skill-gap games) in every game, wherever it sat."""
    return np.array([row["shares"][row["entrants"].index(0)] if row.get("entrants") else row["shares"][0]
                     for row in rows], dtype=float)


def seat_spread(rows: Sequence[Row]) -> Estimate:
    """The spread of win rates over the turn positions (best − worst), with a bootstrap 95% interval."""
    shares = position_shares(rows)
    if not len(shares):
        return Estimate(math.nan, (math.nan, math.nan), 0)
    value = _spread_of(shares.mean(axis=0, keepdims=True))[0]
    boot = _spread_of(_resampled_means(shares, _weights(len(shares), 0)))
    low, high = np.quantile(boot, [0.025, 0.975])
    return Estimate(float(value), (float(low), float(high)), len(shares))


def skill_gap(rows: Sequence[Row]) -> Estimate:
    """Greedy's win share against random seats (skill-gap rows), with its Wilson interval."""
    shares = skill_shares(rows)
    low, high = wilson(float(shares.sum()), len(shares))
    return Estimate(float(shares.mean()) if len(shares) else math.nan, (low, high), len(shares))


def _spread_of(means: np.ndarray) -> np.ndarray:
    return means.max(axis=1) - means.min(axis=1)


def _weights(games: int, seed: int, resamples: int = RESAMPLES) -> np.ndarray:
    """Resamples × games: how often each game is drawn in each bootstrap resample (the same for both sets)."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(games, np.full(games, 1 / games), size=resamples).astype(float)


def _resampled_means(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each resample's mean of every column of `values` (games × columns; NaN left out)."""
    values = values.reshape(len(values), -1)
    known = ~np.isnan(values)
    totals = weights @ np.where(known, values, 0.0)
    counts = weights @ known.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return totals / counts


def _closeness(means: np.ndarray, goal: float) -> np.ndarray:
    return np.abs(means - goal)


def paired_comparison(rows_a: Sequence[Row], rows_b: Sequence[Row], name: str,
                      skill_a: Sequence[Row] | None = None, skill_b: Sequence[Row] | None = None,
                      seed: int = 0) -> dict[str, Any]:
    """Measure `name` of B against A on common seeds (games paired by position in the two lists).

    Gives `a`, `b` (Estimates), `diff` (B − A of the measure's value; for a `closer` measure, of its
    distance to the goal), `ci95`, `p_value` (two-sided, uncorrected) and `score`: B − A on the scale where
    more is better (the difference for `higher` and `none`, its negative for `lower` and `closer`).
    """
    from .stats import paired

    spec = MEASURES.get(name) or EXTRA_MEASURES[name]
    if name == "skill_gap":
        assert skill_a is not None and skill_b is not None
        a_est, b_est = skill_gap(skill_a), skill_gap(skill_b)
        test = paired(skill_shares(skill_a), skill_shares(skill_b))
        return _result(spec, a_est, b_est, test["diff"], test["ci95"], test["p_value"])
    if name == "seat_spread":
        va, vb = position_shares(rows_a), position_shares(rows_b)
        a_est, b_est = seat_spread(rows_a), seat_spread(rows_b)
        weights = _weights(len(va), seed)
        boot = _spread_of(_resampled_means(vb, weights)) - _spread_of(_resampled_means(va, weights))
        return _result(spec, a_est, b_est, b_est.value - a_est.value, *_boot_interval(boot, b_est.value - a_est.value))
    va, vb = per_game(rows_a, name), per_game(rows_b, name)
    a_est, b_est = measure(rows_a, name), measure(rows_b, name)
    if spec.better == "closer" and spec.goal is not None:
        goal = spec.goal(_players(rows_a[0]))
        weights = _weights(len(va), seed)
        distance = _closeness(_resampled_means(vb, weights)[:, 0], goal) - _closeness(
            _resampled_means(va, weights)[:, 0], goal)
        observed = float(abs(b_est.value - goal) - abs(a_est.value - goal))
        ci, p = _boot_interval(distance, observed)
        out = _result(spec, a_est, b_est, observed, ci, p, score=-observed)
        out["goal"] = goal
        return out
    test = paired(va, vb)
    return _result(spec, a_est, b_est, test["diff"], test["ci95"], test["p_value"])


def _boot_interval(boot: np.ndarray, observed: float) -> tuple[list[float], float]:
    """A percentile 95% interval of a bootstrap difference, and its two-sided p (how often it falls on the
    other side of 0, doubled)."""
    boot = boot[np.isfinite(boot)]
    if not boot.size:
        return [math.nan, math.nan], math.nan
    low, high = (float(v) for v in np.quantile(boot, [0.025, 0.975]))
    if observed == 0 and low == high == 0:
        return [0.0, 0.0], 1.0
    below, above = float(np.mean(boot <= 0)), float(np.mean(boot >= 0))
    p = min(1.0, 2 * min(below, above) + 1 / boot.size)
    return [low, high], p


def _result(spec: Measure, a: Estimate, b: Estimate, diff: float, ci: Sequence[float], p: float,
            score: float | None = None) -> dict[str, Any]:
    """One comparison as plain data; `score` > 0 means B is better on this measure. For a `closer` measure
    `diff` and `ci95` are the change in distance to the goal (negative: B is closer)."""
    if score is None:
        score = -diff if spec.better == "lower" else diff
    return {"name": spec.name, "label": spec.label, "better": spec.better, "a": a, "b": b, "diff": float(diff),
            "ci95": [float(v) for v in ci], "p_value": float(p) if p == p else math.nan, "score": float(score)}
