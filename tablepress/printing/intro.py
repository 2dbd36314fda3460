"""The one-page intro of a game — thesis, what is in the box, how to start, a turn, an example, the end —
from the text kept in the game's folder (`intro.toml`), as a one-page PDF or as an HTML page.

intro.toml holds `title`, `tagline`, `facts` (players, time), `thesis`, and `[[section]]` tables with
`id`, `heading` and `text`. Text is paragraphs separated by blank lines; a line starting with "- " is a
bullet; `**words**` are bold; a section may show `cards` (rows of card keys, "." empty) drawn from the
faces model. The sections box, start, turn, example and end must be there.
"""

from __future__ import annotations

import html
import io
import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, KeepInFrame, Paragraph, Spacer, Table, TableStyle

from ..core.errors import DataError, TablepressError
from ..core.game import Game
from ..core.registry import package_of
from ..faces.catalog import card_faces, find_card, game_components
from ..faces.model import CARD_HEIGHT, CARD_WIDTH, Face
from ..faces.pdf import draw_face
from ..faces.svg import face_svg
from ..faces.fonts import BOLD, REGULAR, printable, register
from .layout import PAPERS, PER_PAGE

REQUIRED = ("box", "start", "turn", "example", "end")
ACCENT = "#24452e"


@dataclass(frozen=True)
class Section:
    """One headed part of the intro."""

    id: str
    heading: str
    text: str
    #: Rows of card keys drawn after the text: a text of keys split on spaces, or a list of keys (for keys
    #: with spaces); "." is an empty space.
    cards: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class Intro:
    """A game's intro text."""

    title: str
    tagline: str
    facts: str
    thesis: str
    sections: tuple[Section, ...]


def intro_path(game: Game) -> Path:
    """Where the game's intro text lives: `tablepress/games/<folder>/intro.toml`."""
    return package_of(game).folder / "intro.toml"


def load_intro(game: Game) -> Intro:
    """The game's intro, validated; a missing file or section is a DataError naming it."""
    path = intro_path(game)
    if not path.is_file():
        return default_intro(game)
    return read_intro(path)


def read_intro(path: Path) -> Intro:
    """The intro in the file `path`, validated; a malformed file or a missing section is a DataError naming it."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: not valid TOML: {exc}") from None
    for field in ("title", "thesis"):
        if not isinstance(data.get(field), str) or not data[field].strip():
            raise DataError(f"{path}: {field} must be given as text")
    sections = []
    for index, raw in enumerate(data.get("section", [])):
        if not all(isinstance(raw.get(key), str) for key in ("id", "heading", "text")):
            raise DataError(f"{path}: section[{index}] needs id, heading and text")
        rows = raw.get("cards", [])
        if not isinstance(rows, list) or not all(
                isinstance(row, str) or (isinstance(row, list) and all(isinstance(k, str) for k in row))
                for row in rows):
            raise DataError(f"{path}: section[{index}].cards must be rows of card keys (a text or a list each)")
        sections.append(Section(raw["id"], raw["heading"], raw["text"].strip(),
                                tuple(tuple(row.split() if isinstance(row, str) else row) for row in rows)))
    missing = [need for need in REQUIRED if need not in {s.id for s in sections}]
    if missing:
        raise DataError(f"{path}: the intro has no section with id {missing[0]!r}")
    return Intro(data["title"], data.get("tagline", ""), data.get("facts", ""), data["thesis"].strip(),
                 tuple(sections))


def default_intro(game: Game) -> Intro:
    """The intro of a game that ships no `intro.toml`: its title, player count and summary, then its rules."""
    players = f"{game.min_players}–{game.max_players}" if game.min_players != game.max_players else str(game.min_players)
    rules = package_of(game).rules()
    rules = "\n".join(line.lstrip("#").strip() if line.startswith("#") else line for line in rules.splitlines())
    return Intro(game.title or game.name, "", f"{players} players", game.summary or game.title or game.name,
                 (Section("rules", "How to play", rules.strip()),))


def contents_line(game: Game) -> str:
    """What the print-and-play sheets hold, counted from the card data (so a variant's counts show)."""
    kinds: Counter = Counter()
    total = 0
    for card in card_faces(game):
        kinds[card.kind or "card"] += card.copies
        total += card.copies
    parts = ", ".join(f"{count} {kind}{'' if count == 1 else 's'}" for kind, count in kinds.items())
    sheets = -(-total // PER_PAGE)
    detail = f" ({parts})" if len(kinds) > 1 else ""
    components = game_components(game)
    pages = sum(component.copies for component in components)
    kinds_printed = ", ".join(dict.fromkeys(component.kind for component in components))
    extra = f", and {pages} page{'' if pages == 1 else 's'} ({kinds_printed})" if pages else ""
    return (f"Print-and-play: {total} cards{detail} on {sheets} sheets of 9{extra} — "
            f"`tablepress print {game.name}`.")


def _blocks(text: str) -> list[tuple[str, str]]:
    """Text → [("p", paragraph) | ("li", bullet)] in order."""
    blocks: list[tuple[str, str]] = []
    for chunk in re.split(r"\n\s*\n", text.strip()):
        lines = [line.strip() for line in chunk.splitlines() if line.strip()]
        paragraph: list[str] = []
        for number, line in enumerate(lines):
            if line.startswith("- "):
                if paragraph:
                    blocks.append(("p", " ".join(paragraph)))
                    paragraph = []
                blocks.append(("li", line[2:]))
            elif blocks and blocks[-1][0] == "li" and not paragraph and number > 0:
                blocks[-1] = ("li", f"{blocks[-1][1]} {line}")
            else:
                paragraph.append(line)
        if paragraph:
            blocks.append(("p", " ".join(paragraph)))
    return blocks


def _markup(text: str, bold_tag: str, code_tag: tuple[str, str]) -> str:
    """Escape, then **bold** and `code`."""
    escaped = html.escape(text, quote=False)
    escaped = re.sub(r"\*\*(.+?)\*\*", rf"<{bold_tag}>\1</{bold_tag}>", escaped)
    return re.sub(r"`(.+?)`", rf"{code_tag[0]}\1{code_tag[1]}", escaped)


def card_grid(game: Game, section: Section) -> list[list[Face | None]]:
    """The section's example cards as fronts (None for an empty space); an unknown key names the section."""
    grid: list[list[Face | None]] = []
    for row in section.cards:
        cells: list[Face | None] = []
        for key in row:
            if key == ".":
                cells.append(None)
                continue
            try:
                cells.append(find_card(game, key).front)
            except TablepressError:
                raise DataError(f"{intro_path(game).name}: section {section.id!r} shows card {key!r}, "
                                f"which {game.name} does not have") from None
        grid.append(cells)
    return grid


class CardGrid(Flowable):
    """Small card fronts in rows, drawn from the faces model (an example position in the intro)."""

    def __init__(self, grid: list[list[Face | None]], card_width: float | None = None, gap: float = 1.2):
        super().__init__()
        self.grid = grid
        self.card_width = card_width or {1: 18.0, 2: 15.0}.get(len(grid), 13.0)
        self.card_height = self.card_width * CARD_HEIGHT / CARD_WIDTH
        self.gap = gap

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        """The grid's size in points; a grid wider than the page shrinks its cards to fit."""
        columns = max((len(row) for row in self.grid), default=0)
        if columns and columns * (self.card_width + self.gap) > available_width / mm:
            self.card_width = available_width / mm / columns - self.gap
            self.card_height = self.card_width * CARD_HEIGHT / CARD_WIDTH
        self.width_mm = columns * (self.card_width + self.gap)
        self.height_mm = len(self.grid) * (self.card_height + self.gap) + self.gap
        return self.width_mm * mm, self.height_mm * mm

    def draw(self) -> None:
        """Draw every card, scaled down, with the flowable's bottom-left as origin."""
        scale = self.card_width / CARD_WIDTH
        self.canv.saveState()
        self.canv.scale(scale, scale)
        for row_index, row in enumerate(self.grid):
            for column, face in enumerate(row):
                if face is None:
                    continue
                left = column * (self.card_width + self.gap)
                top = self.gap + row_index * (self.card_height + self.gap)
                draw_face(self.canv, face, left / scale, top / scale, self.height_mm / scale)
        self.canv.restoreState()


def _section_text(game: Game, section: Section) -> str:
    return f"{section.text}\n\n{contents_line(game)}" if section.id == "box" else section.text


# ----- PDF ------------------------------------------------------------------------------------------
def render_intro_pdf(game: Game, paper: str = "a4") -> bytes:
    """The intro as a one-page PDF (the text shrinks to fit if it must)."""
    intro = load_intro(game)
    key = paper.strip().lower()
    if key not in PAPERS:
        raise TablepressError(f"--paper takes a4 or letter, not {paper!r}")
    register()
    registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR, boldItalic=BOLD)
    width, height = PAPERS[key]
    ink = HexColor("#1b1b1b")
    body = ParagraphStyle("body", fontName=REGULAR, fontSize=10, leading=13.4, textColor=ink, spaceAfter=3)
    bullet = ParagraphStyle("bullet", parent=body, leftIndent=10, bulletIndent=2, spaceAfter=1.5)
    head = ParagraphStyle("head", fontName=BOLD, fontSize=11.5, leading=14, textColor=HexColor(ACCENT),
                          spaceBefore=6, spaceAfter=2)
    title = ParagraphStyle("title", fontName=BOLD, fontSize=26, leading=30, textColor=HexColor(ACCENT))
    sub = ParagraphStyle("sub", fontName=REGULAR, fontSize=11, leading=14, textColor=ink)
    thesis = ParagraphStyle("thesis", parent=body, fontSize=10.5, leading=14)
    foot = ParagraphStyle("foot", parent=body, fontSize=7.5, leading=9, alignment=TA_CENTER,
                          textColor=HexColor("#666666"))

    def para(text: str, style: ParagraphStyle, bullet_mark: bool = False) -> Paragraph:
        marked = printable(_markup(text, "b", ("<font name='%s'>" % BOLD, "</font>")))
        return Paragraph(marked, style, bulletText="•" if bullet_mark else None)

    story = [para(intro.title, title)]
    if intro.tagline or intro.facts:
        story.append(para(" · ".join(part for part in (intro.tagline, intro.facts) if part), sub))
    story.append(Spacer(1, 4 * mm))
    box = Table([[para(f"**Thesis.** {intro.thesis}", thesis)]], colWidths=[(width - 36) * mm])
    box.setStyle(TableStyle([("BACKGROUND", (0, 0), (-1, -1), HexColor("#eef3ee")),
                             ("BOX", (0, 0), (-1, -1), 0.6, HexColor(ACCENT)),
                             ("LEFTPADDING", (0, 0), (-1, -1), 8), ("RIGHTPADDING", (0, 0), (-1, -1), 8),
                             ("TOPPADDING", (0, 0), (-1, -1), 6), ("BOTTOMPADDING", (0, 0), (-1, -1), 6)]))
    story.append(box)
    for section in intro.sections:
        story.append(para(section.heading, head))
        for kind, text in _blocks(_section_text(game, section)):
            story.append(para(text, bullet if kind == "li" else body, kind == "li"))
        if section.cards:
            story.append(CardGrid(card_grid(game, section)))
    story.append(Spacer(1, 4 * mm))
    story.append(para(f"{intro.title} · made with tablepress · print at 100 %", foot))
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width * mm, height * mm))
    canvas.setTitle(f"{intro.title} — intro")
    canvas.setAuthor("tablepress")
    frame = Frame(18 * mm, 14 * mm, (width - 36) * mm, (height - 28) * mm, showBoundary=0,
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    frame.addFromList([KeepInFrame((width - 36) * mm, (height - 28) * mm, story, mode="shrink")], canvas)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


# ----- HTML -----------------------------------------------------------------------------------------
_CSS = """
body{font-family:'DejaVu Sans','Bitstream Vera Sans',Verdana,sans-serif;color:#1b1b1b;max-width:46rem;
margin:2rem auto;padding:0 1rem;line-height:1.5}
h1{color:%(accent)s;margin:0 0 .2rem;font-size:2.2rem}
.sub{margin:0 0 1rem;font-size:1.05rem}
.thesis{background:#eef3ee;border:1px solid %(accent)s;border-radius:6px;padding:.7rem 1rem}
h2{color:%(accent)s;font-size:1.15rem;margin:1.2rem 0 .3rem}
p{margin:.3rem 0}ul{margin:.3rem 0 .3rem 1.2rem;padding:0}code{font-size:.9em}
footer{margin-top:1.5rem;font-size:.8rem;color:#666}
.cards{margin:.5rem 0}.row{display:flex;gap:.25em;margin-bottom:.25em}.row svg{height:auto;min-width:0;flex:0 1 auto}
.gap{display:inline-block;width:3.4em}
@media print{body{margin:0;max-width:none;font-size:10pt}@page{margin:14mm 18mm}}
""" % {"accent": ACCENT}


def _grid_html(grid: list[list[Face | None]]) -> str:
    rows = []
    for row in grid:
        cells = "".join(face_svg(face, width="3.4em") if face else '<span class="gap"></span>' for face in row)
        rows.append(f'<div class="row">{cells}</div>')
    return f'<div class="cards">{"".join(rows)}</div>'



def rich_html(text: str) -> str:
    """Intro text (escaped) with **bold** and `code` as HTML."""
    return _markup(text, "strong", ("<code>", "</code>"))


def section_body_html(game: Game, section: Section) -> str:
    """A section's paragraphs and bullet lists as HTML (the web page and the HTML intro share it)."""
    parts: list[str] = []
    items: list[str] = []
    for kind, text in _blocks(_section_text(game, section)):
        if kind == "li":
            items.append(f"<li>{rich_html(text)}</li>")
            continue
        if items:
            parts.append(f"<ul>{''.join(items)}</ul>")
            items = []
        parts.append(f"<p>{rich_html(text)}</p>")
    if items:
        parts.append(f"<ul>{''.join(items)}</ul>")
    return "".join(parts)


def intro_html(game: Game) -> str:
    """The intro as a standalone HTML page (the web app links it; it prints on one page too)."""
    intro = load_intro(game)

    parts = [f"<h1>{html.escape(intro.title)}</h1>"]
    sub = " · ".join(part for part in (intro.tagline, intro.facts) if part)
    if sub:
        parts.append(f'<p class="sub">{html.escape(sub)}</p>')
    parts.append(f'<p class="thesis"><strong>Thesis.</strong> {rich_html(intro.thesis)}</p>')
    for section in intro.sections:
        parts.append(f'<section id="{html.escape(section.id)}"><h2>{html.escape(section.heading)}</h2>')
        parts.append(section_body_html(game, section))
        if section.cards:
            parts.append(_grid_html(card_grid(game, section)))
        parts.append("</section>")
    parts.append(f"<footer>{html.escape(intro.title)} · made with tablepress</footer>")
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(intro.title)} — intro</title><style>{_CSS}</style></head>"
            f"<body><main>{''.join(parts)}</main></body></html>")
