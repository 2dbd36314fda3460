"""Draw a `Face` with matplotlib (for raster images such as a link's preview PNG): the same shapes as the SVG
and the PDF, placed in millimetres on axes whose y axis points down like a card's."""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.patches import Circle as CirclePatch
from matplotlib.patches import FancyBboxPatch
from matplotlib.patches import Polygon as PolygonPatch
from matplotlib.patches import Rectangle

from .fonts import PT
from .model import Circle, Face, Line, Polygon, Rect, Shape, Text

_ALIGN = {"start": "left", "middle": "center", "end": "right"}


def _colour(value: str | None) -> str:
    return value or "none"


def draw_shape(axes: Axes, shape: Shape, x: float, y: float, points_per_mm: float, z: float) -> None:
    """One shape with the card's top-left corner at (x, y) mm; `points_per_mm` sizes lines and text."""
    line = shape.width * points_per_mm if not isinstance(shape, Text) else 0
    if isinstance(shape, Rect):
        common = {"facecolor": _colour(shape.fill), "edgecolor": _colour(shape.stroke),
                  "linewidth": line if shape.stroke else 0, "zorder": z}
        if shape.radius:
            axes.add_patch(FancyBboxPatch((x + shape.x, y + shape.y), shape.w, shape.h,
                                          boxstyle=f"round,pad=0,rounding_size={shape.radius}", **common))
        else:
            axes.add_patch(Rectangle((x + shape.x, y + shape.y), shape.w, shape.h, **common))
    elif isinstance(shape, Circle):
        axes.add_patch(CirclePatch((x + shape.cx, y + shape.cy), shape.r, facecolor=_colour(shape.fill),
                                   edgecolor=_colour(shape.stroke), linewidth=line if shape.stroke else 0, zorder=z))
    elif isinstance(shape, Line):
        axes.plot([x + shape.x1, x + shape.x2], [y + shape.y1, y + shape.y2], color=shape.stroke, linewidth=line,
                  solid_capstyle="round", zorder=z)
    elif isinstance(shape, Polygon):
        axes.add_patch(PolygonPatch([(x + px, y + py) for px, py in shape.points], closed=True,
                                    facecolor=_colour(shape.fill), edgecolor=_colour(shape.stroke),
                                    linewidth=line if shape.stroke else 0, zorder=z))
    elif isinstance(shape, Text):
        axes.text(x + shape.x, y + shape.y, shape.text, fontsize=shape.size * PT * points_per_mm,
                  fontweight="bold" if shape.bold else "normal", ha=_ALIGN[shape.anchor], va="baseline",
                  color=shape.fill, rotation=-shape.rotate, rotation_mode="anchor", family="DejaVu Sans", zorder=z)
    else:
        raise TypeError(f"unknown shape {shape!r}")


def draw_face(axes: Axes, face: Face, x: float, y: float, points_per_mm: float, z: float = 1.0) -> None:
    """Every shape of `face`, in order, with its top-left corner at (x, y) mm."""
    for index, shape in enumerate(face.shapes):
        draw_shape(axes, shape, x, y, points_per_mm, z + index * 1e-4)
