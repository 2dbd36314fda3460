"""Pressed card faces: the flower (name and two-letter code), what it counts, its table and its effect."""

from __future__ import annotations

import math

from ...faces.model import CardFace, Circle, Face, Rect, Shape, Text, fit_size
from ...faces.style import CENTRE_X, INK, INSET, MUTED, PANEL_W, PAPER, back, badge, banner, frame, on, paragraph
from .cards import CHOSEN, COPY, DISTINCT, NOTHING
from .engine import PressedGame

FLOWER_COLOURS = {
    "Zinnia": "#e4572e", "Sunflower": "#f2c12e", "Hydrangea": "#5b7fd6", "Peony": "#e58fb0",
    "Lily": "#c98bd6", "Daisy": "#8fc9e8", "Anemone": "#b8323f", "Aster": "#8e6cc2",
    "Baby's Breath": "#b7c4ae", "Chrysanthemum": "#e08e2b", "Tulip": "#d9455f",
}
_SPARE = ("#6a994e", "#457b9d", "#bc6c25", "#9d4edd")
EFFECT_TEXT = {
    "swap": "After scoring, you may swap two cards in its row (it may be one of them).",
    "shortest": "Play it in any column; it scores only if that column was a shortest one (ties count).",
    "copy": "Choose another card in its row or column: for this scoring it takes that card's name, table "
            "and effect. In your pressed cards it joins another flower's group.",
    "choose": "Choose a card in its row or column (not itself) and count the cards of that flower. "
              "Finally: the size of one other group.",
}


def flower_colour(name: str, names: tuple[str, ...]) -> str:
    """The print colour of a flower."""
    if name in FLOWER_COLOURS:
        return FLOWER_COLOURS[name]
    extra = [n for n in names if n not in FLOWER_COLOURS]
    return _SPARE[extra.index(name) % len(_SPARE)] if name in extra else _SPARE[0]


def blossom(cx: float, cy: float, r: float, fill: str, petals: int = 6) -> list[Shape]:
    """A simple flower: petals round a centre."""
    shapes: list[Shape] = []
    for index in range(petals):
        angle = 2 * math.pi * index / petals
        shapes.append(Circle(cx + r * 0.55 * math.cos(angle), cy + r * 0.55 * math.sin(angle), r * 0.42, fill, INK,
                             0.3))
    shapes.append(Circle(cx, cy, r * 0.3, "#f6e27a", INK, 0.3))
    return shapes


def counts_text(game: PressedGame, kind: int) -> str:
    """What a flower's table counts, in words."""
    counts = game.cards.counts[kind]
    if counts == DISTINCT:
        return "different flowers"
    if counts == CHOSEN:
        return "a chosen flower"
    if counts == NOTHING:
        return "another card (copy)"
    return game.cards.plurals[counts]


def final_text(game: PressedGame, kind: int) -> str:
    """How a pressed group of this flower scores at the end, in a few words."""
    counts = game.cards.counts[kind]
    if counts == DISTINCT:
        return "Pressed: count your groups"
    if counts == CHOSEN:
        return "Pressed: size of one other group"
    if counts == kind:
        return "Pressed: size of its group"
    return f"Pressed: size of your {game.cards.names[counts]} group"


def table_shapes(table: tuple[int, ...], colour: str, top: float) -> tuple[list[Shape], float]:
    """The count → points table as a grid of cells (4 a row), the last count marked "+"; returns the y below."""
    per_row = 4
    gap = 1.2
    cell_w = (PANEL_W - 6 - gap * (per_row - 1)) / per_row
    cell_h = 13.5
    shapes: list[Shape] = []
    for index, points in enumerate(table):
        row, column = divmod(index, per_row)
        x = INSET + 3 + column * (cell_w + gap)
        y = top + row * (cell_h + gap)
        label = f"{index + 1}{'+' if index == len(table) - 1 else ''}"
        shapes += [Rect(x, y, cell_w, cell_h, fill=PAPER, stroke=colour, width=0.8, radius=1.2),
                   Rect(x, y, cell_w, 4.2, fill=colour, radius=1.2), Rect(x, y + 2.2, cell_w, 2.0, fill=colour),
                   Text(x + cell_w / 2, y + 3.3, f"×{label}", 6.5, True, "middle", on(colour)),
                   Text(x + cell_w / 2, y + cell_h - 2.0, str(points), 15, True, "middle", INK)]
    rows = -(-len(table) // per_row)
    return shapes, top + rows * (cell_h + gap)


def front(game: PressedGame, kind: int) -> Face:
    """One flower's card."""
    cards = game.cards
    name = cards.names[kind]
    colour = flower_colour(name, cards.names)
    face = Face().add(*frame(colour), *banner(name, colour, size=14, text_width=PANEL_W - 22))
    face.add(*badge(cards.codes[kind], INSET + 6, INSET + 6))
    face.add(*blossom(INSET + 8.5, 27, 7.5, colour))
    label = "COUNTS IN ITS ROW AND COLUMN"
    face.add(Text(INSET + 18, 22, label, fit_size(label, PANEL_W - 20, 5.5, True, 4.0), True, "start", MUTED))
    counted = counts_text(game, kind)
    face.add(Text(INSET + 18, 29, counted, fit_size(counted, PANEL_W - 19, 12), True, "start", INK))
    top = 35.0
    if cards.tables[kind]:
        shapes, top = table_shapes(cards.tables[kind], colour, top)
        face.add(*shapes)
        face.add(Text(CENTRE_X, top + 2.8, "count → points", 6.5, False, "middle", MUTED))
        face.add(Text(CENTRE_X, top + 7.5, final_text(game, kind), 6.5, True, "middle", INK))
        top += 12.5
    else:
        face.add(Text(CENTRE_X, top + 10, "COPY", 20, True, "middle", INK))
        top += 18
    effect = EFFECT_TEXT.get(cards.effects[kind], "")
    if cards.effects[kind] == COPY:
        effect = EFFECT_TEXT["copy"]
    if effect:
        size = 8.0
        lines, bottom = paragraph(effect, top, size)
        while bottom > 88 - INSET - 2 and size > 5.5:
            size -= 0.5
            lines, bottom = paragraph(effect, top, size)
        face.add(*lines)
    return face


def card_faces(game: PressedGame) -> list[CardFace]:
    """Every Pressed flower with its number of copies, in data order."""
    cards = game.cards
    shared = back(game.title or "Pressed", "#5b3a5e", "plant · pick · press",
                  tuple(("circle", flower_colour(n, cards.names)) for n in cards.names[:5]))
    return [CardFace(cards.codes[kind], cards.names[kind], cards.copies[kind], front(game, kind), shared, "flower card")
            for kind in cards.kinds]
