"""Every game's printable cards, from its package's `faces` (a game without them gets plain faces).

A game's faces maker is `card_faces(game) -> list[CardFace]`, built from the game's loaded card
data (so a variant changes what is printed and what the web shows).
"""

from __future__ import annotations

import weakref

from ..core.errors import TablepressError
from ..core.game import Game
from ..core.names import fold
from ..core.registry import package_of
from .plain import plain_faces
from .model import CardFace, Component
from .svg import face_svg


def _maker(game: Game):
    """The game's `card_faces` (from its package), or the plain default."""
    maker = package_of(game).faces
    return maker if maker is not None else plain_faces


_built: "weakref.WeakKeyDictionary[Game, tuple[CardFace, ...]]" = weakref.WeakKeyDictionary()


def card_faces(game: Game) -> list[CardFace]:
    """Every distinct card of `game` with its printed quantity, front and back, in print order.

    Built once per game object (a variant is a new game object, so it gets its own faces).
    """
    try:
        faces = _built.get(game)
    except TypeError:  # not weakly referenceable: build every time
        return list(_maker(game)(game))
    if faces is None:
        faces = tuple(_maker(game)(game))
        _built[game] = faces
    return list(faces)


def svg_faces(game: Game, back: bool = False) -> dict[str, str]:
    """Every card's SVG (front, or back) by card key, in print order — for a web page of all cards."""
    return {face.key: face_svg(face.back if back else face.front, face.name) for face in card_faces(game)}


def find_card(game: Game, card: str) -> CardFace:
    """The card whose key (code) or name is `card` (case and accents ignored), or a clear error."""
    cards = card_faces(game)
    wanted = fold(card)
    for face in cards:
        if fold(face.key) == wanted:
            return face
    for face in cards:
        if fold(face.name) == wanted:
            return face
    raise TablepressError(f"{game.name} has no card {card!r}")


def svg_for(game: Game, card: str, back: bool = False, width: str | None = None) -> str:
    """The SVG of one card's face (or its back) by key or name, e.g. `svg_for(get_game("flowers"), "Y4g")`."""
    face = find_card(game, card)
    side = face.back if back else face.front
    return face_svg(side, f"{face.name} (back)" if back else face.name, width)


def game_components(game: Game) -> list[Component]:
    """Every printable part of `game` besides its cards (boards, tracks, token sheets), from its package."""
    maker = package_of(game).components
    return [] if maker is None else list(maker(game))
