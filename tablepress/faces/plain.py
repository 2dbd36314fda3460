"""Plain faces for a game that draws none of its own: each distinct card named on a white panel.

The cards and their copies come from `card_counts` of a new game at the largest player count, so a
game that ships no `faces` still prints a complete deck and shows its cards on the web table. A game that
declares its cards (`core.zoned.ZonedGame`) gets each card's declared fields printed under its name
(`Suit: Red`, `Rank: 3`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core.game import Game
from ..core.zoned import ZonedGame
from .model import CardFace, Face
from .style import MUTED, back, frame, paragraph, title

PLAIN_COLOUR = "#4a5a6a"
#: Where the first declared field is printed, and the step down to the next (mm from the top).
FIELDS_Y, FIELD_STEP = 36.0, 9.0


def plain_faces(game: Game) -> list[CardFace]:
    """One face per distinct card of `game` (its name as the key), with its printed copies and, for a game
    with zones, its declared fields."""
    counts = game.card_counts(game.new(game.max_players, 0))
    cards = _declared(game, counts) if isinstance(game, ZonedGame) else {
        str(card): (int(count), {}) for card, count in counts.items()}
    reverse = back(game.title or game.name, PLAIN_COLOUR)
    faces = []
    for name in sorted(cards, key=str):
        copies, fields = cards[name]
        front = Face()
        front.add(*frame(PLAIN_COLOUR))
        front.add(title(name, 22))
        for row, (field, value) in enumerate(fields.items()):
            front.add(*paragraph(f"{field.replace('_', ' ').capitalize()}: {value}", FIELDS_Y + row * FIELD_STEP, 9)[0])
        front.add(*paragraph(game.title or game.name, 80, 7, colour=MUTED)[0])
        faces.append(CardFace(name, name, copies, front, reverse, "card"))
    return faces


def _declared(game: ZonedGame, counts: Counter) -> dict[str, tuple[int, dict[str, Any]]]:
    """Every declared card in play by name: its copies (counted as `card_counts` counts it) and its fields."""
    found: dict[str, tuple[int, dict[str, Any]]] = {}
    for cards in game.layout.sets.values():
        seen_keys: set = set()
        for card in cards.ids():
            key = cards.key(card)
            if key not in counts or key in seen_keys:
                continue
            seen_keys.add(key)
            name = cards.name(card)
            copies = found.get(name, (0, {}))[0] + int(counts[key])
            found[name] = (copies, cards.record(card))
    return found
