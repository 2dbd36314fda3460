"""Pressed card data: read from cards.toml (optionally with a designer's overrides) into card tables.

Inside the engine a card is its flower's index (0 = the first flower in cards.toml); copies of a
flower are identical, so the engine never needs to tell them apart. `PressedCards` holds per flower
its name, code, counted flower, table, copies and effect, plus the decks and bed shapes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from ...core.data import merge_card_data, read_card_data
from ...core.errors import DataError
from ...core.names import NameIndex

DATA_FILE = Path(__file__).with_name("cards.toml")

#: What a flower's table may count besides a flower's name.
DISTINCT, CHOSEN, NOTHING = "distinct", "chosen", ""
#: The effects the engine knows.
EFFECTS = ("", "swap", "shortest", "copy", "choose")
SWAP, SHORTEST, COPY, CHOOSE = "swap", "shortest", "copy", "choose"
FLOWER_FIELDS = ("code", "plural", "counts", "table", "copies", "effect")
ELECTIVES, ALL = "electives", "all"


def load_data(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The card data from cards.toml, with `overrides` (same shape, any subset, nested) merged in.

    A designer may add a whole new flower under [flowers]; any other unknown field is an error.
    """
    return merge_card_data(read_card_data(DATA_FILE), overrides, "pressed", ("flowers",))


@dataclass(frozen=True, eq=False)
class PressedCards:
    """Card tables built from the data, indexed by flower (card kind). Compared and hashed by identity."""

    names: tuple[str, ...]
    codes: tuple[str, ...]
    plurals: tuple[str, ...]
    counts: tuple[int | str, ...]  # a flower index, DISTINCT, CHOSEN or NOTHING
    tables: tuple[tuple[int, ...], ...]
    copies: tuple[int, ...]
    effects: tuple[str, ...]
    rounds: int
    hand: int
    press: int
    electives: tuple[str, ...]
    default_electives: tuple[str, ...]
    elective_count: int
    decks: dict[int, tuple[str, ...]]
    beds: dict[int, tuple[tuple[int, int], ...]]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "PressedCards":
        """Build and validate the tables; a broken data file raises DataError naming the field."""
        flowers = data.get("flowers")
        if not isinstance(flowers, Mapping) or not flowers:
            raise DataError("pressed [flowers]: no flowers given")
        names = tuple(flowers)
        codes, plurals, counted, tables, copies, effects = [], [], [], [], [], []
        for name, spec in flowers.items():
            where = f"pressed flowers.{name}"
            if not isinstance(spec, Mapping):
                raise DataError(f"{where}: must be a table of {', '.join(FLOWER_FIELDS)}")
            missing = [f for f in FLOWER_FIELDS if f not in spec]
            if missing:
                raise DataError(f"{where}: missing {missing[0]!r}")
            extra = sorted(set(spec) - set(FLOWER_FIELDS))
            if extra:
                raise DataError(f"{where}: unknown field {extra[0]!r} (fields: {', '.join(FLOWER_FIELDS)})")
            code = spec["code"]
            if not isinstance(code, str) or len(code) != 2 or not code.isalpha() or not code.isupper():
                raise DataError(f"{where}.code: must be two capital letters, not {code!r}")
            if code in codes:
                raise DataError(f"{where}.code: {code!r} is already used by {names[codes.index(code)]}")
            codes.append(code)
            plurals.append(_text(spec["plural"], f"{where}.plural"))
            effect = spec["effect"]
            if effect not in EFFECTS:
                raise DataError(f"{where}.effect: must be one of {', '.join(repr(e) for e in EFFECTS)}, not {effect!r}")
            effects.append(effect)
            what = spec["counts"]
            if what in (DISTINCT, CHOSEN):
                counted.append(what)
            elif what == NOTHING:
                if effect != COPY:
                    raise DataError(f"{where}.counts: only a flower with the copy effect may count nothing")
                counted.append(NOTHING)
            elif isinstance(what, str) and what in flowers:
                counted.append(names.index(what))
            else:
                raise DataError(f"{where}.counts: {what!r} is not a flower, \"distinct\" or \"chosen\"")
            if what == CHOSEN and effect != CHOOSE:
                raise DataError(f"{where}.counts: a flower that counts a chosen card needs the choose effect")
            table = spec["table"]
            if not isinstance(table, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in table):
                raise DataError(f"{where}.table: must be a list of whole numbers")
            if effect != COPY and not table:
                raise DataError(f"{where}.table: give points for a count of 1, 2, 3, ...")
            tables.append(tuple(table))
            copies.append(_count(spec["copies"], f"{where}.copies"))
        if sum(1 for e in effects if e == COPY) > 1:
            raise DataError("pressed [flowers]: at most one flower may have the copy effect")
        setup = data.get("setup", {})
        index = {name: i for i, name in enumerate(names)}
        electives = tuple(_flower_list(setup.get("electives", []), index, "pressed setup.electives"))
        default = tuple(sorted(_flower_list(setup.get("default_electives", []), index, "pressed setup.default_electives")))
        count = _count(setup.get("elective_count", 3), "pressed setup.elective_count")
        if any(name not in electives for name in default):
            raise DataError("pressed setup.default_electives: every default must be one of setup.electives")
        if len(default) != count or count > len(electives):
            raise DataError(f"pressed setup.default_electives: give exactly {count} different electives")
        cards = cls(
            names=names,
            codes=tuple(codes),
            plurals=tuple(plurals),
            counts=tuple(counted),
            tables=tuple(tables),
            copies=tuple(copies),
            effects=tuple(effects),
            rounds=_positive(setup.get("rounds", 3), "pressed setup.rounds"),
            hand=_positive(setup.get("hand", 4), "pressed setup.hand"),
            press=_positive(setup.get("press", 4), "pressed setup.press"),
            electives=electives,
            default_electives=default,
            elective_count=count,
            decks=_decks(data.get("decks", {}), index),
            beds=_beds(data.get("beds", {})),
        )
        for players in cards.beds:
            if players not in cards.decks:
                raise DataError(f"pressed [decks]: no deck for {players} players")
        for players in cards.decks:
            if players not in cards.beds:
                raise DataError(f"pressed [beds]: no bed for {players} players")
            if not cards.beds[players] or cards.beds[players][0][1] != players + 1:
                raise DataError(f"pressed beds.{players}: the first row must cover {players + 1} columns (one more than players)")
        return cards

    # ----- lookups -------------------------------------------------------------------------------
    @property
    def kinds(self) -> range:
        """Every flower index."""
        return range(len(self.names))

    @cached_property
    def copy_kind(self) -> int | None:
        """The flower with the copy effect (Baby's Breath), if any."""
        for kind, effect in enumerate(self.effects):
            if effect == COPY:
                return kind
        return None

    def points(self, kind: int, count: int) -> int:
        """What `kind`'s table gives for `count` (0 for none; past the end as the last entry)."""
        table = self.tables[kind]
        if count <= 0 or not table:
            return 0
        return table[min(count, len(table)) - 1]

    @cached_property
    def point_rows(self) -> tuple[tuple[int, ...], ...]:
        """Per flower `points(kind, n)` for n = 0 to the table's length; past the end it stays the last."""
        return tuple(tuple(self.points(kind, n) for n in range(len(table) + 1)) for kind, table in enumerate(self.tables))

    @cached_property
    def code_kind(self) -> dict[str, int]:
        """The flower index of each code (built once)."""
        return {code: kind for kind, code in enumerate(self.codes)}

    @cached_property
    def names_typed(self) -> NameIndex:
        """Looks up flowers by name, plural or code, any case, accents optional (built once)."""
        return self.name_index()

    def name_index(self) -> NameIndex:
        """Looks up flowers by name, plural or code, any case, accents optional."""
        aliases = {plural: name for plural, name in zip(self.plurals, self.names)}
        aliases.update({code: name for code, name in zip(self.codes, self.names)})
        aliases.update({name.replace("'", ""): name for name in self.names})
        return NameIndex(self.names, aliases)

    def kind_of(self, typed: str) -> int | None:
        """The flower index for a name, plural or code typed by a person; None when unknown."""
        name = self.names_typed.get(typed)
        return None if name is None else self.names.index(name)

    def players(self) -> list[int]:
        """The player counts the data has decks and beds for."""
        return sorted(self.decks)

    def deck_flowers(self, players: int, electives: Sequence[str]) -> list[int]:
        """The flowers in the deck for `players` with these electives chosen."""
        spec = self.decks.get(players)
        if spec is None:
            raise DataError(f"pressed [decks]: no deck for {players} players")
        kinds: list[int] = []
        for entry in spec:
            if entry == ALL:
                add = list(self.kinds)
            elif entry == ELECTIVES:
                add = [self.names.index(name) for name in electives]
            else:
                add = [self.names.index(entry)]
            kinds += [k for k in add if k not in kinds]
        return sorted(kinds)

    def deck(self, players: int, electives: Sequence[str]) -> list[int]:
        """Every card of the deck (all copies of each of its flowers), sorted."""
        return [kind for kind in self.deck_flowers(players, electives) for _ in range(self.copies[kind])]

    def bed_cells(self, players: int) -> list[tuple[int, int]]:
        """The (row, column) cells of the starting Flower Bed, 0-based, in the order they are drawn."""
        return [(row, col - 1) for row, (first, last) in enumerate(self.beds[players]) for col in range(first, last + 1)]

    def columns(self, players: int) -> int:
        """How many columns the Flower Bed has for `players`."""
        return self.beds[players][0][1]

    def cards_needed(self, players: int) -> int:
        """Cards the whole game takes from the deck (hands and beds over every round)."""
        return self.rounds * (players * self.hand + len(self.bed_cells(players)))


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"{field}: must be a name, not {value!r}")
    return value


def _count(value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise DataError(f"{field}: must be a whole number ≥ 0, not {value!r}")
    return value


def _positive(value: Any, field: str) -> int:
    if _count(value, field) == 0:
        raise DataError(f"{field}: must be at least 1")
    return value


def _flower_list(value: Any, index: Mapping[str, int], field: str) -> list[str]:
    if not isinstance(value, list):
        raise DataError(f"{field}: must be a list of flower names")
    for name in value:
        if name not in index:
            raise DataError(f"{field}: {name!r} is not a flower")
    if len(set(value)) != len(value):
        raise DataError(f"{field}: a flower is listed twice")
    return list(value)


def _decks(value: Any, index: Mapping[str, int]) -> dict[int, tuple[str, ...]]:
    if not isinstance(value, Mapping) or not value:
        raise DataError("pressed [decks]: give the flowers of the deck for each player count")
    decks = {}
    for key, spec in value.items():
        players = _players_key(key, "decks")
        field = f"pressed decks.{key}"
        if not isinstance(spec, list) or not spec:
            raise DataError(f"{field}: must be a list of flower names, \"electives\" or \"all\"")
        for entry in spec:
            if entry not in index and entry not in (ELECTIVES, ALL):
                raise DataError(f"{field}: {entry!r} is not a flower, \"electives\" or \"all\"")
        decks[players] = tuple(spec)
    return decks


def _beds(value: Any) -> dict[int, tuple[tuple[int, int], ...]]:
    if not isinstance(value, Mapping) or not value:
        raise DataError("pressed [beds]: give the Flower Bed shape for each player count")
    beds = {}
    for key, rows in value.items():
        players = _players_key(key, "beds")
        field = f"pressed beds.{key}"
        if not isinstance(rows, list) or not rows:
            raise DataError(f"{field}: must be a list of [first, last] columns, one a row")
        shape: list[tuple[int, int]] = []
        for number, span in enumerate(rows, start=1):
            if (not isinstance(span, list) or len(span) != 2
                    or not all(isinstance(c, int) and not isinstance(c, bool) for c in span)):
                raise DataError(f"{field}: row {number} must be [first, last] columns")
            first, last = span
            if number == 1 and first != 1:
                raise DataError(f"{field}: row 1 must start at column 1")
            if first > last or (shape and not (shape[-1][0] <= first and last <= shape[-1][1])):
                raise DataError(f"{field}: row {number} must lie under row {number - 1} (columns have no gaps)")
            shape.append((first, last))
        beds[players] = tuple(shape)
    return beds


def _players_key(key: Any, section: str) -> int:
    try:
        players = int(key)
    except (TypeError, ValueError):
        raise DataError(f"pressed [{section}]: {key!r} must be a player count") from None
    if players < 1:
        raise DataError(f"pressed [{section}]: {key!r} must be a player count")
    return players
