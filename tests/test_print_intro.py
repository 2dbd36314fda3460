"""The one-page intro: PDF (one page, A4 or Letter) and HTML, from each game's intro.toml."""

from __future__ import annotations

import io
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pypdf import PdfReader

from tablepress.core.errors import DataError
from tablepress.core.registry import game_names, get_game, get_package
from tablepress.printing import intro as intro_module
from tablepress.printing.intro import REQUIRED, intro_html, load_intro, render_intro_pdf

PRINTED = game_names()


@pytest.mark.parametrize("name", PRINTED)
@pytest.mark.parametrize("paper, size", [("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))])
def test_intro_is_one_page_with_every_part(name: str, paper: str, size: tuple[float, float]) -> None:
    reader = PdfReader(io.BytesIO(render_intro_pdf(get_game(name), paper)))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(size, abs=0.1)
    text = " ".join(page.extract_text().split())
    intro = load_intro(get_game(name))
    assert intro.title in text and "Thesis." in text
    for section in intro.sections:
        assert section.heading in text
    assert "Print-and-play:" in text


def test_by_this_intro_has_the_thesis_and_the_sample_turn() -> None:
    text = " ".join(PdfReader(io.BytesIO(render_intro_pdf(get_game("by-this")))).pages[0].extract_text().split())
    assert "same things living in many true orders" in text
    assert "Ant, Rice, Sand" in text and "Needle" in text and "Coffee (ABC 2)" in text
    assert "54 cards (40 things, 8 Keys, 4 specials, 2 table cards) on 6 sheets" in text


class _Sections(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "section":
            self.ids.append(dict(attrs).get("id") or "")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.mark.parametrize("name", PRINTED)
def test_intro_html_has_the_sections(name: str) -> None:
    page = intro_html(get_game(name))
    assert page.startswith("<!doctype html>")
    parser = _Sections()
    parser.feed(page)
    intro = load_intro(get_game(name))
    assert [section.id for section in intro.sections] == parser.ids
    if get_package(name).file("intro.toml"):
        assert set(REQUIRED) <= set(parser.ids)
    assert intro.title in "".join(parser.text)


def test_a_game_without_an_intro_file_gets_one_from_its_rules(monkeypatch, tmp_path: Path) -> None:
    """The default intro: title, players and summary, then the game's rules — still one page."""
    monkeypatch.setattr(intro_module, "intro_path", lambda game: tmp_path / "missing.toml")
    game = get_game("by-this")
    intro = load_intro(game)
    assert intro.title == game.title and intro.facts == "2–4 players" and intro.thesis == game.summary
    assert [section.id for section in intro.sections] == ["rules"]
    assert "Same Number" in intro.sections[0].text and "#" not in intro.sections[0].text.splitlines()[0]
    reader = PdfReader(io.BytesIO(render_intro_pdf(game)))
    assert len(reader.pages) == 1 and "How to play" in reader.pages[0].extract_text()


def test_cli_writes_the_intro_as_pdf_or_html(tmp_path: Path, cli) -> None:
    result = cli("print", "by-this", "--intro", "-o", str(tmp_path / "intro.pdf"), "--paper", "letter")
    assert result.exit_code == 0, result.output
    assert len(PdfReader(str(tmp_path / "intro.pdf")).pages) == 1
    result = cli("print", "flowers", "--intro", "-o", str(tmp_path / "intro.html"))
    assert result.exit_code == 0, result.output
    assert "<h1>Flowers</h1>" in (tmp_path / "intro.html").read_text("utf-8")
    result = cli("print", "flowers", "--intro", "--backs", "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code != 0 and "--intro prints one page" in result.output


def test_an_intro_missing_a_section_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "intro.toml"
    path.write_text('title = "X"\nthesis = "Y"\n[[section]]\nid = "box"\nheading = "Box"\ntext = "cards"\n',
                    encoding="utf-8")
    monkeypatch.setattr(intro_module, "intro_path", lambda game: path)
    with pytest.raises(DataError, match="no section with id 'start'"):
        load_intro(get_game("flowers"))


def test_example_cards_are_drawn_from_the_faces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    html_page = intro_html(get_game("flowers"))
    assert html_page.count("<svg") == 10  # the example area: ten cards
    pdf_text = PdfReader(io.BytesIO(render_intro_pdf(get_game("by-this")))).pages[0].extract_text()
    assert "Needle" in pdf_text.split("Sample turn")[1]  # the drawn shelf carries the cards' own text
    path = tmp_path / "intro.toml"
    sections = "".join(f'[[section]]\nid = "{name}"\nheading = "{name}"\ntext = "x"\n' for name in REQUIRED)
    path.write_text(f'title = "X"\nthesis = "Y"\n{sections}cards = ["Y4 Q9"]\n', encoding="utf-8")
    monkeypatch.setattr(intro_module, "intro_path", lambda game: path)
    with pytest.raises(DataError, match="shows card 'Q9'"):
        render_intro_pdf(get_game("flowers"))


def test_the_contents_line_counts_the_component_pages_too() -> None:
    from tablepress.printing.intro import contents_line

    line = contents_line(get_game("planted"))
    assert "144 cards" in line and "on 16 sheets of 9, and 7 pages (board, tokens)" in line
    assert "and 1 page (scorebook)" in contents_line(get_game("flowers"))
