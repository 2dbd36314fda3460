"""Balance statistics from result rows: win rates with Wilson intervals, first-player advantage, scores,
margins, game length, branching, drama (lead changes), decisiveness and each card-level figure.

Every number is computed from the rows in index order, so equal rows give equal numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import stats as sps

Z95 = 1.959963984540054
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
FIG = "fig."


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for `successes` out of `n` (successes may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (min(lo, p), max(hi, p))


def mean_ci(values: Sequence[float] | np.ndarray, low: float | None = None) -> dict[str, float]:
    """Mean with a 95% t interval, standard deviation and count (NaNs ignored).

    `low` is the least value the figure can take (0 for counts): the interval never reaches below it.
    """
    data = np.asarray(values, dtype=float)
    data = data[~np.isnan(data)]
    n = int(data.size)
    if n == 0:
        return {"mean": math.nan, "ci95": [math.nan, math.nan], "sd": math.nan, "n": 0}
    mean = float(data.mean())
    sd = float(data.std(ddof=1)) if n > 1 else 0.0
    half = float(sps.t.ppf(0.975, n - 1) * sd / math.sqrt(n)) if n > 1 else 0.0
    lo = mean - half if low is None else max(low, mean - half)
    return {"mean": mean, "ci95": [lo, mean + half], "sd": sd, "n": n}


def describe(values: Sequence[float] | np.ndarray, low: float | None = None) -> dict[str, Any]:
    """Mean, 95% interval (never below `low`), spread (sd), min, max and quantiles (5, 25, 50, 75, 95%)."""
    data = np.asarray(values, dtype=float)
    out = mean_ci(data, low)
    data = data[~np.isnan(data)]
    if data.size:
        out["min"] = float(data.min())
        out["max"] = float(data.max())
        out["quantiles"] = {f"{int(q * 100)}": float(v) for q, v in zip(QUANTILES, np.quantile(data, QUANTILES))}
    return out


def count_text(value: float) -> str:
    """A count that may be fractional (shared victories count 1/k): 103, or 103.7 — never 103.666667."""
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def figure_label(key: str) -> str:
    """A difference's key as a person reads it: no `fig.` prefix, seats counted from 1 (`win_rate.seat0` → `win rate, seat 1`)."""
    name = key.replace("fig.", "")
    head, dot, seat = name.rpartition(".seat")
    if dot and seat.isdigit():
        name = f"{head}, seat {int(seat) + 1}"
    return name.replace("_", " ")


def figure_names(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The card-level figure names present in the rows (without the `fig.` prefix), sorted."""
    names: set[str] = set()
    for row in rows:
        names.update(key[len(FIG):] for key in row if key.startswith(FIG))
    return sorted(names)


def column(rows: Sequence[dict[str, Any]], key: str) -> np.ndarray:
    """One per-game value as an array (NaN where a row lacks it)."""
    return np.array([float(row.get(key, math.nan)) for row in rows], dtype=float)


def margins(scores: np.ndarray) -> np.ndarray:
    """The margin of victory per game: best score minus the second best."""
    ordered = np.sort(scores, axis=1)
    return ordered[:, -1] - ordered[:, -2]


def summarise(rows: Sequence[dict[str, Any]], game: str, players: int, seed: int | None = None,
              label: str | None = None) -> dict[str, Any]:
    """The balance summary of a run (contract.md `simulate --json` fields plus the designer's figures)."""
    n = len(rows)
    solo = players == 1
    seats_spec = rows[0]["seats"] if rows else []
    scores = np.array([row["scores"] for row in rows], dtype=float).reshape(n, players)
    shares = np.array([row["shares"] for row in rows], dtype=float).reshape(n, players)
    seats = []
    for seat in range(players):
        entry: dict[str, Any] = {"seat": seat, "agent": seats_spec[seat] if seats_spec else None}
        if not solo:
            wins = float(shares[:, seat].sum())
            entry["wins"] = _num(wins)
            entry["win_rate"] = wins / n
            entry["ci95"] = list(wilson(wins, n))
        entry["mean_score"] = float(scores[:, seat].mean())
        entry["score"] = describe(scores[:, seat])
        seats.append(entry)
    summary: dict[str, Any] = {"game": game, "games": n, "players": players}
    if seed is not None:
        summary["seed"] = seed
    if label is not None:
        summary["variant"] = label
    summary["seats"] = seats
    turns = column(rows, "turns")
    summary["mean_turns"] = float(turns.mean())
    if not solo:
        summary["agents"] = _agents(seats_spec, shares, scores)
        first = np.array([row["shares"][row["first"]] for row in rows], dtype=float)
        rate = float(first.mean())
        summary["first_player_win_rate"] = rate
        summary["first_player"] = {
            "win_rate": rate,
            "ci95": list(wilson(float(first.sum()), n)),
            "fair": 1 / players,
            "advantage": rate - 1 / players,
            "p_value": _share_test(first, 1 / players),
        }
        summary["margin"] = describe(margins(scores), low=0.0)
        summary["shared_victories"] = float(np.mean([len(row["winners"]) > 1 for row in rows]))
        changes = column(rows, "lead_changes")
        summary["lead_changes"] = describe(changes, low=0.0)
        summary["games_with_lead_change"] = float(np.mean(changes > 0))
        decisive = [row["leader_half"] >= 0 and row["leader_half"] in row["winners"] for row in rows]
        summary["decisiveness"] = float(np.mean(decisive))
    summary["turns"] = describe(turns, low=0.0)
    decisions = column(rows, "decisions")
    summary["decisions"] = describe(decisions, low=0.0)
    branching = column(rows, "branching")
    summary["branching"] = float((branching * decisions).sum() / decisions.sum()) if decisions.sum() else 0.0
    summary["figures"] = {name: describe(column(rows, FIG + name)) for name in figure_names(rows)}
    return summary


def _agents(seats_spec: Sequence[str], shares: np.ndarray, scores: np.ndarray) -> list[dict[str, Any]]:
    """Win rate per agent spec over all the seats it held (n = games × its seats)."""
    out = []
    for agent in dict.fromkeys(seats_spec):
        cols = [i for i, spec in enumerate(seats_spec) if spec == agent]
        wins = float(shares[:, cols].sum())
        n = shares.shape[0] * len(cols)
        out.append({"agent": agent, "seats": cols, "wins": _num(wins), "win_rate": wins / n,
                    "ci95": list(wilson(wins, n)), "mean_score": float(scores[:, cols].mean())})
    return out


def _share_test(first: np.ndarray, fair: float) -> float:
    """Two-sided p-value that the first player's win share differs from a fair 1/players."""
    wins = int(round(float(first.sum())))
    return float(sps.binomtest(wins, first.size, fair).pvalue) if first.size else 1.0


def _num(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(float(value), 6)


# ----- A/B comparison ----------------------------------------------------------------------------
def paired(a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
    """B − A over games played on the same seeds: mean difference, 95% t interval, p-value, significance."""
    mask = ~(np.isnan(a) | np.isnan(b))
    diff = b[mask] - a[mask]
    n = int(diff.size)
    out: dict[str, Any] = {"a": float(a[mask].mean()) if n else math.nan,
                           "b": float(b[mask].mean()) if n else math.nan}
    if n == 0:
        return {**out, "diff": math.nan, "ci95": [math.nan, math.nan], "p_value": math.nan, "significant": False}
    mean = float(diff.mean())
    sd = float(diff.std(ddof=1)) if n > 1 else 0.0
    if sd == 0.0:
        p = 1.0 if mean == 0.0 else 0.0
        half = 0.0
    else:
        half = float(sps.t.ppf(0.975, n - 1) * sd / math.sqrt(n))
        p = float(sps.ttest_rel(b[mask], a[mask]).pvalue)
    return {**out, "diff": mean, "ci95": [mean - half, mean + half], "p_value": p, "significant": bool(p < 0.05)}


def compare(rows_a: Sequence[dict[str, Any]], rows_b: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """Each figure's difference between two runs on the same seeds (rows paired by index)."""
    if [r["seed"] for r in rows_a] != [r["seed"] for r in rows_b]:
        raise ValueError("a comparison needs both runs on the same seeds")
    n = len(rows_a)
    out: dict[str, Any] = {}
    sa = np.array([r["scores"] for r in rows_a], dtype=float).reshape(n, players)
    sb = np.array([r["scores"] for r in rows_b], dtype=float).reshape(n, players)
    if players > 1:
        wa = np.array([r["shares"] for r in rows_a], dtype=float).reshape(n, players)
        wb = np.array([r["shares"] for r in rows_b], dtype=float).reshape(n, players)
        for seat in range(players):
            out[f"win_rate.seat{seat}"] = paired(wa[:, seat], wb[:, seat])
        fa = np.array([r["shares"][r["first"]] for r in rows_a], dtype=float)
        fb = np.array([r["shares"][r["first"]] for r in rows_b], dtype=float)
        out["first_player_win_rate"] = paired(fa, fb)
        out["margin"] = paired(margins(sa), margins(sb))
        out["lead_changes"] = paired(column(rows_a, "lead_changes"), column(rows_b, "lead_changes"))
    for seat in range(players):
        out[f"score.seat{seat}"] = paired(sa[:, seat], sb[:, seat])
    out["mean_score"] = paired(sa.mean(axis=1), sb.mean(axis=1))
    for key in ("turns", "decisions", "branching"):
        out[key] = paired(column(rows_a, key), column(rows_b, key))
    for name in sorted(set(figure_names(rows_a)) | set(figure_names(rows_b))):
        out[f"{FIG}{name}"] = paired(column(rows_a, FIG + name), column(rows_b, FIG + name))
    return out
