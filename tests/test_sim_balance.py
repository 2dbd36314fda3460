"""A balance report a designer can trust: rotation over turn positions, corrected p-values, findings,
per-card figures, warnings, sweeps, readable A/B and one number format (issue 18)."""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import stats as sps
from typer.testing import CliRunner

from tablepress.agents.base import make_agent
from tablepress.cli import app
from tablepress.core import records
from tablepress.core.match import Match, load_record
from tablepress.core.registry import get_game
from tablepress.games.by_this import stats as by_this_stats
from tablepress.sim.backends import run_games
from tablepress.sim.cardstats import card_table, lift, score_over_time
from tablepress.sim.design import cycle, position_entrants, seat_entrants, williams_square
from tablepress.sim.findings import adjust, findings, rank
from tablepress.sim.numbers import JSON_DIGITS, number, rounded, rounded_tree
from tablepress.sim.report import _bots_html
from tablepress.sim.runner import SimSpec
from tablepress.sim.stats import compare, summarise, verdict

runner = CliRunner()


def simulate_json(*args: str) -> dict:
    result = runner.invoke(app, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def _row(index: int, scores: list[float], winners: list[int], first: int = 0, **extra: object) -> dict:
    shares = [0.0] * len(scores)
    for seat in winners:
        shares[seat] = 1 / len(winners)
    row = {"index": index, "seed": 100 + index, "seats": ["greedy"] * len(scores), "first": first,
           "scores": scores, "winners": winners, "shares": shares, "turns": 10, "decisions": 20,
           "branching": 4.0, "lead_changes": 0, "leader_half": winners[0] if winners else -1}
    row.update(extra)
    return row


# ----- rotation -------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_rotation_is_exactly_balanced_over_positions_and_neighbours(players: int) -> None:
    rows = williams_square(players)
    assert len(rows) == cycle(players) == (players if players % 2 == 0 else 2 * players)
    assert all(sorted(row) == list(range(players)) for row in rows)
    per_position = len(rows) // players
    for position in range(players):
        held = [row[position] for row in rows]
        assert all(held.count(entrant) == per_position for entrant in range(players))
    # Williams: each entrant is directly followed by each other one equally often (first-order carryover).
    follows = {pair: 0 for pair in itertools.permutations(range(players), 2)}
    for row in rows:
        for a, b in zip(row, row[1:]):
            follows[(a, b)] += 1
    assert len(set(follows.values())) == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_entrant_plays_every_position_equally_whoever_the_game_starts_with(players: int) -> None:
    rng = np.random.default_rng(players)
    counts = np.zeros((players, players), dtype=int)  # entrant × position
    for index in range(3 * cycle(players)):
        first = int(rng.integers(players))
        for seat, entrant in enumerate(seat_entrants(players, index, first)):
            counts[entrant, (seat - first) % players] += 1
        assert list(position_entrants(players, index)) == [seat_entrants(players, index, first)[(first + p) % players]
                                                            for p in range(players)]
    assert (counts == counts[0, 0]).all()


def test_simulated_games_rotate_by_turn_position_and_still_replay(tmp_path: Path) -> None:
    spec = SimSpec("by-this", 3, ("greedy:1", "random", "random"), balanced=True, records=str(tmp_path))
    rows = run_games(spec, 7, cycle(3), jobs=1)
    positions = [(row["entrants"].index(0) - row["first"]) % 3 for row in rows]
    assert sorted(positions) == [0, 0, 1, 1, 2, 2]  # the greedy entrant held every turn position twice
    for row in rows:
        assert row["seats"] == [spec.seats[e] for e in row["entrants"]]
    record = load_record(tmp_path / "game-000004.json")
    assert record["seats"] == rows[4]["seats"]
    replayed = records.from_record(record)
    assert [float(s) for s in replayed.game.scores(replayed.state)] == rows[4]["scores"]


def test_results_are_per_entrant_and_per_position_and_independent_of_jobs() -> None:
    one = simulate_json("by-this", "-n", "8", "--seed", "4", "--jobs", "1", "--seats", "greedy:1,random")
    two = simulate_json("by-this", "-n", "8", "--seed", "4", "--jobs", "2", "--seats", "greedy:1,random")
    assert {**one, "provenance": None} == {**two, "provenance": None}  # provenance holds the time and --jobs
    assert [p["position"] for p in one["positions"]] == [1, 2]
    for entry in one["positions"]:
        assert entry["ci95"][0] <= entry["win_rate"] <= entry["ci95"][1]
    assert sum(p["wins"] for p in one["positions"]) == pytest.approx(8)
    assert one["seats"][0]["agent"] == "greedy:1" and one["rotation"]["balanced"] is True


# ----- corrected p-values ---------------------------------------------------------------------------
def test_benjamini_hochberg_matches_scipy_and_a_hand_computation() -> None:
    p = [0.01, 0.04, 0.03, 0.2, 0.5]
    # by hand: sorted 0.01 0.03 0.04 0.2 0.5 → ×5/rank: 0.05 0.075 0.0667 0.25 0.5 → running minimum from the top
    expected = [0.05, 0.0666667, 0.0666667, 0.25, 0.5]
    assert adjust(p) == pytest.approx(expected, rel=1e-5)
    rng = np.random.default_rng(3)
    many = rng.uniform(0, 0.2, 40)
    assert adjust(many) == pytest.approx(list(sps.false_discovery_control(many, method="bh")))
    assert math.isnan(adjust([0.01, math.nan])[1]) and adjust([0.01, math.nan])[0] == pytest.approx(0.01)


def test_ab_differences_are_corrected_sorted_by_size_and_given_a_verdict() -> None:
    a = [_row(i, [float(i % 5), 2.0], [0] if i % 2 else [1], **{"fig.big": 1.0 + (i % 3), "fig.small": 1.0})
         for i in range(30)]
    b = [_row(i, [float(i % 5) + 0.1 * (i % 2), 2.0], [0] if i % 2 else [1],
              **{"fig.big": 4.0 + (i % 3), "fig.small": 1.0 + 0.01 * (i % 2)}) for i in range(30)]
    diffs = compare(a, b, 2)
    sizes = [abs(d["effect_size"]) for d in diffs.values() if not math.isnan(d["effect_size"])]
    assert sizes == sorted(sizes, reverse=True)
    assert list(diffs)[0] == "fig.big"
    raw = [d["p_value"] for d in diffs.values()]
    assert [d["p_adjusted"] for d in diffs.values()] == pytest.approx(list(adjust(raw)), nan_ok=True)
    assert all(d["p_adjusted"] >= d["p_value"] for d in diffs.values() if not math.isnan(d["p_value"]))
    line = verdict(diffs, "B")
    assert line.startswith("B moves") and "big 2 → 5" in line and "Benjamini–Hochberg" in line
    same = compare(a, a, 2)
    assert verdict(same, "B").startswith("No figure differs beyond chance")


def test_a_comparison_lists_the_variants_changes_and_reads(tmp_path: Path) -> None:
    variant = tmp_path / "bigger-butterflies.toml"
    variant.write_text("[scoring]\nbutterfly_points = 3\n")
    data = simulate_json("flowers", "-n", "6", "--seed", "2", "--jobs", "1", "--seats", "random",
                         "--compare", "base", str(variant))
    assert data["changes"] == [{"field": "scoring.butterfly_points", "old": 1, "new": 3,
                                "text": "scoring.butterfly_points: 1 → 3"}]
    assert data["b"]["changes"] == data["changes"] and data["a"]["changes"] == []
    assert data["correction"] == "Benjamini–Hochberg" and data["verdict"]
    result = runner.invoke(app, ["simulate", "flowers", "-n", "6", "--seed", "2", "--jobs", "1", "--seats", "random",
                                 "--compare", "base", str(variant)])
    assert result.exit_code == 0 and "Verdict:" in result.stdout and "scoring.butterfly_points" in result.stdout


# ----- findings -------------------------------------------------------------------------------------
def test_a_first_player_advantage_is_the_top_finding_with_a_corrected_p() -> None:
    rows = [_row(i, [10.0, 5.0, 4.0] if i % 10 < 7 else [4.0, 10.0, 5.0], [0] if i % 10 < 7 else [1], first=0)
            for i in range(120)]
    summary = summarise(rows, "flowers", 3, seed=1)
    top = summary["findings"][0]
    assert top["kind"] == "turn position" and top["subject"] == "position 1"
    assert top["effect"] == pytest.approx(0.7 - 1 / 3) and top["significant"]
    assert top["p_adjusted"] >= top["p_value"] and top["correction"] == "Benjamini–Hochberg"
    assert top["text"].startswith("The first player wins 70.0% (") and "fair 33.3%" in top["text"]
    assert summary["positions"][0]["win_rate"] == pytest.approx(0.7)
    assert {"kind", "subject", "effect", "ci95", "p_adjusted", "text"} <= set(top)


def test_the_weakest_card_of_a_family_reads_in_plain_english() -> None:
    rng = np.random.default_rng(0)
    rows = [_row(i, [5.0, 4.0], [0], **{"fig.planted.Zinnia": 2.7 + rng.normal(0, 0.3),
                                         "fig.planted.Daisy": 5.8 + rng.normal(0, 0.3),
                                         "fig.planted.Lily": 6.0 + rng.normal(0, 0.3),
                                         "fig.planted.Peony": 5.7 + rng.normal(0, 0.3)}) for i in range(60)]
    summary = summarise(rows, "pressed", 2, seed=1)
    zinnia = next(f for f in summary["findings"] if f["subject"] == "planted.Zinnia")
    assert zinnia["significant"] and zinnia["effect"] < -2.5
    assert re.match(r"Zinnia plants for 2\.\d+ points, far below the median 5\.\d+", zinnia["text"]), zinnia["text"]
    assert "far below the median" in zinnia["text"] and zinnia["text"].endswith("the weakest flower to plant")


def test_ranking_puts_significant_findings_first_then_larger_effects() -> None:
    found = rank([{"kind": "card lift", "effect": 0.5, "reference": 1.0, "p_value": 0.5, "text": "big, unsure"},
                  {"kind": "card lift", "effect": 0.1, "reference": 1.0, "p_value": 1e-6, "text": "small, sure"},
                  {"kind": "card lift", "effect": 0.3, "reference": 1.0, "p_value": 1e-5, "text": "mid, sure"},
                  {"kind": "turn position", "effect": 0.05, "reference": 0.5, "p_value": 1e-4, "text": "seat, sure"}])
    assert [f["text"] for f in found] == ["seat, sure", "mid, sure", "small, sure", "big, unsure"]


def test_card_lift_has_an_interval_and_finds_a_planted_effect() -> None:
    rng = np.random.default_rng(5)
    has = rng.random(800) < 0.4
    shares = (rng.random(800) < np.where(has, 0.7, 0.4)).astype(float)
    out = lift(has, shares)
    assert out["ci95"][0] < out["lift"] < out["ci95"][1] and out["ci95"][0] > 0.15 and out["p_value"] < 1e-6
    assert math.isnan(lift(np.array([True] * 5 + [False] * 100), np.zeros(105))["lift"])  # too few holders


def test_per_card_figures_and_score_over_time_from_rows() -> None:
    rows = [_row(i, [6.0, 2.0], [0], first=i % 2, cards={"play": {"Dump": [1.0, 0.0], "Lock": [0.0, 0.0]}},
                 rounds=[[1.0, 0.0], [3.0, 1.0], [6.0, 2.0]]) for i in range(40)]
    table = card_table(rows, 2)
    dump = next(e for e in table["play"] if e["card"] == "Dump")
    assert dump["mean"] == pytest.approx(0.5) and dump["share"] == pytest.approx(0.5)
    assert dump["lift"] == pytest.approx(1.0)
    over = score_over_time(rows, 2)
    assert over["rounds"] == [1, 2]
    first = over["positions"][0]
    assert first["mean"] == [pytest.approx(0.5), pytest.approx(2.0)] and first["end"] == pytest.approx(4.0)


@pytest.mark.parametrize("game", ["flowers", "pressed", "planted", "by-this"])
def test_every_game_has_card_figures_bots_and_score_over_time(game: str) -> None:
    data = simulate_json(game, "-n", "2", "--seed", "1", "--jobs", "1", "--seats", "random")
    assert data["cards"] and all(entries for entries in data["cards"].values())
    assert data["bots"]["decisions"] and data["bots"]["ladder"]
    searched = {players for challenger, opponent, players, _, _ in data["bots"]["ladder"]
                if (challenger, opponent) == ("ismcts:300", "greedy")}
    rules = get_game(game)
    assert searched == set(range(max(2, rules.min_players), rules.max_players + 1))
    assert data["score_over_time"]["positions"][0]["position"] == 1
    assert data["findings"] and all("text" in f for f in data["findings"])


def test_by_this_reports_the_points_of_every_chosen_close() -> None:
    data = simulate_json("by-this", "-n", "6", "--seed", "4", "--jobs", "1", "--players", "2")
    lengths, points = data["distributions"]["close_length"], data["distributions"]["close_points"]
    assert sum(points.values()) == sum(lengths.values()) > 0
    assert min(map(float, points)) >= min(map(float, lengths)) >= 3
    assert max(map(float, points)) <= 2 * max(map(float, lengths))


def _greedy_by_this_match(players: int, seed: int) -> tuple[Any, Match]:
    """By This and one finished game of it with greedy in every seat."""
    game = get_game("by-this")
    match = Match(game, players, seed)
    agents = [make_agent("greedy", seat) for seat in range(players)]
    while not match.is_over:
        seat = match.next_mover()
        match.act(seat, agents[seat].choose(match.seat_info(seat)))
    return game, match


def test_by_this_close_points_are_the_points_each_closer_scored() -> None:
    game, match = _greedy_by_this_match(2, 11)
    scored = [float(points) for closer, points, _ in match.state.shelves if closer >= 0]
    assert scored and by_this_stats.samples(game, match)["close_points"] == scored
    assert sum(scored) == sum(match.state.scores)


def test_by_this_same_closer_counts_pairs_of_chosen_closes() -> None:
    assert by_this_stats.same_closer([0, 0, 1, -1, 1, 1]) == pytest.approx(2 / 3)  # a forced close breaks a pair
    assert math.isnan(by_this_stats.same_closer([3, -1, 3]))  # no pair of chosen closes
    assert by_this_stats.same_closer([1, 2, 3, 0]) == 0.0


def test_by_this_same_closer_follows_the_seats_whose_closes_grew() -> None:
    """Each close's closer read from the seats' close counts as the game is replayed, not from `state.shelves`."""
    game, match = _greedy_by_this_match(4, 5)
    state, closers = game.new(4, match.seed, match.options), []
    for seat, action in match.actions:
        before, total = list(state.closes), state.total_closes
        game.apply_legal(state, seat, action)
        if state.total_closes > total:
            grew = [s for s in range(4) if state.closes[s] > before[s]]
            closers.append(grew[0] if grew else -1)
    pairs = [(a, b) for a, b in zip(closers, closers[1:]) if a >= 0 and b >= 0]
    assert len(pairs) >= 4
    expected = sum(a == b for a, b in pairs) / len(pairs)
    assert by_this_stats.figures(game, match)["same_closer"] == pytest.approx(expected)


def test_with_four_players_by_this_closers_keep_the_role() -> None:
    data = simulate_json("by-this", "-n", "8", "--seed", "3", "--jobs", "1", "--players", "4")
    assert data["figures"]["same_closer"]["mean"] > 0.4  # fair 0.25: the closer places the next fourth thing
    rhythm = [f for f in data["findings"] if f["kind"] == "turn rhythm"]
    assert len(rhythm) == 1 and rhythm[0]["effect"] > 0.15 and "stays with one seat" in rhythm[0]["text"]


@pytest.mark.parametrize("players, mean, words", [(4, 0.65, "stays with one seat"), (2, 0.07, "moves on")])
def test_by_this_says_whether_the_closing_role_stays_or_goes_round(players: int, mean: float, words: str) -> None:
    figure = {"mean": mean, "sd": 0.2, "n": 40, "ci95": [mean - 0.064, mean + 0.064]}
    found = by_this_stats.game_findings({"players": players, "figures": {"same_closer": figure}})
    assert [f["kind"] for f in found] == ["turn rhythm"]
    rhythm = found[0]
    assert rhythm["effect"] == pytest.approx(mean - 1 / players) and rhythm["p_value"] < 1e-6
    assert words in rhythm["text"] and f"{mean * 100:.1f}%" in rhythm["text"]
    fair = by_this_stats.game_findings({"players": 4, "figures": {"same_closer": {**figure, "mean": 0.26}}})
    assert fair[0]["p_value"] > 0.5  # one point from fair over 40 games: no evidence either way
    assert by_this_stats.game_findings({"players": 4, "figures": {}}) == []


def test_by_this_flags_closes_that_always_happen_at_one_length() -> None:
    spots = by_this_stats.game_findings({"distributions": {"close_length": {"4": 97, "5": 3}}})
    assert spots and spots[0]["kind"] == "bot blind spot" and "97.0% of chosen closes" in spots[0]["text"]
    assert by_this_stats.game_findings({"distributions": {"close_length": {"3": 40, "4": 30, "6": 30}}}) == []
    rows = [_row(i, [6.0, 2.0], [i % 2], first=(i // 2) % 2, samples={"close_length": [4.0, 4.0]})
            for i in range(20)]
    found = findings(summarise(rows, "by-this", 2), rows, by_this_stats.STATS)
    assert found[0]["kind"] == "bot blind spot" and found[0]["significant"] is None


# ----- warnings and default seats -------------------------------------------------------------------
def test_default_seats_are_greedy_and_random_seats_are_warned_about() -> None:
    greedy = simulate_json("by-this", "-n", "2", "--seed", "1", "--jobs", "1", "--players", "2")
    assert {s["agent"] for s in greedy["seats"]} == {"greedy"}
    assert not any("random" in w for w in greedy["warnings"])
    random_run = simulate_json("by-this", "-n", "2", "--seed", "1", "--jobs", "1", "--seats", "random,greedy:1")
    assert any("random seats" in w for w in random_run["warnings"])
    text = runner.invoke(app, ["simulate", "by-this", "-n", "2", "--seed", "1", "--jobs", "1", "--seats", "random"])
    assert text.exit_code == 0 and "warning: random seats" in " ".join(text.stdout.split())


def test_a_run_that_is_not_whole_rotations_says_so() -> None:
    data = simulate_json("by-this", "-n", "7", "--seed", "1", "--jobs", "1", "--players", "3", "--seats", "random")
    assert data["rotation"] == {"design": "balanced Latin square (Williams) over turn positions", "cycle": 6,
                                "balanced": False}
    assert any("not a multiple of the rotation's 6 games" in w for w in data["warnings"])


def test_the_report_opens_with_warnings_findings_and_the_bots(tmp_path: Path) -> None:
    report = tmp_path / "r.html"
    result = runner.invoke(app, ["simulate", "by-this", "-n", "4", "--seed", "1", "--jobs", "1", "--seats", "random",
                                 "--report", str(report)])
    assert result.exit_code == 0, result.stderr
    page = report.read_text()
    order = [page.index(marker) for marker in ("class=warn", "Findings, most important first",
                                               "How far to trust the bots", "Details")]
    assert order == sorted(order)
    assert "Benjamini–Hochberg" in page and "ismcts:300" in page and "Distributions" in page


def test_the_bots_table_gives_each_measured_rate_its_wilson_interval() -> None:
    ladder = [("ismcts:300", "greedy", 4, 1000, 0.347), ("greedy", "random", 2, 200, 1.0)]
    page = _bots_html({"bots": {"decisions": "d", "not_decided": "n", "ladder": ladder}})
    assert "<th>95% interval</th>" in page
    assert "34.7%" in page and "31.8–37.7%" in page and "25.0%" in page
    assert "98.1–100.0%" in page


# ----- sweep ----------------------------------------------------------------------------------------
def test_players_list_runs_a_sweep_that_compares_the_counts(tmp_path: Path) -> None:
    report = tmp_path / "sweep.html"
    data = simulate_json("by-this", "-n", "4", "--seed", "3", "--jobs", "1", "--seats", "random",
                         "--players", "2,3", "--report", str(report))
    assert data["players"] == [2, 3] and [s["players"] for s in data["sweep"]] == [2, 3]
    assert all(s["seed"] == 3 for s in data["sweep"])
    page = report.read_text()
    assert "Player counts compared" in page and "3 players" in page
    text = runner.invoke(app, ["simulate", "by-this", "-n", "2", "--seed", "3", "--jobs", "1", "--seats", "random",
                               "--players", "2,4"])
    assert text.exit_code == 0 and "Player counts compared" in text.stdout
    bad = runner.invoke(app, ["simulate", "by-this", "-n", "2", "--players", "2,x"])
    assert bad.exit_code == 2 and "--players takes a number or a list" in bad.stderr


# ----- one number format ----------------------------------------------------------------------------
def test_one_number_format() -> None:
    assert number(103.66666666) == "103.7" and number(5.8333) == "5.83" and number(0.47234) == "0.472"
    assert number(12.0) == "12" and number(float("nan")) == "—" and number(6.03e-7) == "6.03e-7"
    assert number(1e-17) == "0" and number(12345.678) == "12,345.7"
    assert rounded(103.666666) == 103.7 and rounded(2 / 3, JSON_DIGITS) == 0.6666667
    assert rounded_tree({"a": [1 / 3, float("inf")], "b": 2}) == {"a": [0.3333333, None], "b": 2}


def test_json_floats_carry_no_long_tails() -> None:
    result = runner.invoke(app, ["simulate", "by-this", "-n", "3", "--seed", "2", "--jobs", "1", "--seats", "random",
                                 "--json"])
    assert result.exit_code == 0
    floats = [token for token in json.dumps(json.loads(result.stdout)).replace(",", " ").replace("]", " ").split()
              if token.replace(".", "", 1).replace("-", "", 1).isdigit() and "." in token]
    assert floats and all(len(token.lstrip("-").replace(".", "").lstrip("0")) <= JSON_DIGITS for token in floats)


def test_a_seat_that_cannot_be_built_is_refused_before_any_game(tmp_path):
    from tablepress.core.errors import TablepressError
    from tablepress.core.registry import get_game
    from tablepress.sim.service import seat_plan

    broken = tmp_path / "not-a-policy.pt"
    broken.write_text("hello")
    with pytest.raises(TablepressError, match="not a tablepress policy"):
        seat_plan(get_game("by-this"), f"policy:{broken},random", 2)
