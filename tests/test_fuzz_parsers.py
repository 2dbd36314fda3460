"""Fuzzing every parser of user input: position files, records, variants and action texts.

Each one either gives a valid result or refuses with a TablepressError of one line; never another
exception (a traceback), and refusing changes nothing.
"""

from __future__ import annotations

import json
import random
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablepress.core import records
from tablepress.core.errors import IllegalAction, TablepressError
from tablepress.core.game import Game
from tablepress.core.match import Match, load_record, random_playout
from tablepress.core.registry import game_names, get_game
from tablepress.core.variants import apply_variant, read_variant

GAMES = game_names()
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def refused(error: TablepressError) -> None:
    """A refusal is a user error of one non-empty line."""
    message = str(error)
    assert message.strip() and "\n" not in message, repr(message)


def read_or_refuse(data: bytes, name: str, read: Any) -> Any:
    """`read(path)` of a file holding `data`, or None after checking it was refused in one clean line."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        try:
            return read(path)
        except TablepressError as error:
            refused(error)
            return None


# ----- inputs ----------------------------------------------------------------------------------
def card_words(game: Game) -> list[str]:
    """Every name, code and key of the game's card data, whole and word by word."""
    words: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                words.add(str(key))
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and len(value) < 30:
            words.add(value)
            words.update(value.split())

    walk(game.load_data())
    return sorted(words)


SYNTAX = ["#", ".", ",", ":", "|", "=", "/", "->", "→", "to", "key:", "play", "choose", "plants:",
          "propagation:", "tools:", "decorations:", "x2", "2x", "0", "1", "3", "-1", "12", "0,0", "2,-1",
          "9" * 5000, "١٢", "３", "²", "\ufeff", "\x00", "\t", ""]
numbers = st.integers(-(10**6), 10**6).map(str)


def text_from(words: list[str]) -> st.SearchStrategy[str]:
    """Lines of the given words and syntax, with stray text and numbers among them."""
    token = st.one_of(st.sampled_from(words), st.sampled_from(SYNTAX), numbers, st.text(max_size=6))
    line = st.lists(token, max_size=8).flatmap(
        lambda tokens: st.sampled_from([" ", ", ", " / ", ""]).map(lambda sep: sep.join(tokens)))
    return st.lists(line, max_size=8).map("\n".join)


#: A valid position file of each game (those of docs/reference.md, "Position files"), for the fuzzer to break.
EXAMPLES = {
    "flowers": "# Ana\nY4 Y4 . .\nB4 B4 R3 R3\n.  R2 R2 R3\n# Bo\nG1 V\nY4g .",
    "by-this": "# Ana\nkey: Small → Large\nAnt, Rice, Sand, Needle\n# Bo\nSmall to Large\nAnt Rice",
    "pressed": "SU PE ZI DA HY\n.  HY SU PE HY\n.  .  HY .  .\nplay HY 5\nchoose 1 5",
    "planted": "# Ana\nplants: Monstera 2, ZZ Plant 4, Aloe Vera 3\npropagation: 5\ntools: Watering Can, Trowel\n"
               "decorations: Workbench, Terracotta Pot, Macramé Hanger",
}
EXTRA = {"pressed": "Ana: 2 Hydrangea, 2 Baby's Breath, Tulip | Baby's Breath=Hydrangea, Tulip=Hydrangea\nBo: HY x2, 3 ZI"}


#: Inputs that broke parsers before: empty and separator-only text, huge and non-ASCII numbers.
NASTY = ["", ",", ", , ,", "9" * 5000, "-9999999", "0", "²", "３", "\n", "\x00", "\ufeff"]


def position_texts(name: str, words: list[str]) -> st.SearchStrategy[str]:
    """The game's example position files with words and lines replaced, dropped, added and repeated."""
    examples = [EXAMPLES[name]] + ([EXTRA[name]] if name in EXTRA else [])
    pieces = sorted({w for example in examples for w in re.split(r"[\s,:|=]+", example) if w})
    token = st.one_of(st.sampled_from(NASTY), st.sampled_from(pieces), st.sampled_from(NASTY),
                      st.sampled_from(words), st.sampled_from(SYNTAX), numbers, st.text(max_size=4))

    def mutate(text: str, edits: list[tuple[int, int, int, str]]) -> str:
        lines = [re.split(r"([\s,:|=]+)", line) for line in text.splitlines()]  # words at even places
        for kind, row, at, new in edits:
            if not lines:
                lines.append([new])
                continue
            line = lines[row % len(lines)] or [""]
            lines[row % len(lines)] = line
            at = 2 * (at % ((len(line) + 1) // 2))
            if kind <= 1:
                line[at] = new
            elif kind == 2:
                line[at:at + 2] = []
            elif kind == 3:
                line[at:at] = [new, " "]
            elif kind == 4:
                lines[row % len(lines)] = [new]
            elif kind == 5:
                lines.insert(row % len(lines), list(line))
            else:
                del lines[row % len(lines)]
        return "\n".join("".join(line) for line in lines)

    edit = st.tuples(st.integers(0, 6), st.integers(0, 7), st.integers(0, 40), token)
    return st.one_of(
        st.builds(mutate, st.sampled_from(examples), st.lists(edit, min_size=1, max_size=4)),
        text_from(words + pieces),
    )


def json_values() -> st.SearchStrategy[Any]:
    """Any JSON value (with floats that JSON cannot hold, and numbers far too large)."""
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-(10**40), 10**40),
                        st.floats(allow_nan=True), st.text(max_size=10))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)


def leaf_paths(value: Any, path: tuple = ()) -> list[tuple]:
    """The path of every entry inside nested dicts and lists (the containers' own paths too)."""
    paths = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            paths += leaf_paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value[:6]):
            paths += leaf_paths(item, path + (index,))
    return paths


def overrides_at(path: tuple, value: Any) -> dict:
    """The smallest variant setting `path` (its list entries replaced whole) to `value`."""
    keys = []
    for part in path:
        if isinstance(part, int):
            break
        keys.append(part)
    result: Any = value
    for key in reversed(keys):
        result = {key: result}
    return result if isinstance(result, dict) else {}


def finished_record(name: str, seed: int = 5) -> dict:
    """A finished random game's record, as JSON holds it."""
    game = get_game(name)
    match = Match(game, game.min_players, seed, seats=["random"] * game.min_players)
    random_playout(match, random.Random(seed))
    return json.loads(json.dumps(match.record()))


RECORDS = {name: finished_record(name) for name in GAMES}


# ----- position files --------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_position_files_score_or_refuse_in_one_line(name: str) -> None:
    """tablepress's own games, from their example position files (a plugin's game may have no scoring helper)."""
    game = get_game(name)

    @FUZZ
    @given(position_texts(name, card_words(game)))
    def check(text: str) -> None:
        try:
            result = game.score_position(text, "fuzz.txt")
        except TablepressError as error:
            refused(error)
            return
        assert result["game"] == name and result["players"]
        assert all(isinstance(player["total"], int) for player in result["players"])
        json.dumps(result)

    check()


# ----- records ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_tampered_records_replay_or_refuse_in_one_line(name: str) -> None:
    record = RECORDS[name]
    paths = leaf_paths(record)

    @FUZZ
    @given(st.lists(st.tuples(st.sampled_from(paths), json_values(), st.booleans()), min_size=1, max_size=3))
    def check(changes: list) -> None:
        tampered = json.loads(json.dumps(record))
        for path, value, delete in changes:
            holder = tampered
            try:
                for part in path[:-1]:
                    holder = holder[part]
                if delete and isinstance(holder, dict):
                    del holder[path[-1]]
                else:
                    holder[path[-1]] = value
            except (KeyError, IndexError, TypeError):
                continue  # an earlier change removed this path
        try:
            match = records.from_record(tampered)
        except TablepressError as error:
            refused(error)
            return
        assert match.actions == [(a["seat"], a["action"]) for a in tampered["actions"]]

    check()


@FUZZ
@given(st.one_of(st.binary(max_size=300),
                 json_values().map(lambda v: json.dumps(v, allow_nan=True).encode()),
                 st.sampled_from(list(RECORDS.values())).map(lambda r: json.dumps(r).encode("utf-16")),
                 st.integers(1, 3000).map(lambda n: b"[" * n + b"]" * n)))
def test_record_files_load_or_refuse_in_one_line(data: bytes) -> None:
    read_or_refuse(data, "record.json", lambda path: records.from_record(load_record(path)))


# ----- variants --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_variants_apply_or_refuse_in_one_line(name: str) -> None:
    game = get_game(name)
    try:
        base = game.load_data()
    except TablepressError as error:
        pytest.skip(f"{name} has no card data to vary ({error})")
    paths = leaf_paths(base)
    values = st.one_of(json_values(), st.integers(-3, 60), st.sampled_from(card_words(game)))

    @FUZZ
    @given(st.sampled_from(paths), values)
    def check(path: tuple, value: Any) -> None:
        overrides = overrides_at(path, value)
        try:
            varied = apply_variant(overrides, game, game.min_players, source="fuzz.toml")
        except TablepressError as error:
            refused(error)
            return
        assert varied.variant == overrides

    check()


@FUZZ
@given(st.one_of(st.binary(max_size=200), text_from(SYNTAX + ["[game]", "[[plants]]", "copies", "= 1", "= [1, 2]",
                                                               "= \"x\"", "= inf", "= nan", "{", "}", "[", "]"])
                 .map(str.encode)))
def test_variant_files_read_or_refuse_in_one_line(data: bytes) -> None:
    result = read_or_refuse(data, "variant.toml", read_variant)
    if result is not None:
        assert result == tomllib.loads(data.decode("utf-8"))


# ----- action texts ----------------------------------------------------------------------------
def positions(name: str) -> list[Match]:
    """Matches of a seeded random game at several points, from the first move to the last."""
    game = get_game(name)
    record = RECORDS[name]
    steps = len(record["actions"])
    marks = {0, 1, steps // 3, steps // 2, steps - 1, steps}
    return [match.fork() for index, match in enumerate(records.replay(record)) if index in marks]


def action_texts(matches: list[Match]) -> st.SearchStrategy[str]:
    """Legal actions, their words shuffled, cut, recased and mixed with stray text."""
    legal = sorted({a for m in matches for seat in m.to_move() for a in m.legal(seat)}) or ["pass"]
    words = sorted({w for a in legal for w in re.split(r"(\W)", a) if w})
    token = st.one_of(st.sampled_from(words), st.sampled_from(SYNTAX), numbers, st.text(max_size=5))
    mangled = st.lists(token, max_size=7).map(" ".join)
    recased = st.sampled_from(legal).map(str.upper) | st.sampled_from(legal).map(lambda a: f"  {a}  ")
    return st.one_of(st.sampled_from(legal), mangled, recased, st.text(max_size=40))


@pytest.mark.parametrize("name", GAMES)
def test_action_texts_are_legal_or_refused_in_one_line(name: str) -> None:
    matches = positions(name)

    @FUZZ
    @given(st.sampled_from(matches), st.integers(-1, 5), action_texts(matches))
    def check(match: Match, seat: int, text: str) -> None:
        game, before = match.game, match.game.clone(match.state)
        try:
            canonical = match.check(seat, text)
        except IllegalAction as error:
            refused(error)
        else:
            assert canonical in match.legal(seat)
        if seat in match.to_move():  # the parts `check` guards, called directly: no crash either
            try:
                assert isinstance(game.canonical(match.state, seat, text), str)
            except (TablepressError, ValueError):
                pass
            reason = game.explain_illegal(match.state, seat, " ".join(text.split()))
            assert isinstance(reason, str) and "\n" not in reason
        assert match.state == before

    check()


@pytest.mark.parametrize("digits", ["¹", "²3", "٣", "①"])
def test_numbers_written_in_other_scripts_are_read_or_refused_in_one_line(digits: str) -> None:
    """`str.isdigit` holds for superscripts and circled numbers that `int` cannot read: every parser that
    takes a number reads what `int` reads (Arabic-Indic ٣ is 3) and refuses the rest in one line."""
    from tablepress.core.differences import entry_index
    from tablepress.core.errors import TablepressError
    from tablepress.sim.command import parse_player_counts

    assert entry_index(digits, 40) == (int(digits) - 1 if digits.isdecimal() else None)
    try:
        parse_player_counts(digits)
    except TablepressError as exc:
        assert "\n" not in str(exc)
    for name in ("pressed", "planted"):
        game = get_game(name)
        state = game.new(2, 1)
        seat = game.to_move(state)[0]
        for text in (f"pick {digits}", f"play {digits}", f"press 1 {digits}", f"take {digits}"):
            why = game.explain_illegal(state, seat, text)
            assert why and "\n" not in why
            try:
                game.apply(game.clone(state), seat, text)
            except TablepressError as exc:
                assert "\n" not in str(exc)
