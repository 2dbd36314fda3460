"""Variant files: TOML in the shape of a game's cards.toml, overriding any subset of its card data.

A variant is checked before it is used, and every problem is one line naming the file and the field:
a TOML syntax error (with its line), a section or card the data file does not have, a value of the
wrong kind, a table of the wrong length, and card data the game's own validation refuses. Given a
player count, the varied game must also set up and play one seeded random game to the end.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import DataError, TablepressError
from .game import Game
from .match import Match

#: Actions after which a random game of a variant counts as never ending.
PLAY_LIMIT = 100_000


def base_data(game: Game) -> dict[str, Any] | None:
    """The game's published card data (its folder's cards.toml), or None if it has none."""
    try:
        return game.load_data()
    except TablepressError:
        return None


def read_variant(path: str | Path) -> dict[str, Any]:
    """Parse a variant file; a missing file or bad TOML raises DataError naming the file (and line)."""
    try:
        with Path(path).open("rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise DataError(f"{path}: cannot read the variant ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: not valid TOML: {exc}") from None


def load_variant(path: str | Path, game: Game, players: int | None = None,
                 options: Mapping[str, Any] | None = None) -> Game:
    """The game with a variant file applied (see `apply_variant`); errors name the file and field."""
    return apply_variant(read_variant(path), game, players, options, str(path))


def apply_variant(overrides: Mapping[str, Any], game: Game, players: int | None = None,
                  options: Mapping[str, Any] | None = None, source: str = "variant") -> Game:
    """The game with its card data changed by `overrides` (kept as `.variant`), checked as the module says.

    With `players`, one seeded random game at that count (and `options`) must set up and end.
    Raises DataError starting with `source`.
    """
    if not overrides:
        raise DataError(f"{source}: the variant changes nothing")
    base = base_data(game)
    try:
        if base is not None:
            check_shape(overrides, base)
        varied = game.with_variant(overrides)
    except TablepressError as exc:
        raise DataError(f"{source}: {exc}") from None
    if players is not None:
        try:
            _play_once(varied, players, options)
        except TablepressError as exc:
            raise DataError(f"{source}: the variant breaks setup or play for {players} players: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - a broken variant must be one line, not a traceback
            raise DataError(
                f"{source}: the variant breaks setup or play for {players} players: {type(exc).__name__}: {exc}"
            ) from None
    return varied


def _play_once(game: Game, players: int, options: Mapping[str, Any] | None) -> None:
    """Play one random game with seed 0 to the end; DataError if a seat is stuck or it never ends."""
    match = Match(game, players, 0, options)
    rng = random.Random(0)
    for _ in range(PLAY_LIMIT):
        if match.is_over:
            break
        seat = match.next_mover()
        legal = match.legal(seat)
        if not legal:
            raise DataError(f"seat {seat} has no legal action during play")
        match.act(seat, rng.choice(legal))
    else:
        raise DataError("a random game does not end")
    game.scores(match.state)


def check_shape(overrides: Mapping[str, Any], base: Mapping[str, Any], where: str = "",
                parent: Mapping[str, Any] | None = None) -> None:
    """Check overrides against the published data: known sections and keys, same kinds, same table lengths.

    A number may replace a number only, a table only a table. A list of numbers keeps its length when
    it is a row of a fixed-size table (see `_fixed_length`); other lists may change length. Raises
    DataError naming the field.
    """
    for key, value in overrides.items():
        field = f"{where}.{key}" if where else str(key)
        if key not in base:
            known = ", ".join(str(k) for k in base)
            kind = "section" if not where else "entry"
            raise DataError(f"{field}: the card data has no {kind} {key!r} (known: {known})")
        old = base[key]
        if isinstance(old, Mapping):
            if not isinstance(value, Mapping):
                raise DataError(f"{field}: must be a table like the card data's, not {_kind(value)}")
            check_shape(value, old, field, base)
        elif isinstance(old, bool):
            if not isinstance(value, bool):
                raise DataError(f"{field}: must be true or false, not {_kind(value)}")
        elif _is_number(old):
            if not _is_number(value):
                raise DataError(f"{field}: must be a number, not {_kind(value)}")
        elif _numbers(old) and isinstance(value, list):
            if not all(_is_number(item) for item in value):
                raise DataError(f"{field}: every entry of the table must be a number")
            if len(value) != len(old) and _fixed_length(key, base, parent):
                raise DataError(f"{field}: the table has {len(value)} entries; it needs {len(old)}")


def _numbers(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(_is_number(item) for item in value)


def _fixed_length(key: str, section: Mapping[str, Any], parent: Mapping[str, Any] | None) -> bool:
    """Whether the number list `section[key]` is a row of a fixed-size table.

    It is when its section holds two or more number lists all of one length (By This's things, one
    row of numbers each), or when the sibling sections that have the same key as a number list all
    give it one length (Pressed's `flowers.*.table` score tracks; an empty list is no row). A lone
    list (a list of rounds) or lists of several lengths (stack sizes, growth spaces by tier) may
    change length.
    """
    rows = [v for v in section.values() if _numbers(v)]
    if len(rows) >= 2 and len({len(v) for v in rows}) == 1:
        return True
    if parent is None:
        return False
    tables = [s[key] for s in parent.values() if isinstance(s, Mapping) and _numbers(s.get(key))]
    return len(tables) >= 2 and len({len(t) for t in tables}) == 1


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {value!r}"
    return repr(value)
