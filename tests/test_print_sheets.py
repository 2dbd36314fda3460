"""Print-and-play sheets: page counts per game and paper, page sizes, backs, card text in the PDF,
variants, bleed and crop-mark layout, duplex mirroring, and a rendered page that is not blank."""

from __future__ import annotations

import io
import math
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from pypdf import PdfReader

from tablepress.core.errors import TablepressError
from tablepress.core.registry import game_names, get_game, get_package
from tablepress.printing.layout import back_slot
from tablepress.printing.sheets import render_sheets

GAMES_DIR = Path(__file__).resolve().parent.parent / "tablepress" / "games"
PT_PER_MM = 72 / 25.4
SIZES_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
#: Cards in the published data and the A4/Letter sheets they need (9 a sheet).
#: Each game's printed cards (declared in its package) and the 9-card sheets they fill.
EXPECTED = {name: (cards, -(-cards // 9)) for name in game_names()
            if (cards := get_package(name).expectations.printed_cards) is not None}


def read(data: bytes) -> PdfReader:
    """A PDF reader over bytes."""
    return PdfReader(io.BytesIO(data))


def text_of(data: bytes) -> str:
    """All the text of a PDF."""
    return "\n".join(page.extract_text() for page in read(data).pages)


@pytest.fixture(scope="module")
def by_this_a4() -> bytes:
    """By This's cards on A4, fronts only."""
    return render_sheets(get_game("by-this"), "a4", parts="cards")[0]


def test_the_bar_by_this_six_a4_pages_twelve_letter_pages_with_backs(by_this_a4: bytes) -> None:
    reader = read(by_this_a4)
    assert len(reader.pages) == 6
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(SIZES_PT["a4"][0], abs=0.1)
        assert float(page.mediabox.height) == pytest.approx(SIZES_PT["a4"][1], abs=0.1)
    letter = read(render_sheets(get_game("by-this"), "letter", backs=True, parts="cards")[0])
    assert len(letter.pages) == 12
    for page in letter.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(SIZES_PT["letter"], abs=0.1)


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_counts_per_game_and_paper(name: str, paper: str) -> None:
    cards, sheets = EXPECTED[name]
    data, summary = render_sheets(get_game(name), paper, parts="cards")
    assert (summary.cards, summary.sheets, summary.pages, summary.per_sheet) == (cards, sheets, sheets, 9)
    reader = read(data)
    assert len(reader.pages) == sheets
    first = reader.pages[0].mediabox
    assert (float(first.width), float(first.height)) == pytest.approx(SIZES_PT[paper], abs=0.1)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_backs_double_the_pages(name: str) -> None:
    cards, _ = EXPECTED[name]
    data, summary = render_sheets(get_game(name), "a4", backs=True, bleed=3, parts="cards")
    sheets = -(-cards // summary.per_sheet)
    assert summary.per_sheet == 8  # 9 do not fit with a 3 mm bleed and real gutters
    assert summary.pages == 2 * sheets
    reader = read(data)
    assert len(reader.pages) == 2 * sheets
    assert "Backs" in reader.pages[1].extract_text()
    assert "Backs" not in reader.pages[0].extract_text()


def test_card_counts_come_from_the_data_files() -> None:
    flowers = tomllib.loads((GAMES_DIR / "flowers" / "cards.toml").read_text("utf-8"))
    per_colour = sum(flowers["copies"].values())
    assert EXPECTED["flowers"][0] == per_colour * len(flowers["colours"]) + flowers["violet"]["copies"]
    pressed = tomllib.loads((GAMES_DIR / "pressed" / "cards.toml").read_text("utf-8"))
    assert EXPECTED["pressed"][0] == sum(f["copies"] for f in pressed["flowers"].values())
    by_this = tomllib.loads((GAMES_DIR / "by_this" / "cards.toml").read_text("utf-8"))
    assert EXPECTED["by-this"][0] == (len(by_this["things"]) + len(by_this["keys"]) + len(by_this["table_cards"])
                                      + sum(s["copies"] for s in by_this["specials"]))
    planted = tomllib.loads((GAMES_DIR / "planted" / "cards.toml").read_text("utf-8"))
    assert EXPECTED["planted"][0] == (sum(e["copies"] for k in ("resources", "tools", "decorations")
                                          for e in planted[k]) + len(planted["plants"]))
    for name, (cards, sheets) in EXPECTED.items():
        assert sheets == math.ceil(cards / 9), name


def test_by_this_text_has_every_thing_with_its_four_numbers_keys_specials_and_table_cards(by_this_a4: bytes) -> None:
    data = tomllib.loads((GAMES_DIR / "by_this" / "cards.toml").read_text("utf-8"))
    text = text_of(by_this_a4)
    for name, (abc, size, weight, age) in data["things"].items():
        assert f"{name}: ABC {abc} · Size {size} · Weight {weight} · Age {age}" in text
    for key in data["keys"]:
        assert key["from"] in text and key["to"] in text
        assert key["word"].upper() in text
    for special in data["specials"]:
        assert special["name"] in text
    assert "SHELF" in text and "FLOOR" in text
    assert "Print at 100 %" in text


def test_flowers_text_has_codes_values_and_butterflies() -> None:
    text = text_of(render_sheets(get_game("flowers"), "a4")[0])
    for code in ("Y1", "R2", "B3", "G4", "Y4g", "R4b", "B4y", "G4r", "V"):
        assert code in text
    assert "YELLOW" in text and "GREEN" in text
    assert "butterfly: Green (G)" in text


def test_pressed_text_has_flowers_counts_and_tables() -> None:
    text = text_of(render_sheets(get_game("pressed"), "a4")[0])
    for word in ("Zinnia", "Sunflower", "Baby's Breath", "Chrysanthemum", "Tulip", "Daisies", "different flowers",
                 "×8+", "32", "shortest"):
        assert word in text


def test_planted_text_has_numbers_plants_tools_and_decorations() -> None:
    text = text_of(render_sheets(get_game("planted"), "a4")[0])
    for word in ("Monstera", "Boston Fern", "FOLIAGE", "Watering Can", "Workbench", "Macramé Hanger",
                 "3 Light", "102", "EACH GROWTH"):
        assert word in text


def test_a_variant_changes_what_is_printed(tmp_path: Path, cli) -> None:
    variant = tmp_path / "heavier.toml"
    variant.write_text("[things]\nAnt = [1, 1, 1, 9]\nMountain = [5, 10, 9, 10]\n", encoding="utf-8")
    out = tmp_path / "heavier.pdf"
    result = cli("print", "by-this", "-o", str(out), "--variant", str(variant))
    assert result.exit_code == 0, result.output
    text = text_of(out.read_bytes())
    assert "Ant: ABC 1 · Size 1 · Weight 1 · Age 9" in text
    assert "Mountain: ABC 5 · Size 10 · Weight 9 · Age 10" in text
    assert "Ant: ABC 1 · Size 1 · Weight 1 · Age 8" not in text


def test_a_variant_with_more_copies_prints_more_pages(tmp_path: Path, cli) -> None:
    variant = tmp_path / "zinnias.toml"
    variant.write_text("[flowers.Zinnia]\ncopies = 19\n", encoding="utf-8")
    out = tmp_path / "zinnias.pdf"
    result = cli("print", "pressed", "-o", str(out), "--variant", str(variant), "--parts", "cards")
    assert result.exit_code == 0, result.output
    assert len(read(out.read_bytes()).pages) == 11  # 99 cards
    assert text_of(out.read_bytes()).count("ZI\n") == 19


def test_a_pressed_variant_table_is_printed() -> None:
    game = get_game("pressed").with_variant({"flowers": {"Zinnia": {"table": [0, 0, 9, 14, 20, 26, 32, 77]}}})
    assert "77" in text_of(render_sheets(game, "a4")[0])
    assert "77" not in text_of(render_sheets(get_game("pressed"), "a4")[0])


def test_a_broken_variant_is_one_clear_line(tmp_path: Path, cli) -> None:
    variant = tmp_path / "bad.toml"
    variant.write_text("[thingz]\n", encoding="utf-8")
    result = cli("print", "by-this", "-o", str(tmp_path / "x.pdf"), "--variant", str(variant))
    assert result.exit_code != 0
    assert "bad.toml" in result.output and "thingz" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("args, words", [
    (["--paper", "a3"], "a4 or letter"),
    (["--bleed", "9"], "--bleed"),
    (["--backs", "--duplex", "sideways"], "long or short"),
])
def test_bad_options_are_one_clear_line(tmp_path: Path, cli, args: list[str], words: str) -> None:
    result = cli("print", "by-this", "-o", str(tmp_path / "x.pdf"), *args)
    assert result.exit_code != 0
    assert words in result.output
    assert "Traceback" not in result.output


def test_unknown_game_and_unwritable_file(tmp_path: Path, cli) -> None:
    result = cli("print", "chess", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code != 0 and "unknown game" in result.output
    result = cli("print", "flowers", "-o", str(tmp_path / "missing" / "x.pdf"))
    assert result.exit_code != 0 and "cannot write" in result.output


def test_duplex_backs_mirror_the_grid() -> None:
    assert [back_slot(i, "long") for i in range(9)] == [2, 1, 0, 5, 4, 3, 8, 7, 6]
    assert [back_slot(i, "short") for i in range(9)] == [6, 7, 8, 3, 4, 5, 0, 1, 2]
    with pytest.raises(TablepressError):
        back_slot(0, "sideways")


def _grey_pixels(path: Path) -> tuple[int, int, bytes]:
    """Width, height and pixels of a binary PGM (P5) written by pdftoppm -gray."""
    data = path.read_bytes()
    fields: list[bytes] = []
    index = 0
    while len(fields) < 4:
        while data[index:index + 1].isspace():
            index += 1
        start = index
        while not data[index:index + 1].isspace():
            index += 1
        fields.append(data[start:index])
    assert fields[0] == b"P5"
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[index + 1:index + 1 + width * height]


def test_a_rendered_page_is_not_blank(tmp_path: Path) -> None:
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm, "pdftoppm is missing: run scripts/ensure-debian-packages poppler-utils:pdftoppm (make test does) or install poppler-utils"
    pdf = tmp_path / "by-this.pdf"
    pdf.write_bytes(render_sheets(get_game("by-this"), "letter", backs=True, bleed=3)[0])
    subprocess.run([pdftoppm, "-r", "30", "-gray", "-f", "1", "-l", "2", str(pdf), str(tmp_path / "page")],
                   check=True, timeout=60)
    pages = sorted(tmp_path.glob("page-*.pgm"))
    assert len(pages) == 2
    for number, page in enumerate(pages):
        width, height, pixels = _grey_pixels(page)
        assert (width, height) == (255, 330)  # 8.5 × 11 inches at 30 dpi
        inked = sum(1 for value in pixels if value < 250)
        dark = sum(1 for value in pixels if value < 60)
        assert inked > 0.3 * len(pixels)  # six cards (and their bleed) cover much of the sheet
        if number == 0:
            assert dark > 0.005 * len(pixels)  # and the fronts carry dark text and outlines
    assert _grey_pixels(pages[0])[2] != _grey_pixels(pages[1])[2]


def test_list_shows_every_card_with_its_printed_quantity(cli, tmp_path: Path) -> None:
    result = cli("print", "pressed", "--list")
    assert result.exit_code == 0, result.output
    assert "Pressed — 90 cards, 10 sheets of 9" in result.output
    assert any("Zinnia" in line and line.rstrip("│ ").endswith("10") for line in result.output.splitlines())
    variant = tmp_path / "zinnias.toml"
    variant.write_text("[flowers.Zinnia]\ncopies = 19\n", encoding="utf-8")
    result = cli("print", "pressed", "--list", "--variant", str(variant))
    assert "Pressed — 99 cards, 11 sheets of 9" in result.output
    result = cli("print", "pressed")
    assert result.exit_code != 0 and "-o FILE.pdf" in result.output
