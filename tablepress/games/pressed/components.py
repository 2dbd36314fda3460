"""Pressed's parts besides the cards, per the rulebook: the scoreboard (a 0–49 track) and the score markers
(two a player in their colour, plus the one +100/+150 marker), as fold-over tokens (scissors only;
a dab of glue keeps one flat, but a creased fold holds).

A score marker shows a plain side and a "+50" side (flipped when a score passes 49); printing both
halves on one strip that is folded in half makes them double-sided without duplex printing.
"""

from __future__ import annotations

from ...faces.model import Component, Face, Line, Rect, Shape, Text, fit_size
from ...faces.style import INK, MUTED, PAPER, SOFT, on, symbol
from .engine import PressedGame
from .faces import flower_colour

#: Spaces on the score track (0 to 49): past 49 a marker flips to its +50 side and goes round again.
TRACK = 50
PER_ROW = 10
MARKERS_EACH = 2
SPACE = 18.0
#: Player colours, each named and with its own symbol so the markers read in greyscale.
PLAYERS = (("Red", "#d1495b", "circle"), ("Blue", "#3a6ea5", "square"), ("Yellow", "#f2c12e", "triangle"),
           ("Green", "#4f9d69", "diamond"), ("Purple", "#7b4fa0", "star"))
BOARD_W, MARKER_W, MARKER_H = 200.0, 22.0, 44.0


def track_space(score: int) -> tuple[float, float]:
    """Top-left (mm) of a score's space: rows of ten that snake, 0 at the top left."""
    row, column = divmod(score, PER_ROW)
    if row % 2:
        column = PER_ROW - 1 - column
    return 10.0 + column * SPACE, 30.0 + row * SPACE


def scoreboard(game: PressedGame) -> Face:
    """The score track 0–49, a snake of ten spaces a row, every fifth space shaded, with how to go past 49."""
    rows = -(-TRACK // PER_ROW)
    face = Face(width=BOARD_W, height=30.0 + rows * SPACE + 34.0)
    face.add(Rect(2, 2, face.width - 4, face.height - 4, stroke=INK, width=0.6, radius=4),
             Text(face.width / 2, 16, f"{game.title or 'Pressed'} · Scoreboard", 18, True, "middle", INK),
             Text(face.width / 2, 23, "Markers on one space stack: a marker arriving goes on top.", 9, False,
                  "middle", MUTED))
    colours = [flower_colour(name, game.cards.names) for name in game.cards.names]
    for score in range(TRACK):
        x, y = track_space(score)
        tint = colours[(score // 5) % len(colours)] if score % 5 == 0 else PAPER
        face.add(Rect(x, y, SPACE, SPACE, fill=tint if score % 5 == 0 else SOFT if score % 2 else PAPER,
                      stroke=INK, width=0.4))
        face.add(Text(x + SPACE / 2, y + SPACE / 2 + 2.5, str(score), 16 if score % 5 == 0 else 12, score % 5 == 0,
                      "middle", on(tint) if score % 5 == 0 else INK))
    for score in range(PER_ROW - 1, TRACK - 1, PER_ROW):  # arrows where the snake turns
        x, y = track_space(score)
        side = x + SPACE + 2.5 if (score // PER_ROW) % 2 == 0 else x - 2.5
        face.add(Line(side, y + SPACE * 0.5, side, y + SPACE * 1.5, INK, 0.8))
    bottom = 30.0 + rows * SPACE
    for index, line in enumerate((
            "Start: every marker on 0, stacked in turn order, the first player at the bottom.",
            "Passing 49: flip your marker to its +50 side and go on from 0.",
            "Passing 49 again: swap it for the +100 marker; a third time, flip that to +150.")):
        face.add(Text(10, bottom + 9 + index * 7, line, 10, False, "start", INK))
    return face


def _marker(x: float, y: float, top: str, bottom: str, colour: str, mark: str) -> list[Shape]:
    """One fold-over marker: the plain side above the fold, the other side (upside down) below it."""
    half = MARKER_H / 2
    ink = on(colour)
    shapes: list[Shape] = [Rect(x, y, MARKER_W, MARKER_H, fill=colour, stroke=INK, width=0.4),
                           Line(x + 1, y + half, x + MARKER_W - 1, y + half, PAPER if ink == PAPER else MUTED, 0.3)]
    for text, centre, turn in ((top, y + half / 2, 0.0), (bottom, y + half * 1.5, 180.0)):
        shapes.append(symbol(mark, x + MARKER_W / 2, centre - 3.5 if turn == 0 else centre + 3.5, 2.6, PAPER, INK, 0.3))
        size = fit_size(text, MARKER_W - 3, 11, True, 7)
        shapes.append(Text(x + MARKER_W / 2, centre + 5.5 if turn == 0 else centre - 5.5, text, size, True,
                           "middle", ink, turn))
    return shapes


def markers(game: PressedGame) -> Face:
    """Score markers, two a player in each colour (plain side and +50 side), and the +100/+150 marker."""
    seats = max(game.cards.decks)
    face = Face(width=BOARD_W, height=2 * MARKER_H + 52.0)
    face.add(Text(BOARD_W / 2, 10, "Score markers · cut out, fold on the line (glue optional)", 13, True, "middle", INK),
             Text(BOARD_W / 2, 17, f"{MARKERS_EACH} a player ({seats} players) and one +100/+150 marker", 9,
                  False, "middle", MUTED))
    gap = 4.0
    tokens = [(PLAYERS[seat % len(PLAYERS)], "", "+50") for seat in range(seats) for _ in range(MARKERS_EACH)]
    tokens.append((("", "#ffffff", "hexagon"), "+100", "+150"))
    per_row = int((BOARD_W - 10) // (MARKER_W + gap))
    for index, ((colour_name, colour, mark), top, bottom) in enumerate(tokens):
        row, column = divmod(index, per_row)
        x = 8 + column * (MARKER_W + gap)
        y = 24 + row * (MARKER_H + gap)
        face.add(*_marker(x, y, top or colour_name, bottom, colour, mark))
    return face


def components(game: PressedGame) -> list[Component]:
    """The scoreboard and the sheet of score markers, built from the loaded card data (its player counts)."""
    return [Component("scoreboard", "Scoreboard (0–49 track)", 1, scoreboard(game), "track"),
            Component("markers", "Score markers", 1, markers(game), "tokens")]
