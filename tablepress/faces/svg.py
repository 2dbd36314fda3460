"""Render a `Face` as a standalone SVG document (millimetre viewBox), for the web app."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .fonts import CSS_FAMILY, PT
from .model import Circle, Face, Line, Polygon, Rect, Shape, Text

_ANCHORS = {"start": "start", "middle": "middle", "end": "end"}


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _paint(fill: str | None, stroke: str | None, width: float) -> str:
    parts = [f'fill="{fill or "none"}"']
    if stroke:
        parts.append(f'stroke="{stroke}" stroke-width="{_num(width)}"')
    return " ".join(parts)


def shape_svg(shape: Shape) -> str:
    """One shape as an SVG element."""
    if isinstance(shape, Rect):
        rounded = f' rx="{_num(shape.radius)}"' if shape.radius else ""
        return (f'<rect x="{_num(shape.x)}" y="{_num(shape.y)}" width="{_num(shape.w)}" height="{_num(shape.h)}"'
                f'{rounded} {_paint(shape.fill, shape.stroke, shape.width)}/>')
    if isinstance(shape, Circle):
        return (f'<circle cx="{_num(shape.cx)}" cy="{_num(shape.cy)}" r="{_num(shape.r)}" '
                f'{_paint(shape.fill, shape.stroke, shape.width)}/>')
    if isinstance(shape, Line):
        return (f'<line x1="{_num(shape.x1)}" y1="{_num(shape.y1)}" x2="{_num(shape.x2)}" y2="{_num(shape.y2)}" '
                f'stroke="{shape.stroke}" stroke-width="{_num(shape.width)}" stroke-linecap="round"/>')
    if isinstance(shape, Polygon):
        points = " ".join(f"{_num(x)},{_num(y)}" for x, y in shape.points)
        return f'<polygon points="{points}" {_paint(shape.fill, shape.stroke, shape.width)}/>'
    if isinstance(shape, Text):
        weight = ' font-weight="bold"' if shape.bold else ""
        turn = (f' transform="rotate({_num(shape.rotate)} {_num(shape.x)} {_num(shape.y)})"'
                if shape.rotate else "")
        return (f'<text x="{_num(shape.x)}" y="{_num(shape.y)}" font-size="{_num(shape.size * PT)}"{weight} '
                f'text-anchor="{_ANCHORS[shape.anchor]}" fill="{shape.fill}"{turn}>{escape(shape.text)}</text>')
    raise TypeError(f"unknown shape {shape!r}")


def face_svg(face: Face, title: str | None = None, width: str | None = None) -> str:
    """The face as an SVG document; `width` (CSS, e.g. "63mm" or "100%") defaults to the card's size in mm."""
    size = f'width="{width}"' if width else f'width="{_num(face.width)}mm" height="{_num(face.height)}mm"'
    label = f"<title>{escape(title)}</title>" if title else ""
    body = "".join(shape_svg(shape) for shape in face.shapes)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" {size} viewBox="0 0 {_num(face.width)} {_num(face.height)}" '
            f'font-family={quoteattr(CSS_FAMILY)} role="img">{label}{body}</svg>')
