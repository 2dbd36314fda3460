"""The shared design language of every card: a full-bleed colour band, a white panel, corner indexes,
symbols that carry meaning without colour, and a common back. Game faces build on these helpers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .model import CARD_HEIGHT, CARD_WIDTH, Circle, Face, Line, Polygon, Rect, Shape, Text, fit_size, text_block

INK = "#1b1b1b"
PAPER = "#ffffff"
SOFT = "#f1efe8"
MUTED = "#5a5a5a"
#: Inset of the white panel from the card's edge (mm): the band around it is the card's colour.
INSET = 3.5
PANEL_W = CARD_WIDTH - 2 * INSET
CENTRE_X = CARD_WIDTH / 2


def luminance(colour: str) -> float:
    """Relative luminance 0–1 of a #rrggbb colour (to pick dark or light text on it)."""
    red, green, blue = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def on(colour: str) -> str:
    """Text colour that reads on `colour`: ink on light colours, paper on dark ones."""
    return INK if luminance(colour) > 0.55 else PAPER


def frame(colour: str, panel: str = PAPER) -> list[Shape]:
    """Full-bleed background in `colour` and the white panel inside it."""
    return [
        Rect(0, 0, CARD_WIDTH, CARD_HEIGHT, fill=colour),
        Rect(INSET, INSET, PANEL_W, CARD_HEIGHT - 2 * INSET, fill=panel, stroke=INK, width=0.35, radius=2.5),
    ]


def title(text: str, y: float, size: float = 15.0, colour: str = INK, max_width: float = PANEL_W - 6) -> Text:
    """A centred bold title, shrunk to fit the panel's width."""
    return Text(CENTRE_X, y, text, fit_size(text, max_width, size), True, "middle", colour)


def banner(text: str, colour: str, y: float = INSET, height: float = 12.0, size: float = 14.0,
           text_width: float = PANEL_W - 6) -> list[Shape]:
    """A coloured strip across the top of the panel with a title in it (shrunk to `text_width` mm)."""
    return [
        Rect(INSET, y, PANEL_W, height, fill=colour, stroke=INK, width=0.35, radius=2.5),
        Rect(INSET, y + height - 3, PANEL_W, 3, fill=colour),
        Text(CENTRE_X, y + height / 2 + size * 0.12, text, fit_size(text, text_width, size), True, "middle",
             on(colour)),
    ]


def corner_index(lines: list[tuple[str, float]], colour: str = INK) -> list[Shape]:
    """The same short index (e.g. value and colour letter) top-left and, turned over, bottom-right."""
    shapes: list[Shape] = []
    y = INSET + 1.5
    for text, size in lines:
        y += size * 0.36
        shapes.append(Text(INSET + 4.5, y, text, size, True, "middle", colour))
        shapes.append(Text(CARD_WIDTH - INSET - 4.5, CARD_HEIGHT - y, text, size, True, "middle", colour, 180))
        y += 1.2
    return shapes


def symbol(kind: str, cx: float, cy: float, r: float, fill: str, stroke: str = INK, width: float = 0.4) -> Shape:
    """A shape that names a colour without colour: circle, triangle, square, diamond, hexagon or star."""
    if kind == "circle":
        return Circle(cx, cy, r, fill, stroke, width)
    if kind == "square":
        side = r * 0.88
        return Polygon(((cx - side, cy - side), (cx + side, cy - side), (cx + side, cy + side), (cx - side, cy + side)),
                       fill, stroke, width)
    corners = {"triangle": 3, "diamond": 4, "hexagon": 6, "star": 10}[kind]
    points = []
    for index in range(corners):
        angle = -math.pi / 2 + 2 * math.pi * index / corners
        radius = r * (0.45 if kind == "star" and index % 2 else 1.0) * (1.12 if kind == "triangle" else 1.0)
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle) + (r * 0.18 if kind == "triangle" else 0)))
    return Polygon(tuple(points), fill, stroke, width)


def badge(text: str, cx: float, cy: float, r: float = 4.2, fill: str = PAPER, ink: str = INK) -> list[Shape]:
    """A round badge with a short text (a card number) in it."""
    size = fit_size(text, r * 1.7, 10.0, True, 5.0)
    return [Circle(cx, cy, r, fill, ink, 0.4), Text(cx, cy + size * 0.125, text, size, True, "middle", ink)]


def footer(text: str, colour: str = MUTED) -> Text:
    """Small centred text at the foot of the panel (a card's code or number)."""
    return Text(CENTRE_X, CARD_HEIGHT - INSET - 2.2, text, 6.5, False, "middle", colour)


def paragraph(text: str, y: float, size: float = 8.0, bold: bool = False, colour: str = INK,
              width: float = PANEL_W - 6, anchor: str = "middle") -> tuple[list[Text], float]:
    """Centred (or left-aligned) wrapped text across the panel; returns the lines and the y below them."""
    x = CENTRE_X if anchor == "middle" else INSET + 3
    return text_block(text, x, y, width, size, bold, anchor, colour)


@dataclass
class Back(Face):
    """A card back made by `back()`, which remembers its design so it can be drawn again ink-saving."""

    game_title: str = ""
    colour: str = INK
    tagline: str = ""
    marks: tuple[tuple[str, str], ...] = ()

    def light(self) -> "Back":
        """The same back for `--ink-saver`: a pale tint patterned to the edge, no inner frames."""
        return back(self.game_title, self.colour, self.tagline, self.marks, ink_saver=True)


def tint(colour: str, amount: float) -> str:
    """`colour` mixed with white: `amount` 0 is white, 1 the colour itself."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - part) * amount):02x}" for part in (red, green, blue))


def shade(colour: str, amount: float) -> str:
    """`colour` mixed with black: `amount` 0 is the colour, 1 black."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(part * (1 - amount)):02x}" for part in (red, green, blue))


#: How far the ink-saver's diagonal pattern runs past the card, so it fills any bleed.
_PATTERN_REACH = 6.0


def hatch(colour: str, width: float = CARD_WIDTH, height: float = CARD_HEIGHT, step: float = 4.0,
          line: float = 0.5) -> list[Shape]:
    """Diagonal lines over the whole card and past its edges: a pattern a small duplex shift cannot show."""
    reach = _PATTERN_REACH
    lines: list[Shape] = []
    offset = -height - reach
    while offset < width + reach:
        lines.append(Line(offset - reach, height + reach, offset + height + reach, -reach, colour, line))
        offset += step
    return lines


def is_full_card(shape: Shape, face: Face) -> bool:
    """Whether `shape` is a filled rect covering the whole face (a full-bleed background)."""
    return (isinstance(shape, Rect) and shape.fill is not None and shape.x <= 0.05 and shape.y <= 0.05
            and shape.x + shape.w >= face.width - 0.05 and shape.y + shape.h >= face.height - 0.05)


def light_frame(face: Face, amount: float = 0.3) -> Face:
    """`face` with its full-bleed background tinted pale (the ink-saver's light frame); else unchanged."""
    shapes: list[Shape] = []
    for shape in face.shapes:
        if isinstance(shape, Rect) and shape.fill and is_full_card(shape, face):
            shape = replace(shape, fill=tint(shape.fill, amount))
        shapes.append(shape)
    return Face(shapes, face.width, face.height)


def back(game_title: str, colour: str, tagline: str = "", marks: tuple[tuple[str, str], ...] = (),
         ink_saver: bool = False) -> Back:
    """A card back: full-bleed colour, a framed inner field, the game's name and a row of symbols.

    With `ink_saver`, a pale tint of the colour with a diagonal pattern to the edge and no frames, in
    the colour's dark shade: a fraction of the ink, and nothing a duplex shift could misalign.
    """
    face = Back(game_title=game_title, colour=colour, tagline=tagline, marks=marks)
    if ink_saver:
        ink = shade(colour, 0.35) if luminance(colour) > 0.3 else colour
        face.add(Rect(0, 0, CARD_WIDTH, CARD_HEIGHT, fill=tint(colour, 0.1)), *hatch(tint(colour, 0.28)))
    else:
        ink = on(colour)
        face.add(Rect(0, 0, CARD_WIDTH, CARD_HEIGHT, fill=colour),
                 Rect(INSET + 1.5, INSET + 1.5, PANEL_W - 3, CARD_HEIGHT - 2 * INSET - 3, stroke=ink, width=0.6,
                      radius=3))
        face.add(Rect(INSET + 3.5, INSET + 3.5, PANEL_W - 7, CARD_HEIGHT - 2 * INSET - 7, stroke=ink, width=0.25,
                      radius=2))
    face.add(Text(CENTRE_X, CARD_HEIGHT / 2 + 2, game_title.upper(), fit_size(game_title.upper(), PANEL_W - 12, 20),
                  True, "middle", ink))
    if tagline:
        face.add(Text(CENTRE_X, CARD_HEIGHT / 2 + 9, tagline, fit_size(tagline, PANEL_W - 12, 8, False), False,
                      "middle", ink))
    if marks:
        step = 9.0
        start = CENTRE_X - step * (len(marks) - 1) / 2
        for index, (kind, fill) in enumerate(marks):
            face.add(symbol(kind, start + index * step, CARD_HEIGHT / 2 - 14, 3.2, fill, ink, 0.4))
    return face
