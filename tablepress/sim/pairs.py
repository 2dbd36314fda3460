"""Card pairs that win together: the co-occurrence win lift of two cards held (played, pressed...) by the
same seat in a game, beyond what each card alone predicts.

Every seat of every game is one observation (its win share, 1/k of a shared victory), split four ways
by whether it has card A, card B, both or neither (a count above 0 in a row's `cards[measure]`). The
pair's lift is the interaction

    lift = win(both) − [win(A only) + win(B only) − win(neither)]

— how much more (or less) often seats with both win than adding up what each card alone adds to a seat
with neither. Its 95% interval and two-sided p come from a normal approximation with each group's own
variance. A pair is tested only when each of the four groups has at least `MIN_SUPPORT` seats; the p
values are corrected for every pair tested (all measures) by Benjamini–Hochberg, and only the strongest
few pairs whose corrected p is below 0.05 are kept. Like a single card's lift it is an association:
strong players may also collect both cards.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import stats as sps

from .correction import ALPHA, CORRECTION, adjust
from .numbers import number, percent

#: The fewest seats in each of the four groups (both, A only, B only, neither) for a pair to be tested.
MIN_SUPPORT = 30
#: The most pairs a run reports.
SHOWN = 5
Z95 = 1.959963984540054


def observations(rows: Sequence[dict[str, Any]], measure: str, players: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(card names, seats × cards has-it matrix, each seat's win share) for one card measure."""
    measured = [row for row in rows if measure in row.get("cards", {})]
    names = list(dict.fromkeys(card for row in measured for card in row["cards"][measure]))
    has = np.zeros((len(measured) * players, len(names)), dtype=bool)
    for i, row in enumerate(measured):
        counts = row["cards"][measure]
        for j, card in enumerate(names):
            per_seat = counts.get(card)
            if per_seat is not None:
                has[i * players:(i + 1) * players, j] = np.asarray(per_seat, dtype=float) > 0
    shares = np.array([share for row in measured for share in row["shares"]], dtype=float)
    return names, has, shares


def _groups(has: np.ndarray, shares: np.ndarray) -> dict[str, np.ndarray]:
    """For every pair of cards (i, j): count, sum and sum of squares of the win share in each of the four groups."""
    h = has.astype(float)
    n_total, s_total, q_total = float(len(shares)), float(shares.sum()), float((shares ** 2).sum())
    n_both = h.T @ h
    s_both = (h * shares[:, None]).T @ h
    q_both = (h * (shares ** 2)[:, None]).T @ h
    n_one, s_one, q_one = np.diag(n_both), np.diag(s_both), np.diag(q_both)
    out = {"n_both": n_both, "s_both": s_both, "q_both": q_both,
           "n_a": n_one[:, None] - n_both, "s_a": s_one[:, None] - s_both, "q_a": q_one[:, None] - q_both,
           "n_b": n_one[None, :] - n_both, "s_b": s_one[None, :] - s_both, "q_b": q_one[None, :] - q_both}
    out["n_none"] = n_total - n_one[:, None] - n_one[None, :] + n_both
    out["s_none"] = s_total - s_one[:, None] - s_one[None, :] + s_both
    out["q_none"] = q_total - q_one[:, None] - q_one[None, :] + q_both
    return out


def _mean_var(n: float, s: float, q: float) -> tuple[float, float]:
    """A group's mean and the variance of that mean, from its count, sum and sum of squares."""
    mean = s / n
    var = max(0.0, (q - s * s / n) / (n - 1)) if n > 1 else 0.0
    return mean, var / n


def interaction(both: float, only_a: float, only_b: float, neither: float) -> float:
    """The pair's lift from the four groups' win shares: both, less what each card alone adds to neither."""
    return both - (only_a + only_b - neither)


def pair_tests(rows: Sequence[dict[str, Any]], players: int, min_support: int = MIN_SUPPORT) -> list[dict[str, Any]]:
    """Every pair of cards (within each measure) with enough support, tested; p not yet corrected."""
    if players < 2 or not any("cards" in row for row in rows):
        return []
    measures = list(dict.fromkeys(m for row in rows for m in row.get("cards", {})))
    out = []
    for measure in measures:
        names, has, shares = observations(rows, measure, players)
        if len(names) < 2:
            continue
        g = _groups(has, shares)
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                sizes = [g[f"n_{k}"][i, j] for k in ("both", "a", "b", "none")]
                if min(sizes) < min_support:
                    continue
                (both, v1), (only_a, v2), (only_b, v3), (neither, v4) = (
                    _mean_var(g[f"n_{k}"][i, j], g[f"s_{k}"][i, j], g[f"q_{k}"][i, j])
                    for k in ("both", "a", "b", "none"))
                expected = both - interaction(both, only_a, only_b, neither)
                lift = both - expected
                se = math.sqrt(v1 + v2 + v3 + v4)
                p = 2 * float(sps.norm.sf(abs(lift) / se)) if se > 0 else (1.0 if lift == 0 else 0.0)
                out.append({"measure": measure, "cards": [names[i], names[j]], "support": int(sizes[0]),
                            "win_both": both, "win_a_only": only_a, "win_b_only": only_b, "win_neither": neither,
                            "expected": expected, "lift": lift, "ci95": [lift - Z95 * se, lift + Z95 * se],
                            "p_value": p})
    return out


def card_pairs(rows: Sequence[dict[str, Any]], players: int, min_support: int = MIN_SUPPORT,
               shown: int = SHOWN) -> dict[str, Any]:
    """The strongest card pairs of a run: {tested, min_support, correction, pairs: [...]}.

    `pairs` holds at most `shown` pairs whose corrected p is below 0.05, the largest |lift| first.
    """
    tested = pair_tests(rows, players, min_support)
    adjusted = adjust([t["p_value"] for t in tested])
    for test, p in zip(tested, adjusted):
        test["p_adjusted"] = p
        test["significant"] = bool(p < ALPHA)
    strong = sorted((t for t in tested if t["significant"]), key=lambda t: (-abs(t["lift"]), t["p_adjusted"]))
    return {"tested": len(tested), "min_support": min_support, "correction": CORRECTION, "pairs": strong[:shown]}


def pair_text(pair: dict[str, Any], tested: int) -> str:
    """One plain line for a pair: who wins how much more or less than each card alone predicts."""
    a, b = pair["cards"]
    word = "more" if pair["lift"] > 0 else "less"
    kind = "a synergy" if pair["lift"] > 0 else "they work against each other"
    return (f"Players who {pair['measure']} both {a} and {b} win {percent(pair['win_both'])}, "
            f"{number(abs(pair['lift']) * 100)} percentage points {word} than each card alone predicts "
            f"({percent(pair['expected'])}; {pair['support']} players had both): {kind} "
            f"(p corrected for {tested} pairs tested)")
