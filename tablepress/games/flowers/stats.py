"""Card-level figures of one finished game of Flowers, for `tablepress simulate` (per player, averaged).

discards: cards discarded (covered ones included); discard_points; region_points; regions: colour regions
of scoring size; largest_region: the biggest colour region of any size; butterflies: butterflies that
score; butterfly_points; covered: cards placed on top of another; spread: cells in the area.
"""

from __future__ import annotations

from typing import Any

from ...core.match import Match
from ...core.package import Stats
from .scoring import components, score_area


def figures(game: Any, match: Match) -> dict[str, float]:
    """Figures of a finished match, each the mean over the players."""
    cards = game.cards
    totals = dict.fromkeys(
        ("discards", "discard_points", "region_points", "regions", "largest_region", "butterflies",
         "butterfly_points", "covered", "spread"),
        0.0,
    )
    areas = match.state.areas
    for area in areas:
        result = score_area(area, cards)
        top = {cell: stack[-1] for cell, stack in area.items() if stack}
        coloured = {cell for cell, card in top.items() if cards.colour[card] is not None}
        regions = components(coloured, lambda a, b: cards.colour[top[a]] == cards.colour[top[b]])
        totals["discards"] += len(result.discarded)
        totals["discard_points"] += result.discard_points
        totals["region_points"] += result.region_points
        totals["regions"] += len(result.regions)
        totals["largest_region"] += max((len(r) for r in regions), default=0)
        totals["butterflies"] += len(result.butterflies)
        totals["butterfly_points"] += result.butterfly_points
        totals["covered"] += sum(len(stack) - 1 for stack in area.values())
        totals["spread"] += len(area)
    return {name: value / len(areas) for name, value in totals.items()}


#: How findings read a family of figures (none in Flowers: its card-level figures are per game).
FAMILIES: dict[str, dict[str, str]] = {}

#: What the agents decide here and how strong they measured (docs/strength.md: the cells and their commands).
BOTS = {
    "decisions": "which stack to draw from and where to place the drawn card (cover, extend, or discard by "
                 "covering); greedy looks one turn ahead with the area heuristic, averaging 4 determinizations",
    "not_decided": "nothing is left to a fixed rule: every draw and placement is chosen",
    #: Measured, not computed: `tablepress ladder flowers --players N --rung R --seed S`, greedy/random/200 on
    #: seed 5; ismcts:300/greedy/100 on seeds 12-14 (2 players), 5-14 (3) and 5-12 (4), pooled (docs/strength.md,
    #: "Where the search stands"). Update with the docs when a cell is measured again.
    "ladder": [("greedy", "random", 2, 200, 1.0), ("greedy", "random", 4, 200, 1.0),
               ("ismcts:300", "greedy", 2, 300, 0.798), ("ismcts:300", "greedy", 3, 1000, 0.551),
               ("ismcts:300", "greedy", 4, 800, 0.411)],
}


def _kind(cards: Any, card: int) -> str:
    colour = cards.colour[card]
    return "Violet" if colour is None else f"{cards.colour_names[colour]} {cards.value[card]}"


def cards(game: Any, match: Match) -> dict[str, dict[str, list[float]]]:
    """Per seat, how many cards of each kind (colour and value) it kept face up and how many it discarded."""
    table = game.cards
    kinds = sorted({_kind(table, card) for card in range(len(table.codes))})
    kept = {kind: [0.0] * match.players for kind in kinds}
    discarded = {kind: [0.0] * match.players for kind in kinds}
    butterflies = {"butterflies": [0.0] * match.players}
    for seat, area in enumerate(match.state.areas):
        result = score_area(area, table)
        for stack in area.values():
            if stack:
                kept[_kind(table, stack[-1])][seat] += 1
        for card in result.discarded:
            discarded[_kind(table, card)][seat] += 1
        butterflies["butterflies"][seat] = float(len(result.butterflies))
    return {"keep": kept, "discard": discarded, "score with": butterflies}


def left_out(game: Any, players: int, options: Any) -> list[str]:
    """The coloured cards left in the box at this player count: drawn at random each game, so not named."""
    table = game.cards
    summer = bool((options or {}).get("summer", False))
    available = len(table.coloured) - (0 if summer else players)
    boxed = available - sum(table.deal_sizes(players, available))
    if boxed <= 0:
        return []
    return [f"{boxed} of the {len(table.coloured)} coloured cards, drawn at random each game (left in the box)"]


#: What `simulate` asks of the game (core/package.py).
STATS = Stats(figures=figures, cards=cards, left_out=left_out, families=FAMILIES, bots=BOTS)
