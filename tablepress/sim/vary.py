"""`tune --vary FIELD[=LO..HI]`: which part of the card data a search varies, and the values it may take.

FIELD is a dotted path as the changes table prints it, a key with dots in double quotes; LO..HI whole
numbers (without a range, values around the published one: `default_range`). What it may name:

    scoring.region_min          a number
    flowers.Zinnia.table[3]     one entry of a list of numbers (from 1)
    things.Rice.Size            one entry by its name, where the card data names the entries (By This's words)
    flowers.Zinnia.table        a whole list of numbers, shifted by an offset (every entry + the value)
    tools."Watering Can".copies a card of a list by name, and its number: copies 0 takes the card out
    tools."Watering Can"        the same: a card's copies (0 = out); a card without copies: out (0) or in (1)
    keys."A to Z".ascending     a true/false rule flag: false (0) and true (1), or =false..true
    decks.2.Lily                a name in a list of names: without (0) and with (1), whether or not it is there

Every value is a whole number inside the search; `Dimension.json_value` and `shown` give it back as the
card data has it (true/false for a flag). A candidate's variant (`overrides`) writes cards and flags as
differences (`[tools."Watering Can"]` then `copies = 0`), lists of numbers and names whole.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.differences import card_key, entry_index, entry_names, find_card, kind_of
from ..core.errors import TablepressError
from ..core.variants import MAX_NUMBER

Values = tuple[int, ...]

#: The most values one --vary may take (its range LO..HI).
MAX_VALUES = 2001
#: What a Dimension varies: a number, one entry of a list, a list by an offset, a true/false flag, a card
#: without copies (in or out), or a name in a list of names (with or without).
KINDS = ("number", "entry", "offset", "flag", "card", "name")


@dataclass(frozen=True)
class Dimension:
    """One field the tuner varies and the whole numbers it may take.

    `path` leads through the card data (tables by key, lists of cards by card name) to the varied part.
    `entry` (0-based) picks one list entry; `member` is the name a `name` dimension puts in or takes out.
    """

    field: str
    path: tuple[str, ...]
    published: int | tuple[int, ...]
    low: int
    high: int
    entry: int | None = None
    kind: str = ""
    member: str | None = None

    def __post_init__(self) -> None:
        if not self.kind:
            guessed = ("entry" if self.entry is not None else "offset") if isinstance(self.published, tuple) else "number"
            object.__setattr__(self, "kind", guessed)

    @property
    def offset(self) -> bool:
        """Whether the value is an offset added to every entry of a list."""
        return self.kind == "offset"

    @property
    def binary(self) -> bool:
        """Whether the values are 0 and 1 for no and yes (a flag, a card in or out, a name with or without)."""
        return self.kind in ("flag", "card", "name")

    def values(self) -> range:
        """The values tried, LO..HI."""
        return range(self.low, self.high + 1)

    def published_value(self) -> int:
        """The value that leaves the published card data as it is (0 for an offset)."""
        if self.offset:
            return 0
        if self.entry is not None:
            assert isinstance(self.published, tuple)
            return self.published[self.entry]
        assert isinstance(self.published, int)
        return self.published

    def json_value(self, value: int) -> Any:
        """A value as `--json` gives it: true/false for a flag, a card or a name, else the number."""
        return bool(value) if self.binary else value

    def shown(self, value: int) -> str:
        """A value as the tables print it: offsets signed (`+2`), flags true/false, cards and names in/out."""
        if self.offset:
            return f"{value:+d}"
        if self.kind == "flag":
            return "true" if value else "false"
        if self.kind in ("card", "name"):
            return "in" if value else "out"
        return str(value)

    def apply(self, current: Any, value: int) -> Any:
        """The field's new content, from its current content (published or already changed) and `value`."""
        if self.offset:
            return [item + value for item in current]
        if self.entry is not None:
            changed = list(current)
            changed[self.entry] = value
            return changed
        if self.kind == "flag":
            return bool(value)
        if self.kind == "card":
            return {"remove": not value}
        if self.kind == "name":
            assert self.member is not None
            there = any(n.casefold() == self.member.casefold() for n in current)
            if value:
                return list(current) if there else [*current, self.member]
            return [n for n in current if n.casefold() != self.member.casefold()]
        return value

    def as_json(self) -> dict[str, Any]:
        """The dimension for `--json`."""
        published = list(self.published) if self.offset else self.json_value(self.published_value())  # type: ignore[arg-type]
        return {"field": self.field, "low": self.json_value(self.low), "high": self.json_value(self.high),
                "published": published, "mode": "offset" if self.offset else "value", "kind": self.kind}


_ENTRY = re.compile(r"^(?P<path>.+)\[(?P<entry>-?\d+)\]$")
_RANGE = re.compile(r"^\s*(?P<low>[-+]?\d{1,6}|true|false)\s*\.\.\s*(?P<high>[-+]?\d{1,6}|true|false)\s*$",
                    re.IGNORECASE)


def parse_vary(text: str, base: Mapping[str, Any]) -> Dimension:
    """`FIELD[=LO..HI]` (module doc) → a Dimension; TablepressError naming the field (and the known ones) otherwise."""
    name, sep, bounds = text.partition("=")
    name = name.strip()
    if not name:
        raise TablepressError(f"--vary {text!r}: give a field, e.g. scoring.region_min or copies.4=6..12")
    entry: int | None = None
    found = _ENTRY.match(name)
    path = _split(found["path"] if found else name, text)
    if found:
        entry = int(found["entry"])
    keys, value, parent = _walk(base, path, name)
    where = ".".join(keys)
    dim = _dimension(name, keys, value, parent, entry, where, base)
    low, high = _range(bounds, name) if sep else default_range(dim)
    if dim.binary and not 0 <= low <= high <= 1:
        raise TablepressError(f"--vary {name}={bounds}: {where} is {'true or false' if dim.kind == 'flag' else 'in or out'}"
                              f", so its range is 0..1 (false..true)")
    if not dim.offset and max(abs(low), abs(high)) > MAX_NUMBER:
        raise TablepressError(f"--vary {name}: values are at most {MAX_NUMBER} either way, not {low}..{high}")
    return Dimension(dim.field, dim.path, dim.published, low, high, dim.entry, dim.kind, dim.member)


def _dimension(name: str, keys: list[str], value: Any, parent: Any, entry: int | None, where: str,
               base: Mapping[str, Any]) -> Dimension:
    """The Dimension for what the path reached (before its range is known)."""
    if entry is not None:
        if not _number_list(value):
            raise TablepressError(f"--vary {name}: {where} is not a list of numbers, so it has no entry [{entry}]")
        if not 1 <= entry <= len(value):
            raise TablepressError(f"--vary {name}: {where} has {len(value)} entries (1–{len(value)}), not [{entry}]")
        return Dimension(name, tuple(keys), tuple(value), 0, 0, entry - 1, "entry")
    if isinstance(value, _Entry):
        return Dimension(name, tuple(keys[:-1]), tuple(value.row), 0, 0, value.index, "entry")
    if isinstance(value, _Member):
        return Dimension(name, tuple(keys[:-1]), int(value.present), 0, 0, None, "name", keys[-1])
    if isinstance(value, bool):
        return Dimension(name, tuple(keys), int(value), 0, 0, None, "flag")
    if _number(value):
        return Dimension(name, tuple(keys), int(value), 0, 0, None, "number")
    if _number_list(value):
        return Dimension(name, tuple(keys), tuple(value), 0, 0, None, "offset")
    if isinstance(value, Mapping) and isinstance(parent, list):
        if _number(value.get("copies")):
            return Dimension(name, (*keys, "copies"), int(value["copies"]), 0, 0, None, "number")
        return Dimension(name, tuple(keys), 1, 0, 0, None, "card")
    if isinstance(value, Mapping):
        raise TablepressError(f"--vary {name}: {where} is a table; name one of its numbers"
                              + _numbers_beside(base, keys))
    raise TablepressError(f"--vary {name}: {where} is {kind_of(value)}, not a number, a list of numbers, true or "
                          f"false, or a card" + _numbers_beside(base, keys[:-1]))


def default_range(dim: Dimension) -> tuple[int, int]:
    """LO..HI around the published value: ±half of it (at least ±2), never crossing zero.

    An offset of a whole list runs ±a tenth of its largest entry (at least ±2); a card's copies from 0
    (the card out) up; a flag, a card or a name both ways (0..1).
    """
    if dim.binary:
        return 0, 1
    if dim.offset:
        assert isinstance(dim.published, tuple)
        span = max(2, round(max(abs(v) for v in dim.published) / 10))
        return -span, span
    value = dim.published_value()
    span = max(2, math.ceil(abs(value) / 2))
    low, high = value - span, value + span
    if dim.path[-1:] == ("copies",) and len(dim.path) >= 3:
        return 0, high
    return (max(0, low), high) if value >= 0 else (low, min(0, high))


def _range(bounds: str, name: str) -> tuple[int, int]:
    found = _RANGE.match(bounds)
    if not found:
        raise TablepressError(f"--vary {name}={bounds}: give a whole-number range LO..HI, e.g. {name}=2..6")
    low, high = (_whole(found[k]) for k in ("low", "high"))
    if low > high:
        raise TablepressError(f"--vary {name}={bounds}: the range runs from low to high ({high}..{low}?)")
    if high - low + 1 > MAX_VALUES:
        raise TablepressError(f"--vary {name}={bounds}: at most {MAX_VALUES} values, not {high - low + 1}")
    return low, high


def _whole(text: str) -> int:
    return {"false": 0, "true": 1}.get(text.lower(), None) if text.lower() in ("true", "false") else int(text)  # type: ignore[return-value]


def _split(path: str, text: str) -> list[str]:
    """A dotted path's keys; a key in double quotes may hold dots."""
    parts = [quoted if quoted else bare.strip() for quoted, bare in re.findall(r'"([^"]*)"|([^."]+)', path)]
    if not parts or any(not part for part in parts):
        raise TablepressError(f"--vary {text!r}: not a field path like scoring.region_min")
    return parts


@dataclass(frozen=True)
class _Entry:
    """An entry of a number list reached by its name (`things.Rice.Size`)."""

    row: tuple[int, ...]
    index: int


@dataclass(frozen=True)
class _Member:
    """A name of a list of names, and whether the published list has it."""

    present: bool


def _walk(base: Mapping[str, Any], path: Sequence[str], name: str) -> tuple[list[str], Any, Any]:
    """Follow `path` through the card data: (keys as found, what they reach, its container).

    Tables are matched by key (exactly, else ignoring case), lists of cards by card name, number lists
    by entry name or number, lists of names by name.
    """
    node: Any = base
    parent: Any = None
    keys: list[str] = []
    for step, part in enumerate(path):
        where = ".".join(keys)
        last = step == len(path) - 1
        if isinstance(node, Mapping):
            key = part if part in node else next((k for k in node if str(k).casefold() == part.casefold()), None)
            if key is None:
                inside = f" in {where}" if where else ""
                known = ", ".join(str(k) for k in node)
                raise TablepressError(f"--vary {name}: the card data has no {part!r}{inside} (known: {known})")
            keys.append(str(key))
            parent, node = node, node[key]
        elif isinstance(node, list) and node and all(isinstance(c, Mapping) for c in node):
            key_field = card_key(node)
            index = find_card(node, key_field, part) if key_field else None
            if index is None:
                known = ", ".join(str(c.get(key_field)) for c in node) if key_field else "its cards have no names"
                raise TablepressError(f"--vary {name}: {where} has no card {part!r} (cards: {known})")
            keys.append(str(node[index][key_field]))
            parent, node = node, node[index]
        elif _number_list(node) and last:
            index = entry_index(part, len(node), entry_names(base, parent, keys[-1]) if keys else [])
            if index is None:
                names = entry_names(base, parent, keys[-1]) if keys else []
                named = f" or {', '.join(names)}" if names else ""
                raise TablepressError(f"--vary {name}: {where} has no entry {part!r} (entries 1–{len(node)}{named})")
            keys.append(part)
            return keys, _Entry(tuple(node), index), node
        elif isinstance(node, list) and all(isinstance(v, str) for v in node) and last:
            keys.append(next((n for n in node if n.casefold() == part.casefold()), part))
            return keys, _Member(any(n.casefold() == part.casefold() for n in node)), node
        else:
            raise TablepressError(f"--vary {name}: {where} is {kind_of(node)}, so it has no {part!r}")
    return keys, node, parent


def _numbers_beside(base: Mapping[str, Any], keys: Sequence[str]) -> str:
    """'; numbers in SECTION: a, b' — the numeric fields of a table, for an error message."""
    node: Any = base
    for key in keys:
        node = _child(node, key)
    names = [str(k) for k, v in node.items() if _number(v) or _number_list(v)] if isinstance(node, Mapping) else []
    where = ".".join(keys) or "the card data"
    return f" (numbers in {where}: {', '.join(names)})" if names else ""


def _child(node: Any, key: str) -> Any:
    """`node[key]`, or the card called `key` of a list of cards."""
    if isinstance(node, Mapping):
        return node[key]
    field = card_key(node)
    index = find_card(node, field, key) if field else None
    return node[index] if index is not None else None


def _number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(_number(v) for v in value)


def overrides(dims: Sequence[Dimension], values: Values, base: Mapping[str, Any]) -> dict[str, Any]:
    """The variant (nested tables, as in cards.toml; cards by name as differences) giving every dimension its value."""
    out: dict[str, Any] = {}
    for dim, value in zip(dims, values):
        node, published = out, base
        for key in dim.path[:-1]:
            node = node.setdefault(key, {})
            published = _child(published, key)
        last = dim.path[-1]
        node[last] = dim.apply(node.get(last, _child(published, last)), value)
    return out


def at_edge(dims: Sequence[Dimension], values: Values) -> list[str]:
    """A wider range to try for each field whose value is an end of its range (never below 0 for a count)."""
    hints = []
    for dim, value in zip(dims, values):
        width = dim.high - dim.low
        if dim.binary:
            continue
        if width and value == dim.high:
            hints.append(f"{dim.field}={dim.low + width // 2}..{dim.high + width // 2 + 1}")
        elif width and value == dim.low:
            floor = -MAX_NUMBER if dim.offset or dim.published_value() < 0 else 0
            low = max(floor, dim.low - width // 2 - 1)
            if low < dim.low:
                hints.append(f"{dim.field}={low}..{dim.high - width // 2}")
    return hints


def change_size(dims: Sequence[Dimension], values: Values) -> float:
    """How far a candidate is from the published cards (each field's move over its range width, summed)."""
    return sum(abs(v - d.published_value()) / max(1, d.high - d.low) for d, v in zip(dims, values))


def candidates(dims: Sequence[Dimension], limit: int, seed: int) -> list[Values]:
    """Up to `limit` value combinations: all of them if they fit, else the published one and a seeded sample."""
    import random

    sizes = [len(d.values()) for d in dims]
    total = math.prod(sizes)
    if total <= limit:
        return [_decode(dims, sizes, i) for i in range(total)]
    published = tuple(d.published_value() for d in dims)
    chosen = {published} if all(v in d.values() for d, v in zip(dims, published)) else set()
    rng = random.Random(seed)
    while len(chosen) < limit:
        chosen.add(_decode(dims, sizes, rng.randrange(total)))
    return sorted(chosen)


def _decode(dims: Sequence[Dimension], sizes: Sequence[int], index: int) -> Values:
    values = []
    for dim, size in zip(reversed(dims), reversed(sizes)):
        index, digit = divmod(index, size)
        values.append(dim.low + digit)
    return tuple(reversed(values))
