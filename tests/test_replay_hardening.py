"""Files a user hands the CLI, tampered with: each class of bad record, variant or position file is refused
in one line with exit code 2, and nothing is written."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tablepress.core import records
from tablepress.core.errors import PositionError, RecordError
from tablepress.core.files import MAX_POSITION_BYTES, read_position
from tablepress.core.match import Match, load_record, random_playout
from tablepress.core.registry import get_game


def finished(seed: int = 3) -> dict:
    """A finished two-player Flowers game's record, as JSON holds it."""
    match = Match(get_game("flowers"), 2, seed, seats=["random", "random"])
    random_playout(match, random.Random(seed))
    return json.loads(json.dumps(match.record()))


def refused(result, *fragments: str) -> None:
    """Exit code 2, one line on stderr holding every fragment, nothing on stdout, no traceback."""
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2, result.stderr
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    assert "Traceback" not in result.stderr and not result.stdout.strip()
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def written(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


# ----- records: fields of the wrong type or value ----------------------------------------------
TAMPERED = [
    ({"scores": 5}, "'scores' must be a list of 2 whole numbers"),
    ({"scores": None}, "'scores' must be a list of 2 whole numbers"),
    ({"scores": [1, 2, 3]}, "'scores' must be a list of 2 whole numbers"),
    ({"scores": ["1", 2]}, "'scores' must be a list of 2 whole numbers"),
    ({"winners": [5]}, "'winners' must be a list of different seats from 0 to 1"),
    ({"winners": [0, 0]}, "'winners' must be a list of different seats"),
    ({"winners": "0"}, "'winners' must be a list"),
    ({"seats": ["random"]}, "'seats' must be a list of 2 seat names"),
    ({"seats": "random"}, "'seats' must be a list of 2 seat names"),
    ({"seats": [1, 2]}, "'seats' must be a list of 2 seat names"),
    ({"seed": 2.5}, "'seed' must be a whole number of at most 64 bits"),
    ({"seed": 2**70}, "'seed' must be a whole number of at most 64 bits"),
    ({"seed": True}, "'seed' must be a whole number"),
    ({"players": True}, "'players' must be a whole number, not True"),
    ({"players": "2"}, "'players' must be a whole number"),
    ({"players": 9, "seats": ["random"] * 9, "scores": ..., "winners": ...}, "flowers is for 1–4 players, not 9"),
    ({"format": "tablepress-record/9"}, "format is 'tablepress-record/9'; this tablepress reads 'tablepress-record/1'"),
    ({"game": ["flowers"]}, "'game' must be a game's name"),
    ({"options": [1]}, "'options' must be an object"),
    ({"variant": "big"}, "'variant' must be an object"),
    ({"variant": {"copies": {"4": 1000000}}}, "copies.4: 1000000 is too large"),
    ({"actions": {"seat": 0}}, "'actions' must be a list"),
    ({"actions": [{"seat": 0.5, "action": "draw 1"}]}, "action 1 must be an object with a 'seat' number"),
    ({"actions": [{"seat": 0, "action": 1}]}, "action 1 must be an object with a 'seat' number and an 'action' text"),
]


@pytest.mark.parametrize(("change", "message"), TAMPERED, ids=[m for _, m in TAMPERED])
def test_a_tampered_field_is_one_line(tmp_path: Path, cli, change: dict, message: str) -> None:
    """`...` as a value drops the field."""
    record = {key: value for key, value in {**finished(), **change}.items() if value is not ...}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    refused(cli("replay", str(path)), f"{path}:", message)
    assert written(tmp_path) == ["game.json"]


def test_recorded_results_must_be_the_replayed_ones(tmp_path: Path, cli) -> None:
    record = finished()
    scores, winners = record["scores"], record["winners"]
    path = tmp_path / "game.json"
    cases = [
        ({"scores": [s + 1 for s in scores]}, f"the replayed scores {scores} differ"),
        ({"winners": [1 - winners[0]]}, f"the replayed winners {winners} differ"),
        ({"actions": record["actions"][:-3]}, "gives scores and winners but its actions end before the game does"),
    ]
    for change, message in cases:
        path.write_text(json.dumps({**record, **change}), encoding="utf-8")
        refused(cli("replay", str(path)), message)
    path.write_text(json.dumps(record), encoding="utf-8")
    assert cli("replay", str(path)).exit_code == 0
    unfinished = {key: value for key, value in record.items() if key not in ("scores", "winners")}
    path.write_text(json.dumps({**unfinished, "actions": record["actions"][:-3]}), encoding="utf-8")
    assert "ends before the game does" in cli("replay", str(path)).stdout


# ----- records: files that are not UTF-8 JSON of a sane size -----------------------------------
def test_a_record_in_another_encoding_is_one_line(tmp_path: Path, cli) -> None:
    text = json.dumps(finished()).replace("random", "rändom")
    for encoding in ("utf-16", "latin-1"):
        path = tmp_path / f"{encoding}.json"
        path.write_bytes(text.encode(encoding))
        refused(cli("replay", str(path)), "not UTF-8 JSON (a record is JSON in UTF-8)")


@pytest.mark.parametrize(("text", "message"), [
    ('{"seed": Infinity}', "Infinity is not a JSON number"),
    ('{"seed": NaN}', "NaN is not a JSON number"),
    ('{"seed": ' + "9" * 5000 + "}", "a number of 5000 digits; a record's numbers have at most 40"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"game": "flowers",', "line 1: not valid JSON"),
])
def test_json_a_record_cannot_hold_is_one_line(tmp_path: Path, cli, text: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    refused(cli("replay", str(path)), message)


def test_a_huge_record_is_refused_without_reading_it_all(tmp_path: Path, cli) -> None:
    refused(cli("replay", "/dev/zero"), "/dev/zero: too large for a record (over 16 MiB)")
    refused(cli("replay", str(tmp_path)), "cannot read the record")
    with pytest.raises(RecordError, match="too large"):
        load_record("/dev/zero")


def test_web_style_partial_replays_still_stop_early() -> None:
    """The web app replays a finished record's first N actions (keeping its scores) and stops there."""
    record = finished()
    step = 4
    replay = records.replay({**record, "actions": record["actions"][:step]})
    for index, match in enumerate(replay):
        if index == step:
            break
    assert len(match.actions) == step


# ----- variant files ---------------------------------------------------------------------------
@pytest.mark.parametrize(("content", "message"), [
    (b"[scoring]\nregion_min = " + b"9" * 5000 + b"\n", "not valid TOML: a number is far too long"),
    (bytes(range(256)) * 4, "not UTF-8 TOML (a variant is TOML in UTF-8)"),
    ("[scoring]\nregion_min = 3 # é\n".encode("utf-16"), "not UTF-8 TOML"),
    (b"[copies]\n4 = 1000000\n", "copies.4: 1000000 is too large (at most 1000 either way)"),
    (b"[copies]\n4 = 2.5\n", "copies.4: must be a whole number, not 2.5"),
    (b"[copies]\n4 = inf\n", "copies.4: must be a whole number, not inf"),
    (b'[butterflies]\nY = [[]]\n', "butterflies.Y: entry 1 must be text"),
    (b'[colours]\nY = "' + b"x" * 2000 + b'"\n', "colours.Y: the text has 2000 characters; at most 1000"),
])
def test_a_bad_variant_file_is_one_line(tmp_path: Path, cli, content: bytes, message: str) -> None:
    variant = tmp_path / "mine.toml"
    variant.write_bytes(content)
    result = cli("simulate", "flowers", "-n", "2", "--seed", "1", "--jobs", "1", "--variant", str(variant),
                 "--records", str(tmp_path / "out"))
    refused(result, f"{variant}:", message)
    assert written(tmp_path) == ["mine.toml"]


def test_a_huge_variant_file_is_refused(cli) -> None:
    result = cli("simulate", "flowers", "-n", "2", "--jobs", "1", "--variant", "/dev/zero")
    refused(result, "/dev/zero: too large for a variant (over 1 MiB)")


# ----- position files --------------------------------------------------------------------------
def test_read_position_bounds_and_decodes(tmp_path: Path) -> None:
    path = tmp_path / "area.txt"
    path.write_text("# Ana\nY4 Y4\n", encoding="utf-8")
    assert read_position(path) == "# Ana\nY4 Y4\n"
    with pytest.raises(PositionError, match=r"^/dev/zero: too large for a position file \(over 1 MiB\)$"):
        read_position("/dev/zero")
    path.write_bytes(b"x" * (MAX_POSITION_BYTES + 1))
    with pytest.raises(PositionError, match="too large"):
        read_position(path)
    path.write_bytes("Y4 Y4 ä".encode("latin-1"))
    with pytest.raises(PositionError, match="not UTF-8 text"):
        read_position(path)
    with pytest.raises(PositionError, match="cannot read the position file"):
        read_position(tmp_path / "missing.txt")
