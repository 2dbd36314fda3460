"""Where the cards of a sheet go: paper sizes, the printable zone, gutters for the bleed, duplex mirroring.

All lengths are millimetres from the page's top-left corner. Everything printed — art, bleed, crop marks
and notes — stays at least MARGIN mm inside the paper, where home printers can print. Each card's art
reaches `bleed` past every edge, and cards are 2 × bleed apart, so no bleed is shared. Cards sit in a
centred grid: 3 × 3 upright when that fits, else the largest grid that does, upright or turned a quarter
(8 turned cards on A4 with a 3 mm bleed, 6 on Letter).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import TablepressError
from ..faces.model import CARD_HEIGHT, CARD_WIDTH

#: Paper name → (width, height) in mm, portrait.
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
COLUMNS = ROWS = 3
PER_PAGE = COLUMNS * ROWS
MAX_BLEED = 5.0
#: The unprintable edge of a home printer: nothing is drawn closer to the paper's edge.
MARGIN = 5.0
#: The shortest crop mark, and its gap from the art.
MARK_MIN = 2.0
MARK_GAP = 0.5
DUPLEX = ("long", "short")


@dataclass(frozen=True)
class Axis:
    """One direction of the grid: where the first card starts, how many, the card size and the gutter."""

    start: float
    count: int
    card: float
    gutter: float

    def edge(self, index: int) -> float:
        """Where card `index` starts."""
        return self.start + index * (self.card + self.gutter)

    def cuts(self) -> list[float]:
        """Every cut line along this axis, in order (one between touching cards)."""
        lines: list[float] = []
        for index in range(self.count):
            for line in (self.edge(index), self.edge(index) + self.card):
                if not lines or abs(lines[-1] - line) > 1e-6:
                    lines.append(line)
        return lines

    @property
    def end(self) -> float:
        """Where the last card ends."""
        return self.edge(self.count - 1) + self.card


def _fit(paper_size: float, card: float, bleed: float) -> int:
    """How many cards fit along one side with their gutters, bleeds and room for the crop marks."""
    room = paper_size - 2 * (MARGIN + MARK_MIN + MARK_GAP + bleed)
    return max(0, int((room + 2 * bleed + 1e-9) // (card + 2 * bleed)))


def _axis(paper_size: float, card: float, bleed: float, count: int) -> Axis:
    span = count * card + (count - 1) * 2 * bleed
    return Axis((paper_size - span) / 2, count, card, 2 * bleed)


@dataclass(frozen=True)
class Layout:
    """The grid on one paper size with one bleed; `turned` cards lie on their side (88 × 63 mm slots)."""

    paper: str
    width: float
    height: float
    bleed: float
    turned: bool
    x: Axis
    y: Axis

    @property
    def per_page(self) -> int:
        """Cards a sheet."""
        return self.x.count * self.y.count

    def slot(self, index: int) -> tuple[float, float]:
        """The top-left corner of slot `index` (rows top first) on the page."""
        row, column = divmod(index, self.x.count)
        return self.x.edge(column), self.y.edge(row)

    def rotation(self, back: bool = False, duplex: str = "long") -> int:
        """Clockwise degrees a card's front (or back) is turned, so a back's top lies under its front's top."""
        front = 90 if self.turned else 0
        if not back:
            return front
        # the back page is the front reflected across the duplex flip's axis: so is each card's "up"
        if duplex == "long":
            return (360 - front) % 360
        return (180 - front) % 360

    def back_slot(self, index: int, duplex: str = "long") -> int:
        """Where the back of front slot `index` goes on the back page: mirrored left–right for long-edge
        duplex (the sheet turns over its long side), top–bottom for short-edge."""
        return back_slot(index, duplex, self.x.count, self.y.count)


def layout(paper: str = "a4", bleed: float = 0.0) -> Layout:
    """The largest grid for `paper` ("a4" or "letter") and a bleed in mm (0 to 5), or a clear error."""
    key = paper.strip().lower()
    if key not in PAPERS:
        raise TablepressError(f"--paper takes a4 or letter, not {paper!r}")
    if not 0 <= bleed <= MAX_BLEED:
        raise TablepressError(f"--bleed takes 0 to {MAX_BLEED:g} mm, not {bleed:g}")
    width, height = PAPERS[key]
    best: Layout | None = None
    for turned in (False, True):
        across, down = (CARD_HEIGHT, CARD_WIDTH) if turned else (CARD_WIDTH, CARD_HEIGHT)
        columns = min(COLUMNS, _fit(width, across, bleed))
        rows = min(ROWS if not turned else 4, _fit(height, down, bleed))
        if columns and rows and (best is None or columns * rows > best.per_page):
            best = Layout(key, width, height, bleed, turned, _axis(width, across, bleed, columns),
                          _axis(height, down, bleed, rows))
    if best is None:
        raise TablepressError(f"--bleed {bleed:g} mm leaves no room for a card on {key}; use less")
    return best


def back_slot(index: int, duplex: str = "long", columns: int = COLUMNS, rows: int = ROWS) -> int:
    """Where the back of front slot `index` goes in a `columns` × `rows` grid on the back page."""
    if duplex not in DUPLEX:
        raise TablepressError(f"--duplex takes long or short, not {duplex!r}")
    row, column = divmod(index, columns)
    if duplex == "long":
        return row * columns + (columns - 1 - column)
    return (rows - 1 - row) * columns + column
