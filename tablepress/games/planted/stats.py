"""Card-level figures of one finished game of Planted, for `tablepress simulate` (per player, averaged).

plants.TIER: plants owned of each tier; points.TIER: plant points from that tier; plant_points,
growth_tokens, grown (plants with every space filled); decorations and decoration_points; tools;
propagation (tokens = points); nursery_calls: Nursery calls made.
"""

from __future__ import annotations

from typing import Any

from ...core.match import Match
from ...core.package import Stats
from .cards import TIERS
from .scoring import plant_points


def figures(game: Any, match: Match) -> dict[str, float]:
    """Figures of a finished match, each the mean over the players."""
    cards = game.cards
    state = match.state
    players = match.players
    totals: dict[str, float] = {f"plants.{tier}": 0.0 for tier in TIERS}
    totals.update({f"points.{tier}": 0.0 for tier in TIERS})
    for key in ("plant_points", "growth_tokens", "grown", "decorations", "decoration_points", "tools",
                "propagation", "nursery_calls"):
        totals[key] = 0.0
    for seat in range(players):
        for plant_id, tokens in zip(state.plants[seat], state.growth[seat]):
            plant = cards.plants[plant_id]
            points = plant_points(plant.spaces, tokens)
            totals[f"plants.{plant.tier}"] += 1
            totals[f"points.{plant.tier}"] += points
            totals["plant_points"] += points
            totals["growth_tokens"] += tokens
            totals["grown"] += tokens >= len(plant.spaces)
        board = game.board_score(state, seat)
        totals["decorations"] += len(state.decorations[seat])
        totals["decoration_points"] += board.decorations
        totals["tools"] += len(state.tools[seat])
        totals["propagation"] += board.propagation
    totals["nursery_calls"] = float(sum(1 for _, action in match.actions if action.startswith("nursery ")))
    return {name: value / players for name, value in totals.items()}


#: How findings read a family of figures: `points.rare` is the plant points a player makes from that tier.
FAMILIES = {
    "points": {"reads": "{name} plants earn {value} points a player", "noun": "plant tier for points"},
    "plants": {"reads": "players end with {value} {name} plants", "noun": "plant tier to own"},
}

#: What the agents decide here and how strong they measured (docs/strength.md: the cells and their commands).
BOTS = {
    "decisions": "which card to take from the hand passed on (or a Nursery call), which plant to buy and "
                 "how to feed; greedy looks one choice ahead with the board heuristic",
    "not_decided": "the other seats' simultaneous picks are guessed (a random card, Nursery one time in "
                   "five), never seen; every seat decides from the position before anyone chose",
    #: Measured, not computed: `tablepress ladder planted --players N --rung R --seed 5`, greedy/random/200 and
    #: ismcts:300/greedy/100 (60 games at 5 players) (docs/strength.md, "Where the search stands"). Update with
    #: the docs when a cell is measured again.
    "ladder": [("greedy", "random", 2, 200, 0.98), ("greedy", "random", 5, 200, 1.0),
               ("ismcts:300", "greedy", 2, 100, 0.815), ("ismcts:300", "greedy", 3, 100, 0.57),
               ("ismcts:300", "greedy", 4, 100, 0.38), ("ismcts:300", "greedy", 5, 60, 0.267)],
}


def cards(game: Any, match: Match) -> dict[str, dict[str, list[float]]]:
    """Per seat: each plant, tool and decoration it owns at the end (by name), and the plant points each plant made."""
    table = game.cards
    state = match.state
    players = match.players
    owned: dict[str, list[float]] = {}
    points: dict[str, list[float]] = {}
    for name in [p.name for p in table.plants] + [t.name for t in table.tools] + [d.name for d in table.decorations]:
        owned.setdefault(name, [0.0] * players)
    for plant in table.plants:
        points.setdefault(plant.name, [0.0] * players)
    for seat in range(players):
        for plant_id, tokens in zip(state.plants[seat], state.growth[seat]):
            plant = table.plants[plant_id]
            owned[plant.name][seat] += 1
            points[plant.name][seat] += plant_points(plant.spaces, tokens)
        for card in list(state.tools[seat]) + list(state.decorations[seat]):
            owned[table.label(card)][seat] += 1
    return {"own": owned, "score plant points with": points}


#: What `simulate` asks of the game (core/package.py).
STATS = Stats(figures=figures, cards=cards, families=FAMILIES, bots=BOTS)
