"""`tablepress score by-this`, unattended play with a record, and replay (docs/reference.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tablepress.core.errors import DataError
from tablepress.core.registry import get_game
from tablepress.games.by_this.cards import ByThisCards, load_data


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run the tablepress command in a fresh interpreter."""
    return subprocess.run([sys.executable, "-c", "from tablepress.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=120)


def score(tmp_path: Path, text: str, *extra: str) -> subprocess.CompletedProcess:
    """Score a position file holding `text`."""
    path = tmp_path / "shelf.txt"
    path.write_text(text, encoding="utf-8")
    return run("score", "by-this", str(path), *extra)


def test_score_json_shape(tmp_path: Path) -> None:
    result = score(tmp_path, "key: Small to Large\nAnt, Rice, Sand, Needle\n", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["game"] == "by-this"
    [player] = data["players"]
    assert player["name"] is None and player["total"] == 6
    assert player["length"] == 4 and player["pile_bonus"] == 2 and player["key"] == "Small → Large"
    assert player["piles"] == [{"number": 1, "cards": ["Ant", "Rice", "Sand"], "bonus": 2}]


@pytest.mark.parametrize("key_line", ["key: Small → Large", "key: small->large", "Key:Small to Large", "KEY: SMALL → LARGE"])
def test_key_line_forms(tmp_path: Path, key_line: str) -> None:
    result = score(tmp_path, f"{key_line}\nAnt Rice Sand\n", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["players"][0]["total"] == 5


def test_named_players_and_plain_table(tmp_path: Path) -> None:
    text = "# Ana\nkey: A to Z\nApple, Ant, Rice, Sand\n\n# Bo\nkey: Old -> New\nSand, Diamond, Egg\n"
    result = score(tmp_path, text, "--json")
    data = json.loads(result.stdout)
    assert [(p["name"], p["total"]) for p in data["players"]] == [("Ana", 6), ("Bo", 4)]
    table = score(tmp_path, text)
    assert table.returncode == 0 and "Ana" in table.stdout and "6" in table.stdout


@pytest.mark.parametrize("text", [
    "\ufeffkey: A to Z\nApple, Ant, Rice, Sand\n",
    "A → Z\nApple, Ant, Rice, Sand\n",
    "key = a to z\r\nApples, Ant,\r\nRice, Sand,\r\n",
])
def test_lenient_forms(tmp_path: Path, text: str) -> None:
    result = score(tmp_path, text, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["players"][0]["total"] == 6


def test_out_of_order_on_a_continued_line_names_that_line(tmp_path: Path) -> None:
    result = score(tmp_path, "key: A to Z\nApple, Ant\nRice, Coin\n")
    assert result.returncode != 0 and "line 3" in result.stderr and "Coin (ABC 2)" in result.stderr


def test_any_length_scores(tmp_path: Path) -> None:
    result = score(tmp_path, "key: Z to A\nZipper\n", "--json")
    assert json.loads(result.stdout)["players"][0]["total"] == 1


@pytest.mark.parametrize(("text", "needle"), [
    ("key: A to Z\nAnt, Rice, Sand, Needle\n", "Needle"),
    ("key: Heavy to Light\nWhale, Apple, Oak\n", "Oak"),
    ("key: Small to Large\nAnt, Appel, Rice\n", "Appel"),
    ("key: Up to Down\nAnt\n", "Up to Down"),
    ("garbled ### ???\n", "key"),
    ("key: A to Z\n", "no shelf"),
    ("key: A to Z\nAnt, Ant\n", "twice"),
    ("", "empty"),
])
def test_score_errors_are_one_clear_line(tmp_path: Path, text: str, needle: str) -> None:
    result = score(tmp_path, text, "--json")
    assert result.returncode != 0
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in result.stderr
    assert "shelf.txt" in lines[0]


def test_out_of_order_names_the_first_card_out_of_order(tmp_path: Path) -> None:
    result = score(tmp_path, "key: Small to Large\nAnt, Coin, Apple, Key, Leaf, Pearl\n")
    assert "Key (Size 2) cannot stand right of Apple (Size 3)" in result.stderr
    assert "line 2" in result.stderr


def test_play_unattended_with_record_then_replay(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    played = run("play", "by-this", "--players", "3", "--seats", "random", "--record", str(record))
    assert played.returncode == 0, played.stderr
    assert "Final scores" in played.stdout
    data = json.loads(record.read_text())
    assert data["game"] == "by-this" and data["players"] == 3 and data["actions"]
    replayed = run("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert "Game over." in replayed.stdout


@pytest.mark.parametrize("players", ["2", "4"])
def test_play_young_table_with_seed(tmp_path: Path, players: str) -> None:
    record = tmp_path / "young.json"
    played = run("play", "by-this", "--players", players, "--seats", "random", "--seed", "5",
                 "--option", "young=true", "--record", str(record))
    assert played.returncode == 0, played.stderr
    assert json.loads(record.read_text())["options"]["young"] is True
    assert run("replay", str(record)).returncode == 0


def test_bad_option_is_one_line(tmp_path: Path) -> None:
    result = run("play", "by-this", "--players", "5", "--seats", "random")
    assert result.returncode != 0 and "2–4 players" in result.stderr and "Traceback" not in result.stderr


# ----- card data -----------------------------------------------------------------------------------
def test_published_card_data() -> None:
    cards = get_game("by-this").cards
    assert cards.thing_count == 40 and len(cards.keys) == 8 and len(cards.table_cards) == 2
    assert sorted(e for e in cards.effect if e) == ["bythis", "dump", "lock", "samenumber"]
    for word in range(4):
        column = cards.numbers[word][: cards.thing_count]
        assert sorted(column) == [v for v in range(1, 11) for _ in range(4)]
    bands = ["AB", "CD", "EFG", "HIJK", "LM", "NO", "PQ", "RS", "TU", "VWXYZ"]
    for card in range(cards.thing_count):
        assert cards.names[card][0] in bands[cards.numbers[0][card] - 1], cards.names[card]
    assert {(k.word, k.ascending) for k in cards.keys} == {(w, a) for w in cards.words for a in (True, False)}
    assert cards.hand_size == {2: 6, 3: 5, 4: 4} and cards.close_min == {2: 3, 3: 4, 4: 4}
    assert cards.closes_to_end == {2: 6, 3: 6, 4: 8} and cards.floor_size == 3


@pytest.mark.parametrize(("overrides", "field"), [
    ({"things": {"Ant": [1, 1, 11, 8]}}, "things.Ant"),
    ({"things": {"Ant": [1, 1, 1]}}, "things.Ant"),
    ({"things": {"Ant": [1, 1, 1.5, 8]}}, "things.Ant"),
    ({"keys": [{"name": "X", "word": "Colour", "ascending": True, "from": "a", "to": "b"}] * 3}, "keys[0].word"),
    ({"specials": [{"name": "Joker", "effect": "wild", "copies": 1}]}, "specials[0].effect"),
    ({"rules": {"hand_size": {"4": 12}}}, "rules.hand_size.4"),
    ({"rules": {"close_min": {"2": 0}}}, "rules.close_min.2"),
    ({"colours": {}}, "section"),
])
def test_broken_variants_name_the_field(overrides: dict, field: str) -> None:
    with pytest.raises(DataError, match=field.replace("[", r"\[").replace("]", r"\]")):
        ByThisCards.from_data(load_data(overrides))


def test_variant_changes_the_game() -> None:
    game = get_game("by-this").with_variant({"things": {"Ant": [2, 2, 2, 2]}, "rules": {"hand_size": {"3": 7}}})
    assert game.variant is not None and game.cards.numbers[1][game.by_name["Ant"]] == 2
    assert [len(h) for h in game.new(3, 1).hands] == [7, 7, 7]
