"""Print-and-play sheets: every card of a game in its printed quantity with crop marks, then the game's
other components (boards, tracks, token sheets), one page per copy.

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
from ..faces.catalog import card_faces, game_components
from ..faces.fonts import PT, font_name, width_mm
from ..faces.model import COMPONENT_HEIGHT, COMPONENT_WIDTH, CardFace, Component, Face, Text
from ..faces.pdf import Bleed, draw_face
from ..faces.style import INSET, PAPER, Back, is_full_card, light_frame, on
from .layout import MARGIN, MARK_GAP, Layout, layout

MARK_COLOUR = "#000000"
NOTE_COLOUR = "#444444"
NOTE_SIZE = 6.5
CARDS = "cards"
#: Room kept under a component for its footer line (mm).
FOOTER_ROOM = 4.0


@dataclass(frozen=True)
class SheetSummary:
    """What was printed: cards, card sheets, total PDF pages, cards a sheet and component pages (without
    their blank backs)."""

    cards: int
    sheets: int
    pages: int
    per_sheet: int = 9
    components: int = 0


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


def part_kinds(game: Game) -> list[str]:
    """What `--parts` can name for `game`: cards, then each kind of component, in print order."""
    kinds = [CARDS]
    for component in game_components(game):
        if component.kind not in kinds:
            kinds.append(component.kind)
    return kinds


def chosen_parts(game: Game, parts: str = "all") -> list[str]:
    """The kinds named by a `--parts` value ("all", or kinds by comma; a plural names its kind too)."""
    kinds = part_kinds(game)
    wanted = [part.strip().lower() for part in parts.split(",") if part.strip()]
    if wanted == ["all"]:
        return kinds
    chosen: list[str] = []
    for part in wanted:
        match = next((kind for kind in kinds if part in (kind, f"{kind}s") or f"{part}s" == kind), None)
        if match is None:
            raise TablepressError(f"--parts takes all or {', '.join(kinds)} for {game.name}, not {part!r}")
        chosen.append(match)
    if not chosen:
        raise TablepressError(f"--parts takes all or {', '.join(kinds)} for {game.name}")
    return [kind for kind in kinds if kind in chosen]


def variant_mark(face: Face, label: str) -> Face:
    """`face` with "variant: label" in small text on the foot of its frame."""
    background = next((shape.fill for shape in face.shapes if is_full_card(shape, face)), PAPER)
    text = Text(face.width / 2, face.height - INSET / 2 + 0.6, f"variant: {label}", 4.5, False, "middle",
                on(background or PAPER))
    return Face([*face.shapes, text], face.width, face.height)


def _light_back(face: Face) -> Face:
    """The ink-saver's back: a style back drawn light, any other back with a pale frame."""
    return face.light() if isinstance(face, Back) else light_frame(face)


def _crop_marks(canvas: Canvas, grid: Layout) -> None:
    """Short lines in the margins on every cut line, from just outside the bleed to MARGIN from the edge."""
    canvas.setStrokeColor(HexColor(MARK_COLOUR))
    canvas.setLineWidth(0.25)
    height, bleed = grid.height, grid.bleed
    top = grid.y.start - bleed - MARK_GAP
    bottom = grid.y.end + bleed + MARK_GAP
    for x in grid.x.cuts():
        for y1, y2 in ((top, max(top - 6, MARGIN)), (bottom, min(bottom + 6, height - MARGIN))):
            canvas.line(x * mm, (height - y1) * mm, x * mm, (height - y2) * mm)
    left = grid.x.start - bleed - MARK_GAP
    right = grid.x.end + bleed + MARK_GAP
    for y in grid.y.cuts():
        for x1, x2 in ((left, max(left - 6, MARGIN)), (right, min(right + 6, grid.width - MARGIN))):
            canvas.line(x1 * mm, (height - y) * mm, x2 * mm, (height - y) * mm)


def _line(canvas: Canvas, text: str, centre: float, room: float, top: float, bottom: float,
          page_height: float) -> None:
    """One line of small text centred at `centre` across, fitted into `room` mm and between `top` and
    `bottom` (mm from the page's top)."""
    size = min(NOTE_SIZE, (bottom - top) / (1.2 * PT))
    while size > 4 and width_mm(text, size) > room:
        size -= 0.25
    baseline = (top + bottom) / 2 + 0.35 * size * PT
    canvas.setFillColor(HexColor(NOTE_COLOUR))
    canvas.setFont(font_name(False), size)
    canvas.drawCentredString(centre * mm, (page_height - baseline) * mm, text)


def _note(canvas: Canvas, grid: Layout, text: str, first: bool) -> None:
    """A line of small text in the top (first) or bottom margin, inside the printable zone and between
    the crop marks of one card's width."""
    column = (grid.x.count - 1) // 2
    centre = grid.x.edge(column) + grid.x.card / 2
    if first:
        top, bottom = MARGIN, grid.y.start - grid.bleed - MARK_GAP
    else:
        top, bottom = grid.y.end + grid.bleed + MARK_GAP, grid.height - MARGIN
    _line(canvas, text, centre, grid.x.card - 4, top, bottom, grid.height)


def _card_pages(canvas: Canvas, grid: Layout, run: list[CardFace], title: str, backs: bool, duplex: str,
                ink_saver: bool, variant: str | None) -> int:
    """Draw every card sheet (and back sheet); returns the number of sheets."""
    per_page = grid.per_page
    sheets = math.ceil(len(run) / per_page)
    reach = Bleed(grid.bleed, grid.bleed, grid.bleed, grid.bleed)
    fronts: dict[int, Face] = {}
    backs_drawn: dict[int, Face] = {}
    for card in {id(card): card for card in run}.values():
        front = light_frame(card.front) if ink_saver else card.front
        fronts[id(card)] = variant_mark(front, variant) if variant else front
        backs_drawn[id(card)] = _light_back(card.back) if ink_saver else card.back
    label = f"{title} (variant: {variant})" if variant else title
    bleed = f" · {grid.bleed:g} mm bleed" if grid.bleed else ""
    for sheet in range(sheets):
        cards = run[sheet * per_page:(sheet + 1) * per_page]
        _crop_marks(canvas, grid)
        for index, card in enumerate(cards):
            left, top = grid.slot(index)
            draw_face(canvas, fronts[id(card)], left, top, grid.height, reach, grid.rotation())
        _note(canvas, grid, f"Print at 100 % (no scaling) · cards 63 × 88 mm{bleed}", True)
        _note(canvas, grid, f"{label} · sheet {sheet + 1} of {sheets} · cards {sheet * per_page + 1}–"
                            f"{sheet * per_page + len(cards)} of {len(run)}", False)
        canvas.showPage()
        if backs:
            _crop_marks(canvas, grid)
            for index, card in enumerate(cards):
                left, top = grid.slot(grid.back_slot(index, duplex))
                draw_face(canvas, backs_drawn[id(card)], left, top, grid.height, reach, grid.rotation(True, duplex))
            _note(canvas, grid, f"Backs · duplex, flip on {duplex} edge · 100 %", True)
            _note(canvas, grid, f"{label} · backs · sheet {sheet + 1} of {sheets}", False)
            canvas.showPage()
    return sheets


def _component_pages(canvas: Canvas, width: float, height: float, components: list[Component], label: str,
                     backs: bool, ink_saver: bool) -> int:
    """One centred page per copy of each component, with its name and the game in a footer; with `backs`,
    a blank back after each so a duplex run keeps one component a sheet. Returns the component pages
    (not counting blank backs)."""
    pages = 0
    for component in components:
        face = component.face
        if face.width > COMPONENT_WIDTH + 1e-6 or face.height > COMPONENT_HEIGHT + 1e-6:
            raise TablepressError(f"{label}: component {component.key} is {face.width:g} × {face.height:g} mm, "
                                  f"larger than {COMPONENT_WIDTH:g} × {COMPONENT_HEIGHT:g} mm")
        if component.copies < 0:
            raise TablepressError(f"{label}: component {component.key} has a negative number of copies")
        drawn = light_frame(face) if ink_saver else face
        left = (width - face.width) / 2
        top = max(MARGIN, (height - face.height - FOOTER_ROOM) / 2)
        for copy in range(component.copies):
            draw_face(canvas, drawn, left, top, height)
            count = f" · {copy + 1} of {component.copies}" if component.copies > 1 else ""
            _line(canvas, f"{component.name}{count} · {label} · print at 100 %", width / 2, width - 2 * MARGIN,
                  top + face.height + MARK_GAP, height - MARGIN, height)
            canvas.showPage()
            pages += 1
            if backs:
                _line(canvas, f"back of {component.name}: left blank", width / 2, width - 2 * MARGIN,
                      height - MARGIN - FOOTER_ROOM, height - MARGIN, height)
                canvas.showPage()
    return pages


def render_sheets(game: Game, paper: str = "a4", backs: bool = False, bleed: float = 0.0, duplex: str = "long",
                  ink_saver: bool = False, parts: str = "all", variant: str | None = None) -> tuple[bytes, SheetSummary]:
    """The PDF bytes of the chosen parts — card sheets (and back sheets, if asked), then component pages —
    and a summary of what was printed. `variant` names a variant, marked on every card and footer."""
    grid = layout(paper, bleed)
    grid.back_slot(0, duplex)  # validates the duplex mode before any work
    chosen = chosen_parts(game, parts)
    run = print_run(game) if CARDS in chosen else []
    components = [component for component in game_components(game) if component.kind in chosen]
    buffer = io.BytesIO()
    # the embedded font from the start, so no unembedded Helvetica is ever referenced
    canvas = Canvas(buffer, pagesize=(grid.width * mm, grid.height * mm), pageCompression=1,
                    initialFontName=font_name(False))
    title = game.title or game.name
    label = f"{title} (variant: {variant})" if variant else title
    canvas.setTitle(f"{label} — print-and-play")
    canvas.setAuthor("tablepress")
    canvas.setSubject(f"{len(run)} cards, 63 × 88 mm, {grid.per_page} a sheet ({grid.paper}); print at 100 %")
    canvas.setViewerPreference("PrintScaling", "None")
    if backs:
        canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge" if duplex == "long" else "DuplexFlipShortEdge")
    sheets = _card_pages(canvas, grid, run, title, backs, duplex, ink_saver, variant) if run else 0
    component_pages = _component_pages(canvas, grid.width, grid.height, components, label, backs, ink_saver)
    if not sheets and not component_pages:
        raise TablepressError(f"{game.name}: nothing to print for --parts {parts}")
    canvas.save()
    pages = (sheets + component_pages) * (2 if backs else 1)
    return buffer.getvalue(), SheetSummary(len(run), sheets, pages, grid.per_page, component_pages)


def write_sheets(game: Game, out: str | Path, paper: str = "a4", backs: bool = False, bleed: float = 0.0,
                 duplex: str = "long", ink_saver: bool = False, parts: str = "all",
                 variant: str | None = None) -> SheetSummary:
    """Write the sheets to `out` (a PDF); a file that cannot be written is a clear error."""
    data, summary = render_sheets(game, paper, backs, bleed, duplex, ink_saver, parts, variant)
    path = Path(out)
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise TablepressError(f"{path}: cannot write the PDF ({exc.strerror or exc})") from None
    return summary
