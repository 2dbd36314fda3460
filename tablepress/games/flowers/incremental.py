"""An area's heuristic parts analysed once, then updated by one placement (issue 21, incremental evaluation).

`AreaModel` holds one area's number groups (complete, lost or open), its kept cells' colour regions and
its butterflies, each with the part it adds to the area's `Shape`. `AreaModel.child(cell, card)` is the
shape of the area after placing `card` on `cell`, found by re-reading only what that placement can
change: the number groups it joins, splits or takes room from (the model keeps each open group's room
to grow, the empty cells beside it that touch no other card of its value), then the regions and
butterflies next to every cell whose kept/lost status or colour changed. Everything else keeps its
part from the model. Three paths, fastest first: a card beside the area that changes no other card's
status (sizes and rooms of the regions it joins are added up), a card covering one of the same value
(only colours change), and the general one. The rules of each part are those of the heuristics module's doc
(rules.md, Scoring); tests/test_flowers_heuristics.py checks every path against a full analysis.

Search asks one model for many cards on each cell, so what does not depend on the card's colour is worked
out once per cell and value and shared (and what a covered card's leaving does to its number group, once per
cell): its effect on the number groups, the general path's regions with
the placed card left a hole (the card then joins the regions of its colour beside it, as on the first
path), a covered card leaving its region, and what surrounds an empty cell. A placement whose card is lost
changes the area only through the other cards whose kept status it changes, so its regions and butterflies
are shared by every placement that changes the same cards, and its whole shape by every card of its value on
that cell. Cells are numbers inside a model (`ROW`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .cards import FlowersCards
from .scoring import Cell

#: Part credit per card for a colour region below the minimum (scaled by its share of the minimum, squared).
REGION_CREDIT = 0.6

COMPLETE, LOST, OPEN = 0, 1, 2
#: "Not analysed yet" in memos where None is a result.
MISSING: Any = object()
NO_WING, WING_SCORES, WING_OPEN = 0, 1, 2

#: An area's shape, what its value is made of apart from the turns left: points sure now, cards in groups
#: that are lost already, the part credit of small regions, open butterflies, and the cards in open groups
#: by how many cards each still misses (index = cards missing).
Shape = tuple[int, int, float, int, tuple[int, ...]]


#: Inside a model a cell x,y is the number x * ROW + y: its neighbours are ±1 and ±ROW, and numbers hash
#: faster than pairs. Exact while |y| < ROW / 2 (an area of 108 cards spans at most 108 cells).
ROW = 1 << 20
Spot = int


def around(spot: Spot) -> tuple[Spot, Spot, Spot, Spot]:
    """The four orthogonal neighbours of a cell (as numbers, see `ROW`)."""
    return spot + ROW, spot - ROW, spot + 1, spot - 1


class Tables:
    """Per card id its value, colour and butterfly colour, and the scoring numbers the shape needs."""

    __slots__ = ("value", "colour", "wing", "kind", "region_min", "butterfly_points", "discard_points", "slots")

    def __init__(self, cards: FlowersCards):
        self.value = cards.value
        self.colour = cards.colour
        self.wing = cards.butterfly
        kinds: dict[tuple, int] = {}
        #: Per card id the index of its kind: cards of one value, colour and butterfly count alike.
        self.kind = tuple(kinds.setdefault(k, len(kinds)) for k in zip(cards.value, cards.colour, cards.butterfly))
        self.region_min = cards.region_min
        self.butterfly_points = cards.butterfly_points
        self.discard_points = cards.discard_points
        self.slots = max(cards.value, default=0) + 1


def region_part(size: int, room: int, region_min: int) -> tuple[int, float]:
    """A region's points (its size, from the minimum on) or its part credit while it has room to grow."""
    if size >= region_min:
        return size, 0.0
    if room:
        return 0, REGION_CREDIT * size * (size / region_min) ** 2
    return 0, 0.0


def join_regions(points: int, credit: float, col: str | None, room: int,
                 beside: Iterable[tuple[int, int, str | None, int]], region_min: int) -> tuple[int, float]:
    """`points` and `credit` once a kept card of colour `col` (with `room` empty sides) is placed beside
    `beside` — each region's (size, room, colour, sides it shares with the card): it joins those of its
    colour and takes one room per shared side from the others."""
    size = 1
    for region_size, region_room, region_colour, sides_shared in beside:
        part_points, part_credit = region_part(region_size, region_room, region_min)
        points -= part_points
        credit -= part_credit
        if region_colour == col:
            size += region_size
            room += region_room - sides_shared
        else:
            part_points, part_credit = region_part(region_size, region_room - sides_shared, region_min)
            points += part_points
            credit += part_credit
    if col is not None:
        part_points, part_credit = region_part(size, room, region_min)
        points += part_points
        credit += part_credit
    return points, credit


def _group(start: Spot, top: Mapping[Spot, int], value: Sequence[int], want: int, seen: set[Spot]) -> list[Spot]:
    """The number group of value `want` that holds `start` (its cells are added to `seen`)."""
    seen.add(start)
    group, frontier = [start], [start]
    while frontier:
        spot = frontier.pop()
        for other in (spot + ROW, spot - ROW, spot + 1, spot - 1):
            if other not in seen and other in top and value[top[other]] == want:
                seen.add(other)
                group.append(other)
                frontier.append(other)
    return group


def _can_grow(group: list[Spot], top: Mapping[Spot, int], value: Sequence[int], want: int) -> bool:
    """Whether some empty cell next to the group touches no other card of the group's value (a cell of the
    group missing from `top` counts as taken: the card about to be placed)."""
    members = set(group)
    for spot in group:
        for empty in (spot + ROW, spot - ROW, spot + 1, spot - 1):
            if empty in top or empty in members:
                continue
            for n in (empty + ROW, empty - ROW, empty + 1, empty - 1):
                if n not in members and n in top and value[top[n]] == want:
                    break
            else:
                return True
    return False


def _growth(group: list[Spot], top: Mapping[Spot, int], value: Sequence[int], want: int) -> set[Spot]:
    """The empty cells next to the group that touch no other card of the group's value (room to grow)."""
    members = set(group)
    cells: set[Spot] = set()
    for spot in group:
        for empty in (spot + ROW, spot - ROW, spot + 1, spot - 1):
            if empty in top or empty in cells:
                continue
            for n in (empty + ROW, empty - ROW, empty + 1, empty - 1):
                if n not in members and n in top and value[top[n]] == want:
                    break
            else:
                cells.add(empty)
    return cells


def _status(group: list[Spot], want: int, top: Mapping[Spot, int], value: Sequence[int], final: bool) -> int:
    size = len(group)
    if size == want:
        return COMPLETE
    if final or size > want or not _can_grow(group, top, value, want):
        return LOST
    return OPEN


def _region(start: Spot, top: Mapping[Spot, int], lost: set[Spot], colour: Sequence[str | None],
            seen: set[Spot]) -> tuple[list[Spot], int]:
    """The colour region of kept cells that holds `start`, and its room (neighbours not kept, counted per side)."""
    want = colour[top[start]]
    seen.add(start)
    region, frontier, room = [start], [start], 0
    while frontier:
        spot = frontier.pop()
        for other in (spot + ROW, spot - ROW, spot + 1, spot - 1):
            if other in top and other not in lost:
                if other not in seen and colour[top[other]] == want:
                    seen.add(other)
                    region.append(other)
                    frontier.append(other)
            else:
                room += 1
    return region, room


def _wing(spot: Spot, top: Mapping[Spot, int], lost: set[Spot], tables: Tables) -> int:
    """A kept butterfly's state: it scores (touching its colour), is open (a neighbour not kept) or neither."""
    wing = tables.wing[top[spot]]
    if wing is None:
        return NO_WING
    colour = tables.colour
    open_side = False
    for n in (spot + ROW, spot - ROW, spot + 1, spot - 1):
        if n in top and n not in lost:
            if colour[top[n]] == wing:
                return WING_SCORES
        else:
            open_side = True
    return WING_OPEN if open_side else NO_WING


def _wing_with(at: Spot, top: Mapping[Spot, int], lost: set[Spot], tables: Tables, spot: Spot, card: int) -> int:
    """`_wing` of the kept card on `at` once `card` is placed on `spot` (kept unless `spot` is in `lost`)."""
    wing = tables.wing[card if at == spot else top[at]]
    if wing is None:
        return NO_WING
    colour = tables.colour
    open_side = False
    for n in (at + ROW, at - ROW, at + 1, at - 1):
        if n in lost:
            open_side = True
        elif n == spot:
            if colour[card] == wing:
                return WING_SCORES
        elif n in top:
            if colour[top[n]] == wing:
                return WING_SCORES
        else:
            open_side = True
    return WING_OPEN if open_side else NO_WING


class AreaModel:
    """One area analysed: its groups, regions and butterflies, each with its part of the area's shape.

    `final`: as scored at the end (rules.md, Scoring), where every group of the wrong size is
    discarded; `score(shape)` is then the area's exact score.
    """

    __slots__ = ("tables", "final", "top", "height", "group_of", "groups", "lost", "growth", "growth_at",
                 "region_of", "regions", "wings", "points", "lost_weight", "credit", "open_wings", "open_weight",
                 "shape", "children", "beside_parts", "child_parts", "hole_parts", "lost_parts", "lost_children",
                 "leave_parts", "leave_groups", "empty_sides", "winged")

    def __init__(self, tables: Tables, area: Mapping[Cell, Sequence[int]], final: bool = False):
        self.tables = tables
        self.final = final
        value, colour = tables.value, tables.colour
        self.top = top = {x * ROW + y: area[x, y][-1] for x, y in sorted(area) if area[x, y]}
        self.height = height = {x * ROW + y: len(stack) for (x, y), stack in area.items() if stack}
        self.group_of: dict[Spot, int] = {}
        #: Per group: its cells, status, cards (covered ones too), cards missing and value.
        self.groups: list[tuple[list[Spot], int, int, int, int]] = []
        self.lost: set[Spot] = set()
        #: Per open group its room to grow, and per empty cell the open groups it is room for (made with
        #: the first child: an area only scored needs neither).
        self.growth: dict[int, set[Spot]] = {}
        self.growth_at: dict[Spot, list[int]] | None = None
        lost_weight = 0
        open_weight = [0] * tables.slots
        seen: set[Spot] = set()
        for start, card in top.items():
            want = value[card]
            if start in seen or not want:
                continue
            group = _group(start, top, value, want, seen)
            status = _status(group, want, top, value, final)
            weight = sum(map(height.__getitem__, group))
            index = len(self.groups)
            self.groups.append((group, status, weight, want - len(group), want))
            for cell in group:
                self.group_of[cell] = index
            if status == LOST:
                lost_weight += weight
                self.lost.update(group)
            elif status == OPEN:
                open_weight[want - len(group)] += weight
        self.region_of: dict[Spot, int] = {}
        #: Per region: its size, room, colour and one of its cells.
        self.regions: list[tuple[int, int, str | None, Spot]] = []
        points, credit = 0, 0.0
        seen = set()
        lost = self.lost
        for start, card in top.items():
            if start in seen or start in lost or colour[card] is None:
                continue
            region, room = _region(start, top, lost, colour, seen)
            index = len(self.regions)
            self.regions.append((len(region), room, colour[card], start))
            for cell in region:
                self.region_of[cell] = index
            part_points, part_credit = region_part(len(region), room, tables.region_min)
            points += part_points
            credit += part_credit
        #: The cells whose top card carries a butterfly, and each kept one's state (when it is not NO_WING).
        self.winged = {spot for spot, card in top.items() if tables.wing[card] is not None}
        self.wings: dict[Spot, int] = {}
        scoring = open_wings = 0
        for cell in self.winged:
            if cell in lost:
                continue
            state = _wing(cell, top, lost, tables)
            if state:
                self.wings[cell] = state
                scoring += state == WING_SCORES
                open_wings += state == WING_OPEN
        self.points = points + tables.butterfly_points * scoring
        self.lost_weight = lost_weight
        self.credit = credit
        self.open_wings = open_wings
        self.open_weight = open_weight
        self.shape: Shape = (self.points, lost_weight, credit, open_wings, tuple(open_weight))
        #: Shapes of the areas one placement away, by (cell, card kind), filled as they are asked for.
        self.children: dict[tuple[Spot, int], Shape] = {}
        #: `_beside_groups` by (empty cell, value): what a placement there does to the number groups.
        self.beside_parts: dict[tuple[Spot, int], tuple[int, tuple[int, ...], bool] | None] = {}
        #: `_cover_groups` (or `_beside_groups`, when it changes another card's kept status) and
        #: `_hole_regions` by (cell, value). Every part holds tuples, not sets: the garbage collector stops
        #: tracking tuples of numbers, so the models kept in the memo cost a full collection little.
        self.child_parts: dict[tuple[Spot, int], tuple[int, tuple[int, ...], tuple[Spot, ...]]] = {}
        #: `_leave_groups` by covered cell.
        self.leave_groups: dict[Spot, tuple[int, tuple[int, ...], tuple[Spot, ...]]] = {}
        self.hole_parts: dict[tuple[Spot, int], tuple] = {}
        #: `_leave_region` and `_empty_sides` by cell.
        self.empty_sides: dict[Spot, tuple[tuple[tuple[int, int, str | None, int], ...], int, tuple[Spot, ...]]] = {}
        self.leave_parts: dict[Spot, tuple[int, float]] = {}
        #: `_lost_rest` by the cells (other than an empty one placed on) whose kept status changes.
        self.lost_parts: dict[tuple[Spot, ...], tuple[int, float, int]] = {}
        #: `_child` by (cell, value) when the placed card is lost: its colour then changes nothing.
        self.lost_children: dict[tuple[Spot, int], Shape] = {}

    def child(self, cell: Cell, card: int) -> Shape:
        """The shape of this area after `card` is placed on `cell` (covering what is there, if anything)."""
        return self.child_at(cell[0] * ROW + cell[1], card)

    def child_at(self, spot: Spot, card: int) -> Shape:
        """`child` for the cell numbered `spot` (see `ROW`)."""
        key = (spot, self.tables.kind[card])
        shape = self.children.get(key)
        if shape is None:
            if self.growth_at is None:
                self._index_growth()
            shape = self._beside(spot, card) if spot not in self.top else self._alike(spot, card)
            if shape is None:
                shape = self._child(spot, card)
            self.children[key] = shape
        return shape

    def _index_growth(self) -> None:
        """Each open group's room to grow, and the groups each empty cell is room for."""
        value, top = self.tables.value, self.top
        self.growth_at = {}
        for index, (group, status, _, _, want) in enumerate(self.groups):
            if status == OPEN:
                self.growth[index] = room = _growth(group, top, value, want)
                for cell in room:
                    self.growth_at.setdefault(cell, []).append(index)

    def _beside_groups(self, spot: Spot, card: int) -> tuple[int, tuple[int, ...], bool] | None:
        """The number-group part of `_beside` (the same for every card of `card`'s value): the lost weight,
        the open weights and whether the placed card is lost; None when another card's kept status changes
        (then `_child` is needed, and its number-group part is left in `child_parts`)."""
        value = self.tables.value
        want = value[card]
        groups = self.groups
        sides = around(spot)
        lost_weight = self.lost_weight
        open_weight = list(self.open_weight)
        placed_lost = False
        merged: set[int] = set()
        #: Cells whose kept status changes, other than the placed card's.
        changed: list[Spot] = []
        if want:
            merged, placed_lost, lost_weight = self._join_groups(spot, want, 1, lost_weight, open_weight, changed)
        # Open groups that had room here: the cell is taken, and the cells beside it now touch this value.
        growth_at, growth = self.growth_at, self.growth
        assert growth_at is not None  # `child_at` indexes growth first
        near_room = {*growth_at.get(spot, ())}
        if want:
            for side in sides:
                room_for = growth_at.get(side)
                if room_for:
                    near_room.update(i for i in room_for if groups[i][4] == want)
        for index in near_room:
            if index not in merged and growth[index] <= ({spot, *sides} if groups[index][4] == want else {spot}):
                group, _, part, missing, _ = groups[index]
                open_weight[missing] -= part
                lost_weight += part
                changed += group
        if not changed:
            return lost_weight, tuple(open_weight), placed_lost
        if placed_lost:
            changed.append(spot)
        self.child_parts[spot, want] = (lost_weight, tuple(open_weight), tuple(set(changed)))
        return None

    def _join_groups(self, spot: Spot, want: int, weight: int, lost_weight: int, open_weight: list[int],
                     changed: list[Spot]) -> tuple[set[int], bool, int]:
        """A card of value `want` placed on `spot` (`weight` cards on the cell then) joining the groups of its
        value beside it: the groups joined, whether the joined group is lost, and the lost weight after it.
        The joined groups' weights leave `open_weight` and the new group's enters it (the list is changed in
        place); the cells of joined groups whose kept status changes are added to `changed`."""
        value, top, groups, group_of = self.tables.value, self.top, self.groups, self.group_of
        merged: set[int] = set()
        for n in (spot + ROW, spot - ROW, spot + 1, spot - 1):
            beside = top.get(n)
            if beside is not None and value[beside] == want:
                merged.add(group_of[n])
        size = 1
        for index in merged:
            group = groups[index]
            size += len(group[0])
            weight += group[2]
        if size == want:
            status = COMPLETE
        elif self.final or size > want:
            status = LOST
        else:
            members = [spot]
            for index in merged:
                members += groups[index][0]
            status = OPEN if _can_grow(members, top, value, want) else LOST
        placed_lost = status == LOST
        for index in merged:
            cells, was, part, missing, _ = groups[index]
            if was == LOST:
                lost_weight -= part
            elif was == OPEN:
                open_weight[missing] -= part
            if (was == LOST) != placed_lost:
                changed += cells
        if status == LOST:
            lost_weight += weight
        elif status == OPEN:
            open_weight[want - size] += weight
        return merged, placed_lost, lost_weight

    def _beside(self, spot: Spot, card: int) -> Shape | None:
        """`child` for a card placed on an empty cell when no other card's kept status changes, else None."""
        tables = self.tables
        colour = tables.colour
        top, lost = self.top, self.lost
        key = (spot, tables.value[card])
        groups_part = self.beside_parts.get(key, MISSING)
        if groups_part is MISSING:
            groups_part = self.beside_parts[key] = self._beside_groups(spot, card)
        if groups_part is None:
            return None
        lost_weight, open_weight, placed_lost = groups_part
        points, credit, open_wings = self.points, self.credit, self.open_wings
        if placed_lost:
            return points, lost_weight, credit, open_wings, open_weight
        # The placed card is kept: it joins the regions of its colour beside it and takes their room there.
        around_spot = self.empty_sides.get(spot)
        if around_spot is None:
            around_spot = self.empty_sides[spot] = self._empty_sides(spot)
        beside, room, winged = around_spot
        points, credit = join_regions(points, credit, colour[card], room, beside, tables.region_min)
        wing = tables.wing
        if wing[card] is not None:
            winged = (*winged, spot)
        if winged:
            wings = self.wings
            butterfly_points = tables.butterfly_points
            for c in winged:
                before = wings.get(c, NO_WING)
                after = _wing_with(c, top, lost, tables, spot, card)
                if before != after:
                    points += butterfly_points * ((after == WING_SCORES) - (before == WING_SCORES))
                    open_wings += (after == WING_OPEN) - (before == WING_OPEN)
        return points, lost_weight, credit, open_wings, open_weight

    def _empty_sides(self, spot: Spot) -> tuple[tuple[tuple[int, int, str | None, int], ...], int, tuple[Spot, ...]]:
        """Around an empty cell: each region beside it (its size, room and colour) with the sides it shares
        with the cell, the cell's sides not kept, and the kept butterflies beside it."""
        top, lost, region_of, wing = self.top, self.lost, self.region_of, self.tables.wing
        beside: dict[int, int] = {}
        room = 0
        winged = []
        for n in (spot + ROW, spot - ROW, spot + 1, spot - 1):
            if n in top and n not in lost:
                index = region_of.get(n)
                if index is not None:
                    beside[index] = beside.get(index, 0) + 1
                if wing[top[n]] is not None:
                    winged.append(n)
            else:
                room += 1
        regions = self.regions
        return tuple((*regions[index][:3], shared) for index, shared in beside.items()), room, tuple(winged)

    def _alike(self, spot: Spot, card: int) -> Shape | None:
        """`child` for a card covering one of the same value (no group changes but for one more card in the
        covered one), else None."""
        value = self.tables.value
        if value[self.top[spot]] != value[card]:
            return None
        lost_weight, open_weight = self.lost_weight, self.open_weight
        if value[card]:
            _, status, _, missing, _ = self.groups[self.group_of[spot]]
            if status == LOST:
                lost_weight += 1
            elif status == OPEN:
                open_weight = list(open_weight)
                open_weight[missing] += 1
        return self._recoloured(spot, card, lost_weight, open_weight)

    def _cover_groups(self, spot: Spot, card: int) -> tuple[int, tuple[int, ...], tuple[Spot, ...]]:
        """The number-group part of `_child` for a card covering one of another value (the same for every
        card of `card`'s value): the lost weight, the open weights and the cells whose kept status changes.

        Only these groups can change: the covered card's (it leaves, perhaps splitting it), lost ones of its
        value beside an empty cell beside it (that cell may be their room now), those of the placed value
        beside it (they join it) and open ones of that value with room beside it (it now touches that room)."""
        top, groups, height = self.top, self.groups, self.height
        want = self.tables.value[card]
        sides = around(spot)
        empty_sides = [side for side in sides if side not in top]
        leave = self.leave_groups.get(spot)
        if leave is None:
            leave = self.leave_groups[spot] = self._leave_groups(spot, card, empty_sides)
        lost_change, open_change, left = leave
        lost_weight = self.lost_weight + lost_change
        open_weight = [weight + change for weight, change in zip(self.open_weight, open_change)]
        changed = list(left)
        placed_lost = False
        merged: set[int] = set()
        if want:
            merged, placed_lost, lost_weight = self._join_groups(spot, want, height[spot] + 1, lost_weight,
                                                                 open_weight, changed)
            growth_at, growth = self.growth_at, self.growth
            assert growth_at is not None
            blocked = set(sides)
            for index in {i for side in empty_sides for i in growth_at.get(side, ()) if groups[i][4] == want}:
                if index not in merged and growth[index] <= blocked:
                    cells, _, part, missing, _ = groups[index]
                    open_weight[missing] -= part
                    lost_weight += part
                    changed += cells
        if placed_lost != (spot in self.lost):
            changed.append(spot)
        return lost_weight, tuple(open_weight), tuple(set(changed))

    def _leave_groups(self, spot: Spot, card: int, empty_sides: list[Spot]
                      ) -> tuple[int, tuple[int, ...], tuple[Spot, ...]]:
        """What the covered card leaving its number group does (the same for every card covering it with
        another value than its own, `card` among them): the change in lost weight, in each open weight, and
        the cells whose kept status changes. Its group may split, and lost groups of its value beside an
        empty cell beside it may find room there."""
        value, final = self.tables.value, self.final
        top, groups, group_of, height = self.top, self.groups, self.group_of, self.height
        was = value[top[spot]]
        lost_change = 0
        open_change = [0] * len(self.open_weight)
        changed: list[Spot] = []
        if not was:
            return 0, tuple(open_change), ()
        child_top = dict(top)
        child_top[spot] = card
        home = group_of[spot]
        cells, status, weight, missing, _ = groups[home]
        if status == LOST:
            lost_change -= weight
        elif status == OPEN:
            open_change[missing] -= weight
        seen = {spot}
        for start in around(spot):
            if start in seen or start not in group_of or group_of[start] != home:
                continue
            piece = _group(start, child_top, value, was, seen)
            piece_status = _status(piece, was, child_top, value, final)
            if piece_status == LOST:
                lost_change += sum(map(height.__getitem__, piece))
            elif piece_status == OPEN:
                open_change[was - len(piece)] += sum(map(height.__getitem__, piece))
            if (piece_status == LOST) != (status == LOST):
                changed += piece
        if not final:
            for index in {group_of[c] for side in empty_sides for c in around(side) if c in group_of}:
                cells, status, weight, missing, group_value = groups[index]
                if (status == LOST and group_value == was and index != home and missing > 0
                        and _can_grow(cells, child_top, value, was)):
                    lost_change -= weight
                    open_change[missing] += weight
                    changed += cells
        return lost_change, tuple(open_change), tuple(changed)

    def _child(self, spot: Spot, card: int) -> Shape:
        """`child`, the general path: any placement, whatever it changes."""
        tables = self.tables
        colour = tables.colour
        key = (spot, tables.value[card])
        shape = self.lost_children.get(key)
        if shape is not None:
            return shape
        groups_part = self.child_parts.get(key)
        if groups_part is None:
            groups_part = self.child_parts[key] = self._cover_groups(spot, card)
        lost_weight, open_weight, changed = groups_part
        top = self.top
        if not changed and spot in top:
            return self._recoloured(spot, card, lost_weight, open_weight)
        lost = self.lost.symmetric_difference(changed)
        if spot in lost:
            points, credit, open_wings = self._lost_rest(spot, lost, changed)
            shape = self.lost_children[key] = points, lost_weight, credit, open_wings, open_weight
            return shape
        holed = self.hole_parts.get(key)
        if holed is None:
            holed = self.hole_parts[key] = self._hole_regions(spot, lost, changed, True)
        points, credit, wing_cells, beside, open_sides = holed
        # The placed card is kept: it joins the regions of its colour beside it and takes their room there.
        points, credit = join_regions(points, credit, colour[card], open_sides, beside, tables.region_min)
        open_wings = self.open_wings
        wings = self.wings
        butterfly_points = tables.butterfly_points
        for c in wing_cells:
            before = wings.get(c, NO_WING)
            after = NO_WING if c in lost else _wing_with(c, top, lost, tables, spot, card)
            if before != after:
                points += butterfly_points * ((after == WING_SCORES) - (before == WING_SCORES))
                open_wings += (after == WING_OPEN) - (before == WING_OPEN)
        return points, lost_weight, credit, open_wings, open_weight

    def _lost_rest(self, spot: Spot, lost: set[Spot], changed: tuple[Spot, ...]) -> tuple[int, float, int]:
        """The points, credit and open butterflies after a placement whose card is lost. They depend only on
        which cards' kept status changes (the placed card is a hole, as an empty cell is), so they are
        shared by every placement that changes the same cards: every card of a value that makes the same
        group too big, on any cell beside it."""
        top = self.top
        key = tuple(sorted(c for c in changed if c in top))
        rest = self.lost_parts.get(key)
        if rest is None:
            points, credit, wing_cells, _, _ = self._hole_regions(spot, lost, changed, False)
            open_wings = self.open_wings
            wings, tables = self.wings, self.tables
            butterfly_points = tables.butterfly_points
            for c in wing_cells:
                before = wings.get(c, NO_WING)
                after = NO_WING if c in lost else _wing(c, top, lost, tables)
                if before != after:
                    points += butterfly_points * ((after == WING_SCORES) - (before == WING_SCORES))
                    open_wings += (after == WING_OPEN) - (before == WING_OPEN)
            rest = self.lost_parts[key] = points, credit, open_wings
        return rest

    def _hole_regions(self, spot: Spot, lost: set[Spot], changed: tuple[Spot, ...], kept: bool
                      ) -> tuple[int, float, tuple[Spot, ...], tuple[tuple[int, int, str | None, int], ...], int]:
        """The region part of `_child` with the placed card a hole (the same for every card of its value):
        points and credit; the butterflies next to a change, and the placed card's cell; and when the placed
        card is `kept`, per region beside it its size, room, colour and the sides it shares with it, and its
        sides not kept (else nothing, and 0).

        Regions next to every cell whose kept status changed (and the placed card's) are read again from
        those cells and from what stays of the regions they were in; a region that only touches them
        changes its room."""
        colour, top = self.tables.colour, self.top
        touched = {*changed, spot}
        held = lost | {spot}
        region_min = self.tables.region_min
        points = self.points
        credit = self.credit
        regions, region_of, winged = self.regions, self.region_of, self.winged
        parent_lost = self.lost
        seeds = []
        split: set[int] = set()
        near: set[int] = set()
        room_change: dict[int, int] = {}
        wing_cells = {spot}
        for c in touched:
            kept_before = c in top and c not in parent_lost
            kept_after = c not in held
            if kept_after and colour[top[c]] is not None:
                seeds.append(c)
            if c in winged:
                wing_cells.add(c)
            home = region_of.get(c)
            if home is not None:
                split.add(home)
            step = 0 if kept_before == kept_after else -1 if kept_after else 1
            for n in (c + ROW, c - ROW, c + 1, c - 1):
                index = region_of.get(n)
                if index is not None:
                    if index == home:
                        if n not in touched:
                            seeds.append(n)
                    else:
                        near.add(index)
                        if step:
                            room_change[index] = room_change.get(index, 0) + step
                if n in winged:
                    wing_cells.add(n)
        kept_sides = [n for n in around(spot) if n in top and n not in held] if kept else []
        pending = [n for n in kept_sides if colour[top[n]] is not None]
        #: The region (a key cell, size, room, colour) of each coloured kept side.
        side_region: dict[Spot, tuple[Spot, int, int, str | None]] = {}
        seen: set[Spot] = set()
        for start in seeds:
            if start not in seen:
                region, room = _region(start, top, held, colour, seen)
                part_points, part_credit = region_part(len(region), room, region_min)
                points += part_points
                credit += part_credit
                if pending:
                    info = (start, len(region), room, colour[top[start]])
                    rest = []
                    for n in pending:
                        if n in seen:
                            side_region[n] = info
                        else:
                            rest.append(n)
                    pending = rest
        for index in split | near:
            size, room, _, first = regions[index]
            part_points, part_credit = region_part(size, room, region_min)
            points -= part_points
            credit -= part_credit
            if index not in split and first not in seen:
                part_points, part_credit = region_part(size, room + room_change.get(index, 0), region_min)
                points += part_points
                credit += part_credit
        if not kept:
            return points, credit, tuple(wing_cells), (), 0
        for n in pending:  # not read again: a region of the parent, with its room changed
            size, room, region_colour, first = regions[region_of[n]]
            side_region[n] = (first, size, room + room_change.get(region_of[n], 0), region_colour)
        shared: dict[Spot, list] = {}
        for first, size, room, region_colour in side_region.values():
            entry = shared.get(first)
            if entry is None:
                shared[first] = [size, room, region_colour, 1]
            else:
                entry[3] += 1
        beside = tuple((size, room, region_colour, count) for size, room, region_colour, count in shared.values())
        return points, credit, tuple(wing_cells), beside, 4 - len(kept_sides)

    def _recoloured(self, spot: Spot, card: int, lost_weight: int, open_weight: Sequence[int]) -> Shape:
        """The rest of `_child` when a card is covered and no card's kept status changes: only the covered
        cell's colour and butterfly change."""
        tables = self.tables
        lost, top = self.lost, self.top
        if spot in lost:  # not kept before or after: nothing around it changes
            return self.points, lost_weight, self.credit, self.open_wings, tuple(open_weight)
        points, credit = self._recolour_regions(spot, tables.colour[card])
        open_wings = self.open_wings
        wings, winged = self.wings, self.winged
        butterfly_points = tables.butterfly_points
        for c in (spot, *around(spot)):
            if c == spot or (c in winged and c not in lost):
                before = wings.get(c, NO_WING)
                after = _wing_with(c, top, lost, tables, spot, card)
                if before != after:
                    points += butterfly_points * ((after == WING_SCORES) - (before == WING_SCORES))
                    open_wings += (after == WING_OPEN) - (before == WING_OPEN)
        return points, lost_weight, credit, open_wings, tuple(open_weight)

    def _recolour_regions(self, spot: Spot, new_colour: str | None) -> tuple[int, float]:
        """Points and credit once the kept card on `spot` takes `new_colour`, no card's kept status changing:
        only its old region (which it leaves, perhaps splitting it) and the regions of its new colour beside
        it (which it joins) are read again."""
        colour, lost, top = self.tables.colour, self.lost, self.top
        points, credit = self.points, self.credit
        if colour[top[spot]] == new_colour:
            return points, credit
        region_min = self.tables.region_min
        regions, region_of = self.regions, self.region_of
        kept_sides = [n for n in around(spot) if n in top and n not in lost]
        left = self.leave_parts.get(spot)
        if left is None:
            left = self.leave_parts[spot] = self._leave_region(spot, kept_sides)
        points += left[0]
        credit += left[1]
        if new_colour is not None:  # join the regions of the new colour beside it
            size, room = 1, 4 - len(kept_sides)
            for index in {region_of[n] for n in kept_sides if colour[top[n]] == new_colour}:
                region_size, region_room, _, _ = regions[index]
                part_points, part_credit = region_part(region_size, region_room, region_min)
                points -= part_points
                credit -= part_credit
                size += region_size
                room += region_room
            part_points, part_credit = region_part(size, room, region_min)
            points += part_points
            credit += part_credit
        return points, credit

    def _leave_region(self, spot: Spot, kept_sides: list[Spot]) -> tuple[int, float]:
        """What a kept cell leaving its region for another colour changes in points and credit: the region
        is read again without it, in one piece or more (the same whatever the new colour)."""
        home = self.region_of.get(spot)
        if home is None:
            return 0, 0.0
        region_min = self.tables.region_min
        size, room, _, _ = self.regions[home]
        part_points, part_credit = region_part(size, room, region_min)
        points, credit = -part_points, -part_credit
        inside = [n for n in kept_sides if self.region_of.get(n) == home]
        if len(inside) == 1:
            part_points, part_credit = region_part(size - 1, room - (4 - len(kept_sides)), region_min)
            points += part_points
            credit += part_credit
        elif inside:
            seen = {spot}
            for start in inside:
                if start not in seen:
                    region, room = _region(start, self.top, self.lost, self.tables.colour, seen)
                    part_points, part_credit = region_part(len(region), room, region_min)
                    points += part_points
                    credit += part_credit
        return points, credit


def score(shape: Shape, tables: Tables) -> int:
    """The exact score of an area from its shape, when its model is `final`: points less discards."""
    return shape[0] + tables.discard_points * shape[1]


def child_area(area: Mapping[Cell, Sequence[int]], cell: Cell, card: int) -> dict[Cell, Sequence[int]]:
    """A copy of `area` with `card` placed on `cell`."""
    child = dict(area)
    child[cell] = tuple(area.get(cell, ())) + (card,)
    return child


def area_key(area: Mapping[Cell, Iterable[int]]) -> frozenset:
    """A key for an area's contents (the order its cells were placed does not matter)."""
    return frozenset(area.items())
