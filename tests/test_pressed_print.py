"""Pressed print-and-play: faces that read in greyscale, the card anatomy, the scoreboard and markers, and an
intro whose every statement agrees with the card data."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from tablepress.core.registry import get_game
from tablepress.faces.catalog import card_faces, game_components
from tablepress.faces.fonts import PT, width_mm
from tablepress.faces.model import CARD_HEIGHT, CARD_WIDTH, COMPONENT_HEIGHT, COMPONENT_WIDTH, Face, Text
from tablepress.faces.pdf import draw_face
from tablepress.games.pressed import components
from tablepress.games.pressed.faces import FOOT_Y, ICON_CX, ICON_CY, ICON_R, MIN_TEXT
from tablepress.games.pressed.scoring import plant_score
from tablepress.printing.intro import load_intro

GAME = get_game("pressed")
DPI = 100
NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5}


def render_gray(faces: list[Face], tmp_path: Path) -> list[Image.Image]:
    """Each face on its own page of a PDF, rasterised by pdftoppm in greyscale."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm is not installed")
    pdf = tmp_path / "faces.pdf"
    canvas = Canvas(str(pdf), pagesize=(CARD_WIDTH * mm, CARD_HEIGHT * mm))
    for face in faces:
        draw_face(canvas, face, 0, 0, CARD_HEIGHT)
        canvas.showPage()
    canvas.save()
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-png", str(pdf), str(tmp_path / "face")], check=True)
    return [Image.open(path).convert("L") for path in sorted(tmp_path.glob("face-*.png"))]


def section(name: str) -> str:
    """The text of one intro section, bold marks removed."""
    return next(s.text for s in load_intro(GAME).sections if s.id == name).replace("**", "")


def names_in(phrase: str) -> set[str]:
    """The flower names in 'A, B, C and D'."""
    return {name for name in GAME.cards.names if re.search(rf"\b{re.escape(name)}\b", phrase)}


# ----- faces --------------------------------------------------------------------------------------
def test_every_flower_icon_is_distinct_in_greyscale(tmp_path: Path) -> None:
    cards = card_faces(GAME)
    pages = render_gray([card.front for card in cards], tmp_path)
    px = DPI / 25.4
    box = tuple(round(v * px) for v in (ICON_CX - ICON_R, ICON_CY - ICON_R, ICON_CX + ICON_R, ICON_CY + ICON_R))
    icons = [page.crop(box) for page in pages]
    assert len(icons) == len(cards) == 11
    for (a, first), (b, second) in combinations(zip(cards, icons), 2):
        difference = ImageStat.Stat(ImageChops.difference(first, second)).mean[0]
        assert difference > 20, (a.name, b.name, difference)


def test_every_text_is_at_least_seven_point_and_titles_line_up() -> None:
    starts = set()
    for card in card_faces(GAME):
        texts = [shape for shape in card.front.shapes if isinstance(shape, Text)]
        assert all(text.size >= MIN_TEXT for text in texts), [(t.text, t.size) for t in texts if t.size < MIN_TEXT]
        title = next(text for text in texts if text.text == card.name)
        starts.add((title.x, title.y, title.anchor))
    assert len(starts) == 1


def test_each_card_shows_its_copies_and_deck_mark() -> None:
    cards = GAME.cards
    for card in card_faces(GAME):
        kind = cards.codes.index(card.key)
        texts = card.front.texts()
        assert f"{cards.copies[kind]} in deck" in texts
        if card.name in cards.electives:
            assert "ELECTIVE" in texts
        elif card.name in cards.decks[2]:
            assert "2+ PLAYERS" in texts
        else:
            assert card.name in cards.decks[3] and "3+ PLAYERS" in texts


def test_effect_text_ends_above_the_foot_of_the_card() -> None:
    for card in card_faces(GAME):
        texts = [t for t in card.front.shapes if isinstance(t, Text)]
        foot = next(t.y for t in texts if t.text.endswith("in deck"))
        above = [t for t in texts if t.y != foot]
        assert max(t.y + 0.3 * t.size * PT for t in above) < FOOT_Y - 1.5, card.name


def test_a_variant_marks_its_cards_and_counts() -> None:
    game = GAME.with_variant({"flowers": {"Tulip": {"copies": 8}}})
    tulip = next(card for card in card_faces(game) if card.key == "TU").front.texts()
    assert "8 in deck" in tulip and "VARIANT CARDS" in tulip
    assert "VARIANT CARDS" not in next(card for card in card_faces(GAME) if card.key == "TU").front.texts()


# ----- components -----------------------------------------------------------------------------------
def fits(face: Face) -> None:
    assert face.width <= COMPONENT_WIDTH and face.height <= COMPONENT_HEIGHT
    for shape in face.shapes:
        if isinstance(shape, Text):
            width = width_mm(shape.text, shape.size, shape.bold)
            start = shape.x - {"start": 0.0, "middle": width / 2, "end": width}[shape.anchor]
            assert 0 <= start and start + width <= face.width and 0 <= shape.y <= face.height, shape.text


def test_the_scoreboard_is_a_zero_to_forty_nine_track() -> None:
    parts = {part.key: part for part in game_components(GAME)}
    board = parts["scoreboard"]
    fits(board.face)
    numbers = Counter(text for text in board.face.texts() if text.isdigit())
    assert numbers == Counter(str(score) for score in range(50))
    assert board.copies == 1 and board.kind == "track"
    spaces = [components.track_space(score) for score in range(50)]
    assert len(set(spaces)) == 50
    for before, after in zip(spaces, spaces[1:]):  # neighbours on the track touch
        assert abs(before[0] - after[0]) + abs(before[1] - after[1]) == pytest.approx(components.SPACE)


def test_two_markers_a_player_and_the_hundred_marker() -> None:
    sheet = next(part for part in game_components(GAME) if part.key == "markers")
    fits(sheet.face)
    texts = Counter(sheet.face.texts())
    players = max(GAME.cards.decks)
    assert texts["+50"] == 2 * players and texts["+100"] == 1 and texts["+150"] == 1
    for name, _, _ in components.PLAYERS[:players]:
        assert texts[name] == 2


# ----- intro ----------------------------------------------------------------------------------------
def test_the_intro_box_matches_the_card_data() -> None:
    cards = GAME.cards
    text = section("box")
    assert f"{sum(cards.copies)} flower cards, {len(cards.names)} flowers" in text
    groups = re.findall(r"([A-Z][\w' ,]+?): (\d+) (?:copies )?each", text)
    assert groups
    told = {name: int(count) for phrase, count in groups for name in names_in(phrase)}
    assert told == dict(zip(cards.names, cards.copies))
    players = max(cards.decks)
    assert f"{components.MARKERS_EACH * players + 1} score markers" in text
    each = re.search(r"(\w+) a player in (\d+) colours", text)
    assert each and NUMBERS[each.group(1)] == components.MARKERS_EACH and int(each.group(2)) == players
    assert f"0–{components.TRACK - 1} track" in text


def test_the_intro_deck_matches_the_card_data() -> None:
    cards = GAME.cards
    text = section("start")
    two = re.search(r"2 players — ([^;]+) and (\w+) electives;", text)
    assert two and names_in(two.group(1)) == set(cards.decks[2]) - {"electives"}
    assert NUMBERS[two.group(2)] == cards.elective_count
    three = re.search(r"3 players — add ([^;]+);", text)
    assert three and names_in(three.group(1)) == set(cards.decks[3]) - set(cards.decks[2])
    assert "4–5 players — every card" in text and cards.decks[4] == cards.decks[5] == ("all",)
    first = re.search(r"first game the electives are ([^.]+)\.", text)
    assert first and names_in(first.group(1)) == set(cards.default_electives)


def test_the_intro_round_matches_the_card_data() -> None:
    cards = GAME.cards
    text = section("turn")
    assert f"(play {cards.rounds})" in next(s.heading for s in load_intro(GAME).sections if s.id == "turn")
    assert f"deal {cards.hand} cards" in text and f"({cards.hand} turns each)" in text
    assert f"keep {cards.press} of the cards" in text


def test_the_intro_draws_and_states_every_bed() -> None:
    cards = GAME.cards
    bed = next(s for s in load_intro(GAME).sections if s.id == "bed")
    text = bed.text.replace("**", "")
    width = sum(cards.columns(p) for p in cards.players()) + len(cards.players()) - 1
    assert len(bed.cards) == max(len(cards.beds[p]) for p in cards.players())
    assert all(len(row) == width for row in bed.cards)
    left = 0
    for players in cards.players():
        columns = cards.columns(players)
        drawn = {(r, c) for r, row in enumerate(bed.cards) for c, key in enumerate(row[left:left + columns])
                 if key != "."}
        assert drawn == set(cards.bed_cells(players)), players
        assert all(row[left + columns] == "." for row in bed.cards if left + columns < width)
        left += columns + 1
        rows = ", ".join(str(last - first + 1) for first, last in cards.beds[players])
        size = len(cards.bed_cells(players))
        assert re.search(rf"{players} players — {columns} columns, rows of {rows}( cards)? \({size}( in all)?\)", text)


def test_the_intro_example_is_a_bed_that_scores_as_it_says() -> None:
    cards = GAME.cards
    example = next(s for s in load_intro(GAME).sections if s.id == "example")
    players = int(re.match(r"A (\d)-player bed", example.text).group(1))
    grid = [[None if key == "." else cards.code_kind[key] for key in row] for row in example.cards]
    assert len(grid[0]) == cards.columns(players)
    start = set(cards.bed_cells(players))
    bed: list[list[int]] = [[] for _ in range(cards.columns(players))]
    for row, column in sorted(start):
        bed[column].append(grid[row][column])
    scores = []
    planted = sorted(((r, c) for r, row in enumerate(grid) for c, kind in enumerate(row)
                      if kind is not None and (r, c) not in start))
    for row, column in planted:
        assert len(bed[column]) == row  # planted under the lowest card of its column
        scores.append(plant_score(bed, column, grid[row][column], cards).points)
        bed[column].append(grid[row][column])
    assert len(planted) == NUMBERS[re.search(r"after (\w+) plants", example.text).group(1)]
    assert [int(n) for n in re.findall(r"\*\*(\d+)\*\*", example.text)] == [scores[0], scores[-1]]
    assert [cards.names[grid[r][c]] for r, c in (planted[0], planted[-1])] == ["Lily", "Hydrangea"]
