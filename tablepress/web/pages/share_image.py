"""A game's link-preview picture as PNG (chat and social apps show PNG, not SVG): its title and tagline
beside a few of its real card faces, drawn from the same faces model as the print sheets; a saved variant's
picture says "variant: NAME" and draws those cards as the variant makes them."""

from __future__ import annotations

import io
from functools import lru_cache

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ...core.registry import get_package
from ...faces.catalog import find_card
from ...faces.raster import draw_face
from ..faces import varied_game
from .content import facts_of

#: The size Open Graph previews are drawn at, in pixels.
WIDTH, HEIGHT = 1200, 630
DPI = 100
PAPER, INK, GREEN = "#fbf7ee", "#2b2b2b", "#24452e"
#: The cards' strip: the right part of the picture, in millimetres of card.
STRIP_MM = 230.0
GAP_MM = 6.0


@lru_cache(maxsize=32)
def share_png(name: str, variant: str | None = None, label: str | None = None) -> bytes:
    """The preview PNG of the registered game `name` (WIDTH × HEIGHT); with `variant` (a saved variant's card
    data changes as canonical JSON, web/faces.variant_key) and its name `label`, that variant's picture."""
    facts = facts_of(name)
    game = get_package(name).game if variant is None else varied_game(name, variant)
    figure = Figure(figsize=(WIDTH / DPI, HEIGHT / DPI), dpi=DPI, facecolor=PAPER)
    FigureCanvasAgg(figure)
    words = figure.add_axes((0.05, 0.08, 0.42, 0.84))
    words.set_axis_off()
    words.text(0, 0.78, facts.title, fontsize=54, fontweight="bold", color=GREEN, family="DejaVu Serif", va="top")
    if variant is not None:
        words.text(0, 0.60, _wrap(f"variant: {label or 'unnamed'}", 28, 2), fontsize=24, fontweight="bold",
                   color=INK, va="top", linespacing=1.2)
    words.text(0, 0.52 if variant is None else 0.36, _wrap(facts.tagline, 30, 3 if variant is None else 2),
               fontsize=22, color=INK, va="top", linespacing=1.3)
    words.text(0, 0.06, "Table Press · play · print · simulate", fontsize=15, color="#4a4a4a")
    cards = [find_card(game, key).front for key in facts.cover]
    if cards:
        _strip(figure, cards)
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=DPI, facecolor=PAPER)
    return out.getvalue()


def _strip(figure: Figure, faces: list) -> None:
    """The cards side by side on the right, each slightly lower than the last."""
    left, width = 0.5, 0.47
    axes = figure.add_axes((left, 0.0, width, 1.0))
    axes.set_axis_off()
    height_mm = STRIP_MM * (HEIGHT / (WIDTH * width))
    axes.set_xlim(0, STRIP_MM)
    axes.set_ylim(height_mm, 0)
    card_w = (STRIP_MM - GAP_MM * (len(faces) + 1)) / len(faces)
    scale = card_w / faces[0].width
    points_per_mm = (WIDTH * width / STRIP_MM) * 72 / DPI * scale
    for index, face in enumerate(faces):
        x = GAP_MM + index * (card_w + GAP_MM)
        y = (height_mm - face.height * scale) / 2 + (index - (len(faces) - 1) / 2) * 8
        inner = figure.add_axes(axes.get_position())  # a scaled frame: the face's own millimetres
        inner.set_axis_off()
        inner.set_xlim(-x / scale, (STRIP_MM - x) / scale)
        inner.set_ylim((height_mm - y) / scale, -y / scale)
        draw_face(inner, face, 0, 0, points_per_mm)


def _wrap(text: str, width: int, most: int = 3) -> str:
    """`text` broken into at most `most` lines of at most about `width` characters (a longer word cut, the
    rest left out after "…")."""
    lines: list[str] = []
    words = [word[at:at + width] for word in text.split() for at in range(0, len(word), width)]
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines[:most]) + ("…" if len(lines) > most else "")
