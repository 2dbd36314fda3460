"""How good a Flowers area is for its owner, in points-like units, for the greedy and ISMCTS players.

The honest heuristics a good player uses (rules/flowers.md, Scoring):

- **Number groups.** A complete group is safe. A group that is still short of its value costs nothing
  yet if it can still grow (an empty cell next to it that would not also touch another group of its
  value) — only a share of its cards, larger as the game runs out and the more cards it still needs.
  A group that can no longer be completed, or one that is already too big, is counted as discarded
  (it can only be rescued by covering it, which costs a later card).
- **Colour regions.** A region of 5+ scores its size; a smaller region earns part credit for growing
  toward 5 while turns remain (a region of 4 is worth more than two of 2).
- **Butterflies.** A butterfly touching its colour scores; one with room next to it is worth a little.

With no turns left, the value is exactly the score.
"""

from __future__ import annotations

from typing import Any

from .engine import FlowersGame
from .scoring import Cell, score_area
from .state import FlowersState

#: Share of an incomplete group's cards counted as lost per missing card, with the whole game left.
MISSING_COST = 0.15
#: Part credit per card for a colour region below the minimum (scaled by its share of the minimum, squared).
REGION_CREDIT = 0.6
#: Value of an open butterfly (an empty cell next to it) at the start of the game.
OPEN_BUTTERFLY = 0.3

#: Search settings that suit this heuristic (read by the ismcts agent): after the tree, one step per
#: rival (with the turn then finished: 2 players, the opponent's whole turn) trying 8 placements — longer
#: rollouts of sampled placements mostly add noise to an area's value (2p, 120 games vs greedy: 1 step
#: 75 %, 0 steps 65 %; 4p, 40 games: 1 step 6 %, 3 steps 28 %, 5 steps 27 %).
SEARCH = {"rollout_depth_per_rival": 1, "rollout_sample": 8}


def turns_left(state: FlowersState) -> float:
    """A rough count of the turns each player still has: the game ends when any stack runs out."""
    sizes = [len(stack) for stack in state.stacks]
    if state.over or not sizes or min(sizes) == 0:
        return 0.0
    if state.players == 1:
        return float(min(sizes[0], sizes[-1]))
    # Draws spread over the stacks: about the smallest stack times the number of stacks, discounted.
    total = min(sizes) * len(sizes) * 0.8
    return total / state.players


def seat_value(game: FlowersGame, state: FlowersState, seat: int) -> float:
    """The value of `seat`'s own area: its score with the future of open groups and regions estimated.

    Absolute, not a margin over the rivals: the package declares it as greedy's `evaluate` too.
    """
    return area_value(game, state.areas[seat], turns_left(state))


#: Search evaluates the same areas again and again: each area's shape (what does not depend on the
#: turns left) by (game, area contents).
_memo: dict[int, tuple[FlowersGame, dict[frozenset, "Shape"]]] = {}
MEMO_SIZE = 200_000

#: An area's shape: points sure now, cards in groups that are lost already, open groups as
#: (cards, missing), regions' part credit before the time factor, open butterflies.
Shape = tuple[float, int, tuple[tuple[int, int], ...], float, int]


def area_value(game: FlowersGame, area: dict[Cell, tuple[int, ...]], turns: float) -> float:
    """The heuristic value of one area with `turns` of its owner's turns left (see the module doc).

    A pure function of the area's contents (not of the order its cells were placed); the shape of
    each area is remembered, so only the time factor is computed again.
    """
    if turns <= 0:
        return float(score_area(area, game.cards).total)  # the end: open groups are lost, exactly the score
    entry = _memo.get(id(game))
    if entry is None or entry[0] is not game:
        entry = _memo[id(game)] = (game, {})
    memo = entry[1]
    key = frozenset(area.items())
    shape = memo.get(key)
    if shape is None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        shape = memo[key] = _shape(game, area)
    sure, lost, open_groups, credit, open_wings = shape
    future = min(1.0, turns / 20.0)
    total = sure - lost + future * (credit + OPEN_BUTTERFLY * game.cards.butterfly_points * open_wings)
    for weight, missing in open_groups:
        total -= weight * min(1.0, missing * MISSING_COST + (1.0 - future) * (0.5 + 0.15 * missing))
    return total


def _around(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    x, y = cell
    return (x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)


def _shape(game: FlowersGame, area: dict[Cell, tuple[int, ...]]) -> Shape:
    """The turn-independent parts of an area's value (open groups are kept in regions while turns remain)."""
    cards = game.cards
    value_of = cards.value
    top = {cell: area[cell][-1] for cell in sorted(area) if area[cell]}
    lost_weight = 0
    open_groups: list[tuple[int, int]] = []
    lost: set[Cell] = set()
    seen: set[Cell] = set()
    for start, card in top.items():
        want = value_of[card]
        if start in seen or not want:
            continue
        group, frontier = [start], [start]
        seen.add(start)
        while frontier:
            for other in _around(frontier.pop()):
                if other not in seen and other in top and value_of[top[other]] == want:
                    seen.add(other)
                    group.append(other)
                    frontier.append(other)
        size = len(group)
        if size == want:
            continue
        weight = sum(len(area[cell]) for cell in group)
        if size > want or not _can_grow(group, top, value_of, want):
            lost.update(group)
            lost_weight += weight
        else:
            open_groups.append((weight, want - size))
    kept = {cell: card for cell, card in top.items() if cell not in lost}
    regions, credit = _regions(game, kept)
    wings, open_wings = _butterflies(game, kept)
    return float(regions + wings), lost_weight, tuple(open_groups), credit, open_wings


def _can_grow(group: list[Cell], top: dict[Cell, int], value_of: Any, want: int) -> bool:
    """Whether some empty cell next to the group touches no other card of the group's value."""
    members = set(group)
    for cell in group:
        for empty in _around(cell):
            if empty in top:
                continue
            if all(n in members or n not in top or value_of[top[n]] != want for n in _around(empty)):
                return True
    return False


def _regions(game: FlowersGame, kept: dict[Cell, int]) -> tuple[int, float]:
    """Points of regions of the minimum size or more, and the part credit of smaller open ones."""
    cards = game.cards
    colour_of = cards.colour
    seen: set[Cell] = set()
    points, credit = 0, 0.0
    for start, card in kept.items():
        colour = colour_of[card]
        if start in seen or colour is None:
            continue
        size, frontier, room = 1, [start], 0
        seen.add(start)
        while frontier:
            for other in _around(frontier.pop()):
                if other in kept:
                    if other not in seen and colour_of[kept[other]] == colour:
                        seen.add(other)
                        size += 1
                        frontier.append(other)
                else:
                    room += 1
        if size >= cards.region_min:
            points += size
        elif room:
            credit += REGION_CREDIT * size * (size / cards.region_min) ** 2
    return points, credit


def _butterflies(game: FlowersGame, kept: dict[Cell, int]) -> tuple[int, int]:
    """Points of butterflies touching their colour, and how many others have an empty cell beside them."""
    cards = game.cards
    points = open_wings = 0
    for cell, card in kept.items():
        wing = cards.butterfly[card]
        if wing is None:
            continue
        near = [kept.get(n) for n in _around(cell)]
        if any(c is not None and cards.colour[c] == wing for c in near):
            points += cards.butterfly_points
        elif any(c is None for c in near):
            open_wings += 1
    return points, open_wings
