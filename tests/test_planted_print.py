"""Planted's print-and-play parts: boards and token sheets from the card data, fanned-hand indices on
resource cards, and an intro whose numbers and names agree with the card data."""

from __future__ import annotations

import re
import shutil
import subprocess
from itertools import combinations
from pathlib import Path

import pytest
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from tablepress.core.errors import DataError
from tablepress.core.registry import get_game
from tablepress.faces.catalog import card_faces, game_components
from tablepress.faces.fonts import PT, width_mm
from tablepress.faces.model import (COMPONENT_HEIGHT, COMPONENT_WIDTH, Circle, Component, Face, Line, Rect, Shape,
                                    Text)
from tablepress.faces.pdf import draw_face
from tablepress.games.planted.cards import LETTERS, load_data
from tablepress.games.planted.components import resource_token, token_counts
from tablepress.games.planted.engine import PlantedGame
from tablepress.printing.intro import load_intro

GAME = get_game("planted")


def parts(game: PlantedGame = GAME) -> dict[str, Component]:
    return {part.key: part for part in game_components(game)}


def bounds(shape: Shape) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the ink of a shape (strokes included), text measured with the face fonts."""
    if not isinstance(shape, Text):
        half = shape.width / 2 if isinstance(shape, Line) or shape.stroke else 0.0
        if isinstance(shape, Rect):
            box = shape.x, shape.y, shape.x + shape.w, shape.y + shape.h
        elif isinstance(shape, Circle):
            box = shape.cx - shape.r, shape.cy - shape.r, shape.cx + shape.r, shape.cy + shape.r
        elif isinstance(shape, Line):
            box = min(shape.x1, shape.x2), min(shape.y1, shape.y2), max(shape.x1, shape.x2), max(shape.y1, shape.y2)
        else:
            xs, ys = [x for x, _ in shape.points], [y for _, y in shape.points]
            box = min(xs), min(ys), max(xs), max(ys)
        return box[0] - half, box[1] - half, box[2] + half, box[3] + half
    width = width_mm(shape.text, shape.size, shape.bold)
    left = {"start": shape.x, "middle": shape.x - width / 2, "end": shape.x - width}[shape.anchor]
    return left, shape.y - shape.size * PT * 0.75, left + width, shape.y + shape.size * PT * 0.25


def variant(**game: int) -> PlantedGame:
    return PlantedGame(load_data({"game": game}))


def test_every_part_a_table_needs_is_there() -> None:
    found = parts()
    assert set(found) == {"nursery-plants", "nursery-decks", "player-boards", "resource-tokens", "growth-tokens"}
    assert {part.kind for part in found.values()} == {"board", "tokens"}
    boards = found["player-boards"]
    assert boards.face.texts().count("PLANTED · PLAYER BOARD") * boards.copies >= GAME.max_players
    assert found["nursery-plants"].copies == found["nursery-decks"].copies == 1


@pytest.mark.parametrize("key", ["nursery-plants", "nursery-decks", "player-boards", "resource-tokens",
                                 "growth-tokens"])
def test_every_part_fits_its_page_and_every_shape_its_part(key: str) -> None:
    face = parts()[key].face
    assert face.width <= COMPONENT_WIDTH and face.height <= COMPONENT_HEIGHT
    for shape in face.shapes:
        left, top, right, bottom = bounds(shape)
        assert left >= -0.01 and top >= -0.01 and right <= face.width + 0.01 and bottom <= face.height + 0.01, shape


def test_each_player_board_holds_every_resource_with_its_4x_box_and_the_card_areas() -> None:
    texts = parts()["player-boards"].face.texts()
    boards = texts.count("PLANTED · PLAYER BOARD")
    assert boards == 2 and texts.count("4×") == boards * len(LETTERS)
    for name in ("LIGHT", "WATER", "PLANT FOOD", "GREEN THUMB"):
        assert texts.count(name) == boards
    joined = " ".join(texts)
    assert joined.count("PROPAGATION AREA") == boards and joined.count("TOOLS") == boards
    assert joined.count("DECORATIONS") == boards and "at most 6" in joined
    assert "round 1 left · round 2 right · round 3 left · round 4 right" in joined


def test_the_nursery_board_has_a_space_for_every_pile_and_the_row_follows_the_data() -> None:
    plants = parts()["nursery-plants"].face.texts()
    assert [t for t in plants if re.fullmatch(r"NURSERY \d+", t)] == [f"NURSERY {n}" for n in range(1, 5)]
    assert "PLANT DECK" in plants and "face down: 36 plants" in plants
    decks = parts()["nursery-decks"].face.texts()
    assert {"RESOURCE DECK", "RESOURCE DISCARD", "ITEM DECK", "ITEM DISCARD", "PUT AWAY"} <= set(decks)
    assert "face down: 60 cards" in decks and "face down: 42 tools and decorations" in decks
    assert [t for t in decks if t.startswith("pass ")] == ["pass ◄ left", "pass right ►"] * 2
    wider = parts(variant(nursery_row=5))["nursery-plants"].face.texts()
    assert "NURSERY 5" in wider
    with pytest.raises(DataError, match="nursery row of 6 does not fit"):
        game_components(variant(nursery_row=6))


def drawn_tokens(part: Component) -> dict[str, int]:
    """Tokens on all of a part's sheets, by the letter or number on them."""
    counts: dict[str, int] = {}
    for shape in part.face.shapes:
        if isinstance(shape, Text) and (shape.text in LETTERS or shape.text in ("1", "5")):
            counts[shape.text] = counts.get(shape.text, 0) + part.copies
    return counts


def test_token_sheets_hold_what_a_full_table_needs() -> None:
    # 5 seats × (18 of one resource at most: 4 in the 4× box + 3 loose); growth: 19 spaces + 4, and 5s
    # for 4 rounds × 18 leftovers ÷ 2.
    assert token_counts(GAME) == {"L": 35, "W": 35, "F": 35, "G": 35, "growth": 115, "growth5": 40}
    resources = drawn_tokens(parts()["resource-tokens"])
    assert all(resources[letter] >= 35 for letter in LETTERS) and set(resources) == set(LETTERS)
    growth = drawn_tokens(parts()["growth-tokens"])
    assert growth["1"] >= 115 and growth["5"] >= 40
    assert parts()["resource-tokens"].copies == parts()["growth-tokens"].copies == 1


def test_token_counts_follow_the_data() -> None:
    fewer_plants = token_counts(variant(max_plants=4))
    assert fewer_plants["growth"] == 5 * (4 + 3 * 3 + 4)
    bigger_hands = variant(hand_resources=12)
    assert token_counts(bigger_hands)["L"] == 5 * (12 * 3 // 4 + 3)
    assert drawn_tokens(parts(bigger_hands)["resource-tokens"])["L"] >= token_counts(bigger_hands)["L"]


def test_every_resource_card_has_a_fanned_index_of_what_it_gives() -> None:
    cards = GAME.cards
    for card in card_faces(GAME):
        if card.kind != "resource":
            continue
        corner = [shape.text for shape in card.front.shapes
                  if isinstance(shape, Text) and shape.x < 12 and shape.y < 35]
        shows = "".join(letter * count for letter, count in zip(LETTERS, cards.shows[int(card.key)]))
        assert corner == [*shows, card.key], card.name


def render_gray(faces: list[Face], folder: Path) -> list:
    """Each face on its own page of a PDF, rasterised in greyscale by pdftoppm at 100 dpi."""
    from PIL import Image

    pdf = folder / "parts.pdf"
    canvas = Canvas(str(pdf), pagesize=(210 * mm, 297 * mm))
    for face in faces:
        draw_face(canvas, face, (210 - face.width) / 2, (297 - face.height) / 2, 297)
        canvas.showPage()
    canvas.save()
    subprocess.run(["pdftoppm", "-gray", "-r", "100", "-png", str(pdf), str(folder / "page")], check=True)
    return [Image.open(path) for path in sorted(folder.glob("page-*.png"))]


needs_pdftoppm = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")


@needs_pdftoppm
def test_every_part_renders_to_pdf_pages_with_ink_inside_the_part(tmp_path: Path) -> None:
    from PIL import ImageOps

    found = list(parts().values())
    pages = render_gray([part.face for part in found], tmp_path)
    assert len(pages) == len(found)
    for part, page in zip(found, pages):
        box = ImageOps.invert(page).getbbox()
        assert box is not None, part.key
        per_mm = page.width / 210
        left, top = (210 - part.face.width) / 2 * per_mm, (297 - part.face.height) / 2 * per_mm
        assert box[0] >= left - 2 and box[1] >= top - 2, part.key
        assert box[2] <= left + part.face.width * per_mm + 2 and box[3] <= top + part.face.height * per_mm + 2


@needs_pdftoppm
def test_resource_tokens_differ_in_greyscale(tmp_path: Path) -> None:
    from PIL import ImageChops, ImageStat

    faces = [Face(resource_token(letter, 10, 10), 20, 20) for letter in LETTERS]
    tokens = render_gray(faces, tmp_path)
    px = 100 / 25.4
    box = (round(95 * px), round(138.5 * px), round(115 * px), round(158.5 * px))  # the 20 mm face, centred
    boxes = [page.crop(box) for page in tokens]
    for (a, first), (b, second) in combinations(zip(LETTERS, boxes), 2):
        difference = ImageStat.Stat(ImageChops.difference(first, second)).mean[0]
        assert difference > 8, (a, b, difference)


# ----- the intro agrees with the card data -------------------------------------------------------------
def intro_text() -> str:
    return " ".join(" ".join(section.text for section in load_intro(GAME).sections).split())


def numbers_before(text: str, phrase: str) -> list[int]:
    return [int(n) for n in re.findall(rf"(\d+) {phrase}", text)]


def test_the_intro_counts_are_the_card_data() -> None:
    cards, text = GAME.cards, intro_text()
    tools, decorations = sorted(cards.tool_of), sorted(cards.decoration_of)
    assert numbers_before(text, r"resource cards\*\* showing") == [len(cards.resource_cards)]
    assert f"numbered 1–{len(cards.resource_cards)}" in text
    assert f"{len(cards.item_cards)} item cards" in text
    assert f"{len(tools)} tools ({tools[0]}–{tools[-1]})" in text
    assert f"{len(decorations)} decorations ({decorations[0]}–{decorations[-1]})" in text
    assert f"{len(cards.plants)} plants**: {len(cards.beginners)} beginner plants and a deck of " \
           f"{len(cards.deck_plants)}" in text
    assert f"deck of {len(cards.deck_plants)} plants and turn {cards.row_size} face up" in text
    assert f"draws {cards.hand_resources} resource cards and {cards.hand_items} item cards" in text
    assert f"At most {cards.max_plants} plants" in text
    turns = cards.hand_resources + cards.hand_items
    assert f"After {turns} turns" in text and f"After round {cards.rounds}" in text
    assert load_intro(GAME).sections[2].heading == f"A turn ({turns} a round, {cards.rounds} rounds)"
    left = [r + 1 for r in range(cards.rounds) if cards.passes_left(r)]
    right = [r + 1 for r in range(cards.rounds) if not cards.passes_left(r)]
    assert (f"left in rounds {' and '.join(map(str, left))}, right in rounds {' and '.join(map(str, right))}"
            in text)


def test_the_intro_rules_match_the_rules() -> None:
    cards, text = GAME.cards, intro_text()
    thesis = load_intro(GAME).thesis
    assert "cheaper" not in thesis and "a tool that adds resources" in thesis
    words = {2: "two"}
    feed, propagate = text.split("**Propagate:**")
    assert f"{words[cards.thumbs_per_resource]} Green Thumbs stand in for one missing resource" in feed
    assert f"every {cards.leftovers_per_token} leftover resources become 1 growth token" in propagate
    assert f"{words[cards.thumbs_per_resource]} Green Thumbs counting as one resource" in propagate
    assert "tool goes under the left of your board, a decoration under the right" in text


def test_the_intro_example_is_the_cards_it_shows() -> None:
    cards, text = GAME.cards, intro_text()
    example = next(section for section in load_intro(GAME).sections if section.id == "example")
    keys = [key for row in example.cards for key in row if key != "."]
    assert sorted(keys) == sorted(["Monstera", "18", "61", "97"])
    monstera = cards.plants[GAME.plant_index["Monstera"]]
    assert f"each growth costs {' '.join(monstera.cost_text)}; spaces {', '.join(map(str, monstera.spaces))}" in text
    assert f"covers the Monstera's first space: {monstera.spaces[0]} points" in text
    assert cards.label(18) == "WW" and "plays a WW card: 2 Water plus 1 from the Watering Can" in text
    can = cards.tools[cards.tool_of[61]]
    assert can.name == "Watering Can" and can.shows == (0, 2, 0, 0) and can.gain == (0, 1, 0, 0)
    hanger = cards.decorations[cards.decoration_of[97]]
    assert hanger.name == "Macramé Hanger" and hanger.scores == "grown"
    assert f"Macramé Hanger will pay {hanger.points} more if the Monstera is fully grown" in text
