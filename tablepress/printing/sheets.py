"""Print-and-play sheets: every card of a game in its printed quantity, nine to a page, with crop marks.

    from tablepress.printing.sheets import write_sheets
    write_sheets(get_game("by-this"), "by-this.pdf", paper="a4", backs=True, bleed=3)
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..core.errors import TablepressError
from ..core.game import Game
from ..faces.catalog import card_faces
from ..faces.fonts import font_name, width_mm
from ..faces.model import CardFace
from ..faces.pdf import draw_face
from .layout import PER_PAGE, Layout, back_slot, layout

MARK_COLOUR = "#000000"
NOTE_COLOUR = "#444444"


@dataclass(frozen=True)
class SheetSummary:
    """What was printed: cards, front sheets and total PDF pages."""

    cards: int
    sheets: int
    pages: int


def print_run(game: Game) -> list[CardFace]:
    """Every card of `game` repeated by its printed quantity, in print order."""
    run: list[CardFace] = []
    for card in card_faces(game):
        if card.copies < 0:
            raise TablepressError(f"{game.name}: card {card.key} has a negative number of copies")
        run.extend([card] * card.copies)
    if not run:
        raise TablepressError(f"{game.name}: the card data has no cards to print")
    return run


def _crop_marks(canvas: Canvas, grid: Layout) -> None:
    """Short lines in the margins on every cut line, stopping short of the bleed."""
    canvas.setStrokeColor(HexColor(MARK_COLOUR))
    canvas.setLineWidth(0.25)
    height = grid.height
    top_out = grid.y.start - grid.bleed - 0.5
    bottom_in = grid.y.edge(2) + grid.y.card + grid.bleed + 0.5
    for x in grid.x.cuts():
        for y1, y2 in ((top_out, max(top_out - 6, 1.0)), (bottom_in, min(bottom_in + 6, height - 1.0))):
            canvas.line(x * mm, (height - y1) * mm, x * mm, (height - y2) * mm)
    left_out = grid.x.start - grid.bleed - 0.5
    right_in = grid.x.edge(2) + grid.x.card + grid.bleed + 0.5
    for y in grid.y.cuts():
        for x1, x2 in ((left_out, max(left_out - 6, 1.0)), (right_in, min(right_in + 6, grid.width - 1.0))):
            canvas.line(x1 * mm, (height - y) * mm, x2 * mm, (height - y) * mm)


def _note(canvas: Canvas, grid: Layout, text: str, first: bool) -> None:
    """A line of small text centred in a margin, clear of the crop marks: the top (first) or bottom margin,
    or — when the side margins are wider, as on Letter — the left (first) or right one, turned."""
    top_margin = grid.y.start - grid.bleed
    side_margin = grid.x.start - grid.bleed
    sideways = side_margin > top_margin
    room = (grid.y.card if sideways else grid.x.card) - 4
    size = 6.5
    while size > 4 and width_mm(text, size) > room:
        size -= 0.25
    canvas.saveState()
    canvas.setFillColor(HexColor(NOTE_COLOUR))
    canvas.setFont(font_name(False), size)
    if sideways:
        x = side_margin / 2 + 1.0 if first else grid.width - side_margin / 2 - 1.0
        canvas.translate(x * mm, grid.height / 2 * mm)
        canvas.rotate(90 if first else -90)
    else:
        y = top_margin / 2 + 1.0 if first else grid.height - top_margin / 2 + 1.0
        canvas.translate(grid.width / 2 * mm, (grid.height - y) * mm)
    canvas.drawCentredString(0, 0, text)
    canvas.restoreState()


def render_sheets(game: Game, paper: str = "a4", backs: bool = False, bleed: float = 0.0,
                  duplex: str = "long") -> tuple[bytes, SheetSummary]:
    """The PDF bytes of every sheet (and back sheet, if asked), and a summary of what was printed."""
    grid = layout(paper, bleed)
    back_slot(0, duplex)  # validates the duplex mode before any work
    run = print_run(game)
    sheets = math.ceil(len(run) / PER_PAGE)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(grid.width * mm, grid.height * mm), pageCompression=1)
    title = game.title or game.name
    canvas.setTitle(f"{title} — print-and-play cards")
    canvas.setAuthor("tablepress")
    canvas.setSubject(f"{len(run)} cards, 63 × 88 mm, {sheets} sheets ({grid.paper}); print at 100 %")
    flip = "long" if duplex == "long" else "short"
    for sheet in range(sheets):
        cards = run[sheet * PER_PAGE:(sheet + 1) * PER_PAGE]
        _crop_marks(canvas, grid)
        for index, card in enumerate(cards):
            left, top, reach = grid.slot(index)
            draw_face(canvas, card.front, left, top, grid.height, reach)
        _note(canvas, grid, "Print at 100 % (no scaling) · cards 63 × 88 mm", True)
        _note(canvas, grid, f"{title} · sheet {sheet + 1} of {sheets} · cards {sheet * PER_PAGE + 1}–"
                            f"{sheet * PER_PAGE + len(cards)} of {len(run)}", False)
        canvas.showPage()
        if backs:
            _crop_marks(canvas, grid)
            for index, card in enumerate(cards):
                left, top, reach = grid.slot(back_slot(index, duplex))
                draw_face(canvas, card.back, left, top, grid.height, reach)
            _note(canvas, grid, f"Backs · duplex, flip on {flip} edge · 100 %", True)
            _note(canvas, grid, f"{title} · backs · sheet {sheet + 1} of {sheets}", False)
            canvas.showPage()
    canvas.save()
    return buffer.getvalue(), SheetSummary(len(run), sheets, sheets * (2 if backs else 1))


def write_sheets(game: Game, out: str | Path, paper: str = "a4", backs: bool = False, bleed: float = 0.0,
                 duplex: str = "long") -> SheetSummary:
    """Write the sheets to `out` (a PDF); a file that cannot be written is a clear error."""
    data, summary = render_sheets(game, paper, backs, bleed, duplex)
    path = Path(out)
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise TablepressError(f"{path}: cannot write the PDF ({exc.strerror or exc})") from None
    return summary
