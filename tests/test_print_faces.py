"""Card faces: one drawing model per card, read from the card data; SVG for the web; text that fits."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from tablepress.core.errors import TablepressError
from tablepress.core.registry import game_names, get_game
from tablepress.faces import card_faces, svg_faces, svg_for
from tablepress.faces.fonts import width_mm
from tablepress.faces.model import CARD_HEIGHT, CARD_WIDTH, Face, Rect, Text
from tablepress.faces.pdf import Bleed, bleed_shape

SVG = "{http://www.w3.org/2000/svg}"
PRINTED = game_names()


def test_every_registered_game_has_faces() -> None:
    for name in game_names():
        assert card_faces(get_game(name)), name


@pytest.mark.parametrize("name", PRINTED)
def test_every_text_fits_inside_its_card(name: str) -> None:
    for card in card_faces(get_game(name)):
        for side in (card.front, card.back):
            for shape in side.shapes:
                if not isinstance(shape, Text):
                    continue
                width = width_mm(shape.text, shape.size, shape.bold)
                left = {"start": 0.0, "middle": width / 2, "end": width}[shape.anchor]
                if shape.rotate == 180:
                    left = width - left
                start = shape.x - left
                assert start >= 3.5 - 1e-6 and start + width <= CARD_WIDTH - 3.5 + 1e-6, (card.key, shape.text)
                assert 3.5 <= shape.y <= CARD_HEIGHT - 3.5, (card.key, shape.text)


@pytest.mark.parametrize("name", PRINTED)
def test_keys_are_unique_and_copies_positive(name: str) -> None:
    cards = card_faces(get_game(name))
    keys = [card.key.lower() for card in cards]
    assert len(keys) == len(set(keys))
    assert all(card.copies >= 1 for card in cards)


def test_flowers_faces_carry_value_and_colour_letter_not_only_colour() -> None:
    game = get_game("flowers")
    for card in card_faces(game):
        texts = card.front.texts()
        if card.key == "V":
            assert "V" in texts and "VIOLET" in texts
            continue
        colour, value = card.key[0], card.key[1]
        assert colour in texts and value in texts
        assert game.cards.colour_names[colour].upper() in texts
        if len(card.key) == 3:
            wing = card.key[2].upper()
            assert f"butterfly: {game.cards.colour_names[wing]} ({wing})" in texts


def test_by_this_faces_show_four_numbers_keys_and_specials() -> None:
    game = get_game("by-this")
    cards = {card.key: card for card in card_faces(game)}
    ant = cards["Ant"].front.texts()
    assert "Ant" in ant and ["ABC", "SIZE", "WEIGHT", "AGE"] == [t for t in ant if t in ("ABC", "SIZE", "WEIGHT", "AGE")]
    assert "Ant: ABC 1 · Size 1 · Weight 1 · Age 8" in ant
    small = cards["Small → Large"].front.texts()
    assert {"SIZE", "Small", "Large", "numbers rise left to right"} <= set(small)
    assert "numbers fall left to right" in cards["Old → New"].front.texts()
    assert any("slide" in text.lower() or "Slide" in text for text in cards["By This"].front.texts())
    assert {card.kind for card in cards.values()} == {"thing", "Key", "special", "table card"}
    assert cards["Ant"].back is cards["By This"].back  # things and specials share the deck back
    assert cards["Ant"].back is not cards["A to Z"].back


def test_planted_faces_number_every_resource_and_item_card() -> None:
    game = get_game("planted")
    cards = card_faces(game)
    numbered = [card for card in cards if card.kind in ("resource", "tool", "decoration")]
    assert [int(card.key) for card in numbered] == list(range(1, len(numbered) + 1))
    for card in numbered:
        assert card.front.texts().count(card.key) == 2
    monstera = next(card for card in cards if card.key == "Monstera").front.texts()
    assert "FOLIAGE · hard" in monstera and {"3", "4", "6", "L", "W", "F"} <= set(monstera)


def test_svg_for_a_card_is_an_svg_document_with_its_text() -> None:
    svg = svg_for(get_game("flowers"), "Y4g")
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 63 88"
    texts = [element.text for element in root.iter(f"{SVG}text")]
    assert "4" in texts and "Y4g" in texts and "butterfly: Green (G)" in texts
    by_name = ET.fromstring(svg_for(get_game("by-this"), "mountain", width="100%"))
    assert by_name.get("width") == "100%"
    assert "Mountain" in [element.text for element in by_name.iter(f"{SVG}text")]
    back = svg_for(get_game("pressed"), "Zinnia", back=True)
    assert "PRESSED" in back and "Zinnia (back)" in back


def test_svg_faces_gives_every_card_by_key() -> None:
    game = get_game("by-this")
    faces = svg_faces(game)
    assert list(faces) == [card.key for card in card_faces(game)]
    assert len(faces) == 54 and all(ET.fromstring(svg).tag == f"{SVG}svg" for svg in faces.values())
    assert "BY THIS" in svg_faces(game, back=True)["Ant"]


def test_svg_escapes_text() -> None:
    svg = svg_for(get_game("pressed"), "BB")
    ET.fromstring(svg)
    assert "Baby&#x27;s Breath" in svg or "Baby's Breath" in svg


def test_svg_for_an_unknown_card_is_a_clear_error() -> None:
    with pytest.raises(TablepressError, match="no card 'Q9'"):
        svg_for(get_game("flowers"), "Q9")


def test_a_variant_changes_the_faces() -> None:
    game = get_game("pressed").with_variant({"flowers": {"Peony": {"table": [4, 7, 9, 10, 10, 10, 10, 55]}}})
    assert "55" in next(c for c in card_faces(game) if c.key == "PE").front.texts()
    assert "55" not in next(c for c in card_faces(get_game("pressed")) if c.key == "PE").front.texts()


def test_bleed_stretches_only_rects_on_the_edge() -> None:
    face = Face()
    full = Rect(0, 0, CARD_WIDTH, CARD_HEIGHT, fill="#ff0000")
    inner = Rect(5, 5, 10, 10, fill="#00ff00")
    assert bleed_shape(full, face, Bleed(3, 2, 1, 4)) == Rect(-3, -2, CARD_WIDTH + 4, CARD_HEIGHT + 6, fill="#ff0000")
    assert bleed_shape(inner, face, Bleed(3, 3, 3, 3)) == inner
    text = Text(1, 1, "x")
    assert bleed_shape(text, face, Bleed(3, 3, 3, 3)) is text
