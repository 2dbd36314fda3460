"""Card data files: every game keeps its cards in a TOML file that a designer's variant overrides.

A variant has the shape of the data file and gives any subset of it. Tables are merged key by key,
anything else (numbers, lists, lists of cards) is replaced whole, unless the variant gives a table of
changes where the data has a list (`differences.py`: one card changed, removed or added by name). A
key the data file does not have is an error naming it, except inside the game's open tables — tables keyed by card name or by count,
where a designer may add an entry.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from .differences import resolve
from .errors import DataError


def read_card_data(path: Path) -> dict[str, Any]:
    """The card data in a TOML file."""
    with path.open("rb") as handle:
        return tomllib.load(handle)


def merge_card_data(
    data: Mapping[str, Any],
    overrides: Mapping[str, Any] | None,
    game: str,
    open_tables: Collection[str] = (),
) -> dict[str, Any]:
    """`data` with `overrides` merged in (see the module doc); DataError naming the field at fault."""
    if overrides is None:
        return dict(data)
    if not isinstance(overrides, Mapping):
        raise DataError(f"a {game} variant must be a table of the same shape as its card data")
    overrides = resolve(data, overrides, f"{game} ")  # a table of changes where a list is: see differences.py
    return _merge(data, overrides, game, "", set(open_tables))


def _merge(base: Mapping[str, Any], overrides: Mapping[str, Any], game: str, where: str,
           open_tables: set[str]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in overrides.items():
        field = f"{where}.{key}" if where else str(key)
        if key not in merged:
            if where in open_tables:
                merged[key] = value
                continue
            what = f"section [{field}]" if not where else f"field {field}"
            raise DataError(f"{game} data has no {what} (known: {', '.join(map(str, base))})")
        if isinstance(merged[key], Mapping):
            if not isinstance(value, Mapping):
                raise DataError(f"{game} {field}: give a table like the card data's, not {value!r}")
            merged[key] = _merge(merged[key], value, game, field, open_tables)
        else:
            merged[key] = value
    return merged
