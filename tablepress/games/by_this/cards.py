"""By This card data: read from cards.toml (optionally with a designer's overrides) into card tables.

Inside the engine cards are small integers: things first (in data-file order), then the specials
(one id per copy). Keys have their own ids, in data-file order. `ByThisCards` maps ids to names,
numbers and effects; names appear only at the edges (actions, views, files).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.data import merge_card_data, read_card_data
from ...core.errors import DataError
from ...core.names import NameIndex, fold

DATA_FILE = Path(__file__).with_name("cards.toml")
EFFECTS = ("bythis", "dump", "lock", "samenumber")
PLAYER_COUNTS = (2, 3, 4)
LOW, HIGH = 1, 10


def load_data(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The card data from cards.toml with `overrides` (same shape, any subset) merged in.

    A table (`[things]`, `[rules]`) is merged key by key; anything else (`words`, `[[keys]]`,
    `[[specials]]`, `[[table_cards]]`) is replaced whole. New things may be added under [things].
    """
    return merge_card_data(read_card_data(DATA_FILE), overrides, "by-this", ("things",))


@dataclass(frozen=True)
class KeyCard:
    """One Key: its name as printed, the word it reads, and whether numbers rise from left to right."""

    name: str
    word: str
    word_index: int
    ascending: bool
    left: str
    right: str

    @property
    def plain(self) -> str:
        """The name typed with `to` instead of an arrow (`Small to Large`), as used in actions."""
        return f"{self.left} to {self.right}"

    @property
    def arrow(self) -> str:
        """The name with an arrow (`Small → Large`), as shown at the table."""
        return f"{self.left} → {self.right}"


@dataclass(frozen=True)
class ByThisCards:
    """Card tables built from the data, validated."""

    words: tuple[str, ...]
    names: tuple[str, ...]  # per card id
    thing_count: int
    numbers: tuple[tuple[int, ...], ...]  # numbers[word_index][card]; 0 for specials
    effect: tuple[str | None, ...]  # per card id: None for a thing
    special_text: dict[str, str]
    keys: tuple[KeyCard, ...]
    table_cards: tuple[tuple[str, str], ...]
    floor_size: int
    hand_size: dict[int, int]
    close_min: dict[int, int]
    closes_to_end: dict[int, int]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "ByThisCards":
        """Build and validate the tables; a broken data file raises DataError naming the field."""
        words = data.get("words")
        if (not isinstance(words, list) or not words
                or not all(isinstance(w, str) and w.strip() for w in words) or len(set(words)) != len(words)):
            raise DataError("by-this words: give a list of different Key words, like [\"ABC\", \"Size\"]")
        things = data.get("things")
        if not isinstance(things, Mapping) or not things:
            raise DataError("by-this [things]: no things given")
        names: list[str] = []
        columns: list[list[int]] = [[] for _ in words]
        for name, values in things.items():
            _check_name(name, f"things.{name}")
            if not isinstance(values, list) or len(values) != len(words):
                raise DataError(f"by-this things.{name}: give {len(words)} numbers, one per word ({', '.join(words)})")
            for word, value in zip(words, values):
                if not isinstance(value, int) or isinstance(value, bool) or not LOW <= value <= HIGH:
                    raise DataError(f"by-this things.{name}: the {word} number must be a whole number "
                                    f"{LOW}–{HIGH}, not {value!r}")
            names.append(name)
            for column, value in zip(columns, values):
                column.append(value)
        thing_count = len(names)
        effect: list[str | None] = [None] * thing_count
        special_text: dict[str, str] = {}
        specials = data.get("specials", [])
        if not isinstance(specials, list):
            raise DataError("by-this [[specials]]: must be a list of tables")
        for index, special in enumerate(specials):
            where = f"by-this specials[{index}]"
            if not isinstance(special, Mapping):
                raise DataError(f"{where}: must be a table with name, effect, copies and text")
            name, kind = special.get("name"), special.get("effect")
            _check_name(name, f"{where}.name")
            if kind not in EFFECTS:
                raise DataError(f"{where}.effect: must be one of {', '.join(EFFECTS)}, not {kind!r}")
            copies = special.get("copies", 1)
            if not isinstance(copies, int) or isinstance(copies, bool) or copies < 0:
                raise DataError(f"{where}.copies: must be a whole number ≥ 0, not {copies!r}")
            text = special.get("text", "")
            if not isinstance(text, str):
                raise DataError(f"{where}.text: must be text")
            if name in special_text or name in names:
                raise DataError(f"{where}.name: {name!r} is used twice")
            special_text[name] = text
            names += [name] * copies
            effect += [kind] * copies
            for column in columns:
                column += [0] * copies
        keys = _keys(data.get("keys"), list(words))
        table_cards = []
        for index, card in enumerate(data.get("table_cards", [])):
            if not isinstance(card, Mapping) or not isinstance(card.get("name"), str) or not isinstance(card.get("text"), str):
                raise DataError(f"by-this table_cards[{index}]: give a name and a text")
            table_cards.append((card["name"], card["text"]))
        rules = data.get("rules", {})
        if not isinstance(rules, Mapping):
            raise DataError("by-this [rules]: must be a table")
        floor_size = _whole(rules.get("floor_size", 3), "rules.floor_size", 0)
        if floor_size > thing_count:
            raise DataError(f"by-this rules.floor_size: {floor_size} but only {thing_count} things")
        hand_size = _per_players(rules.get("hand_size"), "rules.hand_size", 1)
        close_min = _per_players(rules.get("close_min"), "rules.close_min", 1)
        closes_to_end = _per_players(rules.get("closes_to_end"), "rules.closes_to_end", 1)
        for players, size in hand_size.items():
            if players * size + floor_size > len(names):
                raise DataError(f"by-this rules.hand_size.{players}: {players} hands of {size} and a Floor of "
                                f"{floor_size} need more than the {len(names)} cards")
        return cls(
            words=tuple(words),
            names=tuple(names),
            thing_count=thing_count,
            numbers=tuple(tuple(column) for column in columns),
            effect=tuple(effect),
            special_text=special_text,
            keys=keys,
            table_cards=tuple(table_cards),
            floor_size=floor_size,
            hand_size=hand_size,
            close_min=close_min,
            closes_to_end=closes_to_end,
        )

    # ----- lookups -----------------------------------------------------------------------------
    @property
    def card_count(self) -> int:
        """How many cards are shuffled into the deck (things and special copies)."""
        return len(self.names)

    def is_thing(self, card: int) -> bool:
        """Whether a card id is a thing (not a special)."""
        return card < self.thing_count

    def all_numbers(self, card: int) -> dict[str, int]:
        """A thing's four numbers by word."""
        return {word: self.numbers[w][card] for w, word in enumerate(self.words)}

    def thing_index(self) -> NameIndex:
        """Finds things by name as typed (any case, accents optional, plurals accepted)."""
        return NameIndex(self.names[: self.thing_count])

    def thing_id(self, name: str) -> int:
        """The id of the thing called exactly `name` (KeyError otherwise)."""
        return self.names.index(name, 0, self.thing_count)

    def find_key(self, text: str) -> int | None:
        """The Key meant by `text` (`A to Z`, `Small → Large`, `small->large`, `Small to Large`), or None."""
        parts = re.split(r"\s*(?:→|->|\bto\b)\s*", fold(text), maxsplit=1)
        if len(parts) != 2:
            return None
        left, right = (p.strip() for p in parts)
        for index, key in enumerate(self.keys):
            if fold(key.left) == left and fold(key.right) == right:
                return index
        return None


def _keys(raw: Any, words: list[str]) -> tuple[KeyCard, ...]:
    if not isinstance(raw, list) or len(raw) < 3:
        raise DataError("by-this [[keys]]: give at least 3 Keys (one in play and two face up)")
    keys = []
    for index, key in enumerate(raw):
        where = f"by-this keys[{index}]"
        if not isinstance(key, Mapping):
            raise DataError(f"{where}: must be a table with name, word, ascending, from and to")
        word = key.get("word")
        if word not in words:
            raise DataError(f"{where}.word: must be one of {', '.join(words)}, not {word!r}")
        if not isinstance(key.get("ascending"), bool):
            raise DataError(f"{where}.ascending: must be true or false")
        for field in ("from", "to"):
            value = key.get(field)
            if not isinstance(value, str) or not value.strip() or re.search(r"→|->|\bto\b", value.lower()):
                raise DataError(f"{where}.{field}: must be a label such as \"Small\" (without 'to' or arrows)")
        name = key.get("name", f"{key['from']} → {key['to']}")
        if not isinstance(name, str) or not name.strip():
            raise DataError(f"{where}.name: must be text")
        keys.append(KeyCard(name, word, words.index(word), key["ascending"], key["from"].strip(), key["to"].strip()))
    seen: set[tuple[str, str]] = set()
    for index, key in enumerate(keys):
        pair = (fold(key.left), fold(key.right))
        if pair in seen:
            raise DataError(f"by-this keys[{index}]: {key.plain!r} is given twice")
        seen.add(pair)
    return tuple(keys)


def _check_name(name: Any, field: str) -> None:
    if not isinstance(name, str) or not name.strip() or name != name.strip() or "," in name:
        raise DataError(f"by-this {field}: a name must be text without commas or outer spaces")
    if re.search(r"\b(before|after|from|to|left|right)\b", name.lower()):
        raise DataError(f"by-this {field}: a name may not contain the words before, after, from, to, left or right")


def _whole(value: Any, field: str, least: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise DataError(f"by-this {field}: must be a whole number ≥ {least}, not {value!r}")
    return value


def _per_players(raw: Any, field: str, least: int) -> dict[int, int]:
    if not isinstance(raw, Mapping):
        raise DataError(f"by-this {field}: give a number for each of 2, 3 and 4 players")
    result = {}
    for players in PLAYER_COUNTS:
        if str(players) not in raw and players not in raw:
            raise DataError(f"by-this {field}: no number for {players} players")
        result[players] = _whole(raw.get(str(players), raw.get(players)), f"{field}.{players}", least)
    return result
