"""Render a `Face` onto a reportlab canvas, at a place on the page, with art extended into the bleed."""

from __future__ import annotations

from dataclasses import dataclass, replace

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from .fonts import PT, font_name, printable
from .model import Circle, Face, Line, Polygon, Rect, Shape, Text

_EDGE = 0.05  # mm: a rect this close to the card's edge counts as touching it


@dataclass(frozen=True)
class Bleed:
    """How far (mm) the art reaches past each edge of the card."""

    left: float = 0.0
    top: float = 0.0
    right: float = 0.0
    bottom: float = 0.0


def bleed_shape(shape: Shape, face: Face, bleed: Bleed) -> Shape:
    """A rect that touches an edge of the card, stretched over that edge into the bleed; others unchanged."""
    if not isinstance(shape, Rect):
        return shape
    x, y, right, bottom = shape.x, shape.y, shape.x + shape.w, shape.y + shape.h
    if x <= _EDGE:
        x -= bleed.left
    if y <= _EDGE:
        y -= bleed.top
    if right >= face.width - _EDGE:
        right += bleed.right
    if bottom >= face.height - _EDGE:
        bottom += bleed.bottom
    return replace(shape, x=x, y=y, w=right - x, h=bottom - y)


def _set_paint(canvas: Canvas, fill: str | None, stroke: str | None, width: float) -> tuple[int, int]:
    if fill:
        canvas.setFillColor(HexColor(fill))
    if stroke:
        canvas.setStrokeColor(HexColor(stroke))
        canvas.setLineWidth(width)
    return (1 if stroke else 0), (1 if fill else 0)


def draw_shape(canvas: Canvas, shape: Shape) -> None:
    """Draw one shape; the canvas is already in card millimetres with y downward."""
    if isinstance(shape, Rect):
        stroke, fill = _set_paint(canvas, shape.fill, shape.stroke, shape.width)
        if shape.radius:
            canvas.roundRect(shape.x, shape.y, shape.w, shape.h, shape.radius, stroke=stroke, fill=fill)
        else:
            canvas.rect(shape.x, shape.y, shape.w, shape.h, stroke=stroke, fill=fill)
    elif isinstance(shape, Circle):
        stroke, fill = _set_paint(canvas, shape.fill, shape.stroke, shape.width)
        canvas.circle(shape.cx, shape.cy, shape.r, stroke=stroke, fill=fill)
    elif isinstance(shape, Line):
        canvas.setStrokeColor(HexColor(shape.stroke))
        canvas.setLineWidth(shape.width)
        canvas.setLineCap(1)
        canvas.line(shape.x1, shape.y1, shape.x2, shape.y2)
    elif isinstance(shape, Polygon):
        stroke, fill = _set_paint(canvas, shape.fill, shape.stroke, shape.width)
        path = canvas.beginPath()
        path.moveTo(*shape.points[0])
        for point in shape.points[1:]:
            path.lineTo(*point)
        path.close()
        canvas.drawPath(path, stroke=stroke, fill=fill)
    elif isinstance(shape, Text):
        canvas.saveState()
        canvas.translate(shape.x, shape.y)
        canvas.scale(1, -1)
        if shape.rotate:
            canvas.rotate(-shape.rotate)
        canvas.setFillColor(HexColor(shape.fill))
        canvas.setFont(font_name(shape.bold), shape.size * PT)
        text = printable(shape.text, shape.bold)
        if shape.anchor == "middle":
            canvas.drawCentredString(0, 0, text)
        elif shape.anchor == "end":
            canvas.drawRightString(0, 0, text)
        else:
            canvas.drawString(0, 0, text)
        canvas.restoreState()
    else:
        raise TypeError(f"unknown shape {shape!r}")


#: Clockwise quarter turn → where the face's top-left corner goes within its footprint (in footprint
#: widths and heights).
_TURN_ORIGIN = {0: (0, 0), 90: (1, 0), 180: (1, 1), 270: (0, 1)}


def draw_face(canvas: Canvas, face: Face, left_mm: float, top_mm: float, page_height_mm: float,
              bleed: Bleed = Bleed(), rotate: int = 0) -> None:
    """Draw `face` with its top-left corner at (left_mm, top_mm) from the page's top-left, clipped to its bleed.

    With `rotate` (0, 90, 180 or 270, clockwise) the face is turned within its footprint, whose top-left
    corner is then (left_mm, top_mm); `bleed` is always measured on the face's own edges.
    """
    if rotate not in _TURN_ORIGIN:
        raise ValueError(f"rotate takes 0, 90, 180 or 270, not {rotate}")
    turned = rotate in (90, 270)
    across, down = (face.height, face.width) if turned else (face.width, face.height)
    right, bottom = _TURN_ORIGIN[rotate]
    canvas.saveState()
    canvas.translate((left_mm + right * across) * mm, (page_height_mm - top_mm - bottom * down) * mm)
    canvas.scale(mm, -mm)
    if rotate:
        canvas.rotate(rotate)
    clip = canvas.beginPath()
    clip.rect(-bleed.left, -bleed.top, face.width + bleed.left + bleed.right,
              face.height + bleed.top + bleed.bottom)
    canvas.clipPath(clip, stroke=0, fill=0)
    for shape in face.shapes:
        draw_shape(canvas, bleed_shape(shape, face, bleed))
    canvas.restoreState()
