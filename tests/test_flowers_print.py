"""Flowers at the printed table: the scorebook page, and the intro's statements checked against the rules."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from tablepress.core.registry import get_game
from tablepress.faces.catalog import card_faces, game_components
from tablepress.faces.fonts import register, width_mm
from tablepress.faces.model import COMPONENT_HEIGHT, COMPONENT_WIDTH, Face, Line, Text
from tablepress.faces.pdf import draw_face
from tablepress.games.flowers.components import scoring_rows
from tablepress.games.flowers.scoring import AreaScore, score_area
from tablepress.printing.intro import load_intro

WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "eight": 8, "ten": 10}


def number(word: str) -> int:
    """A count written as digits or as a word."""
    return int(word) if word.isdigit() else WORDS[word.lower()]


def scorebook(game=None):
    """The Flowers scorebook component."""
    (book,) = [c for c in game_components(game or get_game("flowers")) if c.kind == "scorebook"]
    return book


def section(name: str, game=None) -> str:
    """One intro section's text, on one line."""
    intro = load_intro(game or get_game("flowers"))
    return " ".join(next(s for s in intro.sections if s.id == name).text.split())


def texts_fit(face: Face) -> None:
    """Every text lies inside the face, with its full width."""
    for shape in face.shapes:
        if isinstance(shape, Text):
            width = width_mm(shape.text, shape.size, shape.bold)
            start = shape.x - {"start": 0.0, "middle": width / 2, "end": width}[shape.anchor]
            assert 0 <= start and start + width <= face.width, shape.text
            assert 0 < shape.y <= face.height, shape.text
            assert shape.size >= 7.0, shape.text


def test_the_scorebook_is_one_page_that_fits_inside_the_margins() -> None:
    book = scorebook()
    assert (book.key, book.kind, book.copies) == ("scorebook", "scorebook", 1)
    assert book.face.width <= COMPONENT_WIDTH and book.face.height <= COMPONENT_HEIGHT
    texts_fit(book.face)
    games = [t for t in book.face.texts() if re.fullmatch(r"Game \d+", t)]
    assert len(games) >= 3
    columns = [s for s in book.face.shapes if isinstance(s, Line) and s.x1 == s.x2]
    assert len(columns) == (get_game("flowers").max_players + 1) * len(games)


def test_every_colour_has_a_row_with_its_letter_and_symbol() -> None:
    game = get_game("flowers")
    rows = scoring_rows(game)
    for code, name in game.cards.colour_names.items():
        row = next(r for r in rows if name in r.label)
        assert row.label.startswith(f"{code} ") and row.mark is not None
    assert len({r.mark for r in rows if r.mark}) == len(game.cards.colour_names)
    assert rows[-1].total and rows[-1].label == "Total"


def row_points(hint: str) -> int:
    """What one counted card of a row is worth, read from its printed hint."""
    sign, points = re.fullmatch(r"([+−])(\d+) each", hint).groups()
    return int(points) * (-1 if sign == "−" else 1)


def fill_in(game, result: AreaScore, area) -> dict[str, int]:
    """What a player writes in each row for a scored area (the counts, before the row's worth)."""
    cards = game.cards
    tops = {stack[-1] for stack in area.values()}
    counts = {"Discarded: top cards of wrong-size groups": sum(1 for c in result.discarded if c in tops),
              "Discarded: cards beneath them": sum(1 for c in result.discarded if c not in tops),
              "Butterflies touching their colour": len(result.butterflies)}
    for code, name in cards.colour_names.items():
        counts[f"{code} {name} regions of {cards.region_min}+: cards"] = sum(
            size for col, size in result.regions if col == code)
    return counts


def area_of(game, rows: list[str]) -> dict:
    """A play area from rows of codes (stacks bottom first, "/" between), one card id per code."""
    pool = Counter()
    area = {}
    for y, row in enumerate(rows):
        for x, cell in enumerate(row.split()):
            if cell == ".":
                continue
            stack = []
            for code in cell.split("/"):
                ids = [i for i, c in enumerate(game.cards.codes) if c == code]
                stack.append(ids[pool[code]])
                pool[code] += 1
            area[(x, y)] = stack
    return area


@pytest.mark.parametrize("rows, total", [
    (["B4 B4 R3 R3", "B4 B4 R3 R2", ". R1 . R2"], 5),
    (["G4 G4 Y3/G4 G4 G4", "Y1 . Y1 . Y2"], -7),
    (["Y4b B1", "Y4 Y4", "Y4 ."], 1),
    (["R1 R1 G4r"], -3),
])
def test_the_scorebook_rows_add_up_to_the_worked_examples(rows: list[str], total: int) -> None:
    game = get_game("flowers")
    area = area_of(game, rows)
    result = score_area(area, game.cards)
    assert result.total == total
    counts = fill_in(game, result, area)
    written = {r.label: r.hint for r in scoring_rows(game) if not r.total}
    assert set(written) == set(counts)
    assert sum(counts[label] * row_points(hint) for label, hint in written.items()) == total


def test_a_variant_changes_the_scorebook() -> None:
    game = get_game("flowers").with_variant({"colours": {"P": "Pink"}, "scoring": {"region_min": 6},
                                             "stacks": {"2": [20, 20, 20]}})
    texts = scorebook(game).face.texts()
    assert "P Pink regions of 6+: cards" in texts
    assert any("2 players: 20 + 20 + 20" in t for t in texts)
    texts_fit(scorebook(game).face)


def test_the_scorebook_prints_inside_the_printable_zone(tmp_path: Path) -> None:
    register()
    book = scorebook()
    pdf = tmp_path / "book.pdf"
    canvas = Canvas(str(pdf), pagesize=(210 * mm, 297 * mm))
    left, top = (210 - book.face.width) / 2, (297 - book.face.height) / 2
    draw_face(canvas, book.face, left, top, 297)
    canvas.save()
    subprocess.run(["pdftoppm", "-r", "50", "-gray", "-singlefile", str(pdf), str(tmp_path / "page")], check=True)
    data = (tmp_path / "page.pgm").read_bytes()
    header, pixels = data.split(b"\n", 3)[:3], data.split(b"\n", 3)[3]
    width, height = (int(n) for n in header[1].split())
    margin = round(5 / 25.4 * 50)
    rows = [pixels[y * width:(y + 1) * width] for y in range(height)]
    inked = [(x, y) for y, row in enumerate(rows) for x, value in enumerate(row) if value < 128]
    assert inked
    assert all(margin <= x < width - margin and margin <= y < height - margin for x, y in inked)


def test_the_intro_box_matches_the_card_data() -> None:
    game = get_game("flowers")
    cards = game.cards
    box = section("box")
    coloured = Counter(cards.colour[c] for c in cards.coloured)
    assert f"**{len(cards.coloured)} cards** in {number_word(len(cards.colour_names))} colours" in box
    for code, name in cards.colour_names.items():
        assert f"{name} ({code})" in box
    (per_colour,) = set(coloured.values())
    assert f"{per_colour} per colour" in box
    printed = {int(value): number(word) for word, value in re.findall(rf"\b({'|'.join(WORDS)}) (\d)s\b", box)}
    assert printed == dict(Counter(cards.value[c] for c in cards.coloured if cards.colour[c] == "Y"))
    wings = re.search(r"(\w+) of each colour's 4s carry a \*\*butterfly\*\*", box).group(1)
    assert {number(wings)} == set(Counter(cards.colour[c] for c, w in enumerate(cards.butterfly) if w).values())
    assert f"**{len(cards.violets)} violet start cards**" in box
    assert sum(c.copies for c in card_faces(game)) == len(cards.codes)
    assert "**scorebook**" in box


def number_word(count: int) -> str:
    """A small count as the intro writes it."""
    return {value: word for word, value in WORDS.items()}[count]


def test_the_intro_sets_up_every_player_count() -> None:
    game = get_game("flowers")
    start = section("start")
    said = {1 if who == "solo" else int(who): (number(stacks), int(size))
            for who, stacks, size in re.findall(r"(\d|solo)(?: players)?: (\w+) of (\d+)", start)}
    everything = re.search(r"(\d) players: all the cards in (\w+) stacks", start)
    for players in range(game.min_players, game.max_players + 1):
        spec = game.cards.stack_sizes[players]
        if spec == "rest":
            assert int(everything.group(1)) == players and number(everything.group(2)) == 3
        else:
            assert said[players] == (len(spec), spec[0]) and len(set(spec)) == 1, players
    facts = load_intro(game).facts
    assert f"{game.min_players}–{game.max_players} players" in facts


def test_the_intro_example_scores_what_it_says() -> None:
    game = get_game("flowers")
    example = next(s for s in load_intro(game).sections if s.id == "example")
    claimed = int(re.search(r"scores \*\*(-?\d+)\*\*", example.text).group(1))
    area = area_of(game, [" ".join(row) for row in example.cards])
    result = score_area(area, game.cards)
    assert result.total == claimed
    assert f"region of {game.cards.region_min}" in example.text and not result.discarded


def test_the_intro_scoring_numbers_match_the_rules() -> None:
    cards = get_game("flowers").cards
    end = section("end")
    assert f"−{abs(cards.discard_points)} a card" in end
    assert f"**{cards.region_min} or more**" in end
    assert f"scores {cards.butterfly_points}." in end
    assert "ties go to fewer discarded cards" in end
