"""Print layout measured on rendered pages: cards exactly 63 × 88 mm, the asked bleed on every edge, real
gutters, nothing in the 5 mm a home printer cannot reach, component pages with their counts, the variant
mark, viewer preferences, embedded fonts and the ink-saver's lighter backs."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from tablepress.core.errors import TablepressError
from tablepress.core.registry import game_names, get_game
from tablepress.faces.catalog import game_components
from tablepress.faces.model import CARD_HEIGHT, CARD_WIDTH, CardFace, Component, Face, Polygon, Rect
from tablepress.printing import sheets
from tablepress.printing.layout import MARGIN, MARK_GAP, MARK_MIN, PAPERS, layout
from tablepress.printing.sheets import render_sheets

DPI = 254  # 10 pixels a millimetre
PX = DPI / 25.4
GREY = "#808080"


def pdftoppm() -> str:
    """The pdftoppm program, or a failing test saying how to get it."""
    found = shutil.which("pdftoppm")
    assert found, "pdftoppm is missing: install poppler-utils (make test does)"
    return found


class Page:
    """A page rendered in greyscale: pixel rows of bytes 0 (black) to 255 (white)."""

    def __init__(self, data: bytes) -> None:
        fields = data.split(maxsplit=3)
        assert fields[0] == b"P5"
        self.width, self.height = int(fields[1]), int(fields[2])
        self.pixels = data[-self.width * self.height:]

    def row(self, y: int) -> bytes:
        """Row `y` of pixels."""
        return self.pixels[y * self.width:(y + 1) * self.width]

    def column(self, x: int) -> bytes:
        """Column `x` of pixels."""
        return self.pixels[x::self.width]

    def mean(self) -> float:
        """The mean grey, 0 (all black) to 255 (blank)."""
        return sum(self.pixels) / len(self.pixels)


def render(data: bytes, page: int, dpi: int = DPI) -> Page:
    """Page `page` (from 1) of a PDF, rendered by pdftoppm."""
    done = subprocess.run([pdftoppm(), "-r", str(dpi), "-gray", "-f", str(page), "-l", str(page), "-"],
                          input=data, capture_output=True, check=True, timeout=120)
    return Page(done.stdout)


def runs(line: bytes, low: int, high: int) -> list[tuple[int, int]]:
    """(start, length) of every run of pixels whose grey lies in low..high."""
    marks = bytes(1 if low <= value <= high else 0 for value in line)
    return [(found.start(), found.end() - found.start()) for found in re.finditer(b"\x01+", marks)]


def measured_card(key: str = "test") -> CardFace:
    """A card whose face is exactly the card in black (a polygon: it never bleeds) on a grey full-bleed
    ground (a rect touching the edges: it bleeds), so the card and its bleed can be measured apart."""
    card = Polygon(((0, 0), (CARD_WIDTH, 0), (CARD_WIDTH, CARD_HEIGHT), (0, CARD_HEIGHT)), fill="#000000")
    front = Face([Rect(0, 0, CARD_WIDTH, CARD_HEIGHT, fill=GREY), card])
    return CardFace(key, "Test", 18, front, Face([Rect(0, 0, CARD_WIDTH, CARD_HEIGHT, fill=GREY)]), "test")


@pytest.fixture
def fake_parts(monkeypatch: pytest.MonkeyPatch) -> list[Component]:
    """The printer sees 18 test cards and two kinds of component: a board (2 copies) and a token sheet."""
    board = Face([Polygon(((0, 0), (180, 0), (180, 250), (0, 250)), fill="#000000")], 180, 250)
    tokens = Face([Rect(0, 0, 100, 60, fill=GREY)], 100, 60)
    parts = [Component("board", "Player board", 2, board, "board"),
             Component("tokens", "Token sheet", 1, tokens, "tokens")]
    monkeypatch.setattr(sheets, "card_faces", lambda game: [measured_card()])
    monkeypatch.setattr(sheets, "game_components", lambda game: parts)
    return parts


@pytest.mark.parametrize("paper, bleed, per_sheet", [
    ("a4", 0, 9), ("letter", 0, 9), ("a4", 1, 9), ("a4", 3, 8), ("letter", 3, 6), ("letter", 5, 6), ("a4", 5, 4),
])
def test_the_grid_keeps_every_bleed_whole_and_the_margins_printable(paper: str, bleed: float, per_sheet: int) -> None:
    grid = layout(paper, bleed)
    assert grid.per_page == per_sheet
    width, height = PAPERS[paper]
    for axis, size in ((grid.x, width), (grid.y, height)):
        assert axis.gutter == 2 * bleed
        assert axis.start - bleed >= MARGIN + MARK_MIN + MARK_GAP - 1e-9
        assert axis.start == pytest.approx(size - axis.end)  # centred, so duplex backs line up
    assert grid.turned == (per_sheet in (8, 6))


def test_turned_cards_turn_their_backs_to_match() -> None:
    upright, turned = layout("a4", 0), layout("a4", 3)
    assert (upright.rotation(), upright.rotation(True, "long"), upright.rotation(True, "short")) == (0, 0, 180)
    assert (turned.rotation(), turned.rotation(True, "long"), turned.rotation(True, "short")) == (90, 270, 90)
    assert [turned.back_slot(i, "long") for i in range(8)] == [1, 0, 3, 2, 5, 4, 7, 6]
    assert [turned.back_slot(i, "short") for i in range(8)] == [6, 7, 4, 5, 2, 3, 0, 1]


@pytest.mark.parametrize("paper, bleed", [("a4", 3), ("letter", 3), ("letter", 0), ("a4", 2)])
def test_rendered_cards_are_63_by_88_mm_with_the_bleed_on_every_edge(fake_parts, paper: str, bleed: float) -> None:
    grid = layout(paper, bleed)
    page = render(render_sheets(get_game("by-this"), paper, bleed=bleed, parts="cards")[0], 1)
    across, down = (CARD_HEIGHT, CARD_WIDTH) if grid.turned else (CARD_WIDTH, CARD_HEIGHT)
    through_row = page.row(round((grid.y.start + down / 2) * PX))
    through_column = page.column(round((grid.x.start + across / 2) * PX))
    for line, size, count in ((through_row, across, grid.x.count), (through_column, down, grid.y.count)):
        if not bleed:  # touching cards, one cut between neighbours (where antialiasing leaves a grey seam)
            whole = runs(line, 0, 200)
            assert len(whole) == 1 and abs(whole[0][1] - count * size * PX) <= 1
            continue
        cards = runs(line, 0, 40)
        assert len(cards) == count
        assert all(abs(length - size * PX) <= 1 for _, length in cards)  # the card itself, ± 1 px
        for (start, length), (after, _) in zip(cards, cards[1:]):
            assert after - (start + length) >= 2 * bleed * PX - 1  # a real gutter: both bleeds whole
        first, last = runs(line[:cards[0][0]], 100, 160)[-1], runs(line[cards[-1][0] + cards[-1][1]:], 100, 160)[0]
        assert abs(first[1] - bleed * PX) <= 1 and abs(last[1] - bleed * PX) <= 1  # outer edges bleed too


@pytest.mark.parametrize("paper, bleed, backs", [("a4", 3, True), ("letter", 0, True), ("letter", 3, False)])
def test_marks_and_notes_stay_five_mm_inside_the_paper(paper: str, bleed: float, backs: bool) -> None:
    data = render_sheets(get_game("by-this"), paper, backs=backs, bleed=bleed)[0]
    pages = len(PdfReader(io.BytesIO(data)).pages)
    edge = int(MARGIN * PX) - 1
    for number in (1, 2, pages):  # a sheet, its back (or the next sheet), and a component page
        page = render(data, number)
        assert min(page.pixels) < 100  # something was drawn
        bands = [page.row(y) for y in (*range(edge), *range(page.height - edge, page.height))]
        bands += [page.column(x) for x in (*range(edge), *range(page.width - edge, page.width))]
        assert all(min(band) >= 250 for band in bands), f"page {number} prints within {MARGIN:g} mm of the edge"
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert "Print at 100 %" in text and "sheet 1 of" in text


def test_component_pages_follow_the_cards_one_a_copy_centred_and_named(fake_parts) -> None:
    data, summary = render_sheets(get_game("by-this"), "a4")
    assert (summary.cards, summary.sheets, summary.components, summary.pages) == (18, 2, 3, 5)
    reader = PdfReader(io.BytesIO(data))
    texts = [page.extract_text() for page in reader.pages]
    assert "Player board · 1 of 2 · By This" in texts[2] and "Player board · 2 of 2" in texts[3]
    assert "Token sheet · By This" in texts[4]
    page = render(data, 3, 50)
    scale = 50 / 25.4
    row = runs(page.row(page.height // 2), 0, 40)
    column = runs(page.column(page.width // 2), 0, 40)
    assert len(row) == len(column) == 1
    assert abs(row[0][1] - 180 * scale) <= 2 and abs(row[0][0] - 15 * scale) <= 2  # centred across
    assert abs(column[0][1] - 250 * scale) <= 2 and column[0][0] >= MARGIN * scale


def test_backs_give_each_component_a_blank_back(fake_parts) -> None:
    data, summary = render_sheets(get_game("by-this"), "a4", backs=True, parts="boards")
    assert (summary.cards, summary.components, summary.pages) == (0, 2, 4)
    texts = [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
    assert "Player board · 1 of 2" in texts[0] and "left blank" in texts[1]


@pytest.mark.parametrize("parts, pages", [("all", 5), ("cards", 2), ("board", 2), ("boards,tokens", 3),
                                          ("tokens, cards", 3)])
def test_parts_choose_what_is_printed(fake_parts, parts: str, pages: int) -> None:
    assert render_sheets(get_game("by-this"), "a4", parts=parts)[1].pages == pages


def test_an_unknown_part_is_one_line_naming_the_kinds(fake_parts, cli, tmp_path: Path) -> None:
    with pytest.raises(TablepressError, match="cards, board, tokens"):
        render_sheets(get_game("by-this"), "a4", parts="dice")
    result = cli("print", "by-this", "-o", str(tmp_path / "x.pdf"), "--parts", "dice")
    assert result.exit_code != 0 and "'dice'" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "x.pdf").exists()


def test_an_oversized_component_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    huge = Component("table", "Table", 1, Face([], 210, 297), "board")
    monkeypatch.setattr(sheets, "game_components", lambda game: [huge])
    with pytest.raises(TablepressError, match="larger than 200 × 265 mm"):
        render_sheets(get_game("flowers"), "a4", parts="board")


@pytest.mark.parametrize("name", game_names())
def test_every_game_component_is_printed_in_its_count(name: str) -> None:
    game = get_game(name)
    components = game_components(game)
    if not components:
        pytest.skip(f"{name} declares no components")
    data, summary = render_sheets(game, "letter", parts=",".join(sorted({c.kind for c in components})))
    assert summary.cards == 0
    assert summary.pages == summary.components == sum(component.copies for component in components)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    for component in components:
        assert component.name in text


def test_a_variant_is_named_on_every_card_and_footer(tmp_path: Path, cli) -> None:
    variant = tmp_path / "heavier.toml"
    variant.write_text("[things]\nAnt = [1, 1, 1, 9]\n", encoding="utf-8")
    out = tmp_path / "heavier.pdf"
    result = cli("print", "by-this", "-o", str(out), "--variant", str(variant), "--parts", "cards")
    assert result.exit_code == 0, result.output
    first = PdfReader(out).pages[0].extract_text()
    assert first.count("variant: heavier") == 9 + 1  # each card, and the footer
    plain = render_sheets(get_game("by-this"), "a4", parts="cards")[0]
    assert "variant" not in PdfReader(io.BytesIO(plain)).pages[0].extract_text()


def test_viewer_preferences_ask_for_no_scaling_and_the_duplex_flip() -> None:
    game = get_game("by-this")
    for backs, duplex, flip in ((True, "long", "/DuplexFlipLongEdge"), (True, "short", "/DuplexFlipShortEdge"),
                                (False, "long", None)):
        data = render_sheets(game, "a4", backs=backs, duplex=duplex, parts="cards")[0]
        preferences = PdfReader(io.BytesIO(data)).trailer["/Root"]["/ViewerPreferences"]
        assert preferences["/PrintScaling"] == "/None"
        assert preferences.get("/Duplex") == flip


@pytest.mark.parametrize("name", game_names())
def test_every_font_is_embedded(name: str) -> None:
    data = render_sheets(get_game(name), "a4", backs=True)[0]
    fonts = {}
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in page["/Resources"].get("/Font", {}).values():
            font = font.get_object()
            fonts[font["/BaseFont"]] = font
    assert fonts
    for base, font in fonts.items():
        descriptor = font["/FontDescriptor"].get_object()
        assert any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")), base


@pytest.mark.parametrize("name", ["by-this", "planted"])
def test_the_ink_saver_backs_and_fronts_are_much_lighter(name: str) -> None:
    game = get_game(name)
    dark = render_sheets(game, "a4", backs=True, parts="cards")[0]
    light = render_sheets(game, "a4", backs=True, ink_saver=True, parts="cards")[0]
    darkness = [[1 - render(data, number, 30).mean() / 255 for number in (1, 2)] for data in (dark, light)]
    (dark_front, dark_back), (light_front, light_back) = darkness
    assert light_back < dark_back / 2
    assert light_front < dark_front
