"""`tablepress tune`: fields and targets, the successive-halving search on a planted answer, the CLI end to end."""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from tablepress.cli import app
from tablepress.core.errors import TablepressError
from tablepress.core.registry import get_game
from tablepress.core.variants import base_data, read_variant
from tablepress.sim.tune import (Dimension, Measure, Target, affordable, at_edge, candidates, default_range, halving_plan,
                                 overrides, parse_target, parse_vary, rotation_cycle, successive_halving,
                                 variant_toml)

runner = CliRunner()
FLOWERS = base_data(get_game("flowers"))
PRESSED = base_data(get_game("pressed"))
PRESSED_FIGURES = ["planted.Zinnia", "planted.Sunflower", "planted.Peony", "pressed.Zinnia", "pressed.Peony",
                   "planting_points", "pick1.cards"]


# ----- fields --------------------------------------------------------------------------------------
def test_a_number_with_a_range_takes_every_value_in_it() -> None:
    dim = parse_vary("scoring.region_min=3..6", FLOWERS)
    assert (dim.path, dim.published, list(dim.values())) == (("scoring", "region_min"), 5, [3, 4, 5, 6])
    assert overrides([dim], (4,), FLOWERS) == {"scoring": {"region_min": 4}}


def test_without_a_range_the_values_run_around_the_published_one() -> None:
    assert list(parse_vary("copies.4", FLOWERS).values()) == list(range(5, 16))
    discard = parse_vary("scoring.discard_points", FLOWERS)
    assert (discard.low, discard.high) == (-3, 0)  # never crosses zero
    assert default_range(Dimension("x", ("x",), 0, 0, 0)) == (0, 2)


def test_a_list_is_shifted_by_an_offset_and_one_entry_counts_from_one() -> None:
    whole = parse_vary("flowers.Zinnia.table=-1..2", PRESSED)
    assert whole.offset and whole.published_value() == 0 and whole.shown(2) == "+2"
    assert overrides([whole], (2,), PRESSED)["flowers"]["Zinnia"]["table"] == [2, 2, 11, 16, 22, 28, 34, 34]
    third = parse_vary("flowers.zinnia.table[3]=5..9", PRESSED)  # any case
    assert (third.path, third.entry, third.published_value()) == (("flowers", "Zinnia", "table"), 2, 9)
    both = overrides([whole, third], (1, 5), PRESSED)["flowers"]["Zinnia"]["table"]
    assert both == [1, 1, 5, 15, 21, 27, 33, 33]  # the offset, then the entry: each sees the other's change
    assert PRESSED["flowers"]["Zinnia"]["table"] == [0, 0, 9, 14, 20, 26, 32, 32]  # the published data untouched


def test_a_quoted_key_may_hold_what_a_bare_one_cannot() -> None:
    dim = parse_vary("flowers.\"Baby's Breath\".copies=1..3", PRESSED)
    assert dim.path == ("flowers", "Baby's Breath", "copies")
    assert parse_vary("flowers.Baby's Breath.copies=1..3", PRESSED).path == dim.path


@pytest.mark.parametrize(("text", "words"), [
    ("scoring.region_mni", ["region_mni", "known: region_min, butterfly_points, discard_points"]),
    ("scorng.region_min", ["'scorng'", "known: colours, copies"]),
    ("colours.Y", ["colours.Y is the text 'Yellow'", "not a number"]),
    ("scoring", ["scoring is a table", "region_min, butterfly_points"]),
    ("flowers.Zinnia", ["flowers.Zinnia is a table", "numbers in flowers.Zinnia: table, copies"]),
    ("flowers.Zinnia.table[9]", ["8 entries (1–8), not [9]"]),
    ("flowers.Zinnia.copies[1]", ["not a list of numbers"]),
    ("flowers.Zinnia.copies=a..b", ["whole-number range LO..HI"]),
    ("flowers.Zinnia.copies=9..3", ["from low to high"]),
    ("flowers.Zinnia.copies=1..1500", ["at most 1000 either way"]),
    ("flowers.Zinnia.copies=1..5000", ["at most 2001 values"]),
    ("=3..4", ["give a field"]),
])
def test_a_bad_field_is_one_line_naming_it_and_the_known_ones(text: str, words: list[str]) -> None:
    base = PRESSED if text.startswith("flowers.") else FLOWERS
    with pytest.raises(TablepressError) as caught:
        parse_vary(text, base)
    message = str(caught.value)
    assert "\n" not in message and message.startswith("--vary ")
    for word in words:
        assert word in message


def test_candidates_are_all_combinations_or_a_seeded_sample_that_keeps_the_published_one() -> None:
    a, b = parse_vary("copies.1=1..4", FLOWERS), parse_vary("copies.2=0..9", FLOWERS)
    every = candidates([a, b], 100, seed=1)
    assert len(every) == 40 and every[0] == (1, 0) and every[-1] == (4, 9) and len(set(every)) == 40
    sample = candidates([a, b], 7, seed=1)
    assert len(sample) == 7 and (3, 6) in sample and set(sample) <= set(every)
    assert sample == candidates([a, b], 7, seed=1) != candidates([a, b], 7, seed=2)


# ----- targets -------------------------------------------------------------------------------------
def rows_of(**columns: list[float]) -> list[dict]:
    count = len(next(iter(columns.values())))
    return [{f"fig.{name}": values[i] for name, values in columns.items()} for i in range(count)]


def test_targets_parse_and_unknown_ones_list_the_choices() -> None:
    assert parse_target("first-player-fair", PRESSED_FIGURES, 3) == Target("first-player-fair")
    assert parse_target("figure:PLANTING_points=20", PRESSED_FIGURES, 3) == Target("figure", "planting_points", 20.0)
    card = parse_target("card:zinnia=median", PRESSED_FIGURES, 3)
    assert (card.figure, card.family) == ("planted.Zinnia", ("planted.Peony", "planted.Sunflower", "planted.Zinnia"))
    assert parse_target("card:pressed.Zinnia=median", PRESSED_FIGURES, 3).figure == "pressed.Zinnia"
    cases = {"fair": "give first-player-fair, card:NAME=median or figure:NAME=VALUE",
             "figure:nope=3": "figures: planted.Zinnia, planted.Sunflower",
             "figure:planting_points": "give the goal as a number",
             "figure:planting_points=much": "give the goal as a number",
             "card:Rose=median": "cards: Peony, Sunflower, Zinnia",
             "card:Zinnia=mean": "card:Zinnia=median"}
    for text, words in cases.items():
        with pytest.raises(TablepressError, match=words.replace("(", r"\(")):
            parse_target(text, PRESSED_FIGURES, 3)
    with pytest.raises(TablepressError, match="2 or more players"):
        parse_target("first-player-fair", PRESSED_FIGURES, 1)


def test_measures_give_the_value_its_interval_and_the_goal() -> None:
    games = [{"shares": [1.0, 0.0], "first": 0}, {"shares": [0.5, 0.5], "first": 1}, {"shares": [0.0, 1.0], "first": 0},
             {"shares": [0.0, 1.0], "first": 1}]
    fair = Target("first-player-fair").measure(games)
    assert (fair.value, fair.goal, fair.games) == (0.625, 0.5, 4) and fair.ci95[0] < 0.625 < fair.ci95[1]
    card = Target("card", "planted.Zinnia", None, ("planted.Zinnia", "planted.Peony", "planted.Sunflower"))
    rows = rows_of(**{"planted.Zinnia": [2.0, math.nan, 4.0], "planted.Peony": [6.0, 6.0, 6.0],
                      "planted.Sunflower": [5.0, 3.0, 4.0]})
    measured = card.measure(rows)
    assert (measured.value, measured.goal, measured.distance) == (3.0, 4.0, 1.0)  # median of 3, 6, 4
    figure = Target("figure", "x", 1.5).measure(rows_of(x=[1.0, 2.0, 3.0]))
    assert figure.value == 2.0 and figure.distance == 0.5
    assert Target("figure", "x", 1.0).measure(rows_of(x=[math.nan])).distance == math.inf


# ----- the search ----------------------------------------------------------------------------------
def test_the_plan_halves_the_candidates_doubles_the_games_and_keeps_to_the_budget() -> None:
    plan = halving_plan(16, 1000)
    assert [n for n, _ in plan] == [16, 8, 4, 2]
    assert [g for _, g in plan][:3] == [15, 31, 62] and sum(n * g for n, g in plan) <= 1000
    assert sum(n * g for n, g in plan) > 1000 - 2 * 16
    assert halving_plan(1, 50) == [(1, 50)] and halving_plan(3, 60) == [(3, 10), (2, 15)]
    assert halving_plan(0, 10) == [] and halving_plan(5, 0) == []
    count = affordable(1000, 10_000, min_games=8)
    assert halving_plan(count, 1000)[0][1] >= 8 > halving_plan(count + 1, 1000)[0][1]
    assert affordable(1000, 5) == 5 and affordable(10, 50) == 1


def test_mixed_seats_play_whole_cycles_of_the_rotation() -> None:
    assert [rotation_cycle(s) for s in (["greedy"] * 3, ["greedy", "random"], ["greedy", "random", "random"])] == [1, 2, 6]
    plan = halving_plan(8, 500, step=6)
    assert all(g % 6 == 0 for _, g in plan) and sum(n * g for n, g in plan) <= 500
    assert halving_plan(4, 12, step=6) == [(4, 1), (2, 4)]  # too few games for a whole cycle: as many as there are


def synthetic(answer: int, noise: float, played: list[tuple[int, int, int]]):
    """A fake game: a candidate c's figure is 0.5 (c − answer) plus noise that depends only on the game's seed.

    Every candidate of a round gets the same noise (common random numbers), as games on one seed do.
    """
    def play(pool, number, games):
        shared = np.random.default_rng(number).normal(0.0, noise, games)
        played.append((number, len(pool), games))
        return [[{"fig.x": 0.5 * (c - answer) + e} for e in shared] for c in pool]

    return play


def test_successive_halving_finds_a_planted_answer_on_common_seeds() -> None:
    played: list[tuple[int, int, int]] = []
    pool = list(range(40))
    plan = halving_plan(len(pool), 2000)
    ranking = successive_halving(pool, plan, synthetic(27, 1.0, played), Target("figure", "x", 0.0).measure)
    assert ranking[0].candidate == 27 and ranking[0].measure.distance < 0.25
    assert ranking[1].candidate in (26, 28) and sorted(s.candidate for s in ranking) == pool
    assert [(n, g) for _, n, g in played] == plan and sum(n * g for _, n, g in played) <= 2000
    assert len(ranking[0].rows) == sum(g for _, g in plan)  # a survivor keeps every round's games
    assert ranking[-1].rounds == 1 and ranking[0].rounds == len(plan)


def test_ties_go_to_the_candidate_nearest_the_published_cards() -> None:
    flat = lambda pool, number, games: [[{"fig.x": 1.0}] * games for _ in pool]  # noqa: E731
    ranking = successive_halving(list(range(8)), halving_plan(8, 240), flat, Target("figure", "x", 1.0).measure,
                                 closeness=lambda c: abs(c - 5))
    assert ranking[0].candidate == 5


def test_a_candidate_without_a_measure_ranks_last() -> None:
    empty = lambda pool, number, games: [[{"fig.x": math.nan if c == 0 else 3.0}] * games for c in pool]  # noqa: E731
    ranking = successive_halving([0, 1], [(2, 4)], empty, Target("figure", "x", 0.0).measure)
    assert [s.candidate for s in ranking] == [1, 0] and isinstance(ranking[1].measure, Measure)


# ----- the variant file ----------------------------------------------------------------------------
def test_the_variant_toml_reads_back_as_written() -> None:
    variant = {"copies": {"4": 12, "1": 2}, "scoring": {"region_min": -3},
               "flowers": {"Baby's Breath": {"table": [0, 1, 2], "code": "B\"B"}, "Zinnia": {"copies": 9}},
               "flag": True, "top": [1, 2]}
    text = variant_toml(variant, "tuned\nby a test")
    assert text.startswith("# tuned\n# by a test\n")
    assert tomllib.loads(text) == variant


# ----- the command ---------------------------------------------------------------------------------
def tune(*args: str):
    result = runner.invoke(app, ["tune", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_small_real_tune_writes_a_variant_that_simulate_accepts(tmp_path: Path) -> None:
    out = tmp_path / "tuned.toml"
    code, stdout, stderr = tune("flowers", "--vary", "scoring.region_min=2..5", "--target", "figure:region_points=1",
                                "-n", "100", "--verify", "8", "--seed", "4", "--seats", "random", "--jobs", "1",
                                "--json", "--out", str(out))
    assert code == 0, stderr
    result = json.loads(stdout)
    assert {"game", "players", "seats", "seed", "target", "vary", "candidates", "rounds", "ranking", "winner",
            "verification", "out"} <= set(result)
    assert (result["game"], result["players"], result["seed"], result["out"]) == ("flowers", 2, 4, str(out))
    assert result["candidates"] == len(result["ranking"]) == 4 and result["combinations"] == 4
    assert result["games_played"] <= 100  # the published cards play beside every round: the guards' baseline
    best = result["ranking"][0]
    assert set(best) >= {"values", "value", "ci95", "goal", "off_by", "games", "rounds"} and best["goal"] == 1
    assert best["ci95"][0] <= best["value"] <= best["ci95"][1]
    assert result["winner"]["values"] == best["values"]
    winner = result["winner"]["values"]["scoring.region_min"]
    verification = result["verification"]
    assert verification["winner"]["games"] == 8
    assert read_variant(out) == result["winner"]["variant"] == {"scoring": {"region_min": winner}}
    simulated = runner.invoke(app, ["simulate", "flowers", "-n", "4", "--seed", "1", "--jobs", "1",
                                    "--variant", str(out), "--json"])
    assert simulated.exit_code == 0, simulated.stderr
    again = tune("flowers", "--vary", "scoring.region_min=2..5", "--target", "figure:region_points=1", "-n", "100",
                 "--verify", "8", "--seed", "4", "--seats", "random", "--jobs", "1", "--json")
    assert json.loads(again[1])["ranking"] == result["ranking"]  # the same seed gives the same search


def test_the_terminal_output_shows_candidates_and_the_verification() -> None:
    code, stdout, stderr = tune("by-this", "--vary", "copies", "--target", "first-player-fair", "-n", "40",
                                "--verify", "4", "--seed", "2", "--jobs", "1")
    assert code == 2 and "--vary copies: the card data has no 'copies'" in stderr
    code, stdout, stderr = tune("flowers", "--vary", "scoring.region_min=4..5", "--target", "first-player-fair",
                                "-n", "40", "--verify", "4", "--seed", "2", "--jobs", "1", "--seats", "random")
    assert code == 0, stderr
    for words in ("first-player win rate → fair 50.0%", "Best candidates", "Verification on fresh seeds",
                  "(published)"):
        assert words in stdout


@pytest.mark.parametrize(("args", "words"), [
    (["--vary", "scoring.nope", "--target", "first-player-fair"], "known: region_min"),
    (["--vary", "scoring.region_min", "--target", "fair"], "unknown target"),
    (["--vary", "scoring.region_min", "--target", "figure:nope=1"], "figures: "),
    (["--vary", "scoring.region_min", "--target", "card:Rose=median"], "no card 'Rose'"),
    (["--vary", "scoring.region_min", "--vary", "scoring.region_min=1..3", "--target", "first-player-fair"],
     "given twice"),
    (["--vary", "scoring.region_min", "--target", "first-player-fair", "-n", "5"], "give -n"),
    (["--vary", "scoring.region_min", "--target", "first-player-fair", "--out", "x.json"], ".toml"),
    (["--vary", "scoring.region_min", "--target", "first-player-fair", "--backend", "dask"], "local or ray"),
    (["--vary", "copies.4=0..0", "--target", "first-player-fair"], "every candidate breaks the card data"),
])
def test_bad_arguments_are_one_line_and_play_nothing(args: list[str], words: str, tmp_path: Path) -> None:
    code, stdout, stderr = tune("flowers", *args)
    assert code == 2 and words in stderr and stdout == ""
    assert len(stderr.strip().splitlines()) == 1


def test_ray_gives_the_same_search_as_local() -> None:
    pytest.importorskip("ray")
    args = ["by-this", "--vary", "rules.close_min.3=3..4", "--target", "first-player-fair", "--players", "3",
            "--seats", "random", "-n", "40", "--verify", "4", "--seed", "3", "--json"]
    local = tune(*args, "--jobs", "1")
    on_ray = tune(*args, "--backend", "ray")
    assert local[0] == on_ray[0] == 0, on_ray[2]
    assert json.loads(local[1]) == json.loads(on_ray[1])


def test_a_winner_at_the_end_of_its_range_gets_a_wider_range_to_try() -> None:
    region = parse_vary("scoring.region_min=3..6", FLOWERS)
    offset = parse_vary("flowers.Zinnia.table=-3..3", PRESSED)
    assert at_edge([region, offset], (6, 0)) == ["scoring.region_min=4..8"]
    assert at_edge([region, offset], (4, -3)) == ["flowers.Zinnia.table=-7..0"]
    assert at_edge([parse_vary("copies.1=0..4", FLOWERS)], (0,)) == []  # nothing below zero to try
    assert at_edge([parse_vary("copies.1=1..4", FLOWERS)], (1,)) == ["copies.1=0..3"]


# ----- guards --------------------------------------------------------------------------------------
def guarded_play(pool, number, games):
    """Candidate 1 puts figure x right on its goal but halves the game; candidate 0 keeps the game, x a little off."""
    seeds = range(number * 1000, number * 1000 + games)
    return [[{"seed": s, "scores": [6.0, 4.0], "winners": [0], "shares": [1.0, 0.0], "first": s % 2,
              "leader_half": 0, "lead_changes": 1, "turns": 12 if c == 1 else 26, "fig.x": 0.0 if c == 1 else 0.3}
             for s in seeds] for c in pool]


def test_a_candidate_that_breaks_a_guard_is_never_reported_as_meeting_the_goal() -> None:
    from tablepress.sim.guards import guard_specs, judge_all

    published = [row for number in range(2) for row in guarded_play([0], number, 40)[0]]
    specs = guard_specs([], 2)
    ranking = successive_halving([0, 1], [(2, 20), (1, 20)], guarded_play, Target("figure", "x", 0.0).measure,
                                 guard=lambda rows: judge_all(specs, published, rows))
    halves, keeps = {s.candidate: s for s in ranking}[1], {s.candidate: s for s in ranking}[0]
    assert halves.measure.distance == 0.0 and halves.measure.reaches_goal  # on the goal ...
    assert [g.figure for g in halves.broken] == ["turns"] and not halves.meets_goal  # ... but not meeting it
    assert ranking[0].candidate == 0 and not keeps.broken  # the candidate that keeps the game ranks first
    unguarded = successive_halving([0, 1], [(2, 20), (1, 20)], guarded_play, Target("figure", "x", 0.0).measure)
    assert unguarded[0].candidate == 1 and unguarded[0].meets_goal  # without guards the halved game wins
    assert halved_game_is_refused()


def halved_game_is_refused() -> bool:
    """The property: the candidate that halves the game is neither ranked first nor said to meet the goal."""
    from tablepress.sim.guards import guard_specs, judge_all

    published = [row for number in range(2) for row in guarded_play([0], number, 40)[0]]
    specs = guard_specs([], 2)
    ranking = successive_halving([0, 1], [(2, 20), (1, 20)], guarded_play, Target("figure", "x", 0.0).measure,
                                 guard=lambda rows: judge_all(specs, published, rows))
    return ranking[0].candidate == 0 and not any(s.meets_goal for s in ranking if s.candidate == 1)


def test_the_property_check_catches_guards_that_never_break(monkeypatch: pytest.MonkeyPatch) -> None:
    from tablepress.sim import guards

    monkeypatch.setattr(guards, "holds", lambda *args, **kwargs: True)  # a mutant: every guard holds
    assert not halved_game_is_refused()


def test_the_verdict_of_a_winner_that_breaks_a_guard_says_it_does_not_meet_the_goal() -> None:
    from tablepress.sim.guards import GuardSpec, Tolerance, judge
    from tablepress.sim.tune_command import TuneResult, as_json_result, prepare, verdict

    setup = prepare("flowers", ["scoring.region_min=4..5"], "figure:region_points=1", 200, "random", 2, {}, 1, 8,
                    "local", None, ["turns±10%"])
    published = [row for row in guarded_play([0], 0, 30)[0]]
    halved = guarded_play([1], 0, 30)[0]
    guard = judge(GuardSpec("turns", Tolerance(0.1, True)), published, halved)
    on_goal = Measure(1.0, (0.5, 1.5), 1.0, 30)
    ranked = successive_halving([(4,)], [(1, 1)], lambda pool, n, g: [[{"fig.region_points": 1.0}]] * len(pool),
                                Target("figure", "region_points", 1.0).measure)
    result = TuneResult(ranked, 7, on_goal, None, None, guards=[guard])
    assert not result.meets_goal
    text = verdict(setup, result)
    assert "does not meet the goal" in text and "turns 26 → 12 (tolerance ±10%)" in text
    shown = as_json_result(setup, result)
    assert shown["meets_goal"] is False
    first = shown["guards"][0]
    assert (first["figure"], first["published"], first["value"], first["held"]) == ("turns", 26.0, 12.0, False)
    assert TuneResult(ranked, 7, on_goal, None, None, guards=[]).meets_goal


def test_a_real_tune_lists_the_winners_guards_in_json() -> None:
    code, stdout, stderr = tune("flowers", "--vary", "scoring.region_min=4..5", "--target", "figure:region_points=1",
                                "-n", "60", "--verify", "6", "--seed", "3", "--seats", "random", "--jobs", "1",
                                "--keep", "fig.region_points+-50%", "--keep", "turns±20%", "--json")
    assert code == 0, stderr
    result = json.loads(stdout)
    guards = {g["figure"]: g for g in result["guards"]}
    assert set(guards) == {"turns", "shared", "decisive", "lead_changes", "spread", "first_gap", "fig.region_points"}
    for guard in guards.values():
        assert {"figure", "published", "value", "tolerance", "held"} <= set(guard) and isinstance(guard["held"], bool)
        assert guard["games"] == 6
    assert guards["turns"]["tolerance_text"] == "±20%"
    assert guards["turns"]["tolerance"] == pytest.approx(0.2 * guards["turns"]["published"], abs=1e-3)
    assert result["meets_goal"] == (result["verification"]["winner"]["goal_in_ci95"]
                                    and all(g["held"] for g in result["guards"]))
    assert all("breaks" in entry and "meets_goal" in entry for entry in result["ranking"])
    code, _, stderr = tune("flowers", "--vary", "scoring.region_min=4..5", "--target", "first-player-fair",
                           "--keep", "turns±lots")
    assert code == 2 and "--keep 'turns±lots': give FIGURE or FIGURE±TOL" in stderr
