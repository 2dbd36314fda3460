"""Card-level figures of one finished game of Pressed, for `tablepress simulate` (flowers in the deck only).

planted.FLOWER: mean points a planting of that flower scores (empty when none was planted);
pressed.FLOWER: points that flower's groups score in final scoring, per player; planting_points and
pressed_points per player; pickN.cards: mean cards in the column taken by the N-th picker of a round;
winner_pick: the winners' mean pick position (1 = first), which shows whether picking early pays.
"""

from __future__ import annotations

import math
from typing import Any

from ...core.match import Match
from ...core.package import Stats
from .scoring import best_final, collection_counts


def figures(game: Any, match: Match) -> dict[str, float]:
    """Replay the match for planting points; read picks and final scoring from the end state."""
    cards = game.cards
    players = match.players
    state = game.new(match.players, match.seed, match.options)
    planted: dict[int, list[int]] = {kind: [] for kind in range(len(cards.names))}
    pick_cards: list[list[int]] = [[] for _ in range(players)]
    pick_positions: list[list[int]] = [[] for _ in range(players)]
    order: list[int] = []
    for seat, action in match.actions:
        verb = action.split(" ", 1)[0]
        round_before = state.round
        if verb == "pick":
            if len(order) == players:
                order = []
            order.append(seat)
            column = int(action.split()[1]) - 1
            pick_cards[len(order) - 1].append(len(state.bed[column]))
            pick_positions[seat].append(len(order))
        game.apply_legal(state, seat, action)
        if verb == "plant" and state.last is not None:
            planted[state.last[1]].append(state.last[4])
        if state.round != round_before:
            order = []
    final = match.state
    in_deck = sorted(set(cards.deck_flowers(players, final.electives)))
    out: dict[str, float] = {}
    for kind in in_deck:
        name, points = cards.names[kind], planted[kind]
        out[f"planted.{name}"] = sum(points) / len(points) if points else math.nan
    pressed = [0.0] * len(cards.names)
    pressed_total = 0.0
    for seat in range(players):
        collection = [card for cards_ in final.pressed[seat] for card in cards_]
        result = best_final(collection_counts(collection, cards), cards)
        pressed_total += result.total
        for group in result.groups:
            pressed[group.kind] += group.points
    for kind in in_deck:
        out[f"pressed.{cards.names[kind]}"] = pressed[kind] / players
    out["planting_points"] = sum(final.scores) / players
    out["pressed_points"] = pressed_total / players
    for position, taken in enumerate(pick_cards, start=1):
        out[f"pick{position}.cards"] = sum(taken) / len(taken) if taken else math.nan
    winners = game.winners(final)
    positions = [p for seat in winners for p in pick_positions[seat]]
    out["winner_pick"] = sum(positions) / len(positions) if positions else math.nan
    return out


#: How findings read a family of figures: `planted.Zinnia` is what one planting of a Zinnia scores.
FAMILIES = {
    "planted": {"reads": "{name} plants for {value} points", "noun": "flower to plant"},
    "pressed": {"reads": "{name} scores {value} points a player in final scoring", "noun": "flower to press"},
}

#: What the agents decide here and how strong they measured (docs/strength.md: the cells and their commands).
BOTS = {
    "decisions": "which flower to plant in which column (with Tulip, Baby's Breath and Anemone choices), "
                 "which column to pick and which 4 cards to press; greedy values a move by the points it "
                 "scores now plus the heuristic's view of the collection",
    "not_decided": "final-scoring Baby's Breath and Tulip choices are always the best (found exactly)",
    #: Measured, not computed: `tablepress ladder pressed --players N --rung R --seed S`, greedy/random/200 on
    #: seed 5; ismcts:300/greedy/100 on seeds 5 and 6, pooled (2 players: seed 5 alone, measured again once
    #: simultaneous choices were order-free) (docs/strength.md, "Where the search stands").
    #: Update with the docs when a cell is measured again.
    "ladder": [("greedy", "random", 2, 200, 0.983), ("greedy", "random", 5, 200, 0.955),
               ("ismcts:300", "greedy", 2, 100, 0.725), ("ismcts:300", "greedy", 3, 200, 0.565),
               ("ismcts:300", "greedy", 4, 200, 0.44), ("ismcts:300", "greedy", 5, 200, 0.403)],
}


def cards(game: Any, match: Match) -> dict[str, dict[str, list[float]]]:
    """Per seat and flower: cards planted, cards pressed, and points its groups scored in final scoring."""
    table = game.cards
    players = match.players
    final = match.state
    in_deck = sorted(set(table.deck_flowers(players, final.electives)))
    planted = {table.names[kind]: [0.0] * players for kind in in_deck}
    pressed = {table.names[kind]: [0.0] * players for kind in in_deck}
    scored = {table.names[kind]: [0.0] * players for kind in in_deck}
    for seat, action in match.actions:
        parts = action.split()
        if parts[0] == "plant" and parts[1].upper() in table.codes:
            planted[table.names[table.codes.index(parts[1].upper())]][seat] += 1
    for seat in range(players):
        collection = [card for group in final.pressed[seat] for card in group]
        for card in collection:
            pressed[table.names[card]][seat] += 1
        for group in best_final(collection_counts(collection, table), table).groups:
            if table.names[group.kind] in scored:
                scored[table.names[group.kind]][seat] += group.points
    return {"plant": planted, "press": pressed, "score points with": scored}


def left_out(game: Any, players: int, options: Any) -> list[str]:
    """The flowers not in the deck at this player count with these electives (none at 4–5 players)."""
    table = game.cards
    electives = (options or {}).get("electives", table.default_electives)
    in_deck = set(table.deck_flowers(players, tuple(electives)))
    return [name for kind, name in enumerate(table.names) if kind not in in_deck]


#: What `simulate` asks of the game (core/package.py).
STATS = Stats(figures=figures, cards=cards, left_out=left_out, families=FAMILIES, bots=BOTS)
