"""How good a Flowers area is for its owner, in points-like units, for the greedy and ISMCTS players.

The honest heuristics a good player uses (rules.md, Scoring):

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

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import replace

from ...agents.presets import Backup, Rivals, TreeSearch, by_players
from .engine import FlowersGame
from .incremental import ROW, AreaModel, Shape, Spot, Tables, area_key, score
from .notation import DRAW, parse_cell
from .scoring import Cell
from .state import FlowersState

#: Share of an incomplete group's cards counted as lost per missing card, with the whole game left.
MISSING_COST = 0.15
#: Value of an open butterfly (an empty cell next to it) at the start of the game.
OPEN_BUTTERFLY = 0.3

#: ismcts presets (agents/presets.py) that suit this heuristic, by player count: after the tree, one step per
#: rival (with the turn then finished: 2 players, the opponent's whole turn) trying 8 placements — longer
#: rollouts of sampled placements mostly add noise to an area's value. Each seat backs up its own value, not
#: its margin over the best rival: the game is nearly a solitaire, and the rivals' values only add noise.
#: From 3 players the rivals move by rollout steps inside the search, not in the tree, so the tree holds the
#: seat's own decisions and reaches its next turn: at 3 players as the greedy player would ("greedy": a draw
#: valued by the best place for the card), at 4 by the one-step policy. A won end of the game counts 8 points
#: above a lost one at 2 and 3 players and 4 at 4 (`end_bonus`; the own value is blind to the rivals until
#: then). How strong each setting measured, with the commands: docs/strength.md (the settings tried and not
#: kept: docs/history/strength-log.md).
_OWN = TreeSearch(rollout_depth=1, rollout_sample=8, backup=Backup.OWN, end_bonus=8.0)
SEARCH = by_players({
    1: _OWN,
    2: _OWN,
    3: replace(_OWN, rollout_depth=2, rivals=Rivals.GREEDY),
    4: replace(_OWN, rollout_depth=3, rivals=Rivals.POLICY, end_bonus=4.0),
})


def seat_value(game: FlowersGame, state: FlowersState, seat: int) -> float:
    """The value of `seat`'s own area: its score with the future of open groups and regions estimated.

    Absolute, not a margin over the rivals: the package declares it as greedy's `evaluate` too.
    """
    return area_value(game, state.areas[seat], turns_left(state))


def step_values(game: FlowersGame, state: FlowersState, seat: int, actions: Sequence[str]) -> list[float]:
    """`seat_value` for `seat` after each of `actions` (legal now), from the change each one makes.

    A draw leaves the area as it is and only shortens a stack; a placement changes one cell, whose
    effect `AreaModel.child` reads without re-scoring the area. Equal to applying each action to a
    clone and calling `seat_value` (tests/test_flowers_heuristics.py). `state` is not changed.
    """
    memo = _memo_of(game)
    area = state.areas[seat]
    key = memo.key(area)
    sizes = [len(stack) for stack in state.stacks]
    if state.drawn is not None:
        return memo.placement_values(key, area, state.drawn, _turns_after_placing(sizes, state.players), actions)
    values = []
    for action in actions:
        after = list(sizes)
        after[int(action[len(DRAW):]) - 1] -= 1
        values.append(memo.value(key, area, _turns(after, state.players)))
    return values


def turn_goes_on(game: FlowersGame, state: FlowersState, seat: int, action: str) -> bool:
    """Whether `seat` is to move after the legal `action`, exactly as `flow.apply_legal` would leave it.

    A draw leaves the drawer to place. A placement ends the turn and passes it to the next seat, which in
    solo is the same seat again, unless the placement ends the game.
    """
    if action.startswith(DRAW):
        return True
    return (state.current + 1) % state.players == seat and not _placing_ends_game(state)


def _placing_ends_game(state: FlowersState) -> bool:
    """Whether the placement of the drawn card ends the game (flow._end_turn: a stack drawn empty, or in
    solo the timer taking the last card of the first stack)."""
    if any(not stack for stack in state.stacks):
        return True
    return state.players == 1 and len(state.stacks[0]) <= 1


def turns_left(state: FlowersState) -> float:
    """A rough count of the turns each player still has: the game ends when any stack runs out."""
    if state.over:
        return 0.0
    return _turns([len(stack) for stack in state.stacks], state.players)


def _turns(sizes: list[int], players: int) -> float:
    if not sizes or min(sizes) == 0:
        return 0.0
    if players == 1:
        return float(min(sizes[0], sizes[-1]))
    # Draws spread over the stacks: about the smallest stack times the number of stacks, discounted.
    total = min(sizes) * len(sizes) * 0.8
    return total / players


def _turns_after_placing(sizes: list[int], players: int) -> float:
    """`turns_left` once a placement has ended the turn (flow._end_turn: the end, or the solo timer)."""
    if not sizes or min(sizes) == 0:
        return 0.0
    if players == 1:
        sizes = [sizes[0] - 1, *sizes[1:]]
    return _turns(sizes, players)


_spots: dict[str, Spot] = {}


def _spot_of(action: str) -> Spot:
    """The model's number (see `incremental.ROW`) for the cell of a `place` action not yet in `_spots`
    (remembered there: `placement_values` reads `_spots` first)."""
    if len(_spots) >= MEMO_SIZE:
        _spots.clear()
    x, y = parse_cell(action.rsplit(" ", 1)[1])
    spot = _spots[action] = x * ROW + y
    return spot


#: The most area shapes, and analysed areas, remembered per game (then forgotten all at once).
MEMO_SIZE = 200_000
MODEL_MEMO_SIZE = 500


class _GameMemo:
    """One game's card tables and what search asks again and again: shapes and models by area contents.

    An area not seen before is often one placement away from an area analysed just before (search
    evaluates every placement of a drawn card): its shape is then that model's child.
    """

    def __init__(self, game: FlowersGame):
        self.tables = Tables(game.cards)
        self.shapes: dict[tuple[frozenset, bool], Shape] = {}
        self.models: dict[tuple[frozenset, bool], AreaModel] = {}
        self.recent: list[tuple[dict[Cell, Sequence[int]], AreaModel]] = []
        #: Placement values by (area, final, share of the future, card kind), then by action.
        self.known: dict[tuple[frozenset, bool, float, int], dict[str, float]] = {}
        #: The last areas keyed (a copy of each, and its key), newest first: see `key`.
        self.keyed: tuple[tuple[dict[Cell, Sequence[int]], frozenset], ...] = ()

    def key(self, area: Mapping[Cell, Sequence[int]]) -> frozenset:
        """`area_key(area)`; for an area with the contents of one of the last few asked for, that very key
        object. A search asks about the same area in many clones of a state: comparing it with a copy is
        cheaper than building its key, and the memos then find their entries by identity, not by contents."""
        keyed = self.keyed  # one read: other threads may replace it
        size = len(area)
        for known_area, key in keyed:
            if len(known_area) == size and known_area == area:  # stacks are shared by clones: compared by identity
                return key
        key = area_key(area)
        self.keyed = ((dict(area), key), *keyed[:RECENT_KEYS - 1])
        return key

    def value(self, key: frozenset, area: Mapping[Cell, Sequence[int]], turns: float) -> float:
        """`area_value` of `area` (whose `area_key` is `key`)."""
        if turns <= 0:  # the end: open groups are lost, exactly the score
            return float(score(self.shape(key, area, final=True), self.tables))
        return shape_value(self.shape(key, area), turns, self.tables.butterfly_points)

    def shape(self, key: frozenset, area: Mapping[Cell, Sequence[int]], final: bool = False) -> Shape:
        """The shape of `area` (analysed once); `final`: as scored at the end."""
        shape = self.shapes.get((key, final))
        if shape is None:
            if len(self.shapes) >= MEMO_SIZE:
                self.shapes.clear()
            shape = self.shapes[key, final] = self._placed(area, final) or self._model((key, final), area).shape
        return shape

    def placement_values(self, key: frozenset, area: Mapping[Cell, Sequence[int]], card: int, turns: float,
                         actions: Sequence[str]) -> list[float]:
        """The value of `area` after each `place` action of `card`, with `turns` left after it."""
        final = turns <= 0
        # The values depend on the turns left only through `shape_value`'s share of the future.
        known_key = (key, final, min(1.0, turns / 20.0), self.tables.kind[card])
        known = self.known.get(known_key)
        if known is None:
            if len(self.known) >= MODEL_MEMO_SIZE:
                self.known.clear()
            known = self.known[known_key] = {}
        values = [known.get(action) for action in actions]
        if None in values:
            model = self._model((key, final), area)
            tables = self.tables
            #: Many placements leave the same shape (a lost card, wherever it goes).
            by_shape: dict[Shape, float] = {}
            spots = _spots
            for index, action in enumerate(actions):
                if values[index] is None:
                    spot = spots.get(action)
                    shape = model.child_at(_spot_of(action) if spot is None else spot, card)
                    value = by_shape.get(shape)
                    if value is None:
                        value = by_shape[shape] = (float(score(shape, tables)) if final
                                                   else shape_value(shape, turns, tables.butterfly_points))
                    values[index] = known[action] = value
        return values

    def _model(self, key: tuple[frozenset, bool], area: Mapping[Cell, Sequence[int]]) -> AreaModel:
        model = self.models.get(key)
        if model is None:
            if len(self.models) >= MODEL_MEMO_SIZE:
                self.models.clear()
            model = self.models[key] = AreaModel(self.tables, area, final=key[1])
            self.recent = [(dict(area), model), *self.recent[: RECENT_MODELS - 1]]
        return model

    def _placed(self, area: Mapping[Cell, Sequence[int]], final: bool) -> Shape | None:
        """The shape of `area` as the child of a recent model, if it is one placement away from one."""
        for parent, model in self.recent:
            if model.final == final:
                placement = one_placement(parent, area)
                if placement is not None:
                    return model.child(*placement)
        return None


#: How many of the last analysed areas are tried as the parent of an area not seen before.
RECENT_MODELS = 4
#: How many of the last areas keyed are compared with an area before its key is built (`_GameMemo.key`).
RECENT_KEYS = 4


def one_placement(parent: Mapping[Cell, Sequence[int]], area: Mapping[Cell, Sequence[int]]) -> tuple[Cell, int] | None:
    """(cell, card) if `area` is `parent` with one card placed on it, else None."""
    grown = len(area) - len(parent)
    if grown not in (0, 1):
        return None
    placed = None
    for cell, stack in area.items():
        before = parent.get(cell)
        if before is not stack and before != stack:
            if placed is not None or len(stack) != (1 if before is None else len(before) + 1):
                return None
            if before is not None and tuple(stack[:-1]) != tuple(before):
                return None
            placed = cell, stack[-1]
    if placed is None or (grown == 0) != (placed[0] in parent):
        return None
    return placed


#: Each live game's memo, freed with its game (a variant made for one table or one run is a game of its own).
_memos: weakref.WeakKeyDictionary[FlowersGame, _GameMemo] = weakref.WeakKeyDictionary()
#: Weak references to the game last asked about and its memo (saves the weak dictionary's lookup).
_last: tuple[weakref.ref, weakref.ref] | None = None


def _memo_of(game: FlowersGame) -> _GameMemo:
    """`game`'s memo, made on first use."""
    global _last
    last = _last  # one read: other threads may replace it
    if last is not None and last[0]() is game:
        memo = last[1]()
        if memo is not None:
            return memo
    memo = _memos.get(game)
    if memo is None:
        memo = _memos[game] = _GameMemo(game)
    _last = (weakref.ref(game), weakref.ref(memo))
    return memo


def area_value(game: FlowersGame, area: Mapping[Cell, Sequence[int]], turns: float) -> float:
    """The heuristic value of one area with `turns` of its owner's turns left (see the module doc).

    A pure function of the area's contents (not of the order its cells were placed); the shape of
    each area is remembered, so only the time factor is computed again.
    """
    memo = _memo_of(game)
    return memo.value(memo.key(area), area, turns)


def shape_value(shape: Shape, turns: float, butterfly_points: int) -> float:
    """An area's value from its shape with `turns` left: open groups cost more, and credit counts less, late."""
    sure, lost, credit, open_wings, open_weight = shape
    future = min(1.0, turns / 20.0)
    total = sure - lost + future * (credit + OPEN_BUTTERFLY * butterfly_points * open_wings)
    slots = len(open_weight)
    costs = _open_costs.get((future, slots))
    if costs is None:
        if len(_open_costs) >= OPEN_COSTS_SIZE:
            _open_costs.clear()
        costs = _open_costs[future, slots] = tuple(
            min(1.0, missing * MISSING_COST + (1.0 - future) * (0.5 + 0.15 * missing)) for missing in range(slots))
    for weight, cost in zip(open_weight, costs):
        if weight:
            total -= weight * cost
    return total


#: Per (future, slots) the share of an open group's cards counted as lost, by cards missing (`shape_value`);
#: forgotten all at once past OPEN_COSTS_SIZE entries.
_open_costs: dict[tuple[float, int], tuple[float, ...]] = {}
OPEN_COSTS_SIZE = 4_096
