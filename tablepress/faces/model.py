"""A small drawing model of card faces: what a card shows, independent of SVG or PDF.

Coordinates are millimetres from the card's top-left corner, y downward; font sizes are points.
A `Face` is a list of shapes drawn in order. Shapes that touch the card's edge are extended into the
bleed by the PDF renderer (so full-bleed art stays full-bleed after cutting).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .fonts import PT, width_mm

#: Poker-size card, millimetres.
CARD_WIDTH = 63.0
CARD_HEIGHT = 88.0


@dataclass(frozen=True)
class Rect:
    """A rectangle, optionally with rounded corners."""

    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3
    radius: float = 0.0


@dataclass(frozen=True)
class Circle:
    """A circle centred on (cx, cy)."""

    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3


@dataclass(frozen=True)
class Line:
    """A straight line."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    width: float = 0.3


@dataclass(frozen=True)
class Polygon:
    """A closed polygon through `points`."""

    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3


@dataclass(frozen=True)
class Text:
    """One line of text; (x, y) is the baseline point, `anchor` says which end (or the middle) it marks."""

    x: float
    y: float
    text: str
    size: float = 9.0
    bold: bool = False
    anchor: str = "start"
    fill: str = "#000000"
    rotate: float = 0.0


Shape = Rect | Circle | Line | Polygon | Text


@dataclass
class Face:
    """One side of one card: a list of shapes, drawn in order."""

    shapes: list[Shape] = field(default_factory=list)
    width: float = CARD_WIDTH
    height: float = CARD_HEIGHT

    def add(self, *shapes: Shape) -> "Face":
        """Append shapes; returns the face for chaining."""
        self.shapes.extend(shapes)
        return self

    def texts(self) -> list[str]:
        """Every text string on the face, in drawing order (what a reader of the card sees)."""
        return [shape.text for shape in self.shapes if isinstance(shape, Text)]


@dataclass(frozen=True)
class CardFace:
    """A printable card: its key (code or id), name, printed quantity, front and back."""

    key: str
    name: str
    copies: int
    front: Face
    back: Face
    kind: str = ""


#: The largest component page a game may draw (mm): what fits inside 5 mm margins on both A4 and Letter.
COMPONENT_WIDTH = 200.0
COMPONENT_HEIGHT = 265.0


@dataclass(frozen=True)
class Component:
    """A printable part of a game that is not a 63 × 88 mm card: a player board, a score track, a sheet
    of punch-out tokens, a scorebook page.

    `face` is drawn at its own size (`face.width` × `face.height` mm, at most COMPONENT_WIDTH ×
    COMPONENT_HEIGHT), one printed page per copy, centred; `copies` is how many pages the game needs
    (a token sheet already holds many tokens: its copies count sheets). `kind` groups parts for
    `print --parts` ("board", "tokens", "track", "scorebook", ...).
    """

    key: str
    name: str
    copies: int
    face: Face
    kind: str


def wrap(text: str, size: float, max_width: float, bold: bool = False) -> list[str]:
    """Break `text` into lines no wider than `max_width` mm at `size` pt (a long word keeps its own line)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            trial = f"{current} {word}" if current else word
            if current and width_mm(trial, size, bold) > max_width:
                lines.append(current)
                current = word
            else:
                current = trial
        lines.append(current)
    return lines


def text_block(
    text: str,
    x: float,
    y: float,
    max_width: float,
    size: float = 8.0,
    bold: bool = False,
    anchor: str = "start",
    fill: str = "#000000",
    leading: float = 1.2,
) -> tuple[list[Text], float]:
    """Wrapped text starting with its first baseline at y; returns the lines and the y below the block."""
    step = size * PT * leading
    shapes = []
    for index, line in enumerate(wrap(text, size, max_width, bold)):
        shapes.append(Text(x, y + index * step, line, size, bold, anchor, fill))
    return shapes, y + len(shapes) * step


def fit_size(text: str, max_width: float, size: float, bold: bool = True, smallest: float = 6.0) -> float:
    """The largest size ≤ `size` (down to `smallest`) at which `text` fits in `max_width` mm on one line."""
    while size > smallest and width_mm(text, size, bold) > max_width:
        size -= 0.5
    return size


def arrow(x1: float, y1: float, x2: float, y2: float, colour: str = "#000000", width: float = 1.2) -> list[Shape]:
    """A straight arrow from (x1, y1) to (x2, y2) with a solid head."""
    angle = math.atan2(y2 - y1, x2 - x1)
    head = width * 3.2
    back_x, back_y = x2 - head * math.cos(angle), y2 - head * math.sin(angle)
    side = head * 0.6
    left = (back_x + side * math.sin(angle), back_y - side * math.cos(angle))
    right = (back_x - side * math.sin(angle), back_y + side * math.cos(angle))
    return [Line(x1, y1, back_x, back_y, colour, width), Polygon(((x2, y2), left, right), fill=colour)]
