"""`tablepress score pressed` on malformed position files: one line naming the file and line, exit code 2;
and a planting query follows the rulebook (a card goes below a column's lowest card, never a new column)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

BED = "SU PE ZI DA HY\n.  HY SU PE HY\n.  .  HY .  .\n"


def score(tmp_path: Path, cli, text: str):
    path = tmp_path / "position.txt"
    path.write_text(text, encoding="utf-8")
    return cli("score", "pressed", str(path), "--json"), path


@pytest.mark.parametrize(("text", "line", "message"), [
    (BED + ",,,,\nplay HY 5\n", 4, "a line of only commas"),
    (",, ,\n" + BED + "play HY 5\n", 1, "a line of only commas"),
    (BED + "play HY 5\n, ,\n", 5, "a line of only commas"),
    (BED + "play HY " + "9" * 5000 + "\n", 4, "there is no column 999999… (the bed is far smaller)"),
    (BED + "play TU 2\nchoose " + "9" * 5000 + " 2\n", 5, "there is no row 999999…"),
    (BED + "play HY ３\n", 4, "the column must be a number from 1, not '３'"),
    ("Ana: " + "9" * 5000 + " Hydrangea\n", 1, "the count 999999… is far more than the game's cards"),
    ("Ana: Hydrangea x" + "9" * 5000 + "\n", 1, "the count 999999…"),
    ("Ana: 2 Tulip, Hydrangea | " + "9" * 5000 + " Tulip=Hydrangea\n", 1, "the count 999999…"),
    ("HY SU .\nZI . .\nplay HY 3\n", 3, "column 3 has no cards; a card goes below the lowest card of a column, "
                                        "never into a new column"),
])
def test_a_malformed_position_is_one_line(tmp_path: Path, cli, text: str, line: int, message: str) -> None:
    result, path = score(tmp_path, cli, text)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and not result.stdout, result.stderr
    assert f"{path}: line {line}: " in lines[0] and message in lines[0], lines[0]


def test_a_query_plays_below_the_lowest_card_and_names_flowers_of_two_words(tmp_path: Path, cli) -> None:
    result, _ = score(tmp_path, cli, BED + "play HY 5\n")
    assert json.loads(result.stdout)["players"][0]["total"] == 15  # the rulebook's example
    result, _ = score(tmp_path, cli, "HY BB HY\nZI HY .\nplay Baby's Breath 1\n")
    player = json.loads(result.stdout)["players"][0]
    assert (player["row"], player["column"], player["scored_as"]) == (3, 1, "Hydrangea")


def test_the_examples_in_rules_md_score_as_the_engine_scores_them() -> None:
    """rules.md's worked examples (the planting and the final scoring) are what the engine computes."""
    from tablepress.games.pressed import GAME, PACKAGE

    rules = " ".join(PACKAGE.file("rules.md").read_text(encoding="utf-8").split())
    assert "counts 4 Hydrangeas and scores 15" in rules and "= **48**" in rules
    planting = GAME.score_position("SU PE ZI DA HY\n.  HY SU PE HY\n.  .  HY .  .\nplay HY 5\n", "example")
    assert (planting["players"][0]["total"], planting["players"][0]["count"]) == (15, 4)
    final = GAME.score_position(
        "Ana: 2 Hydrangea, 2 Baby's Breath, 2 Zinnia, 2 Daisy, 2 Lily, Tulip, Chrysanthemum"
        " | Baby's Breath=Hydrangea, Baby's Breath=Daisy, Tulip=Hydrangea\n", "example")
    assert final["players"][0]["total"] == 48
