"""`tablepress simulate` end to end: contract JSON, variants and their errors, comparison, report, saved rows."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tablepress.cli import app
from tablepress.core.errors import DataError
from tablepress.core.registry import get_game
from tablepress.sim.backends import run_games
from tablepress.sim.runner import SimSpec
from tablepress.sim.store import load_rows, save_rows
from tablepress.core.variants import load_variant

runner = CliRunner()


def simulate(*args: str) -> tuple[int, str, str]:
    """Run `tablepress simulate ARGS` with random seats unless ARGS name seats (fast); (exit code, stdout, stderr)."""
    seats = [] if "--seats" in args else ["--seats", "random"]
    result = runner.invoke(app, ["simulate", *args, *seats])
    return result.exit_code, result.stdout, result.stderr


def simulate_json(*args: str) -> dict:
    code, out, err = simulate(*args, "--json")
    assert code == 0, err
    return json.loads(out, parse_constant=_strict)


def _strict(token: str) -> None:
    raise AssertionError(f"--json printed {token}, which is not JSON")


def test_json_has_the_contract_fields_and_wins_add_up() -> None:
    data = simulate_json("flowers", "-n", "40", "--seed", "5", "--jobs", "1", "--players", "3")
    assert data["game"] == "flowers" and data["games"] == 40 and data["players"] == 3
    assert [seat["seat"] for seat in data["seats"]] == [0, 1, 2]
    for seat in data["seats"]:
        assert set(seat) >= {"seat", "agent", "wins", "win_rate", "ci95", "mean_score"}
        assert seat["agent"] == "random"
        assert isinstance(seat["ci95"], list) and len(seat["ci95"]) == 2
        assert seat["ci95"][0] <= seat["win_rate"] <= seat["ci95"][1]
        assert seat["win_rate"] == pytest.approx(seat["wins"] / 40)
        assert isinstance(seat["mean_score"], float)
    assert sum(seat["wins"] for seat in data["seats"]) == pytest.approx(40)
    assert 0 <= data["first_player_win_rate"] <= 1
    assert data["mean_turns"] > 0
    assert {"discards", "largest_region", "butterfly_points"} <= set(data["figures"])


def test_solo_json_leaves_win_rate_out() -> None:
    data = simulate_json("flowers", "-n", "5", "--seed", "1", "--jobs", "1", "--players", "1")
    assert data["players"] == 1 and len(data["seats"]) == 1
    assert "win_rate" not in data["seats"][0] and "mean_score" in data["seats"][0]


def test_seats_are_reported_per_seat_and_per_agent() -> None:
    data = simulate_json("by-this", "-n", "4", "--seed", "2", "--jobs", "1", "--players", "3", "--seats", "greedy:1,random")
    assert [s["agent"] for s in data["seats"]] == ["greedy:1", "random", "random"]
    assert [a["agent"] for a in data["agents"]] == ["greedy:1", "random"]
    assert data["agents"][1]["seats"] == [1, 2]
    assert sum(a["wins"] for a in data["agents"]) == pytest.approx(4)


def test_the_same_seed_gives_the_same_numbers_and_another_seed_others() -> None:
    one = simulate_json("flowers", "-n", "10", "--seed", "9", "--jobs", "1")
    two = simulate_json("flowers", "-n", "10", "--seed", "9", "--jobs", "1")
    other = simulate_json("flowers", "-n", "10", "--seed", "10", "--jobs", "1")
    assert {**one, "provenance": None} == {**two, "provenance": None}  # the same numbers; the time taken differs
    assert one["seats"] != other["seats"]


def test_a_variant_that_changes_one_table_changes_the_numbers(tmp_path: Path) -> None:
    variant = tmp_path / "small-regions.toml"
    variant.write_text("[scoring]\nregion_min = 2\n")
    base = simulate_json("flowers", "-n", "30", "--seed", "4", "--jobs", "1")
    varied = simulate_json("flowers", "-n", "30", "--seed", "4", "--jobs", "1", "--variant", str(variant))
    assert varied["variant"] == "small-regions"
    assert varied["figures"]["region_points"]["mean"] > base["figures"]["region_points"]["mean"]
    assert varied["seats"][0]["mean_score"] > base["seats"][0]["mean_score"]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("[copies]\n5 = 3\n", "copies.5"),
        ("[colors]\nY = 'Yellow'\n", "colors"),
        ("[scoring]\nregion_min = 'five'\n", "scoring.region_min"),
        ("[stacks]\n2 = [50, 50, 50]\n", "stacks.2"),
        ("[stacks]\n2 = [26]\n", "stacks.2"),
        ("[scoring\nregion_min = 3\n", "line 1"),
        ("[butterflies]\nY = ['Y']\n", "butterflies.Y"),
    ],
)
def test_a_broken_variant_is_one_clear_line(tmp_path: Path, text: str, expected: str) -> None:
    variant = tmp_path / "broken.toml"
    variant.write_text(text)
    code, out, err = simulate("flowers", "-n", "3", "--seed", "1", "--jobs", "1", "--variant", str(variant))
    assert code == 2 and out == ""
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "broken.toml" in lines[0] and expected in lines[0] and "Traceback" not in err


def test_a_missing_variant_file_and_bad_arguments_are_clear() -> None:
    for args, expected in [
        (["--variant", "/nonexistent/v.toml"], "cannot read"),
        (["--out", "rows.txt"], ".csv"),
        (["--backend", "cloud"], "local or ray"),
        (["--jobs", "0"], "--jobs"),
        (["--seats", "human"], "human"),
        (["--seats", "wizard"], "wizard"),
        (["--players", "9"], "players"),
        (["--out", "/nonexistent/rows.sqlite"], "does not exist"),
        (["--report", "/nonexistent/r.html"], "does not exist"),
        (["--report", "r.pdf"], ".html"),
        (["--address", "127.0.0.1:1"], "--backend ray"),
        (["--records", "/proc/records"], "cannot create"),
    ]:
        code, out, err = simulate("flowers", "-n", "2", "--seed", "1", *args)
        assert code == 2 and expected in err and "Traceback" not in err, (args, err)


def test_load_variant_rejects_an_empty_variant(tmp_path: Path) -> None:
    variant = tmp_path / "empty.toml"
    variant.write_text("# nothing\n")
    with pytest.raises(DataError, match="changes nothing"):
        load_variant(variant, get_game("flowers"), 2)


def test_compare_plays_both_on_the_same_seeds_and_reports_differences(tmp_path: Path) -> None:
    variant = tmp_path / "cheap-discards.toml"
    variant.write_text("[scoring]\ndiscard_points = 0\n")
    data = simulate_json("flowers", "-n", "30", "--seed", "6", "--jobs", "1", "--compare", "base", str(variant))
    assert data["a"]["variant"] == "published cards" and data["b"]["variant"] == "cheap-discards"
    diffs = data["differences"]
    # Random seats play the same games under both card sets: only the scoring moved.
    assert diffs["turns"]["diff"] == 0 and not diffs["turns"]["significant"]
    assert diffs["fig.discards"]["diff"] == 0
    moved = diffs["fig.discard_points"]
    assert moved["diff"] > 0 and moved["significant"] and moved["ci95"][0] <= moved["diff"] <= moved["ci95"][1]
    assert diffs["mean_score"]["diff"] == pytest.approx(moved["diff"])


def test_the_report_is_one_page_with_its_plots(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    code, _, err = simulate("flowers", "-n", "20", "--seed", "3", "--jobs", "1", "--report", str(report))
    assert code == 0, err
    page = report.read_text()
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) >= 6
    assert all(base64.b64decode(image).startswith(b"\x89PNG") for image in images)
    for title in ("Win rate per player", "Win rate per turn position", "Score over time by turn position",
                  "Score distribution", "Game length", "Card-level figures", "Win-rate lift of players who keep"):
        assert title in page
    assert "http://" not in page and "https://" not in page  # self-contained


def test_a_comparison_report_shows_the_differences(tmp_path: Path) -> None:
    variant = tmp_path / "v.toml"
    variant.write_text("[scoring]\nbutterfly_points = 3\n")
    report = tmp_path / "ab.html"
    code, _, err = simulate("flowers", "-n", "12", "--seed", "3", "--jobs", "1", "--compare", "base", str(variant),
                            "--report", str(report))
    assert code == 0, err
    page = report.read_text()
    assert "Differences B − A" in page and "<p class=verdict>" in page
    assert "scoring.butterfly_points" in page  # the variant's change, listed


@pytest.mark.parametrize("suffix", [".sqlite", ".parquet"])
def test_out_round_trips(tmp_path: Path, suffix: str) -> None:
    spec = SimSpec("flowers", 2, ("random", "random"), balanced=True)  # as simulate plays them
    rows = run_games(spec, 8, 12, jobs=1)
    path = tmp_path / f"rows{suffix}"
    save_rows(path, [(None, rows)])
    assert [row for _, row in load_rows(path)] == rows
    out = tmp_path / f"cli{suffix}"
    data = simulate_json("flowers", "-n", "12", "--seed", "8", "--jobs", "1", "--out", str(out))
    saved = [row for _, row in load_rows(out)]
    assert saved == rows
    first_spec = [row["scores"][row["entrants"].index(0)] for row in saved]  # the first --seats spec, wherever it sat
    assert sum(first_spec) / 12 == pytest.approx(data["seats"][0]["mean_score"])


def test_records_replay(tmp_path: Path) -> None:
    code, _, err = simulate("flowers", "-n", "3", "--seed", "2", "--jobs", "1", "--records", str(tmp_path / "rec"))
    assert code == 0, err
    files = sorted((tmp_path / "rec").glob("*.json"))
    assert len(files) == 3
    result = runner.invoke(app, ["replay", str(files[0])])
    assert result.exit_code == 0 and "Game over" in result.stdout


@pytest.mark.parametrize(
    "game,expected",
    [
        ("flowers", {"discards", "region_points", "butterfly_points", "largest_region"}),
        ("pressed", {"planted.Hydrangea", "pressed.Zinnia", "pick1.cards", "winner_pick", "pressed_points"}),
        ("planted", {"plants.easy", "points.hard", "decoration_points", "propagation", "nursery_calls"}),
        ("by-this", {"close_length", "forced_closes", "bythis", "dump", "lock", "samenumber"}),
    ],
)
def test_every_game_simulates_with_its_card_level_figures(game: str, expected: set[str]) -> None:
    data = simulate_json(game, "-n", "4", "--seed", "1", "--jobs", "1")
    assert expected <= set(data["figures"])
    assert sum(seat["wins"] for seat in data["seats"]) == pytest.approx(4)
    assert data["mean_turns"] > 0


def test_a_score_table_of_the_wrong_length_is_refused(tmp_path: Path) -> None:
    variant = tmp_path / "short.toml"
    variant.write_text("[flowers.Zinnia]\ntable = [0, 0, 9, 14, 20]\n")
    code, _, err = simulate("pressed", "-n", "2", "--seed", "1", "--jobs", "1", "--variant", str(variant))
    assert code == 2 and "flowers.Zinnia.table" in err and "needs 8" in err


@pytest.mark.parametrize(
    "game,overrides,error",
    [
        ("planted", {"game": {"pass_left": [1, 2, 3]}}, None),  # a list of rounds may change length
        ("planted", {"tiers": {"easy": [1, 2, 4, 5]}}, None),  # growth spaces differ by tier already
        ("flowers", {"stacks": {"2": [30, 30]}}, None),  # two stacks instead of three
        ("by-this", {"things": {"Ant": [1, 1, 1]}}, "things.Ant: the table has 3 entries; it needs 4"),
        ("pressed", {"flowers": {"Zinnia": {"table": [0, 0, 9]}}}, "flowers.Zinnia.table: the table has 3"),
        ("planted", {"game": {"rounds": True}}, "game.rounds: must be a number"),
    ],
)
def test_variant_shapes_are_checked_without_false_alarms(game: str, overrides: dict, error: str | None) -> None:
    from tablepress.core.variants import apply_variant

    chosen = get_game(game)
    if error is None:
        varied = apply_variant(overrides, chosen, chosen.default_players)
        assert varied.variant == overrides
    else:
        with pytest.raises(DataError, match=re.escape(error)):
            apply_variant(overrides, chosen, chosen.default_players)


def test_two_variant_runs_are_a_comparison(tmp_path: Path) -> None:
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text("[scoring]\nbutterfly_points = 1\n")
    b.write_text("[scoring]\nbutterfly_points = 5\n")
    data = simulate_json("flowers", "-n", "20", "--seed", "3", "--jobs", "1", "--variant", str(a), "--variant", str(b))
    assert (data["a"]["variant"], data["b"]["variant"]) == ("a", "b")
    assert data["differences"]["fig.butterfly_points"]["diff"] >= 0
    code, _, err = simulate("flowers", "-n", "2", "--variant", str(a), "--variant", str(b), "--variant", str(a))
    assert code == 2 and "3 times" in err


def test_a_report_groups_figure_families(tmp_path: Path) -> None:
    report = tmp_path / "pressed.html"
    code, _, err = simulate("pressed", "-n", "6", "--seed", "2", "--jobs", "1", "--report", str(report))
    assert code == 0, err
    page = report.read_text()
    assert "Card-level figures by family" in page and "Players who plant each card" in page
    assert "planted.Anemone" not in page  # only the flowers in this game's deck
