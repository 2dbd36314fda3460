"""Flowers card data: read from cards.toml (optionally with a designer's overrides) into card tables.

Cards are small integers inside the engine; `FlowersCards` maps them to colour, value, butterfly and
code. Several cards share a code (there are three Y1s); the engine never needs to tell them apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.data import merge_card_data, read_card_data
from ...core.errors import DataError

DATA_FILE = Path(__file__).with_name("cards.toml")
#: Tables a variant may add entries to: new colours, values, butterflies, player counts.
OPEN_TABLES = ("colours", "copies", "butterflies", "stacks")
VIOLET = "V"


def load_data(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The card data from cards.toml, with `overrides` (same shape, any subset) merged in."""
    return merge_card_data(read_card_data(DATA_FILE), overrides, "flowers", OPEN_TABLES)


@dataclass(frozen=True)
class FlowersCards:
    """Card tables built from the data: per card id its code, colour, value and butterfly colour."""

    colour_names: dict[str, str]
    codes: tuple[str, ...]
    colour: tuple[str | None, ...]
    value: tuple[int, ...]
    butterfly: tuple[str | None, ...]
    violets: tuple[int, ...]
    stack_sizes: dict[int, Any]
    region_min: int
    butterfly_points: int
    discard_points: int

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "FlowersCards":
        """Build and validate the tables; a broken data file raises DataError naming the field."""
        colours = dict(data.get("colours", {}))
        if not colours or any(len(code) != 1 or not code.isupper() for code in colours):
            raise DataError("flowers [colours]: colour codes must be single capital letters")
        if VIOLET in colours:
            raise DataError("flowers [colours]: 'V' is the violet start card, not a colour")
        copies = {_int_key(k, "copies"): _count(v, f"copies.{k}") for k, v in data.get("copies", {}).items()}
        if not copies:
            raise DataError("flowers [copies]: no card values given")
        butterflies = data.get("butterflies", {})
        codes: list[str] = []
        colour: list[str | None] = []
        value: list[int] = []
        butterfly: list[str | None] = []
        for col in colours:
            wings = list(butterflies.get(col, []))
            for wing in wings:
                if wing not in colours or wing == col:
                    raise DataError(f"flowers butterflies.{col}: {wing!r} must be another colour's code")
            for val, count in sorted(copies.items()):
                marked = wings if val == max(copies) else []
                if len(marked) > count:
                    raise DataError(f"flowers butterflies.{col}: more butterflies than {col}{val} cards")
                for index in range(count):
                    wing = marked[index] if index < len(marked) else None
                    codes.append(f"{col}{val}{wing.lower() if wing else ''}")
                    colour.append(col)
                    value.append(val)
                    butterfly.append(wing)
        for col in butterflies:
            if col not in colours:
                raise DataError(f"flowers [butterflies]: unknown colour {col!r}")
        violet_count = _count(data.get("violet", {}).get("copies", 0), "violet.copies")
        violets = tuple(range(len(codes), len(codes) + violet_count))
        codes += [VIOLET] * violet_count
        colour += [None] * violet_count
        value += [0] * violet_count
        butterfly += [None] * violet_count
        stacks = {_int_key(k, "stacks"): v for k, v in data.get("stacks", {}).items()}
        scoring = data.get("scoring", {})
        return cls(
            colour_names=colours,
            codes=tuple(codes),
            colour=tuple(colour),
            value=tuple(value),
            butterfly=tuple(butterfly),
            violets=violets,
            stack_sizes=stacks,
            region_min=_count(scoring.get("region_min", 5), "scoring.region_min"),
            butterfly_points=int(scoring.get("butterfly_points", 1)),
            discard_points=int(scoring.get("discard_points", -1)),
        )

    @property
    def coloured(self) -> list[int]:
        """The ids of every coloured (non-violet) card."""
        return [card for card, col in enumerate(self.colour) if col is not None]

    def deal_sizes(self, players: int, available: int) -> list[int]:
        """The size of each draw stack for `players` with `available` cards left after the start cards."""
        spec = self.stack_sizes.get(players)
        if spec is None:
            raise DataError(f"flowers [stacks]: no stack sizes for {players} players")
        if spec == "rest":
            base, extra = divmod(available, 3)
            return [base + (1 if i < extra else 0) for i in range(3)]
        if not isinstance(spec, list) or not all(isinstance(n, int) and n > 0 for n in spec) or len(spec) < 2:
            raise DataError(f"flowers stacks.{players}: give a list of at least two stack sizes, or \"rest\"")
        if sum(spec) > available:
            raise DataError(
                f"flowers stacks.{players}: {sum(spec)} cards in stacks but only {available} left after setup"
            )
        return list(spec)


def _int_key(key: str, section: str) -> int:
    try:
        return int(key)
    except ValueError:
        raise DataError(f"flowers [{section}]: {key!r} must be a number") from None


def _count(value: Any, field: str) -> int:
    if not isinstance(value, int) or value < 0:
        raise DataError(f"flowers {field}: must be a whole number ≥ 0, not {value!r}")
    return value
