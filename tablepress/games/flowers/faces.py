"""Flowers card faces: colour (with a letter and a symbol, so greyscale still reads), value, butterfly."""

from __future__ import annotations

from collections import Counter

from ...faces.model import CARD_HEIGHT, CARD_WIDTH, CardFace, Circle, Face, Line, Text
from ...faces.style import CENTRE_X, INK, INSET, MUTED, back, corner_index, footer, frame, on, symbol
from .cards import VIOLET
from .engine import FlowersGame

#: Print colour and symbol per colour code; unknown codes (a variant's new colour) get a spare.
STYLE = {
    "Y": ("#f3c623", "circle"),
    "R": ("#e0573f", "triangle"),
    "B": ("#1f4596", "square"),
    "G": ("#2e8b3e", "diamond"),
    VIOLET: ("#7b4fa0", "star"),
}
_SPARE = (("#8c6d46", "hexagon"), ("#3aa6a0", "star"), ("#c24f97", "circle"))
GROUP_WORDS = {1: "alone", 2: "a pair", 3: "three together", 4: "four together"}


def colour_style(code: str, order: list[str]) -> tuple[str, str]:
    """The print colour and symbol of a colour code."""
    if code in STYLE:
        return STYLE[code]
    spare = [c for c in order if c not in STYLE]
    return _SPARE[spare.index(code) % len(_SPARE)] if code in spare else _SPARE[0]


def butterfly(cx: float, cy: float, size: float, fill: str, letter: str) -> list:
    """A butterfly icon (four wings and a body) in `fill`, with its colour letter on the body."""
    wing = size * 0.42
    shapes = [
        Circle(cx - wing * 0.95, cy - wing * 0.55, wing, fill, INK, 0.35),
        Circle(cx + wing * 0.95, cy - wing * 0.55, wing, fill, INK, 0.35),
        Circle(cx - wing * 0.75, cy + wing * 0.75, wing * 0.7, fill, INK, 0.35),
        Circle(cx + wing * 0.75, cy + wing * 0.75, wing * 0.7, fill, INK, 0.35),
        Line(cx - wing * 0.3, cy - wing * 1.9, cx, cy - wing * 0.9, INK, 0.4),
        Line(cx + wing * 0.3, cy - wing * 1.9, cx, cy - wing * 0.9, INK, 0.4),
        Circle(cx, cy, wing * 0.62, "#ffffff", INK, 0.35),
        Text(cx, cy + wing * 0.32, letter, wing * 2.3, True, "middle", INK),
    ]
    return shapes


def front(game: FlowersGame, card: int) -> Face:
    """The face of one card (by id): its colour band, big value, colour name and letter, butterfly."""
    cards = game.cards
    order = list(cards.colour_names)
    col = cards.colour[card]
    if col is None:
        return violet_front()
    fill, shape = colour_style(col, order)
    value = cards.value[card]
    name = cards.colour_names[col]
    face = Face().add(*frame(fill))
    face.add(*corner_index([(str(value), 20), (col, 11)]))
    face.add(symbol(shape, INSET + 4.5, INSET + 19.5, 2.4, fill), symbol(shape, CARD_WIDTH - INSET - 4.5,
                                                                          CARD_HEIGHT - INSET - 19.5, 2.4, fill))
    face.add(symbol(shape, CENTRE_X, 36, 16, fill, INK, 0.6))
    face.add(Text(CENTRE_X, 36 + (13 if shape == "triangle" else 9), str(value), 44, True, "middle", on(fill)))
    face.add(Text(CENTRE_X, 60, name.upper(), 12, True, "middle", INK))
    pip_step = 6.0
    start = CENTRE_X - pip_step * (value - 1) / 2
    for index in range(value):
        face.add(symbol(shape, start + index * pip_step, 66, 2.0, fill, INK, 0.3))
    face.add(Text(CENTRE_X, 73, f"groups of {value}: {GROUP_WORDS.get(value, str(value))}", 6.5, False, "middle",
                  MUTED))
    wing = cards.butterfly[card]
    if wing:
        wing_fill, _ = colour_style(wing, order)
        face.add(*butterfly(CARD_WIDTH - INSET - 10, INSET + 11, 10, wing_fill, wing))
        face.add(Text(CENTRE_X, 78.5, f"butterfly: {cards.colour_names[wing]} ({wing})", 7, True, "middle", INK))
    face.add(footer(cards.codes[card]))
    return face


def violet_front() -> Face:
    """The violet start card of the Summer variant: no value, no colour."""
    fill, shape = STYLE[VIOLET]
    face = Face().add(*frame(fill))
    face.add(*corner_index([("V", 16)]))
    face.add(symbol(shape, CENTRE_X, 38, 17, fill, INK, 0.6))
    face.add(Text(CENTRE_X, 62, "VIOLET", 12, True, "middle", INK))
    face.add(Text(CENTRE_X, 69, "Summer start card", 8, False, "middle", INK))
    face.add(Text(CENTRE_X, 74, "no value · no colour", 7, False, "middle", MUTED))
    face.add(footer(VIOLET))
    return face


def card_back(game: FlowersGame) -> Face:
    """The one back every Flowers card shares."""
    order = list(game.cards.colour_names)
    marks = tuple((colour_style(c, order)[1], colour_style(c, order)[0]) for c in order)
    return back(game.title or "Flowers", "#24452e", "draw · place · group", marks)


def card_faces(game: FlowersGame) -> list[CardFace]:
    """Every distinct Flowers card with its number of copies, in colour then value order, violets last."""
    copies = Counter(game.cards.codes)
    first: dict[str, int] = {}
    for card, code in enumerate(game.cards.codes):
        first.setdefault(code, card)
    shared_back = card_back(game)
    faces = []
    for code, card in first.items():
        col = game.cards.colour[card]
        name = (f"{game.cards.colour_names[col]} {game.cards.value[card]}" if col else "Violet start card")
        if game.cards.butterfly[card]:
            name += f" with {game.cards.colour_names[game.cards.butterfly[card]]} butterfly"
        faces.append(CardFace(code, name, copies[code], front(game, card), shared_back,
                              "violet start card" if col is None else "flower card"))
    return faces
