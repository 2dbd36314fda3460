"""The `tablepress` command for Flowers: unattended play with records, replay, score, bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tablepress.core import records
from tablepress.core.registry import get_game


@pytest.mark.parametrize("players", [1, 2, 4])
def test_unattended_bot_game_with_record_and_replay(cli, tmp_path, players):
    record = tmp_path / "game.json"
    result = cli("play", "flowers", "--players", str(players), "--seats", "random", "--seed", "5", "--record", str(record))
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output
    data = json.loads(record.read_text())
    assert data["players"] == players and data["seats"] == ["random"] * players
    match = records.from_record(data)
    assert match.is_over and data["scores"] == get_game("flowers").scores(match.state)
    replayed = cli("replay", str(record))
    assert replayed.exit_code == 0 and "Game over." in replayed.output


def test_score_json_shape(cli, tmp_path):
    position = tmp_path / "area.txt"
    position.write_text("# Ana\nB4 B4 R3 R3\nB4 B4 R3 R2\n.  R1 .  R2\n\n# Bo\nY4b B1\nY4  Y4\nY4  .\n")
    result = cli("score", "flowers", str(position), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["game"] == "flowers"
    assert [(p["name"], p["total"]) for p in data["players"]] == [("Ana", 5), ("Bo", 1)]
    assert {"regions", "butterflies", "discards"} <= set(data["players"][0])


def test_score_unnamed_player(cli, tmp_path):
    position = tmp_path / "area.txt"
    position.write_text("R1 R1 G4r\n")
    data = json.loads(cli("score", "flowers", str(position), "--json").stdout)
    assert data["players"] == [dict(data["players"][0], name=None, total=-3)]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tablepress", *args], capture_output=True, text=True, input="")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("R1 ZZ\n", "line 1: unknown card code 'ZZ'"),
        ("\x00\x01garbage{{\n", "unknown card code"),
    ],
)
def test_bad_position_file_is_one_clear_line(tmp_path, content, message):
    position = tmp_path / "bad.txt"
    position.write_text(content)
    result = run("score", "flowers", str(position))
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("score", "flowers", "/nonexistent/file.txt"), "cannot read the position file"),
        (("score", "chess", "x.txt"), "unknown game 'chess'"),
        (("play", "flowers", "--players", "6", "--seats", "random"), "1–4 players, not 6"),
        (("play", "flowers", "--seats", "wizard"), "unknown seat 'wizard'"),
        (("play", "flowers", "--seats", "random", "--option", "winter=yes"), "no option 'winter'"),
        (("replay", "/nonexistent.json"), "cannot read the record"),
    ],
)
def test_bad_arguments_are_one_clear_line(args, message):
    result = run(*args)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_garbled_record_is_one_clear_line(tmp_path):
    record = tmp_path / "r.json"
    record.write_text("{not json")
    result = run("replay", str(record))
    assert result.returncode != 0 and "not valid JSON" in result.stderr and "Traceback" not in result.stderr


def test_human_at_the_prompt_illegal_move_help_undo_and_quit(tmp_path):
    record = tmp_path / "r.json"
    moves = "help\nplace Y1 9,9\ndraw 1\nundo\ndraw 1\n1\nquit\n"
    result = subprocess.run(
        [sys.executable, "-m", "tablepress", "play", "flowers", "--seats", "human,random", "--seed", "3",
         "--record", str(record)],
        capture_output=True, text=True, input=moves,
    )
    assert result.returncode == 0, result.stderr
    assert "Number groups" in result.stdout  # help
    assert "Not a legal move: 'place Y1 9,9'" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr
    actions = [a["action"] for a in json.loads(record.read_text())["actions"]]
    assert actions[0] == "draw 1" and actions[1].startswith("place ")  # the undone draw is gone
    assert "Game left unfinished." in result.stdout


def test_undo_never_crosses_a_face_down_draw(tmp_path):
    record = tmp_path / "r.json"
    result = subprocess.run(
        [sys.executable, "-m", "tablepress", "play", "flowers", "--seats", "human,random", "--seed", "3",
         "--record", str(record)],
        capture_output=True, text=True, input="draw 3\nundo\nquit\n",
    )
    assert "Nothing to undo" in result.stdout
    assert [a["action"] for a in json.loads(record.read_text())["actions"]] == ["draw 3"]
