"""Quality measures (`sim/quality.py`) and tune's guards (`sim/guards.py`): pure functions on hand-made rows."""

from __future__ import annotations

import math

import pytest

from tablepress.core.errors import TablepressError
from tablepress.sim import guards, quality
from tablepress.sim.guards import GuardSpec, Tolerance, guard_specs, holds, judge, parse_keep


def row(seed: int, scores: list[float], winners: list[int], *, first: int = 0, turns: int = 20, leader_half: int = 0,
        lead_changes: int = 1, **figures: float) -> dict:
    """One game's result row as `runner.play_one` writes it (only what the measures read)."""
    shares = [1 / len(winners) if seat in winners else 0.0 for seat in range(len(scores))]
    return {"seed": seed, "scores": scores, "winners": winners, "shares": shares, "first": first, "turns": turns,
            "leader_half": leader_half, "lead_changes": lead_changes, **{f"fig.{k}": v for k, v in figures.items()}}


GAMES = [row(1, [10, 4], [0], turns=20, leader_half=0, lead_changes=0, x=1.0),
         row(2, [6, 6], [0, 1], turns=24, leader_half=1, lead_changes=2, x=3.0),
         row(3, [3, 9], [1], first=1, turns=22, leader_half=0, lead_changes=1),
         row(4, [5, 8], [1], turns=18, leader_half=-1, lead_changes=1, x=2.0)]


# ----- measures ------------------------------------------------------------------------------------
def test_every_measure_reads_its_figure_from_the_rows() -> None:
    found = quality.figures(GAMES)
    assert list(found) == ["turns", "shared", "decisive", "lead_changes", "spread", "first_gap", "score"]
    assert found["turns"].value == 21.0 and found["turns"].games == 4
    assert found["shared"].value == 0.25                    # one game of four has two winners
    assert found["decisive"].value == 0.5                   # games 1 and 2: the leader at halfway wins
    assert found["lead_changes"].value == 1.0
    assert found["spread"].value == (6 + 0 + 6 + 3) / 4
    assert found["first_gap"].value == pytest.approx((1 + 0.5 + 1 + 0) / 4 - 0.5)  # seat 1 acts first in game 3
    assert found["score"].value == pytest.approx(51 / 8)
    for estimate in found.values():
        assert estimate.ci95[0] <= estimate.value <= estimate.ci95[1]


def test_shares_take_a_wilson_interval_and_means_a_t_interval() -> None:
    shared = quality.measure(GAMES, "shared")
    assert 0.0 < shared.ci95[0] < 0.25 < shared.ci95[1] < 1.0
    gap = quality.measure(GAMES, "first_gap")
    assert -0.5 <= gap.ci95[0] < gap.value < gap.ci95[1] <= 0.5
    turns = quality.measure(GAMES, "turns")
    assert turns.ci95[1] - turns.ci95[0] == pytest.approx(2 * 3.182446 * math.sqrt(20 / 3) / 2, rel=1e-4)


def test_a_card_figure_is_measured_where_a_game_has_it_and_solo_games_skip_winners() -> None:
    x = quality.measure(GAMES, "fig.x")
    assert (x.value, x.games) == (2.0, 3)
    assert quality.measure(GAMES, "fig.nothing").games == 0
    solo = [row(1, [12], [0]), row(2, [8], [0])]
    assert list(quality.figures(solo)) == ["turns", "score"]
    assert all(m.better in ("higher", "lower", "closer", "none") and m.label for m in quality.MEASURES.values())


# ----- the --keep grammar --------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "figure", "tolerance"), [
    ("turns±10%", "turns", Tolerance(0.10, True)),
    ("turns +- 20%", "turns", Tolerance(0.20, True)),
    ("turns±3", "turns", Tolerance(3.0)),
    ("shared±5", "shared", Tolerance(0.05)),          # a share: percentage points
    ("shared±5pts", "shared", Tolerance(0.05)),
    ("shared±50%", "shared", Tolerance(0.5, True)),
    ("Lead-Changes", "lead_changes", guards.DEFAULTS["lead_changes"]),
    ("fig.region_points±0.5", "fig.region_points", Tolerance(0.5)),
    ("region_points", "fig.region_points", guards.FIGURE_DEFAULT),
    ("score±2", "score", Tolerance(2.0)),
])
def test_keep_reads_a_figure_and_its_tolerance(text: str, figure: str, tolerance: Tolerance) -> None:
    assert parse_keep(text, ["region_points", "pick1.cards"]) == GuardSpec(figure, tolerance)


@pytest.mark.parametrize(("text", "words"), [
    ("nope±3", "no figure 'nope' (quality: turns, shared"),
    ("fig.nope", "card figures: fig.region_points"),
    ("turns±", "give FIGURE or FIGURE±TOL"),
    ("turns±ten", "give FIGURE or FIGURE±TOL"),
    ("turns±5pts", "not a share of games"),
])
def test_a_bad_keep_is_one_line_naming_it(text: str, words: str) -> None:
    with pytest.raises(TablepressError) as caught:
        parse_keep(text, ["region_points"])
    assert words in str(caught.value) and str(caught.value).startswith("--keep ") and "\n" not in str(caught.value)


def test_the_default_guards_apply_at_the_player_count_and_keep_changes_one() -> None:
    assert [g.figure for g in guard_specs([], 3)] == ["turns", "shared", "decisive", "lead_changes", "spread",
                                                       "first_gap"]
    assert [g.figure for g in guard_specs([], 1)] == ["turns"]
    specs = {g.figure: g.tolerance for g in guard_specs(["turns±30%", "fig.x±1"], 2, ["x"])}
    assert specs["turns"] == Tolerance(0.30, True) and specs["fig.x"] == Tolerance(1.0) and len(specs) == 7


# ----- judging -------------------------------------------------------------------------------------
def test_a_guard_holds_within_its_tolerance_and_in_the_better_direction() -> None:
    turns = GuardSpec("turns", Tolerance(0.10, True))
    assert holds(turns, 26.7, 25.0) and not holds(turns, 26.7, 12.0) and not holds(turns, 20.0, 22.5)
    shared = GuardSpec("shared", Tolerance(0.05))
    assert holds(shared, 0.216, 0.25) and not holds(shared, 0.216, 0.53)
    assert holds(shared, 0.216, 0.0)                                   # fewer shared victories: better
    more = GuardSpec("lead_changes", Tolerance(0.25, True))
    assert holds(more, 1.0, 3.0) and not holds(more, 1.0, 0.5)
    gap = GuardSpec("first_gap", Tolerance(0.05))
    assert holds(gap, -0.16, 0.0) and holds(gap, 0.10, -0.14) and not holds(gap, 0.02, -0.10)


def test_judging_pairs_the_games_by_seed() -> None:
    published = [row(seed, [9, 5], [0], turns=26) for seed in range(1, 11)]
    halved = [row(seed, [5, 3], [0], turns=13) for seed in reversed(range(3, 13))]  # seeds 11, 12: no pair
    verdict = judge(GuardSpec("turns", Tolerance(0.10, True)), published, halved)
    assert (verdict.published, verdict.value, verdict.games, verdict.held) == (26.0, 13.0, 8, False)
    assert verdict.ci95 == (-13.0, -13.0) and verdict.tolerance() == pytest.approx(2.6)
    assert "turns 26 → 13 (tolerance ±10%)" == verdict.why()
    assert set(verdict.as_json()) >= {"figure", "published", "value", "tolerance", "held"}
    same = judge(GuardSpec("spread", Tolerance(0.25, True)), published, halved)
    assert same.held  # the spread 4 → 2 is better
