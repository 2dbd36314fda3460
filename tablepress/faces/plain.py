"""Plain faces for a game that draws none of its own: each distinct card named on a white panel.

The cards and their copies come from `card_counts` of a new game at the largest player count, so a
game that ships no `faces` still prints a complete deck and shows its cards on the web table.
"""

from __future__ import annotations

from ..core.game import Game
from .model import CardFace, Face
from .style import MUTED, back, frame, paragraph, title

PLAIN_COLOUR = "#4a5a6a"


def plain_faces(game: Game) -> list[CardFace]:
    """One face per distinct card of `game` (its name as the key), with its printed copies."""
    counts = game.card_counts(game.new(game.max_players, 0))
    reverse = back(game.title or game.name, PLAIN_COLOUR)
    faces = []
    for card in sorted(counts, key=str):
        name = str(card)
        front = Face()
        front.add(*frame(PLAIN_COLOUR))
        front.add(title(name, 22))
        front.add(*paragraph(game.title or game.name, 80, 7, colour=MUTED)[0])
        faces.append(CardFace(name, name, int(counts[card]), front, reverse, "card"))
    return faces

