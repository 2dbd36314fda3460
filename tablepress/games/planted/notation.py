"""Planted position files for `tablepress score planted` (docs/reference.md): end-of-game boards typed by hand.

```
# Ana
plants: Monstera 2, ZZ Plant 4, Aloe Vera 3
propagation: 5
tools: Watering Can, Trowel
decorations: Workbench, Terracotta Pot, Macramé Hanger
```
Names match without case or accents (`Macrame` is `Macramé`); plurals are accepted. Every error names
the file and line.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field

from ...core.errors import PositionError
from ...core.names import NameIndex, fold
from .cards import PlantedCards

KEYS = {"plants": "plants", "plant": "plants", "propagation": "propagation", "tools": "tools", "tool": "tools",
        "decorations": "decorations", "decoration": "decorations"}
TOKENS_RE = re.compile(r"^(.*?)\s+(-?\d+)$", re.ASCII)
#: Digits a count of tokens may have (no board holds more than a few dozen).
MAX_DIGITS = 6


@dataclass
class Board:
    """One player's board from a position file: plant indices and their tokens, propagation, tool and decoration kinds."""

    name: str | None
    line: int
    plants: list[int] = field(default_factory=list)
    growth: list[int] = field(default_factory=list)
    propagation: int = 0
    tools: list[int] = field(default_factory=list)
    decorations: list[int] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)


class Names:
    """Looks up plant, tool and decoration names as people type them."""

    def __init__(self, cards: PlantedCards):
        self.cards = cards
        self.index = {
            "plants": name_index([p.name for p in cards.plants]),
            "tools": name_index([t.name for t in cards.tools]),
            "decorations": name_index([d.name for d in cards.decorations]),
        }

    def find(self, section: str, typed: str) -> int:
        """The index of a plant, tool or decoration kind; ValueError saying what the name is if not that."""
        singular = section[:-1]
        name = self.index[section].get(typed)
        if name is not None:
            return self._position(section, name)
        for other, index in self.index.items():
            if other != section and index.get(typed) is not None:
                return _raise(f"{typed!r} is a {other[:-1]}, not a {singular}")
        names = [item.name for item in getattr(self.cards, section)]
        close = difflib.get_close_matches(fold(typed), [fold(n) for n in names], n=1, cutoff=0.6)
        hint = f" (did you mean {next(n for n in names if fold(n) == close[0])}?)" if close else ""
        return _raise(f"unknown {singular} {typed!r}{hint}")

    def _position(self, section: str, name: str) -> int:
        items = {"plants": self.cards.plants, "tools": self.cards.tools, "decorations": self.cards.decorations}
        return [item.name for item in items[section]].index(name)


def name_index(names: list[str]) -> NameIndex:
    """Names as typed: any case, accents optional, plurals, and without apostrophes (`Birds Nest Fern`)."""
    return NameIndex(names, {name.replace("'", "").replace("’", ""): name for name in names if "'" in name})


def _raise(message: str) -> int:
    raise ValueError(message)


def parse_position(text: str, cards: PlantedCards, source: str = "position") -> list[tuple[str | None, Board]]:
    """Boards from a position file: `# Name` lines, then `plants:`, `propagation:`, `tools:`, `decorations:`."""
    names = Names(cards)
    boards: list[Board] = []
    current: Board | None = None
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        where = f"{source}: line {number}"
        if stripped.startswith("#"):
            current = Board(stripped.lstrip("#").strip() or None, number)
            boards.append(current)
            continue
        key, colon, value = stripped.partition(":")
        section = KEYS.get(fold(key))
        if not colon or section is None:
            raise PositionError(f"{where}: expected plants:, propagation:, tools: or decorations:, not {stripped!r}")
        if current is None:
            current = Board(None, number)
            boards.append(current)
        try:
            _read_line(current, section, value, names)
        except ValueError as exc:
            raise PositionError(f"{where}: {exc}") from None
    if not boards:
        raise PositionError(f"{source}: no board found (write lines such as `plants: Monstera 2, ZZ Plant 4`)")
    for board in boards:
        _check_board(board, cards, source)
    return [(board.name, board) for board in boards]


def _read_line(board: Board, section: str, value: str, names: Names) -> None:
    if section == "propagation":
        if "propagation" in board.seen:
            raise ValueError(f"a second propagation line for {board.name or 'the player'}")
        board.seen.add("propagation")
        text = value.strip()
        if text and not (text.isascii() and text.isdecimal()):
            raise ValueError(f"propagation takes a whole number of growth tokens ≥ 0, not {text[:20]!r}")
        if len(text) > MAX_DIGITS:
            raise ValueError(f"propagation {text[:MAX_DIGITS]}… is far more growth tokens than the game has")
        board.propagation = int(text) if text else 0
        return
    for item in value.split(","):
        item = " ".join(item.split())
        if not item:
            continue
        if section != "plants":
            getattr(board, section).append(names.find(section, item))
            continue
        tokens = 0
        match = TOKENS_RE.match(item)
        if match:
            if len(match.group(2).lstrip("-")) > MAX_DIGITS:
                raise ValueError(f"{match.group(1)}: {match.group(2)[:MAX_DIGITS]}… growth tokens is far more than "
                                 f"a plant has spaces")
            item, tokens = match.group(1), int(match.group(2))
            if tokens < 0:
                raise ValueError(f"{item}: growth tokens must be 0 or more, not {tokens}")
        elif item.lstrip("-").isdecimal():
            raise ValueError(f"{item!r} is not a plant (write the plant's name, then its growth tokens)")
        plant = names.find("plants", item)
        spaces = len(names.cards.plants[plant].spaces)
        if tokens > spaces:
            raise ValueError(f"{names.cards.plants[plant].name} has {spaces} growth spaces, not room for {tokens} tokens")
        board.plants.append(plant)
        board.growth.append(tokens)


def _check_board(board: Board, cards: PlantedCards, source: str) -> None:
    who = board.name or "the player"
    where = f"{source}: line {board.line}: {who}"
    if len(board.plants) > cards.max_plants:
        raise PositionError(f"{where} has {len(board.plants)} plants; a player has at most {cards.max_plants}")
    beginners = [cards.plants[p].name for p in board.plants if cards.plants[p].tier == "beginner"]
    if len(beginners) > 1:
        raise PositionError(f"{where} has {len(beginners)} beginner plants ({', '.join(beginners)}); a player has one")
    for plant, count in Counter(board.plants).items():
        if count > 1:
            raise PositionError(f"{where} lists {cards.plants[plant].name} {count} times; the game has one")
    for section, table, owner in (("tools", cards.tools, cards.tool_of), ("decorations", cards.decorations,
                                                                             cards.decoration_of)):
        copies = Counter(owner.values())
        for kind, count in Counter(getattr(board, section)).items():
            if count > copies[kind]:
                raise PositionError(f"{where} has {count} × {table[kind].name}; the game has {copies[kind]}")
