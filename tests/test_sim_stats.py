"""Statistics of `tablepress simulate`: Wilson intervals, shared victories, summaries, paired comparison."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tablepress.sim.stats import compare, mean_ci, paired, summarise, wilson


def _row(index: int, scores: list[float], winners: list[int], first: int = 0, **extra: float) -> dict:
    shares = [0.0] * len(scores)
    for seat in winners:
        shares[seat] = 1 / len(winners)
    row = {"index": index, "seed": 100 + index, "seats": ["random"] * len(scores), "first": first,
           "scores": scores, "winners": winners, "shares": shares, "turns": 10 + index % 3, "decisions": 20,
           "branching": 4.0, "lead_changes": index % 2, "leader_half": winners[0] if winners else -1}
    row.update({f"fig.{k}": v for k, v in extra.items()})
    return row


@pytest.mark.parametrize("wins,n", [(0, 10), (3, 10), (10, 10), (0.5, 1), (512.5, 1000), (1, 3)])
def test_wilson_contains_the_rate_and_stays_in_0_1(wins: float, n: int) -> None:
    lo, hi = wilson(wins, n)
    assert 0.0 <= lo <= wins / n <= hi <= 1.0
    assert hi - lo > 0


def test_wilson_matches_the_textbook_value() -> None:
    # 8 of 10: Wilson 95% interval is about [0.490, 0.943].
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-3) and hi == pytest.approx(0.9433, abs=1e-3)


def test_wilson_narrows_with_more_games() -> None:
    small, large = wilson(5, 10), wilson(500, 1000)
    assert large[1] - large[0] < small[1] - small[0]


def test_shared_victories_count_one_over_k_and_wins_add_up() -> None:
    rows = [_row(0, [5, 5, 1], [0, 1]), _row(1, [1, 9, 2], [1]), _row(2, [3, 3, 3], [0, 1, 2])]
    summary = summarise(rows, "flowers", 3, seed=1)
    wins = [seat["wins"] for seat in summary["seats"]]
    assert wins == pytest.approx([0.5 + 1 / 3, 1.5 + 1 / 3, 1 / 3])
    assert sum(wins) == pytest.approx(3)
    assert sum(seat["win_rate"] for seat in summary["seats"]) == pytest.approx(1)
    assert summary["shared_victories"] == pytest.approx(2 / 3)
    for seat in summary["seats"]:
        assert seat["ci95"][0] <= seat["win_rate"] <= seat["ci95"][1]


def test_first_player_margin_and_decisiveness() -> None:
    rows = [_row(0, [10, 4], [0], first=0), _row(1, [2, 7], [1], first=1), _row(2, [1, 3], [1], first=0)]
    summary = summarise(rows, "flowers", 2)
    assert summary["first_player_win_rate"] == pytest.approx(2 / 3)
    assert summary["first_player"]["advantage"] == pytest.approx(2 / 3 - 1 / 2)
    assert summary["margin"]["mean"] == pytest.approx((6 + 5 + 2) / 3)
    assert summary["decisiveness"] == pytest.approx(1.0)
    assert summary["mean_turns"] == pytest.approx(11)


def test_solo_summary_leaves_win_rate_out() -> None:
    rows = [_row(i, [float(i)], []) for i in range(5)]
    summary = summarise(rows, "flowers", 1)
    seat = summary["seats"][0]
    assert "win_rate" not in seat and "wins" not in seat
    assert seat["mean_score"] == pytest.approx(2.0)
    assert "first_player_win_rate" not in summary


def test_mean_ci_contains_the_mean_and_ignores_missing_values() -> None:
    out = mean_ci([1.0, 2.0, 3.0, math.nan])
    assert out["n"] == 3 and out["mean"] == pytest.approx(2.0)
    assert out["ci95"][0] < 2.0 < out["ci95"][1]


def test_paired_difference_detects_a_real_shift_and_not_noise() -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(10, 3, 400)
    shifted = paired(a, a + 0.5 + rng.normal(0, 0.2, 400))
    assert shifted["significant"] and shifted["ci95"][0] < shifted["diff"] < shifted["ci95"][1]
    assert shifted["ci95"][0] > 0
    same = paired(a, a.copy())
    assert same["diff"] == 0 and not same["significant"] and same["p_value"] == 1.0


def test_compare_pairs_runs_by_seed_and_refuses_other_seeds() -> None:
    a = [_row(i, [i, 2.0], [0] if i > 2 else [1], d=1.0) for i in range(6)]
    b = [_row(i, [i + 1.0, 2.0], [0] if i > 1 else [1], d=2.0) for i in range(6)]
    diffs = compare(a, b, 2)
    assert diffs["score.seat0"]["diff"] == pytest.approx(1.0) and diffs["score.seat0"]["significant"]
    assert diffs["fig.d"]["diff"] == pytest.approx(1.0)
    assert diffs["score.seat1"]["diff"] == 0
    with pytest.raises(ValueError):
        compare(a, [dict(r, seed=r["seed"] + 1) for r in b], 2)


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(st.integers(min_value=1, max_value=100_000).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=2 * n).map(lambda k: k / 2), st.just(n))))
def test_wilson_always_contains_the_rate(case: tuple[float, int]) -> None:
    wins, n = case
    wins = min(wins, n)
    lo, hi = wilson(wins, n)
    assert 0.0 <= lo <= wins / n <= hi <= 1.0
