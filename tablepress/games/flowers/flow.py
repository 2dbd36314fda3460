"""Flowers flow (rules.md, Setup, A turn, End): the deal, draw-then-place turns, the solo timer, the end.

A turn is two actions: `draw N` (stack N, from 1) and `place CODE x,y`. When a face-up card is taken,
the next card of that stack is turned up at the end of the turn — "the next player turns over a new
card" in both sources — so a face-up draw reveals nothing and may be taken back before placing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import OptionError
from ...core.rng import chance
from .cards import FlowersCards
from .notation import DRAW, format_cell, parse_cell
from .scoring import Cell
from .state import FlowersState


def deal(cards: FlowersCards, players: int, seed: int, summer: bool) -> FlowersState:
    """Shuffle, give each player a start card (violet in Summer) and build the stacks."""
    rng = chance(seed)
    deck = cards.coloured
    rng.shuffle(deck)
    violets = list(cards.violets)
    if summer:
        if len(violets) < players:
            raise OptionError(f"the Summer variant needs {players} violet cards; the data has {len(violets)}")
        starts, violets = violets[:players], violets[players:]
    else:
        starts, deck = deck[:players], deck[players:]
    stacks = []
    for size in cards.deal_sizes(players, len(deck)):
        stacks.append(deck[:size])
        deck = deck[size:]
    return FlowersState(
        players=players,
        summer=summer,
        areas=[{(0, 0): (card,)} for card in starts],
        stacks=stacks,
        face_up=[i < len(stacks) - 1 for i in range(len(stacks))],
        box=sorted(deck + violets),
        removed=[],
    )


def to_move(state: FlowersState) -> tuple[int, ...]:
    """The current player, until the game ends."""
    return () if state.over else (state.current,)


def legal_actions(cards: FlowersCards, state: FlowersState, seat: int) -> list[str]:
    """`draw N` for each stack, or `place CODE x,y` for each cell the drawn card may go."""
    if state.over or seat != state.current:
        return []
    if state.drawn is None:
        return [f"draw {i + 1}" for i, stack in enumerate(state.stacks) if stack]
    area = state.areas[seat]
    code = cards.codes[state.drawn]
    key = tuple(area)
    known = _placing.get(key)
    if known is None:
        if len(_placing) >= PLACING_MEMO_SIZE:
            _placing.clear()
        known = _placing[key] = ([format_cell(cell) for cell in placements(area)], {})
    cells, by_code = known
    actions = by_code.get(code)
    if actions is None:
        prefix = f"place {code} "
        actions = by_code[code] = tuple([prefix + cell for cell in cells])
    return list(actions)


#: The most areas (their cells in order) whose placing cells, and placing actions per drawn card's code,
#: are remembered: search asks for the same area's placements once per determinization and drawn card.
PLACING_MEMO_SIZE = 4_096
_placing: dict[tuple[Cell, ...], tuple[list[str], dict[str, tuple[str, ...]]]] = {}


def placements(area: Mapping[Cell, Any]) -> list[Cell]:
    """Every cell a card may go: on any card (covering it) or an empty cell next to one; top row first."""
    cells = set(area)
    for x, y in area:
        cells.update(((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
    return [(x, y) for y, x in sorted([(y, x) for x, y in cells])]


def apply_legal(state: FlowersState, seat: int, action: str) -> None:
    """Draw or place; after placing, end the turn (solo timer, end of game, next player)."""
    verb, _, rest = action.partition(" ")
    if verb == DRAW:
        index = int(rest) - 1
        state.drawn = state.stacks[index].pop()
        state.drawn_from = index
        return
    cell = parse_cell(rest.rsplit(" ", 1)[1])
    area = state.areas[seat]
    area[cell] = area.get(cell, ()) + (state.drawn,)
    state.drawn = state.drawn_from = None
    _end_turn(state)


def _end_turn(state: FlowersState) -> None:
    state.turn += 1
    if any(not stack for stack in state.stacks):
        state.over = True
        return
    if state.players == 1:
        timer = state.stacks[0]
        state.removed.append(timer.pop())
        if not timer:
            state.over = True
            return
    state.current = (state.current + 1) % state.players


def undoable(state: FlowersState, action: str) -> bool:
    """A draw from a face-up stack reveals nothing (the next card turns up at the end of the turn)."""
    if not action.startswith(DRAW):
        return False
    return state.face_up[int(action.split()[1]) - 1]


def action_bound(cards: FlowersCards, players: int, summer: bool) -> int:
    """At most 3n + 2 placements for an area of n cards (n covers, ≤ 2n + 2 empty neighbours)."""
    available = len(cards.coloured) - (0 if summer else players)
    sizes = cards.deal_sizes(players, available)
    # Solo: the timer takes a card of the first stack every turn.
    most_cards = 1 + (sizes[0] if players == 1 else -(-sum(sizes) // players))
    return max(3 * most_cards + 2, 3)
