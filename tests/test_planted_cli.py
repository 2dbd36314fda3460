"""The `tablepress` command for Planted: score files (JSON shape, breakdown), bad input, unattended play
with a record and replay, and the terminal at a human prompt."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from rich.console import Console

from tablepress.core import records
from tablepress.core.match import Match
from tablepress.core.registry import get_game
from tablepress.terminal import play_in_terminal

CONTRACT_EXAMPLE = """\
# Ana
plants: Monstera 2, ZZ Plant 4, Aloe Vera 3
propagation: 5
tools: Watering Can, Trowel
decorations: Workbench, Terracotta Pot, Macramé Hanger

# Bo
plants: Pothos 1, Orchid
propagation: 0
decorations: macrame hanger, Side Tables, Bookshelf
"""


def run(*args: str) -> subprocess.CompletedProcess:
    """Run the installed command in a subprocess (no input), as a user would."""
    return subprocess.run([sys.executable, "-m", "tablepress", *args], capture_output=True, text=True, input="")


def test_score_json_shape_and_breakdown(cli, tmp_path):
    position = tmp_path / "boards.txt"
    position.write_text(CONTRACT_EXAMPLE)
    result = cli("score", "planted", str(position), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "planted"
    ana, bo = data["players"]
    assert ana["name"] == "Ana" and ana["plants"] == 7 + 6 + 6 and ana["propagation"] == 5
    assert ana["decorations_detail"] == [{"decoration": "Workbench", "points": 2},
                                         {"decoration": "Terracotta Pot", "points": 2},
                                         {"decoration": "Macramé Hanger", "points": 6}]
    assert ana["decorations"] == 10 and ana["total"] == 34
    assert ana["plants_detail"][0] == {"plant": "Monstera", "tokens": 2, "points": 7}
    assert bo["name"] == "Bo" and bo["plants"] == 1 and bo["total"] == 1 + 0 + 0 + 0 + 2 * 2


def test_names_are_forgiving(cli, tmp_path):
    position = tmp_path / "board.txt"
    position.write_text("\ufeffPlants: birds nest fern 1, BURRO’S TAIL 3\r\nDecorations: terrarium, macrame hangers\r\n",
                        encoding="utf-8")
    result = cli("score", "planted", str(position), "--json")
    assert result.exit_code == 0, result.output
    player = json.loads(result.stdout)["players"][0]
    assert [p["plant"] for p in player["plants_detail"]] == ["Bird's Nest Fern", "Burro's Tail"]
    assert player["total"] == 2 + 13 + 2 + 3


def test_score_table_and_unnamed_player(cli, tmp_path):
    position = tmp_path / "board.txt"
    position.write_text("plants: Boston Fern 4\ndecorations: Terrarium, Terrarium\n")
    data = json.loads(cli("score", "planted", str(position), "--json").stdout)
    assert [(p["name"], p["total"]) for p in data["players"]] == [(None, 6 + 4)]
    table = cli("score", "planted", str(position))
    assert table.exit_code == 0 and "Terrarium" in table.stdout and "10" in table.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("plants: Monstera 2, Rosebush 1\n", "line 1: unknown plant 'Rosebush'"),
        ("tools: Watering Can, Hammer\n", "line 1: unknown tool 'Hammer'"),
        ("decorations: Workbench, Lamp\n", "line 1: unknown decoration 'Lamp'"),
        ("tools: Workbench\n", "'Workbench' is a decoration, not a tool"),
        ("# Ana\nplants: Monstera 4\n", "line 2: Monstera has 3 growth spaces"),
        ("plants: Monstera, Orchid, Agave, Hoya, Yucca, Begonia, Calathea\n", "has 7 plants; a player has at most 6"),
        ("# Bo\nplants: ZZ Plant 1, Pothos 2\n", "line 1: Bo has 2 beginner plants (ZZ Plant, Pothos)"),
        ("propagation: lots\n", "line 1: propagation takes a whole number"),
        ("plants: Monstera -1\n", "growth tokens must be 0 or more"),
        ("flowers: Y4 Y4\n", "line 1: expected plants:, propagation:, tools: or decorations:"),
        ("\x00\x01garbage{{\n", "line 1: expected plants:"),
        ("\n\n", "no board found"),
    ],
)
def test_bad_position_file_is_one_clear_line(tmp_path, content, message):
    position = tmp_path / "bad.txt"
    position.write_text(content)
    result = run("score", "planted", str(position))
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_missing_file_is_one_clear_line(tmp_path):
    result = run("score", "planted", str(tmp_path / "nope.txt"))
    assert result.returncode != 0 and "cannot read" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("players", [2, 3, 5])
def test_unattended_game_with_record_and_replay(cli, tmp_path, players):
    record = tmp_path / "game.json"
    result = cli("play", "planted", "--players", str(players), "--seats", "random", "--seed", "9",
                 "--record", str(record))
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output and "Breakdown" in result.output
    data = json.loads(record.read_text())
    assert data["game"] == "planted" and data["players"] == players
    match = records.from_record(data)
    assert match.is_over and data["scores"] == get_game("planted").scores(match.state)
    replayed = cli("replay", str(record))
    assert replayed.exit_code == 0 and "Game over." in replayed.output


def test_tampered_record_is_refused(tmp_path):
    record = tmp_path / "game.json"
    run("play", "planted", "--players", "2", "--seats", "random", "--seed", "4", "--record", str(record))
    data = json.loads(record.read_text())
    data["actions"][0]["action"] = "play 999 LLL"
    record.write_text(json.dumps(data))
    result = run("replay", str(record))
    assert result.returncode != 0 and "action 1" in result.stderr and "not in your hand" in result.stderr
    assert "Traceback" not in result.stderr


def test_human_at_the_prompt(tmp_path):
    record = tmp_path / "r.json"
    # while choosing, the only numbers on screen are the cards' own: a bare 3 is card no. 3's, and must say play or nursery
    moves = "help\ncard Monstera\ncard macrame hanger\nplay 999\n3\nplay 3\nquit\n"
    result = subprocess.run(
        [sys.executable, "-m", "tablepress", "play", "planted", "--players", "2", "--seats", "human,random",
         "--seed", "3", "--record", str(record)],
        capture_output=True, text=True, input=moves,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Your hand" in out and "Nursery row" in out and "Planted" in out
    assert "Monstera: Foliage, hard" in out and "3 points per fully grown plant" in out
    assert "Not a legal move: 'play 999'" in out
    assert "Traceback" not in out + result.stderr
    actions = json.loads(record.read_text())["actions"]
    words = " ".join(out.replace("│", " ").split())
    assert "Not a legal move: '3' — choose a card: play N or nursery N (N is the card's number)" in words
    assert "1) play" not in out and "· play 3 WWW" in words
    assert actions[0]["seat"] == 0 and actions[0]["action"] == "play 3 WWW"


def test_a_human_plays_a_whole_game_at_the_terminal(tmp_path):
    """A person who takes the first listed move every time: a card by what it says, every other step by number 1."""
    record = tmp_path / "r.json"
    match = Match(get_game("planted"), 2, 2, {}, ["human", "random"])
    console = Console(file=io.StringIO(), width=120)

    def read(prompt: str) -> str:
        if match.view(0)["public"]["phase"] == "choose":
            return match.legal(0)[0]
        return "1"

    play_in_terminal(match, console, record, read)
    out = console.file.getvalue()
    assert "Your feedings (best first" in out and "Revealed:" in out and "You passed on:" in out
    assert "Breakdown" in out and "Final scores" in out and "Traceback" not in out
    data = json.loads(record.read_text())
    assert records.from_record(data).is_over
    feeds = [a["action"] for a in data["actions"] if a["seat"] == 0 and a["action"].startswith("feed")]
    assert feeds  # the first listed feeding (the solver's best) was taken each time one was asked
