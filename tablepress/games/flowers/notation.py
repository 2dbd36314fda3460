"""Flowers text notation (docs/reference.md): the action verbs, card codes, cells `x,y`, areas as grids, position files."""

from __future__ import annotations

import re
from collections import Counter

from ...core.errors import PositionError
from .cards import FlowersCards
from .scoring import Area, Cell

#: The two actions of a turn: `draw N` (stack N, from 1) and `place CODE x,y`.
DRAW, PLACE = "draw", "place"
CELL_RE = re.compile(r"^(-?\d{1,6}),(-?\d{1,6})$", re.ASCII)


class CardCodes:
    """Translates card codes (`Y3`, `Y4g`, `V`) to card ids and back, with clear errors."""

    def __init__(self, cards: FlowersCards):
        self.cards = cards
        self.ids_by_code: dict[str, list[int]] = {}
        for card, code in enumerate(cards.codes):
            self.ids_by_code.setdefault(code, []).append(card)

    def kind(self, code: str) -> int:
        """The first card id with this code, or ValueError saying why the code is wrong."""
        if code in self.ids_by_code:
            return self.ids_by_code[code][0]
        match = re.fullmatch(r"([A-Za-z])(\d{1,6})([A-Za-z]?)", code, re.ASCII)
        if match and match.group(3):
            col, val, wing = match.group(1).upper(), int(match.group(2)), match.group(3)
            if wing.upper() == col:
                raise ValueError(f"{code!r}: a butterfly is never of its card's own colour")
            top = max(self.cards.value)
            if val != top:
                raise ValueError(f"{code!r}: only a {top} can carry a butterfly")
        raise ValueError(
            f"unknown card code {code[:20]!r} (a colour {'/'.join(self.cards.colour_names)}, a value, "
            f"and for a butterfly 4 its colour in lower case, like Y4g; or V)"
        )


def parse_cell(text: str) -> Cell:
    """A cell `x,y` → (x, y); ValueError otherwise."""
    match = CELL_RE.match(text.strip())
    if not match:
        raise ValueError(f"{text[:20]!r} is not a cell (write x,y, for example 2,-1)")
    return int(match.group(1)), int(match.group(2))


def format_cell(cell: Cell) -> str:
    """(x, y) → `x,y`."""
    return f"{cell[0]},{cell[1]}"


def format_area(area: Area, cards: FlowersCards) -> list[str]:
    """An area as grid lines (top row first), stacks bottom first joined by `/`; the inverse of parsing."""
    if not area:
        return []
    xs = [x for x, _ in area]
    ys = [y for _, y in area]
    cells = [
        ["/".join(cards.codes[c] for c in area[(x, y)]) if (x, y) in area else "." for x in range(min(xs), max(xs) + 1)]
        for y in range(min(ys), max(ys) + 1)
    ]
    width = max(len(cell) for row in cells for cell in row)
    return [" ".join(cell.ljust(width) for cell in row).rstrip() for row in cells]


def parse_position(text: str, cards: FlowersCards, source: str = "position") -> list[tuple[str | None, Area]]:
    """Players' areas from a position file: `# Name` lines, then grid rows. Errors name the line."""
    codes = CardCodes(cards)
    players: list[tuple[str | None, dict[Cell, tuple[int, ...]], int]] = []
    current: dict[Cell, tuple[int, ...]] | None = None
    row = 0
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            name = stripped.lstrip("#").strip()
            current, row = {}, 0
            players.append((name or None, current, number))
            continue
        if current is None:
            current, row = {}, 0
            players.append((None, current, number))
        for x, token in enumerate(stripped.replace(",", " ").split()):
            if token == ".":
                continue
            stack = []
            for code in token.split("/"):
                try:
                    stack.append(codes.kind(code))
                except ValueError as exc:
                    raise PositionError(f"{source}: line {number}: {exc}") from None
            current[(x, row)] = tuple(stack)
        row += 1
    if not players:
        raise PositionError(f"{source}: no area found (write the area as a grid of card codes)")
    for name, area, number in players:
        if not area:
            raise PositionError(f"{source}: line {number}: {name or 'the player'} has no cards")
        _check_copies(area, cards, codes, f"{source}: {name or 'the player'}")
    return [(name, area) for name, area, _ in players]


def _check_copies(area: Area, cards: FlowersCards, codes: CardCodes, where: str) -> None:
    used = Counter(cards.codes[c] for stack in area.values() for c in stack)
    for code, count in sorted(used.items()):
        have = len(codes.ids_by_code[code])
        if count > have:
            raise PositionError(f"{where}: {count} cards {code} but the game has only {have}")

