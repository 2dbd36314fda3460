"""The one font family every card face is measured and drawn with.

DejaVu Sans when the system has it (it has arrows and most symbols), else Bitstream Vera, which ships
inside reportlab — the same metrics for Latin text, so a layout measured here looks the same in the
PDF, and in a browser that has either font (the SVG names both, then Verdana).
"""

from __future__ import annotations

import functools
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR = "TPSans"
BOLD = "TPSans-Bold"
#: CSS font-family for SVG and HTML: the same faces by name, then near relatives.
CSS_FAMILY = "'DejaVu Sans', 'Bitstream Vera Sans', Verdana, sans-serif"
#: Millimetres per typographic point.
PT = 25.4 / 72

_DEJAVU_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/share/fonts/dejavu"),
)
_VERA_DIR = Path(reportlab.__file__).parent / "fonts"
#: Characters a font may lack, and a plain stand-in.
_FALLBACKS = {"→": "->", "←": "<-", "↑": "^", "↓": "v", "×": "x", "≥": ">=", "≤": "<=", "★": "*", "·": "-"}


def _font_files() -> tuple[Path, Path]:
    for folder in _DEJAVU_DIRS:
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            return regular, bold
    return _VERA_DIR / "Vera.ttf", _VERA_DIR / "VeraBd.ttf"


@functools.cache
def register() -> None:
    """Register the regular and bold faces with reportlab (once)."""
    regular, bold = _font_files()
    pdfmetrics.registerFont(TTFont(REGULAR, str(regular)))
    pdfmetrics.registerFont(TTFont(BOLD, str(bold)))


def font_name(bold: bool) -> str:
    """The reportlab name of the regular or bold face."""
    register()
    return BOLD if bold else REGULAR


@functools.cache
def _glyphs(bold: bool) -> frozenset[int]:
    font = pdfmetrics.getFont(font_name(bold))
    return frozenset(font.face.charToGlyph)


def printable(text: str, bold: bool = False) -> str:
    """`text` with any character the font lacks replaced by a plain stand-in (→ becomes ->)."""
    glyphs = _glyphs(bold)
    return "".join(ch if ord(ch) in glyphs or ch not in _FALLBACKS else _FALLBACKS[ch] for ch in text)


def width_mm(text: str, size_pt: float, bold: bool = False) -> float:
    """The width in millimetres of `text` set at `size_pt` points."""
    return pdfmetrics.stringWidth(printable(text, bold), font_name(bold), size_pt) * PT
