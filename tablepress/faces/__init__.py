"""Card faces: one drawing model of what every card shows, rendered to SVG (web) and PDF (print).

    from tablepress.core.registry import get_game
    from tablepress.faces import svg_for, card_faces
    svg_for(get_game("flowers"), "Y4g")        # a card's front as an SVG document
    svg_for(get_game("by-this"), "Ant", back=True)
    card_faces(get_game("pressed"))            # every card: key, name, copies, front, back

Each game draws its cards in `tablepress/games/<folder>/faces.py` from its loaded card data.
"""

from .catalog import card_faces, find_card, svg_faces, svg_for
from .model import CARD_HEIGHT, CARD_WIDTH, CardFace, Circle, Face, Line, Polygon, Rect, Text
from .svg import face_svg

__all__ = [
    "CARD_HEIGHT", "CARD_WIDTH", "CardFace", "Circle", "Face", "Line", "Polygon", "Rect", "Text",
    "card_faces", "face_svg", "find_card", "svg_faces", "svg_for",
]
