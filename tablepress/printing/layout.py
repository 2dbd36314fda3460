"""Where the nine cards of a sheet go: paper sizes, margins, gutters for the bleed, duplex mirroring.

All lengths are millimetres from the page's top-left corner. Cards sit in a centred 3 × 3 grid. With
no bleed they touch (one cut between neighbours). With a bleed, each card's art reaches `bleed` past
its outer edges, and the gutters between cards open up to 2 × bleed where the paper has room (at
least bleed + 5 mm of margin is kept for the crop marks); where it has less, neighbours share the gutter
and each card's art fills its half.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import TablepressError
from ..faces.model import CARD_HEIGHT, CARD_WIDTH
from ..faces.pdf import Bleed

#: Paper name → (width, height) in mm, portrait.
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
COLUMNS = ROWS = 3
PER_PAGE = COLUMNS * ROWS
MAX_BLEED = 5.0
MARK_ROOM = 5.0
DUPLEX = ("long", "short")


@dataclass(frozen=True)
class Axis:
    """One direction of the grid: where the first card starts, the gutter, the card size and the bleed."""

    start: float
    gutter: float
    card: float
    bleed: float

    def edge(self, index: int) -> float:
        """Where card `index` (0–2) starts."""
        return self.start + index * (self.card + self.gutter)

    def cuts(self) -> list[float]:
        """Every cut line along this axis, in order."""
        lines: list[float] = []
        for index in range(3):
            for line in (self.edge(index), self.edge(index) + self.card):
                if not lines or abs(lines[-1] - line) > 1e-6:
                    lines.append(line)
        return lines

    def reach(self, index: int) -> tuple[float, float]:
        """How far card `index`'s art reaches before and after it (full bleed outside, half-gutter inside)."""
        inner = min(self.bleed, self.gutter / 2)
        return (self.bleed if index == 0 else inner, self.bleed if index == 2 else inner)


def _axis(paper_size: float, card: float, bleed: float, paper: str, direction: str) -> Axis:
    spare = paper_size - 3 * card
    gutter = max(0.0, min(2 * bleed, (spare - 2 * (bleed + MARK_ROOM)) / 2))
    start = (spare - 2 * gutter) / 2
    if start < bleed + 1.0:
        raise TablepressError(f"--bleed {bleed:g} mm does not fit 9 cards on {paper} ({direction}); use less")
    return Axis(start, gutter, card, bleed)


@dataclass(frozen=True)
class Layout:
    """The grid on one paper size with one bleed."""

    paper: str
    width: float
    height: float
    bleed: float
    x: Axis
    y: Axis

    def slot(self, index: int) -> tuple[float, float, Bleed]:
        """The top-left corner of slot `index` (0–8, rows top first) and how far its art reaches."""
        row, column = divmod(index, COLUMNS)
        left, right = self.x.reach(column)
        top, bottom = self.y.reach(row)
        return self.x.edge(column), self.y.edge(row), Bleed(left, top, right, bottom)


def layout(paper: str = "a4", bleed: float = 0.0) -> Layout:
    """The 3 × 3 layout for `paper` ("a4" or "letter") and a bleed in mm (0 to 5), or a clear error."""
    key = paper.strip().lower()
    if key not in PAPERS:
        raise TablepressError(f"--paper takes a4 or letter, not {paper!r}")
    if not 0 <= bleed <= MAX_BLEED:
        raise TablepressError(f"--bleed takes 0 to {MAX_BLEED:g} mm, not {bleed:g}")
    width, height = PAPERS[key]
    return Layout(key, width, height, bleed,
                  _axis(width, CARD_WIDTH, bleed, key, "across"), _axis(height, CARD_HEIGHT, bleed, key, "down"))


def back_slot(index: int, duplex: str = "long") -> int:
    """Where the back of front slot `index` goes on the back page: mirrored left–right for long-edge
    duplex (the sheet turns over its long side), top–bottom for short-edge."""
    if duplex not in DUPLEX:
        raise TablepressError(f"--duplex takes long or short, not {duplex!r}")
    row, column = divmod(index, COLUMNS)
    if duplex == "long":
        return row * COLUMNS + (COLUMNS - 1 - column)
    return (ROWS - 1 - row) * COLUMNS + column
