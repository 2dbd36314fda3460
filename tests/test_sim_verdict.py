"""The verdict on the game (`sim/verdict.py`): the better variant on each quality measure, with corrected p."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tablepress.cli import app
from tablepress.sim import quality
from tablepress.sim.verdict import NO_CLEAR, quality_verdict

runner = CliRunner()


def rows(games: int, shared: float, first_wins: float, seed: int = 1) -> list[dict]:
    """Two-player rows: a shared victory in `shared` of the games, else the first player wins `first_wins`."""
    rng = random.Random(seed)
    out = []
    for index in range(games):
        first = index % 2
        if rng.random() < shared:
            winners = [0, 1]
        else:
            winners = [first if rng.random() < first_wins else 1 - first]
        shares = [1 / len(winners) if seat in winners else 0.0 for seat in range(2)]
        scores = [10.0 + (5 if seat in winners else 0) + rng.randrange(3) for seat in range(2)]
        out.append({"index": index, "seed": index, "seats": ["greedy", "greedy"], "first": first, "scores": scores,
                    "winners": winners, "shares": shares, "turns": 20 + rng.randrange(5), "decisions": 20,
                    "branching": 3.0, "lead_changes": rng.randrange(4), "leader_half": winners[0]})
    return out


def by_name(verdict: dict) -> dict:
    return {m["name"]: m for m in verdict["measures"]}


def test_the_verdict_names_the_variant_with_fewer_shared_victories_and_a_fairer_first_player() -> None:
    a = rows(400, shared=0.4, first_wins=0.8, seed=1)
    b = rows(400, shared=0.05, first_wins=0.5, seed=2)
    verdict = quality_verdict([("A", a), ("B", b)])
    measures = by_name(verdict)
    assert measures["shared"]["best"] == "B" and measures["shared"]["text"] == "B better"
    pair = measures["shared"]["pairs"][0]
    assert pair["p_adjusted"] < 0.05 and pair["ci95"][1] < 0 and pair["diff"] < 0
    assert measures["first_gap"]["best"] == "B"
    assert measures["first_gap"]["pairs"][0]["diff"] < 0  # B's distance to the fair share is smaller
    assert verdict["headline"].startswith("B against A: better on")
    assert verdict["tests"] == len(verdict["measures"]) and verdict["correction"] == "Benjamini–Hochberg"
    swapped = by_name(quality_verdict([("B", b), ("A", a)]))
    assert swapped["shared"]["best"] == "B" and swapped["shared"]["text"] == "B better"


def test_identical_rows_give_no_clear_difference() -> None:
    a = rows(200, shared=0.2, first_wins=0.6)
    verdict = quality_verdict([("A", a), ("B", [dict(row) for row in a])])
    assert all(m["text"] == NO_CLEAR and m["best"] is None for m in verdict["measures"])
    assert all(pair["p_adjusted"] == 1 for m in verdict["measures"] for pair in m["pairs"])
    assert verdict["headline"].startswith(NO_CLEAR)


def test_mutant_with_the_direction_reversed_names_the_worse_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    a = rows(400, shared=0.4, first_wins=0.5, seed=1)
    b = rows(400, shared=0.05, first_wins=0.5, seed=2)
    monkeypatch.setitem(quality.MEASURES, "shared", dataclasses.replace(quality.MEASURES["shared"], better="higher"))
    assert by_name(quality_verdict([("A", a), ("B", b)]))["shared"]["best"] == "A"  # caught by the test above


def test_three_variants_one_best_per_measure_and_the_skill_gap() -> None:
    a = rows(300, shared=0.4, first_wins=0.5, seed=1)
    b = rows(300, shared=0.05, first_wins=0.5, seed=2)
    c = rows(300, shared=0.4, first_wins=0.5, seed=3)

    def skill(rate: float, seed: int) -> list[dict]:
        rng = random.Random(seed)
        out = []
        for row in rows(300, shared=0.0, first_wins=0.5, seed=seed):
            greedy_seat = row["index"] % 2
            winner = greedy_seat if rng.random() < rate else 1 - greedy_seat
            out.append({**row, "winners": [winner], "shares": [float(s == winner) for s in range(2)],
                        "entrants": [0, 1] if greedy_seat == 0 else [1, 0]})
        return out

    verdict = quality_verdict([("A", a), ("B", b), ("C", c)], [skill(0.6, 4), skill(0.6, 5), skill(0.95, 6)])
    measures = by_name(verdict)
    assert measures["shared"]["best"] == "B" and measures["shared"]["text"].startswith("best: B")
    assert measures["skill_gap"]["best"] == "C"
    assert [p["label"] for p in measures["shared"]["pairs"]] == ["B", "C"]
    assert verdict["tests"] == 2 * len(verdict["measures"])
    assert "shared victories → B" in verdict["headline"]


def test_a_real_comparison_puts_the_verdict_first(tmp_path: Path) -> None:
    variant = tmp_path / "small-regions.toml"
    variant.write_text("[scoring]\nregion_min = 4\n")
    report = tmp_path / "ab.html"
    args = ["simulate", "flowers", "-n", "12", "--seed", "2", "--jobs", "1", "--seats", "random", "--players", "2",
            "--compare", "base", str(variant)]
    result = runner.invoke(app, [*args, "--report", str(report)])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Verdict:" in out and "Quality measures" in out
    assert out.index("Quality measures") < out.index("B − A on the same seeds")
    assert "skill gap: 12 more games per variant" in result.stderr
    page = report.read_text()
    assert "Verdict on the game" in page and page.index("Verdict on the game") < page.index("Differences B − A")
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    names = [m["name"] for m in data["quality"]["measures"]]
    assert {"shared", "decisive", "first_gap", "seat_spread", "skill_gap", "turns"} <= set(names)
    assert data["quality"]["labels"] == ["published cards", "small-regions"]
    assert data["provenance"]["extra_games"] == 24


def test_three_variants_and_a_sensitivity_run_through_the_cli(tmp_path: Path) -> None:
    for value in (3, 4):
        (tmp_path / f"r{value}.toml").write_text(f"[scoring]\nregion_min = {value}\n")
    result = runner.invoke(app, ["simulate", "flowers", "-n", "6", "--seed", "2", "--jobs", "1", "--seats", "random",
                                 "--players", "2", "--compare", "base", str(tmp_path / "r3.toml"),
                                 str(tmp_path / "r4.toml"), "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["quality"]["labels"] == ["published cards", "r3", "r4"] and len(data["arms"]) == 3
    plot = tmp_path / "sens.png"
    result = runner.invoke(app, ["simulate", "flowers", "-n", "6", "--seed", "2", "--jobs", "1", "--seats", "random",
                                 "--players", "2", "--vary", "scoring.region_min=4..5", "--plot", str(plot)])
    assert result.exit_code == 0, result.stderr
    assert plot.read_bytes().startswith(b"\x89PNG") and f"plot written to {plot}" in result.stdout.replace("\n", "")
    assert "Quality measures over scoring.region_min" in result.stdout and "5 (published)" in result.stdout
    bad = runner.invoke(app, ["simulate", "flowers", "-n", "2", "--vary", "scoring.nothing=1..2"])
    assert bad.exit_code == 2 and "Traceback" not in bad.stderr and "scoring.nothing" in bad.stderr
