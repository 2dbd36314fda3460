"""Variant files: TOML in the shape of a game's cards.toml, overriding any subset of its card data.

A list may be given whole, or as a table of differences that changes, removes or adds one card by name
without restating the list (`differences.py`: `[tools."Watering Can"]` then `copies = 0`).

A variant is checked before it is used, and every problem is one line naming the file and the field:
a TOML syntax error (with its line), a section or card the data file does not have, a value of the
wrong kind, a table of the wrong length, a value past the limits below, and card data the game's own
validation refuses. Given a player count, the varied game must also set up and play one seeded random
game to the end.
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .differences import apply_difference, card_key, entry_names, find_card, join, kind_of
from .errors import DataError, TablepressError
from .files import read_text
from .game import Game
from .match import Match

#: Actions after which a random game of a variant counts as never ending.
PLAY_LIMIT = 100_000
#: The largest variant file read, the largest number (either sign), and the most entries a list or
#: text may have: generous for a designer, and small enough that no variant exhausts memory or time.
MAX_VARIANT_BYTES = 1024 * 1024
MAX_NUMBER = 1000
MAX_ENTRIES = 1000


def base_data(game: Game) -> dict[str, Any] | None:
    """The game's published card data (its folder's cards.toml), or None if it has none."""
    try:
        return game.load_data()
    except TablepressError:
        return None


def read_variant(path: str | Path) -> dict[str, Any]:
    """Parse a variant file: UTF-8 TOML of at most MAX_VARIANT_BYTES; DataError naming the file (and line)."""
    text = read_text(path, MAX_VARIANT_BYTES, "variant", DataError, "TOML")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise DataError(f"{path}: not valid TOML: nested too deeply") from None
    except ValueError:  # tomllib refuses a whole number of over 4,300 digits this way
        raise DataError(f"{path}: not valid TOML: a number is far too long") from None


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
                parent: Mapping[str, Any] | None = None, root: Mapping[str, Any] | None = None) -> None:
    """Check overrides against the published data: known sections and keys, same kinds, same table lengths.

    A whole number may replace a whole number only (at most MAX_NUMBER either way), a table only a
    table, text only text and a list only a list (at most MAX_ENTRIES entries or characters) or a table
    of differences (`differences.py`), checked as the list it makes. A list of numbers keeps its length
    when it is a row of a fixed-size table (see `_fixed_length`); other lists may change length. Raises
    DataError naming the field.
    """
    root = base if root is None else root
    for key, value in overrides.items():
        field = f"{where}.{_key(key)}" if where else _key(key)
        if key not in base:
            known = ", ".join(str(k) for k in base)
            kind = "section" if not where else "entry"
            raise DataError(f"{field}: the card data has no {kind} {_clip(key)!r} (known: {known})")
        old = base[key]
        if isinstance(old, Mapping):
            if not isinstance(value, Mapping):
                raise DataError(f"{field}: must be a table like the card data's, not {kind_of(value)}")
            check_shape(value, old, field, base, root)
        elif isinstance(old, bool):
            if not isinstance(value, bool):
                raise DataError(f"{field}: must be true or false, not {kind_of(value)}")
        elif _is_number(old):
            _check_number(value, field)
        elif isinstance(old, str):
            if not isinstance(value, str):
                raise DataError(f"{field}: must be text, not {kind_of(value)}")
            if len(value) > MAX_ENTRIES:
                raise DataError(f"{field}: the text has {len(value)} characters; at most {MAX_ENTRIES}")
        elif isinstance(old, list):
            if isinstance(value, Mapping):
                value = apply_difference(old, value, field, entry_names(root, base, key))
            if not isinstance(value, list):
                raise DataError(f"{field}: must be a list like the card data's (or a table of changes), "
                                f"not {kind_of(value)}")
            if len(value) > MAX_ENTRIES:
                raise DataError(f"{field}: the list has {len(value)} entries; at most {MAX_ENTRIES}")
            if _numbers(old):
                for item in value:
                    _check_number(item, field)
                if len(value) != len(old) and _fixed_length(key, base, parent):
                    raise DataError(f"{field}: the table has {len(value)} entries; it needs {len(old)}")
            elif old and all(isinstance(item, Mapping) for item in old):
                for number, item in enumerate(value, start=1):
                    if not isinstance(item, Mapping):
                        raise DataError(f"{field}: entry {number} must be a table like the card data's, not {kind_of(item)}")
                    _check_bounds(item, f"{field}[{number}]")
            elif old and all(isinstance(item, str) for item in old):
                for number, item in enumerate(value, start=1):
                    if not isinstance(item, str):
                        raise DataError(f"{field}: entry {number} must be text, not {kind_of(item)}")
                    _check_bounds(item, f"{field}[{number}]")
            else:
                _check_bounds(value, field)


def _check_number(value: Any, field: str) -> None:
    """A whole number within ±MAX_NUMBER, or DataError naming the field."""
    if not _is_number(value):
        raise DataError(f"{field}: must be a number, not {kind_of(value)}")
    if not isinstance(value, int):
        raise DataError(f"{field}: must be a whole number, not {kind_of(value)}")
    if abs(value) > MAX_NUMBER:
        raise DataError(f"{field}: {kind_of(value)} is too large (at most {MAX_NUMBER} either way)")


def _check_bounds(value: Any, field: str) -> None:
    """Every number, text and list inside `value` within the limits (for lists of cards, replaced whole)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            _check_bounds(item, f"{field}.{_key(key)}")
    elif isinstance(value, list):
        if len(value) > MAX_ENTRIES:
            raise DataError(f"{field}: the list has {len(value)} entries; at most {MAX_ENTRIES}")
        for item in value:
            _check_bounds(item, field)
    elif isinstance(value, str):
        if len(value) > MAX_ENTRIES:
            raise DataError(f"{field}: the text has {len(value)} characters; at most {MAX_ENTRIES}")
    elif _is_number(value):
        _check_number(value, field)


def _key(key: Any) -> str:
    """A key as a field name: bare if TOML allows it bare, else quoted as TOML quotes it."""
    text = str(key)
    return text if re.fullmatch(r"[A-Za-z0-9_'’ -]{1,40}", text) else json.dumps(_clip(text))


def _clip(text: Any) -> str:
    text = str(text)
    return text if len(text) <= 40 else text[:39] + "…"


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


def variant_changes(overrides: Mapping[str, Any], base: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Every field a variant changes, as `{"field", "old", "new", "text"}`, in file order (see `describe_changes`)."""
    return [change.as_json() for change in describe_changes(overrides, base)]


def change_lines(overrides: Mapping[str, Any], base: Mapping[str, Any] | None) -> list[str]:
    """Every change of a variant as a person writes it: `Watering Can: 3 copies → 0`, `Rice Size: 1 → 2`."""
    return [change.text for change in describe_changes(overrides, base)]


def describe_changes(overrides: Mapping[str, Any], base: Mapping[str, Any] | None) -> list[Change]:
    """Every change a variant makes to the published data `base` (`base_data`), one leaf at a time.

    Differences are applied first, so a list given whole and the same list given as differences read the
    same. Tables are followed down to their leaves; a list of cards is compared card by card (by name): a
    changed field, a card taken out (copies → 0, or `removed` for a card without copies), a card added,
    or a new order; a list of numbers of unchanged length entry by entry (`things.Rice.Size`,
    `flowers.Zinnia.table[3]`). A field the variant repeats with its published value is left out.
    """
    if base is None:
        return [Change(_key(k), None, v, f"{_key(k)}: {shown(v)}") for k, v in overrides.items()]
    from .differences import resolve

    return _diff(resolve(base, overrides), base, "", base, None)


class Change:
    """One change of a variant: the field as `--vary` names it, the published and the new value, and a line to read.

    `old` and `new` are plain values (numbers, texts, true/false, lists of them, or a short text such as
    `removed`), never a card's table.
    """

    __slots__ = ("field", "old", "new", "text")

    def __init__(self, field: str, old: Any, new: Any, text: str) -> None:
        self.field, self.old, self.new, self.text = field, old, new, text

    def as_json(self) -> dict[str, Any]:
        """The change as the API gives it: {"field", "old", "new", "text"} (`text` as a person writes it)."""
        return {"field": self.field, "old": self.old, "new": self.new, "text": self.text}

    def __repr__(self) -> str:
        return f"Change({self.text!r})"


def _diff(over: Mapping[str, Any], base: Mapping[str, Any], where: str, root: Mapping[str, Any],
          subject: str | None) -> list[Change]:
    changes: list[Change] = []
    cards_here = bool(where) and _is_card_table(base)
    for key, value in over.items():
        field = join(where, key)
        old = base.get(key) if isinstance(base, Mapping) else None
        about = str(key) if cards_here else None
        if isinstance(value, Mapping) and isinstance(old, Mapping):
            changes += _diff(value, old, field, root, about)
        elif _is_cards(old) and _is_cards(value):
            changes += _diff_cards(old, value, field)
        elif _texts(old) and _texts(value) and value != old:
            gone = [n for n in old if n not in value]
            added = [n for n in value if n not in old]
            moves = [f"+ {n}" for n in added] + [f"− {n}" for n in gone]
            kept = [n for n in value if n in old] == [n for n in old if n in value]
            text = ", ".join(moves) if moves and kept else f"{shown(old)} → {shown(value)}"
            changes.append(Change(field, old, value, f"{subject + ' ' + str(key) if subject else field}: {text}"))
        elif _numbers(old) and _numbers(value) and len(old) == len(value) and len(old) > 1 and (
                sum(a != b for a, b in zip(old, value)) <= max(1, len(old) // 2)):
            names = entry_names(root, base, key)
            for index, (a, b) in enumerate(zip(old, value)):
                if a != b:
                    entry = names[index] if names else f"[{index + 1}]"
                    name = join(field, entry) if names else f"{field}{entry}"
                    label = f"{about} {entry}" if about else (f"{subject} {key}{entry}" if subject and not names
                                                              else name)
                    changes.append(Change(name, a, b, _line(label, None, a, b)))
        elif value != old:
            label, attribute = (subject, str(key)) if subject else (field, None)
            changes.append(Change(field, old, value, _line(label, attribute, old, value)))
    return changes


def _diff_cards(old: list[Mapping[str, Any]], new: list[Mapping[str, Any]], field: str) -> list[Change]:
    key = card_key(old)
    if key is None or card_key(new) != key:
        return [Change(f"{field}[{i + 1}]", _card_text(a, None), _card_text(b, None),
                       f"{field}[{i + 1}]: {_card_text(a, None)} → {_card_text(b, None)}")
                for i, (a, b) in enumerate(_padded(old, new)) if a != b]
    changes: list[Change] = []
    kept: list[str] = []
    for card in old:
        name = str(card[key])
        index = find_card(new, key, name)
        if index is None or new[index][key] != name:
            if "copies" in card:
                changes.append(Change(join(join(field, name), "copies"), card["copies"], 0,
                                      _line(name, "copies", card["copies"], 0)))
            else:
                changes.append(Change(join(field, name), "included", "removed", f"{name}: removed"))
            continue
        kept.append(name)
        other = new[index]
        for attribute in dict.fromkeys([*card, *other]):
            a, b = card.get(attribute), other.get(attribute)
            if a != b:
                changes.append(Change(join(join(field, name), attribute), a, b, _line(name, str(attribute), a, b)))
    for card in new:
        name = str(card[key])
        if find_card(old, key, name) is None or old[find_card(old, key, name)][key] != name:  # type: ignore[index]
            summary = _card_text(card, key)
            changes.append(Change(join(field, name), None, f"added: {summary}", f"{name}: added ({summary})"))
    order = [str(c[key]) for c in new if str(c[key]) in kept]
    if order != kept:
        changes.append(Change(field, ", ".join(kept), ", ".join(order),
                              f"{field}: order {', '.join(kept)} → {', '.join(order)}"))
    return changes


def _padded(old: list[Any], new: list[Any]) -> list[tuple[Any, Any]]:
    size = max(len(old), len(new))
    return [(old[i] if i < len(old) else None, new[i] if i < len(new) else None) for i in range(size)]


def _line(subject: str, attribute: str | None, old: Any, new: Any) -> str:
    """`Watering Can: 3 copies → 0`, `Rice Size: 1 → 2`, `scoring.region_min: 5 → 4`."""
    if attribute == "copies" and _is_number(old) and _is_number(new):
        return f"{subject}: {shown(old)} {'copy' if old == 1 else 'copies'} → {shown(new)}"
    label = f"{subject} {attribute}" if attribute else subject
    if old is None:
        return f"{label}: {shown(new)} (new)"
    return f"{label}: {shown(old)} → {shown(new)}"


def _card_text(card: Mapping[str, Any] | None, key: str | None) -> str:
    """A card as one short text: `copies = 2, effect = buy, amount = 1` (its name left out)."""
    if card is None:
        return "none"
    items = sorted(((k, v) for k, v in card.items() if k != key), key=lambda kv: kv[0] != "copies")
    return ", ".join(f"{k} = {shown(v)}" for k, v in items)


def shown(value: Any) -> str:
    """A card-data value as a person writes it: true/false, 3, 0.5, text as it is, [1, 2], {a = 1}."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (int, float)):
        return str(value)
    if value is None:
        return "—"
    if isinstance(value, list):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {shown(v)}" for k, v in value.items()) + "}"
    return str(value)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _is_cards(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _is_card_table(table: Any) -> bool:
    """Whether a table is keyed by card name: two or more entries, all tables or all number lists."""
    if not isinstance(table, Mapping) or len(table) < 2:
        return False
    values = list(table.values())
    return all(isinstance(v, Mapping) for v in values) or all(_numbers(v) for v in values)
