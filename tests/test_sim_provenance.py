"""Where the numbers come from (`sim/provenance.py`), CSV rows, and what a run leaves out of play."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tablepress.cli import app
from tablepress.core.registry import get_game
from tablepress.core.rng import derive_seed
from tablepress.sim import provenance
from tablepress.sim.backends import run_games
from tablepress.sim.runner import SimSpec
from tablepress.sim.stats import left_out
from tablepress.sim.store import load_rows, save_rows

runner = CliRunner()


def simulate(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_carries_the_provenance() -> None:
    code, out, err = simulate("flowers", "-n", "6", "--seed", "5", "--jobs", "1", "--seats", "random", "--json")
    assert code == 0, err
    prov = json.loads(out)["provenance"]
    assert {"tablepress", "commit", "command", "rerun", "seed", "game_seeds", "seats", "players", "seconds",
            "started", "machine", "games"} <= set(prov)
    assert prov["tablepress"] == provenance.version() and prov["seed"] == 5 and prov["players"] == 2
    assert prov["seats"] == ["random", "random"] and prov["seconds"] >= 0
    assert prov["game_seeds"]["seeds"] == [derive_seed(5, i) for i in range(6)] and prov["game_seeds"]["complete"]
    assert "derive_seed(5, i)" in prov["game_seeds"]["rule"]
    assert prov["rerun"].startswith("tablepress simulate flowers -n 6 --seed 5 --seats random")
    assert {"cores", "platform", "python", "load_average"} <= set(prov["machine"])


def test_the_terminal_and_the_report_show_it(tmp_path: Path) -> None:
    report = tmp_path / "r.html"
    code, out, err = simulate("flowers", "-n", "4", "--seed", "5", "--jobs", "1", "--seats", "random",
                              "--report", str(report))
    assert code == 0, err
    assert f"tablepress {provenance.version()}" in out and "to repeat: tablepress simulate flowers" in out
    assert "machine:" in out and "cores" in out
    page = report.read_text()
    assert "Provenance: tablepress" in page and "derive_seed(5, i)" in page


def test_a_sweep_carries_it_too() -> None:
    code, out, err = simulate("flowers", "-n", "3", "--seed", "5", "--jobs", "1", "--seats", "random",
                              "--players", "2,3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["provenance"]["players"] == [2, 3] and data["quality"]["labels"] == ["2 players", "3 players"]


def test_no_git_or_no_repository_gives_no_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert provenance.git_commit(tmp_path) is None  # not a repository

    def missing(*args, **kwargs):
        raise FileNotFoundError("git")

    monkeypatch.setattr(subprocess, "run", missing)
    assert provenance.git_commit() is None
    assert provenance.collect("flowers", 2, 2, 1, ["random"], 0.0)["commit"] is None


def test_a_long_run_lists_the_first_seeds_and_the_rule() -> None:
    seeds = provenance.game_seeds(7, provenance.SEEDS_LISTED + 5)
    assert not seeds["complete"] and len(seeds["seeds"]) == provenance.SEEDS_LISTED


@pytest.mark.parametrize("game", ["flowers", "pressed"])
def test_csv_holds_the_same_rows_as_sqlite(tmp_path: Path, game: str) -> None:
    spec = SimSpec(game, 2, ("random", "random"), balanced=True)
    rows = run_games(spec, 8, 6, jobs=1)
    for suffix in (".csv", ".sqlite"):
        save_rows(tmp_path / f"rows{suffix}", [("v", rows)])
    from_csv, from_sqlite = load_rows(tmp_path / "rows.csv"), load_rows(tmp_path / "rows.sqlite")
    assert from_csv == from_sqlite
    assert [label for label, _ in from_csv] == ["v"] * 6
    for row, (_, back) in zip(rows, from_csv):
        # SQLite (and so CSV) keeps no NaN: a figure a game lacks is left out, as `column()` reads it
        assert back == {k: v for k, v in row.items() if not (isinstance(v, float) and math.isnan(v))}


def test_out_csv_through_the_cli(tmp_path: Path) -> None:
    out = tmp_path / "rows.csv"
    code, _, err = simulate("flowers", "-n", "4", "--seed", "8", "--jobs", "1", "--seats", "random", "--out", str(out))
    assert code == 0, err
    assert out.read_text().splitlines()[0].startswith("index,seed,first,turns")
    spec = SimSpec("flowers", 2, ("random", "random"), balanced=True)
    assert [row for _, row in load_rows(out)] == run_games(spec, 8, 4, jobs=1)


@pytest.mark.parametrize("players, missing", [(2, ["Lily", "Daisy", "Anemone", "Baby's Breath"]),
                                              (3, ["Anemone", "Baby's Breath"]), (4, []), (5, [])])
def test_pressed_names_the_flowers_left_out(players: int, missing: list[str]) -> None:
    game = get_game("pressed")
    assert left_out(game, players, game.normalise_options({})) == missing
    chosen = game.normalise_options({"electives": "Anemone,Aster,Tulip"})
    if players == 2:
        assert left_out(game, 2, chosen) == ["Lily", "Daisy", "Baby's Breath", "Chrysanthemum"]


def test_a_pressed_report_says_what_is_not_in_play(tmp_path: Path) -> None:
    report = tmp_path / "p.html"
    code, out, err = simulate("pressed", "-n", "2", "--seed", "1", "--jobs", "1", "--seats", "random",
                              "--players", "2", "--report", str(report))
    assert code == 0, err
    assert "Not in play at 2 players: Lily, Daisy, Anemone, Baby's Breath" in " ".join(out.split())
    assert "Not in play at 2 players:</b> Lily, Daisy, Anemone, Baby&#x27;s Breath" in report.read_text()
    code, out, _ = simulate("pressed", "-n", "2", "--seed", "1", "--jobs", "1", "--seats", "random",
                            "--players", "4", "--json")
    assert json.loads(out)["left_out"] == []


def test_a_game_without_the_hook_leaves_nothing_out() -> None:
    game = get_game("planted")
    assert left_out(game, 2, game.normalise_options({})) == []
