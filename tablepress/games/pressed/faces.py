"""Pressed card faces, after the rulebook's card anatomy: the flower's name and code, its own icon (a
shape that reads without colour), what it counts, the count → points table, its effect, its copies in
the deck and its deck mark (in the 2-player deck, from 3 players, or elective).
"""

from __future__ import annotations

import math

from ...faces.model import CARD_HEIGHT, CardFace, Circle, Face, Line, Polygon, Rect, Shape, Text, fit_size
from ...faces.style import CENTRE_X, INK, INSET, MUTED, PANEL_W, PAPER, back, badge, frame, on, paragraph, symbol
from .cards import ALL, CHOSEN, DISTINCT, NOTHING
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
    "choose": "Choose a card in its row or column (not itself): count the cards of that flower.",
}
#: Smallest size of any text on a card (pt): the effect must read at arm's length.
MIN_TEXT = 7.0
BANNER_H = 12.0
ICON_CX, ICON_CY, ICON_R = INSET + 9.5, 27.0, 8.0
FOOT_Y = CARD_HEIGHT - INSET - 7.0
DARK = "#3a2a1a"


def flower_colour(name: str, names: tuple[str, ...]) -> str:
    """The print colour of a flower."""
    if name in FLOWER_COLOURS:
        return FLOWER_COLOURS[name]
    extra = [n for n in names if n not in FLOWER_COLOURS]
    return _SPARE[extra.index(name) % len(_SPARE)] if name in extra else _SPARE[0]


# ----- icons: one shape per flower ------------------------------------------------------------------
def petal(cx: float, cy: float, angle: float, inner: float, outer: float, width: float, fill: str,
          round_tip: bool = True) -> Polygon:
    """A petal from radius `inner` to `outer` along `angle`, `width` mm at its widest; pointed or round-tipped."""
    steps = 8
    along, across = (math.cos(angle), math.sin(angle)), (-math.sin(angle), math.cos(angle))
    side: list[tuple[float, float]] = []
    for step in range(steps + 1):
        t = step / steps
        half = width / 2 * math.sin(math.pi * t) ** (0.6 if round_tip else 1.0)
        if not round_tip:
            half *= 1.0 - 0.5 * t
        side.append((inner + (outer - inner) * t, half))
    outline = side + [(r, -h) for r, h in reversed(side)]
    points = tuple((cx + r * along[0] + h * across[0], cy + r * along[1] + h * across[1]) for r, h in outline)
    return Polygon(points, fill, INK, 0.25)


def ring(cx: float, cy: float, count: int, inner: float, outer: float, width: float, fill: str,
         round_tip: bool = True, turn: float = 0.0) -> list[Shape]:
    """`count` petals evenly round a centre."""
    return [petal(cx, cy, -math.pi / 2 + turn + 2 * math.pi * i / count, inner, outer, width, fill, round_tip)
            for i in range(count)]


def star(cx: float, cy: float, points: int, outer: float, inner: float, fill: str, turn: float = 0.0) -> Polygon:
    """A star polygon with `points` tips."""
    corners = []
    for index in range(points * 2):
        radius = outer if index % 2 == 0 else inner
        angle = -math.pi / 2 + turn + math.pi * index / points
        corners.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return Polygon(tuple(corners), fill, INK, 0.25)


def _zinnia(x: float, y: float, r: float, c: str) -> list[Shape]:
    return [*ring(x, y, 12, r * 0.3, r, r * 0.36, c), *ring(x, y, 8, r * 0.2, r * 0.62, r * 0.3, PAPER, turn=0.2),
            Circle(x, y, r * 0.24, DARK, INK, 0.25)]


def _sunflower(x: float, y: float, r: float, c: str) -> list[Shape]:
    return [*ring(x, y, 16, r * 0.4, r, r * 0.3, c, round_tip=False), Circle(x, y, r * 0.48, DARK, INK, 0.3),
            *(Circle(x + r * 0.25 * math.cos(a), y + r * 0.25 * math.sin(a), r * 0.06, c) for a in
              (i * math.pi / 3 for i in range(6)))]


def _hydrangea(x: float, y: float, r: float, c: str) -> list[Shape]:
    shapes: list[Shape] = []
    for fx, fy in ((0, 0), (-0.5, -0.35), (0.5, -0.35), (-0.5, 0.4), (0.5, 0.4), (0, -0.7), (0, 0.75)):
        cx, cy = x + fx * r, y + fy * r
        shapes += [Polygon(((cx, cy - r * 0.3), (cx + r * 0.3, cy), (cx, cy + r * 0.3), (cx - r * 0.3, cy)),
                           c, INK, 0.25), Circle(cx, cy, r * 0.06, INK)]
    return shapes


def _peony(x: float, y: float, r: float, c: str) -> list[Shape]:
    return [*(Circle(x + r * 0.5 * math.cos(a), y + r * 0.5 * math.sin(a), r * 0.5, c, INK, 0.25)
              for a in (i * 2 * math.pi / 5 - math.pi / 2 for i in range(5))),
            Circle(x, y, r * 0.55, PAPER, INK, 0.25), Circle(x, y, r * 0.42, c, INK, 0.25),
            Circle(x, y, r * 0.22, PAPER, INK, 0.25)]


def _lily(x: float, y: float, r: float, c: str) -> list[Shape]:
    return [*ring(x, y, 6, 0, r, r * 0.5, c, round_tip=False),
            *(Line(x, y, x + r * 0.55 * math.cos(a), y + r * 0.55 * math.sin(a), INK, 0.35)
              for a in (i * math.pi / 3 for i in range(6)))]


def _daisy(x: float, y: float, r: float, c: str) -> list[Shape]:
    return [*ring(x, y, 14, r * 0.3, r, r * 0.2, PAPER), Circle(x, y, r * 0.3, c, INK, 0.3)]


def _anemone(x: float, y: float, r: float, c: str) -> list[Shape]:
    return [*ring(x, y, 5, 0, r, r * 0.95, c), Circle(x, y, r * 0.32, INK), Circle(x, y, r * 0.42, None, INK, 0.6)]


def _aster(x: float, y: float, r: float, c: str) -> list[Shape]:
    return [star(x, y, 24, r, r * 0.55, c), star(x, y, 12, r * 0.6, r * 0.35, PAPER, 0.13),
            Circle(x, y, r * 0.22, "#f6e27a", INK, 0.25)]


def _babys_breath(x: float, y: float, r: float, c: str) -> list[Shape]:
    shapes: list[Shape] = [Line(x, y + r, x, y - r * 0.1, INK, 0.4)]
    for a in (-2.3, -1.9, -1.2, -0.85):
        ex, ey = x + r * 0.75 * math.cos(a), y - r * 0.1 + r * 0.75 * math.sin(a)
        shapes.append(Line(x, y + r * 0.2 if a < -1.5 else y, ex, ey, INK, 0.3))
    for dx, dy in ((-0.55, -0.65), (-0.3, -0.8), (0.3, -0.8), (0.55, -0.65), (-0.75, -0.35), (0.75, -0.35),
                   (0, -0.9), (-0.1, -0.45), (0.15, -0.55)):
        shapes.append(Circle(x + dx * r, y + dy * r, r * 0.14, PAPER, INK, 0.25))
    return shapes


def _chrysanthemum(x: float, y: float, r: float, c: str) -> list[Shape]:
    return [*ring(x, y, 20, r * 0.1, r, r * 0.18, c, round_tip=False),
            *ring(x, y, 14, r * 0.05, r * 0.7, r * 0.2, PAPER, round_tip=False, turn=0.12),
            *ring(x, y, 10, 0, r * 0.45, r * 0.22, c, round_tip=False, turn=0.3)]


def _tulip(x: float, y: float, r: float, c: str) -> list[Shape]:
    cup = ((x - r * 0.55, y - r * 0.75), (x - r * 0.25, y - r * 0.35), (x, y - r * 0.85), (x + r * 0.25, y - r * 0.35),
           (x + r * 0.55, y - r * 0.75), (x + r * 0.5, y + r * 0.05), (x, y + r * 0.25), (x - r * 0.5, y + r * 0.05))
    leaf = ((x, y + r), (x - r * 0.7, y + r * 0.2), (x - r * 0.15, y + r * 0.75))
    return [Line(x, y + r * 0.2, x, y + r, INK, 0.5), Polygon(leaf, "#ffffff", INK, 0.3), Polygon(cup, c, INK, 0.3)]


ICONS = {
    "Zinnia": _zinnia, "Sunflower": _sunflower, "Hydrangea": _hydrangea, "Peony": _peony, "Lily": _lily,
    "Daisy": _daisy, "Anemone": _anemone, "Aster": _aster, "Baby's Breath": _babys_breath,
    "Chrysanthemum": _chrysanthemum, "Tulip": _tulip,
}


def icon(name: str, names: tuple[str, ...], cx: float, cy: float, r: float) -> list[Shape]:
    """The flower's own icon; a designer's new flower gets round petals, one more per new flower, and its code."""
    colour = flower_colour(name, names)
    if name in ICONS:
        return ICONS[name](cx, cy, r, colour)
    extra = [n for n in names if n not in ICONS]
    return [*ring(cx, cy, 3 + extra.index(name) % 5, r * 0.2, r, r * 0.6, colour), Circle(cx, cy, r * 0.25, PAPER, INK, 0.3)]


# ----- the card ---------------------------------------------------------------------------------------
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


def deck_mark(game: PressedGame, kind: int) -> tuple[str, str]:
    """(symbol, words) of the decks a flower is in: an elective, or the fewest players whose deck names it."""
    cards = game.cards
    name = cards.names[kind]
    if name in cards.electives:
        return "star", "ELECTIVE"
    named = [players for players, spec in sorted(cards.decks.items()) if name in spec or ALL in spec]
    fewest = named[0] if named else max(cards.decks)
    return ("circle" if fewest <= 2 else "triangle"), f"{fewest}+ PLAYERS"


def table_shapes(table: tuple[int, ...], colour: str, top: float) -> tuple[list[Shape], float]:
    """The count → points table as a grid of cells (4 a row), the last count marked "+"; returns the y below."""
    per_row = 4
    gap = 1.2
    cell_w = (PANEL_W - 6 - gap * (per_row - 1)) / per_row
    cell_h = 11.0
    shapes: list[Shape] = []
    for index, points in enumerate(table):
        row, column = divmod(index, per_row)
        x = INSET + 3 + column * (cell_w + gap)
        y = top + row * (cell_h + gap)
        label = f"{index + 1}{'+' if index == len(table) - 1 else ''}"
        shapes += [Rect(x, y, cell_w, cell_h, fill=PAPER, stroke=colour, width=0.8, radius=1.2),
                   Rect(x, y, cell_w, 4.2, fill=colour, radius=1.2), Rect(x, y + 2.2, cell_w, 2.0, fill=colour),
                   Text(x + cell_w / 2, y + 3.4, f"×{label}", MIN_TEXT, True, "middle", on(colour)),
                   Text(x + cell_w / 2, y + cell_h - 1.5, str(points), 14, True, "middle", INK)]
    rows = -(-len(table) // per_row)
    return shapes, top + rows * (cell_h + gap)


def header(name: str, code: str, colour: str, variant: str) -> list[Shape]:
    """The banner: code badge, then the name left-aligned at one place on every card."""
    ink = on(colour)
    shapes: list[Shape] = [Rect(INSET, INSET, PANEL_W, BANNER_H, fill=colour, stroke=INK, width=0.35, radius=2.5),
                           Rect(INSET, INSET + BANNER_H - 3, PANEL_W, 3, fill=colour),
                           *badge(code, INSET + 5.5, INSET + BANNER_H / 2, 4.0)]
    left = INSET + 11
    shapes.append(Text(left, INSET + BANNER_H / 2 + (1.2 if variant else 1.8), name,
                       fit_size(name, PANEL_W - 13, 14, True, 9), True, "start", ink))
    if variant:
        shapes.append(Text(left, INSET + BANNER_H - 1.2, variant, fit_size(variant, PANEL_W - 13, MIN_TEXT, False,
                                                                            5.5), False, "start", ink))
    return shapes


def footer_strip(game: PressedGame, kind: int, colour: str) -> list[Shape]:
    """The foot of the card: its deck mark (symbol and words) on the left, its copies in the deck on the right."""
    shape, words = deck_mark(game, kind)
    y = FOOT_Y
    copies = f"{game.cards.copies[kind]} in deck"
    return [Line(INSET + 2, y - 1.5, INSET + PANEL_W - 2, y - 1.5, MUTED, 0.2),
            symbol(shape, INSET + 4.5, y + 2.6, 1.9, colour, INK, 0.3),
            Text(INSET + 7.5, y + 3.8, words, MIN_TEXT, True, "start", INK),
            Text(INSET + PANEL_W - 2.5, y + 3.8, copies, MIN_TEXT, True, "end", INK)]


def front(game: PressedGame, kind: int) -> Face:
    """One flower's card."""
    cards = game.cards
    name = cards.names[kind]
    colour = flower_colour(name, cards.names)
    variant = "VARIANT CARDS" if game.variant else ""
    face = Face().add(*frame(colour), *header(name, cards.codes[kind], colour, variant))
    face.add(*icon(name, cards.names, ICON_CX, ICON_CY, ICON_R))
    text_x = INSET + 20
    face.add(Text(text_x, 21, "COUNTS IN ITS", MIN_TEXT, True, "start", MUTED),
             Text(text_x, 24.5, "ROW AND COLUMN", MIN_TEXT, True, "start", MUTED))
    counted = counts_text(game, kind)
    face.add(Text(text_x, 31, counted, fit_size(counted, PANEL_W - 21, 12, True, MIN_TEXT), True, "start", INK))
    top = 37.0
    if cards.tables[kind]:
        shapes, top = table_shapes(cards.tables[kind], colour, top)
        face.add(*shapes)
        face.add(Text(CENTRE_X, top + 2.6, final_text(game, kind), MIN_TEXT, True, "middle", INK))
        top += 7.0
    else:
        face.add(Text(CENTRE_X, top + 9, "COPY", 20, True, "middle", INK))
        top += 16
    effect = EFFECT_TEXT.get(cards.effects[kind], "")
    if effect:
        size = 9.0
        lines, bottom = paragraph(effect, top, size)
        while bottom > FOOT_Y - 2.5 and size > MIN_TEXT:
            size -= 0.25
            lines, bottom = paragraph(effect, top, size)
        face.add(*lines)
    face.add(*footer_strip(game, kind, colour))
    return face


def card_faces(game: PressedGame) -> list[CardFace]:
    """Every Pressed flower with its number of copies, in data order."""
    cards = game.cards
    shared = back(game.title or "Pressed", "#5b3a5e", "plant · pick · press",
                  tuple(("circle", flower_colour(n, cards.names)) for n in cards.names[:5]))
    return [CardFace(cards.codes[kind], cards.names[kind], cards.copies[kind], front(game, kind), shared, "flower card")
            for kind in cards.kinds]
