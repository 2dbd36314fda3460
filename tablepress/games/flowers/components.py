"""Flowers' printed parts besides the cards: the scorebook page (rules.md, Scoring) that also
stands in for the box's stack template (the stack sizes per player count).
"""

from __future__ import annotations

from ...faces.model import Component
from ...faces.scoresheet import Row, score_sheet
from .engine import FlowersGame
from .faces import colour_style


def _points(points: int) -> str:
    """What one counted card is worth, as printed in a row's hint ("+1 each", "−1 each")."""
    return f"{'+' if points >= 0 else '−'}{abs(points)} each"


def scoring_rows(game: FlowersGame) -> list[Row]:
    """One row per scoring line of the rules, in the order players count them, then the total."""
    cards = game.cards
    order = list(cards.colour_names)
    discard = _points(cards.discard_points)
    rows = [
        Row("Discarded: top cards of wrong-size groups", discard),
        Row("Discarded: cards beneath them", discard),
    ]
    for code, name in cards.colour_names.items():
        fill, shape = colour_style(code, order)
        rows.append(Row(f"{code} {name} regions of {cards.region_min}+: cards", "+1 each", (shape, fill)))
    rows.append(Row("Butterflies touching their colour", _points(cards.butterfly_points)))
    rows.append(Row("Total", total=True))
    return rows


def stacks_note(game: FlowersGame) -> str:
    """The draw stacks per player count, from the card data (the box's stack template)."""
    parts = []
    for players, spec in sorted(game.cards.stack_sizes.items()):
        who = f"{players} player{'' if players == 1 else 's'}"
        size = "all the cards in three even stacks" if spec == "rest" else " + ".join(str(n) for n in spec)
        parts.append(f"{who}: {size}")
    return "Draw stacks — " + " · ".join(parts) + "."


def scorebook(game: FlowersGame) -> Component:
    """The scorebook page: a column per player, a row per scoring line, several games a page."""
    cards = game.cards
    notes = [
        "Only the top card of each space counts. Touching cards of one value form a group: a 4 needs exactly "
        "four 4s, a 3 three 3s, a 2 a pair, a 1 stands alone. A group of the wrong size is discarded with every "
        "card beneath it. Touching cards of one colour form a region; a region of "
        f"{cards.region_min} or more scores every card. A butterfly scores when it touches a card of its colour. "
        "Highest total wins; ties go to fewer discarded cards.",
        stacks_note(game),
    ]
    face = score_sheet(f"{game.title or 'Flowers'} — scorebook", "write each player's name at the top of a column",
                       scoring_rows(game), game.max_players, notes)
    return Component("scorebook", "Scorebook", 1, face, "scorebook")


def components(game: FlowersGame) -> list[Component]:
    """Every printed Flowers part besides the cards."""
    return [scorebook(game)]
