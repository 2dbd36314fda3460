"""`tablepress score pressed` (final collections and planting queries), bad input, unattended play and replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

FINAL = ("Ana: 2 Hydrangea, 2 Baby's Breath, 2 Zinnia, 2 Daisy, 2 Lily, Tulip, Chrysanthemum "
         "| Baby's Breath=Hydrangea, Baby's Breath=Daisy, Tulip=Hydrangea\n"
         "Bo: 2 Hydrangeas, 2 Baby's Breaths, 2 Zinnias, 2 Daisies, 2 Lilies, Tulip, Chrysanthemum\n")

HYDRANGEA_QUERY = """\
SU PE ZI DA HY
.  HY SU PE HY
.  .  HY .  .
play HY 5
"""


def score(cli, tmp_path: Path, text: str, *extra: str):
    """Score a position file holding `text` in-process."""
    path = tmp_path / "position.txt"
    path.write_text(text, encoding="utf-8")
    return cli("score", "pressed", str(path), *extra)


def test_final_scoring_json_declared_and_best(cli, tmp_path: Path) -> None:
    result = score(cli, tmp_path, FINAL, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "pressed"
    ana, bo = data["players"]
    assert ana["name"] == "Ana" and ana["total"] == 48 and ana["chosen_by"] == "declared"
    groups = {g["flower"]: g for g in ana["groups"]}
    assert groups["Hydrangea"] == {"flower": "Hydrangea", "cards": 2, "babys_breath": 1, "count": 3, "points": 10}
    assert groups["Tulip"]["chose"] == "Hydrangea" and groups["Tulip"]["points"] == 9
    assert groups["Lily"]["points"] == 15 and groups["Chrysanthemum"]["count"] == 6
    assert bo["name"] == "Bo" and bo["total"] == 52 and bo["chosen_by"] == "best"


def test_final_scoring_unnamed_player_and_table_output(cli, tmp_path: Path) -> None:
    result = score(cli, tmp_path, "3 hydrangeas, tulip, babys breath\n", "--json")
    data = json.loads(result.stdout)
    [player] = data["players"]
    assert player["name"] is None and player["total"] == 15 + 12  # 4 Hydrangeas, Tulip counts 4
    text = score(cli, tmp_path, FINAL)
    assert text.exit_code == 0 and "48" in text.stdout and "52" in text.stdout


def test_named_by_hash_line_and_partial_declaration(cli, tmp_path: Path) -> None:
    text = "# Cy\n2 Hydrangea, 2 Baby's Breath, 2 Zinnia, Tulip | Tulip=Hydrangea\n"
    data = json.loads(score(cli, tmp_path, text, "--json").stdout)
    [cy] = data["players"]
    assert cy["name"] == "Cy" and cy["chosen_by"] == "declared and best"
    tulip = [g for g in cy["groups"] if g["flower"] == "Tulip"][0]
    assert tulip["chose"] == "Hydrangea"


def test_planting_query_worked_example(cli, tmp_path: Path) -> None:
    result = score(cli, tmp_path, HYDRANGEA_QUERY, "--json")
    assert result.exit_code == 0, result.output
    [player] = json.loads(result.stdout)["players"]
    assert player["name"] is None and player["total"] == 15 and player["count"] == 4
    assert (player["row"], player["column"]) == (3, 5)


def test_planting_query_lily_and_choices(cli, tmp_path: Path) -> None:
    lily = "SU PE DA ZI\n.  HY SU PE\n.  DA HY .\n.  DA .  .\nplay LI 3\n"  # row 4 of column 3
    [player] = json.loads(score(cli, tmp_path, lily, "--json").stdout)["players"]
    assert player["total"] == 10 and player["row"] == 4
    tulip = "HY SU HY\n.  HY .\nplay TU 2\nchoose 2 2\n"
    [player] = json.loads(score(cli, tmp_path, tulip, "--json").stdout)["players"]
    assert player["total"] == 2 and player["chosen"] == "Hydrangea" and player["count"] == 1
    copy_tulip = "TU SU TU\n.  TU .\nplay BB 2\nchoose 2 2\nchoose 1 2\n"
    [player] = json.loads(score(cli, tmp_path, copy_tulip, "--json").stdout)["players"]
    assert player["copied"] == "Tulip" and player["chosen"] == "Sunflower" and player["total"] == 2
    copy_copy = "BB SU\nplay BB 1\nchoose 1 1\n"
    [player] = json.loads(score(cli, tmp_path, copy_copy, "--json").stdout)["players"]
    assert player["total"] == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Ana: 2 Hydrangea, 3 Roses\n", "line 1: unknown flower 'Roses'"),
        ("\n\nAna: 2 Hydrangea | Tulip=Hydrangea\n", "line 3"),
        ("Ana: Tulip, Zinnia | Tulip=Tulip\n", "chooses another group, not its own"),
        ("Ana: Tulip, Zinnia | Baby's Breath=Zinnia\n", "pressed no Baby's Breath"),
        ("Ana: Tulip, Zinnia | Tulip=Peony\n", "Peony is not a group of the player's"),
        ("Ana: Tulip, Zinnia | Zinnia=Tulip\n", "a Zinnia makes no choice"),
        ("Ana: Tulip Zinnia | Tulip Zinnia\n", "write a declared choice as FLOWER=FLOWER"),
        ("Ana: 7 Baby's Breath, Zinnia\n", "only 6"),
        ("Ana: 13 Zinnia\n", "only 10"),
        ("HY SU\nplay HY 4\n", "line 2: there is no column 4"),
        ("HY SU ZI\n.  HY .\nplay TU 1\nchoose 1 3\n", "line 4: row 1, column 3 is not in the played card's row 2 or column 1"),
        ("HY SU ZI\n.  HY .\nplay TU 1\nchoose 2 3\n", "line 4: there is no card at row 2, column 3"),
        ("HY SU ZI\nplay TU 1\nchoose 2 1\n", "is the played card itself"),
        ("HY XX\nplay HY 1\n", "line 1: unknown flower 'XX'"),
        ("HY SU ZI\nHY\nplay HY 1\n", "line 2: row 2 has 1 cells but row 1 has 3"),
        ("HY .\n.  SU\nplay HY 1\n", "line 2: column 2 has a card below an empty space"),
        ("HY SU\nplay ZI 1\nchoose 1 2\n", "a Zinnia makes no choice"),
        ("\x00\x01garbled }{ ::: ###\n", "unknown flower"),
        ("", "no pressed collection found"),
    ],
)
def test_bad_positions_give_one_clear_line(cli, tmp_path: Path, text: str, message: str) -> None:
    result = score(cli, tmp_path, text, "--json")
    assert result.exit_code != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run the tablepress command in a fresh interpreter."""
    return subprocess.run([sys.executable, "-c", "from tablepress.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=120)


def test_garbled_binary_file_in_a_real_process(tmp_path: Path) -> None:
    path = tmp_path / "garbled.txt"
    path.write_bytes(b"\xff\xfe\x00garbage")
    result = run("score", "pressed", str(path))
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("players", [3, 5])
def test_unattended_play_record_and_replay(tmp_path: Path, players: int) -> None:
    record = tmp_path / "game.json"
    result = run("play", "pressed", "--players", str(players), "--seats", "random", "--seed", "5",
                 "--record", str(record))
    assert result.returncode == 0, result.stderr
    data = json.loads(record.read_text())
    assert data["game"] == "pressed" and data["players"] == players and "scores" in data
    assert data["options"]["electives"] == ["Aster", "Chrysanthemum", "Tulip"]
    replayed = run("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert "Game over" in replayed.stdout


def test_play_with_an_elective_option_and_a_bad_one(cli, tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    result = cli("play", "pressed", "--players", "2", "--seats", "random", "--seed", "2",
                 "--option", "electives=AN,BB,TU", "--record", str(record))
    assert result.exit_code == 0
    assert json.loads(record.read_text())["options"]["electives"] == ["Anemone", "Baby's Breath", "Tulip"]
    bad = cli("play", "pressed", "--players", "2", "--seats", "random", "--option", "electives=AN,BB")
    assert bad.exit_code != 0 and "exactly 3" in bad.stderr
