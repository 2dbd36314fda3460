"""A score sheet page: a title, then as many games as fit, each a table of one row per scoring line and
one column per player, then notes at the foot. Games whose scores are written down print one (the
Flowers scorebook, the By This score pad).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .fonts import PT
from .model import COMPONENT_HEIGHT, COMPONENT_WIDTH, Face, Line, Rect, Shape, Text, fit_size, text_block
from .style import INK, MUTED, SOFT, symbol

#: The height of a row players write in (mm): room for a handwritten number.
ROW_HEIGHT = 7.0
LABEL_WIDTH = 78.0
MARGIN = 4.0
TEXT_SIZE = 8.0
NOTE_SIZE = 7.5
GAP = 6.0


@dataclass(frozen=True)
class Row:
    """One scoring line of the table.

    `hint` says what a figure is worth ("−1 each"); `mark` is a (symbol kind, fill) drawn before the
    label so a colour reads without colour; a `total` row is shaded and bold.
    """

    label: str
    hint: str = ""
    mark: tuple[str, str] | None = None
    total: bool = False


def games_per_page(rows: int, notes_height: float, head_height: float = 18.0) -> int:
    """How many game tables of `rows` rows (plus the name row and a heading) fit on one page."""
    block = (rows + 1) * ROW_HEIGHT + 6.0 + GAP
    room = COMPONENT_HEIGHT - head_height - notes_height + GAP
    return max(1, int(room // block))


def _table(rows: Sequence[Row], players: int, number: int, top: float) -> tuple[list[Shape], float]:
    """One game's table with its heading line at `top`; returns the shapes and the y below the table."""
    shapes: list[Shape] = [
        Text(MARGIN, top + 4, f"Game {number}", 9, True, "start", INK),
        Text(MARGIN + 22, top + 4, "date ______________   place ______________", TEXT_SIZE, False, "start", MUTED),
    ]
    table_top = top + 6
    width = COMPONENT_WIDTH - 2 * MARGIN
    column = (width - LABEL_WIDTH) / players
    height = (len(rows) + 1) * ROW_HEIGHT
    shapes.append(Rect(MARGIN, table_top, width, height, stroke=INK, width=0.5))
    baseline = ROW_HEIGHT / 2 + TEXT_SIZE * PT * 0.35
    shapes.append(Text(MARGIN + 2, table_top + baseline, "Player", TEXT_SIZE, True, "start", INK))
    for index, row in enumerate(rows, start=1):
        y = table_top + index * ROW_HEIGHT
        if row.total:
            shapes.append(Rect(MARGIN, y, width, ROW_HEIGHT, fill=SOFT, stroke=INK, width=0.5))
        else:
            shapes.append(Line(MARGIN, y, MARGIN + width, y, INK, 0.25))
        x = MARGIN + 2
        if row.mark:
            shapes.append(symbol(row.mark[0], x + 1.8, y + ROW_HEIGHT / 2, 1.8, row.mark[1], INK, 0.3))
            x += 5
        room = LABEL_WIDTH - (x - MARGIN) - 2
        hint_width = 0.0
        if row.hint:
            shapes.append(Text(MARGIN + LABEL_WIDTH - 1.5, y + baseline, row.hint, NOTE_SIZE, False, "end", MUTED))
            hint_width = 17.0
        size = fit_size(row.label, room - hint_width, TEXT_SIZE, row.total, 7.0)
        shapes.append(Text(x, y + baseline, row.label, size, row.total, "start", INK))
    for seat in range(players + 1):
        x = MARGIN + LABEL_WIDTH + seat * column
        shapes.append(Line(x, table_top, x, table_top + height, INK, 0.4 if seat == 0 else 0.25))
    return shapes, table_top + height


def score_sheet(title: str, subtitle: str, rows: Sequence[Row], players: int,
                notes: Sequence[str] = ()) -> Face:
    """A score sheet page (COMPONENT_WIDTH × COMPONENT_HEIGHT mm) with as many game tables as fit."""
    face = Face(width=COMPONENT_WIDTH, height=COMPONENT_HEIGHT)
    face.add(Text(COMPONENT_WIDTH / 2, 8, title, fit_size(title, COMPONENT_WIDTH - 10, 16), True, "middle", INK))
    face.add(Text(COMPONENT_WIDTH / 2, 14, subtitle, fit_size(subtitle, COMPONENT_WIDTH - 10, 9, False, 7.0),
                  False, "middle", MUTED))
    note_shapes: list[Text] = []
    y = 0.0
    for note in notes:
        lines, y = text_block(note, MARGIN, y + NOTE_SIZE * PT, COMPONENT_WIDTH - 2 * MARGIN, NOTE_SIZE)
        note_shapes += lines
    notes_height = y + 2 if notes else 0.0
    top = 18.0
    for number in range(1, games_per_page(len(rows), notes_height) + 1):
        shapes, bottom = _table(rows, players, number, top)
        face.add(*shapes)
        top = bottom + GAP
    face.add(*(Text(t.x, t.y + top, t.text, t.size, t.bold, t.anchor, MUTED) for t in note_shapes))
    return face
