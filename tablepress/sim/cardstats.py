"""Per-card figures of a run: how often each card (or kind) is taken, played or scored, and the win-rate
lift of holding it, from the per-seat counts a game's stats module returns (`cards(game, match)`).

Every seat of every game is one observation: its count of the card and its win share (1/k of a shared
victory). The lift is the mean win share of seats with the card minus that of seats without it, with a
Welch 95% interval and p-value; it measures association (strong players also collect good cards), not a
controlled effect.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import stats as sps


#: The fewest players with (and without) a card for its lift to be measured; below it the lift is NaN.
MIN_GROUP = 10


def lift(has: np.ndarray, shares: np.ndarray) -> dict[str, Any]:
    """Win share with the card minus without it: difference, Welch 95% interval and two-sided p."""
    with_card, without = shares[has], shares[~has]
    if with_card.size < MIN_GROUP or without.size < MIN_GROUP:
        return {"lift": math.nan, "ci95": [math.nan, math.nan], "p_value": math.nan}
    diff = float(with_card.mean() - without.mean())
    if with_card.var() == 0 and without.var() == 0:
        return {"lift": diff, "ci95": [diff, diff], "p_value": 1.0 if diff == 0 else 0.0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        test = sps.ttest_ind(with_card, without, equal_var=False)
    low, high = test.confidence_interval(0.95)
    return {"lift": diff, "ci95": [float(low), float(high)], "p_value": float(test.pvalue)}


def card_table(rows: Sequence[dict[str, Any]], players: int) -> dict[str, list[dict[str, Any]]]:
    """{measure: [{card, mean, share, lift, ci95, p_value}, ...]} over every seat of every game.

    `mean` is the card's count per player per game; `share` how often a player has at least one.
    Solo runs have no win shares, so no lift.
    """
    measured = [row for row in rows if "cards" in row]
    if not measured:
        return {}
    shares = np.array([share for row in measured for share in row["shares"]], dtype=float)
    out: dict[str, list[dict[str, Any]]] = {}
    for measure in measured[0]["cards"]:
        names = list(dict.fromkeys(card for row in measured for card in row["cards"].get(measure, {})))
        entries = []
        for card in names:
            counts = np.array([value for row in measured
                               for value in row["cards"].get(measure, {}).get(card, [0.0] * players)], dtype=float)
            has = counts > 0
            entry: dict[str, Any] = {"card": card, "mean": float(counts.mean()), "share": float(has.mean())}
            if players > 1:
                entry.update(lift(has, shares))
            entries.append(entry)
        out[measure] = entries
    return out


def distributions(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Each sample (`samples` of the game's stats module) as a count per value, values in order."""
    counts: dict[str, dict[float, int]] = {}
    for row in rows:
        for name, values in row.get("samples", {}).items():
            bucket = counts.setdefault(name, {})
            for value in values:
                bucket[value] = bucket.get(value, 0) + 1
    return {name: {_key(value): n for value, n in sorted(bucket.items())} for name, bucket in counts.items()}


def _key(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def score_over_time(rows: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """Mean score after each round of turns, per turn position (1 = first to act), and at the end.

    A round is shown while at least half the games last that long (the mean is over those games).
    """
    with_rounds = [row for row in rows if row.get("rounds")]
    if not with_rounds:
        return {}
    lengths = np.array([len(row["rounds"]) - 1 for row in with_rounds])
    shown = int(np.median(lengths)) if lengths.size else 0
    positions = []
    for position in range(players):
        means = []
        for index in range(shown):
            values = [row["rounds"][index][(row["first"] + position) % players]
                      for row in with_rounds if len(row["rounds"]) - 1 > index]
            means.append(float(np.mean(values)))
        final = [row["rounds"][-1][(row["first"] + position) % players] for row in with_rounds]
        positions.append({"position": position + 1, "mean": means, "end": float(np.mean(final))})
    return {"rounds": list(range(1, shown + 1)), "positions": positions}
