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
(rules/flowers.md, Scoring); tests/test_flowers_heuristics.py checks every path against a full analysis.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .cards import FlowersCards
from .scoring import Cell

#: Part credit per card for a colour region below the minimum (scaled by its share of the minimum, squared).
REGION_CREDIT = 0.6

COMPLETE, LOST, OPEN = 0, 1, 2
NO_WING, WING_SCORES, WING_OPEN = 0, 1, 2

#: An area's shape, what its value is made of apart from the turns left: points sure now, cards in groups
#: that are lost already, the part credit of small regions, open butterflies, and the cards in open groups
#: by how many cards each still misses (index = cards missing).
Shape = tuple[int, int, float, int, tuple[int, ...]]


def around(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The four orthogonal neighbours of a cell."""
    x, y = cell
    return (x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)


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


def _group(start: Cell, top: Mapping[Cell, int], value: Sequence[int], want: int, seen: set[Cell]) -> list[Cell]:
    """The number group of value `want` that holds `start` (its cells are added to `seen`)."""
    seen.add(start)
    group, frontier = [start], [start]
    while frontier:
        for other in around(frontier.pop()):
            if other not in seen and other in top and value[top[other]] == want:
                seen.add(other)
                group.append(other)
                frontier.append(other)
    return group


def _can_grow(group: list[Cell], top: Mapping[Cell, int], value: Sequence[int], want: int) -> bool:
    """Whether some empty cell next to the group touches no other card of the group's value."""
    members = set(group)
    for cell in group:
        for empty in around(cell):
            if empty in top:
                continue
            for n in around(empty):
                if n not in members and n in top and value[top[n]] == want:
                    break
            else:
                return True
    return False


def _growth(group: list[Cell], top: Mapping[Cell, int], value: Sequence[int], want: int) -> set[Cell]:
    """The empty cells next to the group that touch no other card of the group's value (room to grow)."""
    members = set(group)
    cells: set[Cell] = set()
    for cell in group:
        for empty in around(cell):
            if empty in top or empty in cells:
                continue
            for n in around(empty):
                if n not in members and n in top and value[top[n]] == want:
                    break
            else:
                cells.add(empty)
    return cells


def _status(group: list[Cell], want: int, top: Mapping[Cell, int], value: Sequence[int], final: bool) -> int:
    size = len(group)
    if size == want:
        return COMPLETE
    if final or size > want or not _can_grow(group, top, value, want):
        return LOST
    return OPEN


def _region(start: Cell, top: Mapping[Cell, int], lost: set[Cell], colour: Sequence[str | None],
            seen: set[Cell]) -> tuple[list[Cell], int]:
    """The colour region of kept cells that holds `start`, and its room (neighbours not kept, counted per side)."""
    want = colour[top[start]]
    seen.add(start)
    region, frontier, room = [start], [start], 0
    while frontier:
        for other in around(frontier.pop()):
            if other in top and other not in lost:
                if other not in seen and colour[top[other]] == want:
                    seen.add(other)
                    region.append(other)
                    frontier.append(other)
            else:
                room += 1
    return region, room


def _wing(cell: Cell, top: Mapping[Cell, int], lost: set[Cell], tables: Tables) -> int:
    """A kept butterfly's state: it scores (touching its colour), is open (a neighbour not kept) or neither."""
    wing = tables.wing[top[cell]]
    if wing is None:
        return NO_WING
    colour = tables.colour
    open_side = False
    for n in around(cell):
        if n in top and n not in lost:
            if colour[top[n]] == wing:
                return WING_SCORES
        else:
            open_side = True
    return WING_OPEN if open_side else NO_WING


class AreaModel:
    """One area analysed: its groups, regions and butterflies, each with its part of the area's shape.

    `final`: as scored at the end (rules/flowers.md, Scoring), where every group of the wrong size is
    discarded; `score(shape)` is then the area's exact score.
    """

    __slots__ = ("tables", "final", "top", "height", "group_of", "groups", "lost", "growth", "growth_at",
                 "region_of", "regions", "wings", "points", "lost_weight", "credit", "open_wings", "open_weight",
                 "shape", "children")

    def __init__(self, tables: Tables, area: Mapping[Cell, Sequence[int]], final: bool = False):
        self.tables = tables
        self.final = final
        value, colour = tables.value, tables.colour
        self.top = top = {cell: area[cell][-1] for cell in sorted(area) if area[cell]}
        self.height = height = {cell: len(area[cell]) for cell in top}
        self.group_of: dict[Cell, int] = {}
        #: Per group: its cells, status, cards (covered ones too), cards missing and value.
        self.groups: list[tuple[list[Cell], int, int, int, int]] = []
        self.lost: set[Cell] = set()
        #: Per open group its room to grow, and per empty cell the open groups it is room for (made with
        #: the first child: an area only scored needs neither).
        self.growth: dict[int, set[Cell]] = {}
        self.growth_at: dict[Cell, list[int]] | None = None
        lost_weight = 0
        open_weight = [0] * tables.slots
        seen: set[Cell] = set()
        for start, card in top.items():
            want = value[card]
            if start in seen or not want:
                continue
            group = _group(start, top, value, want, seen)
            status = _status(group, want, top, value, final)
            weight = sum(height[cell] for cell in group)
            index = len(self.groups)
            self.groups.append((group, status, weight, want - len(group), want))
            for cell in group:
                self.group_of[cell] = index
            if status == LOST:
                lost_weight += weight
                self.lost.update(group)
            elif status == OPEN:
                open_weight[want - len(group)] += weight
        self.region_of: dict[Cell, int] = {}
        #: Per region: its size, room, colour and one of its cells.
        self.regions: list[tuple[int, int, str, Cell]] = []
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
        self.wings: dict[Cell, int] = {}
        scoring = open_wings = 0
        for cell in top:
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
        self.children: dict[tuple[Cell, int], Shape] = {}

    def child(self, cell: Cell, card: int) -> Shape:
        """The shape of this area after `card` is placed on `cell` (covering what is there, if anything)."""
        key = (cell, self.tables.kind[card])
        shape = self.children.get(key)
        if shape is None:
            if self.growth_at is None:
                self._index_growth()
            shape = self._beside(cell, card) if cell not in self.top else self._alike(cell, card)
            if shape is None:
                shape = self._child(cell, card)
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

    def _beside(self, spot: Cell, card: int) -> Shape | None:
        """`child` for a card placed on an empty cell when no other card's kept status changes, else None."""
        tables = self.tables
        value, colour = tables.value, tables.colour
        top, lost, groups, group_of = self.top, self.lost, self.groups, self.group_of
        want = value[card]
        sides = around(spot)
        child_top = dict(top)
        child_top[spot] = card
        lost_weight = self.lost_weight
        open_weight = self.open_weight
        placed_lost = False
        merged: set[int] = set()
        if want:
            merged = {group_of[n] for n in sides if n in top and value[top[n]] == want}
            size = weight = 1
            cells = [spot]
            for index in merged:
                group = groups[index]
                size += len(group[0])
                weight += group[2]
                cells += group[0]
            if size == want:
                status = COMPLETE
            elif self.final or size > want or not _can_grow(cells, child_top, value, want):
                status = LOST
            else:
                status = OPEN
            placed_lost = status == LOST
            open_weight = list(open_weight)
            for index in merged:
                _, was, part, missing, _ = groups[index]
                if (was == LOST) != placed_lost:
                    return None
                if was == LOST:
                    lost_weight -= part
                elif was == OPEN:
                    open_weight[missing] -= part
            if status == LOST:
                lost_weight += weight
            elif status == OPEN:
                open_weight[want - size] += weight
        # Open groups that had room here: the cell is taken, and the cells beside it now touch this value.
        growth_at, growth = self.growth_at, self.growth
        filled = {spot}
        blocked = {spot, *sides}
        near_room = {*growth_at.get(spot, ())}
        if want:
            near_room.update(i for side in sides for i in growth_at.get(side, ()) if groups[i][4] == want)
        for index in near_room:
            if index not in merged and not growth[index] - (blocked if groups[index][4] == want else filled):
                return None
        open_weight = tuple(open_weight)
        points, credit, open_wings = self.points, self.credit, self.open_wings
        if placed_lost:
            return points, lost_weight, credit, open_wings, open_weight

        # The placed card is kept: it joins the regions of its colour beside it and takes their room there.
        region_min = tables.region_min
        regions, region_of = self.regions, self.region_of
        col = colour[card]
        beside: dict[int, int] = {}
        room = 0
        for n in sides:
            if n in top and n not in lost:
                index = region_of.get(n)
                if index is not None:
                    beside[index] = beside.get(index, 0) + 1
            else:
                room += 1
        size = 1
        for index, sides_shared in beside.items():
            region_size, region_room, region_colour, _ = regions[index]
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
        wings = self.wings
        butterfly_points = tables.butterfly_points
        for c in (spot, *sides):
            if c in child_top and c not in lost:
                before = wings.get(c, NO_WING)
                after = _wing(c, child_top, lost, tables)
                if before != after:
                    points += butterfly_points * ((after == WING_SCORES) - (before == WING_SCORES))
                    open_wings += (after == WING_OPEN) - (before == WING_OPEN)
        return points, lost_weight, credit, open_wings, open_weight

    def _alike(self, spot: Cell, card: int) -> Shape | None:
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
        child_top = dict(self.top)
        child_top[spot] = card
        return self._recoloured(spot, card, child_top, lost_weight, open_weight)

    def _child(self, spot: Cell, card: int) -> Shape:
        """`child`, the general path: any placement, whatever it changes."""
        tables = self.tables
        value, colour = tables.value, tables.colour
        top = dict(self.top)
        top[spot] = card
        height = self.height
        # Number groups that may change: the covered card's; of the placed value, those beside the placement
        # (they join it) and those with room beside it (it now touches that room); those with room on it;
        # of the covered value, those beside an empty cell beside it (it may be their room again).
        groups, group_of, growth_at = self.groups, self.group_of, self.growth_at
        sides = around(spot)
        under = self.top.get(spot)
        want = value[card]
        suspects = {group_of[c] for c in sides if c in group_of and groups[group_of[c]][4] == want}
        if spot in group_of:
            suspects.add(group_of[spot])
        suspects.update(growth_at.get(spot, ()))
        for side in sides:
            suspects.update(i for i in growth_at.get(side, ()) if groups[i][4] == want)
        if under is not None and value[under] and value[under] != value[card]:
            was = value[under]
            for side in sides:
                if side not in top:
                    suspects.update(group_of[c] for c in around(side)
                                    if c in group_of and groups[group_of[c]][4] == was)
        lost_weight = self.lost_weight
        open_weight = list(self.open_weight)
        was_lost: set[Cell] = set()
        seeds = [spot]
        for index in suspects:
            group, status, weight, missing, _ = groups[index]
            seeds += group
            if status == LOST:
                lost_weight -= weight
                was_lost.update(group)
            elif status == OPEN:
                open_weight[missing] -= weight
        now_lost: set[Cell] = set()
        seen: set[Cell] = set()
        for start in seeds:
            if start in seen:
                continue
            want = value[top[start]]
            if not want:
                continue
            group = _group(start, top, value, want, seen)
            status = _status(group, want, top, value, self.final)
            if status == COMPLETE:
                continue
            weight = sum(height.get(c, 0) for c in group) + (spot in group)
            if status == LOST:
                lost_weight += weight
                now_lost.update(group)
            else:
                open_weight[want - len(group)] += weight
        lost = (self.lost - was_lost) | now_lost
        changed = was_lost ^ now_lost
        if under is not None and not changed:
            return self._recoloured(spot, card, top, lost_weight, open_weight)

        # Regions next to every cell whose kept status or colour changed: read again from those cells and
        # from what stays of the regions they were in; a region that only touches them changes its room.
        changed.add(spot)
        touched = set(changed)
        for c in changed:
            touched.update(around(c))
        region_min = tables.region_min
        points = self.points
        credit = self.credit
        regions, region_of = self.regions, self.region_of
        parent_top, parent_lost = self.top, self.lost
        seeds = []
        split: set[int] = set()
        room_change: dict[int, int] = {}
        for c in changed:
            kept_before = c in parent_top and c not in parent_lost
            kept_after = c not in lost
            if kept_after and colour[top[c]] is not None:
                seeds.append(c)
            home = region_of.get(c)
            if home is not None:
                split.add(home)
                seeds.extend(n for n in around(c) if region_of.get(n) == home and n not in changed)
            if kept_before != kept_after:
                step = -1 if kept_after else 1
                for n in around(c):
                    index = region_of.get(n)
                    if index is not None:
                        room_change[index] = room_change.get(index, 0) + step
        seen: set[Cell] = set()
        for start in seeds:
            if start not in seen:
                region, room = _region(start, top, lost, colour, seen)
                part_points, part_credit = region_part(len(region), room, region_min)
                points += part_points
                credit += part_credit
        for index in split | {region_of[c] for c in touched if c in region_of}:
            size, room, _, first = regions[index]
            part_points, part_credit = region_part(size, room, region_min)
            points -= part_points
            credit -= part_credit
            if index not in split and first not in seen:
                part_points, part_credit = region_part(size, room + room_change.get(index, 0), region_min)
                points += part_points
                credit += part_credit
        wings = self.wings
        open_wings = self.open_wings
        butterfly_points = tables.butterfly_points
        wing = tables.wing
        for c in touched:
            before = wings.get(c, NO_WING)
            after = NO_WING if c not in top or c in lost or wing[top[c]] is None else _wing(c, top, lost, tables)
            if before != after:
                points += butterfly_points * ((after == WING_SCORES) - (before == WING_SCORES))
                open_wings += (after == WING_OPEN) - (before == WING_OPEN)
        return points, lost_weight, credit, open_wings, tuple(open_weight)


    def _recoloured(self, spot: Cell, card: int, top: dict[Cell, int], lost_weight: int,
                    open_weight: list[int]) -> Shape:
        """The rest of `_child` when a card is covered and no card's kept status changes: only the covered
        cell's colour and butterfly change, so only its old region (which it leaves, perhaps splitting
        it) and the regions of its new colour beside it (which it joins) are read again."""
        tables = self.tables
        colour, lost = tables.colour, self.lost
        points, credit, open_wings = self.points, self.credit, self.open_wings
        shape_rest = (tuple(open_weight),)
        if spot in lost:  # not kept before or after: nothing around it changes
            return (points, lost_weight, credit, open_wings, *shape_rest)
        region_min = tables.region_min
        regions, region_of = self.regions, self.region_of
        old_colour, new_colour = colour[self.top[spot]], colour[card]
        sides = around(spot)
        if old_colour != new_colour:
            kept_sides = [n for n in sides if n in top and n not in lost]
            open_sides = 4 - len(kept_sides)
            home = region_of.get(spot)
            if home is not None:  # leave the old region: what stays of it, in one piece or more
                size, room, _, _ = regions[home]
                part_points, part_credit = region_part(size, room, region_min)
                points -= part_points
                credit -= part_credit
                inside = [n for n in kept_sides if region_of.get(n) == home]
                if len(inside) == 1:
                    part_points, part_credit = region_part(size - 1, room - open_sides, region_min)
                    points += part_points
                    credit += part_credit
                elif inside:
                    seen = {spot}
                    for start in inside:
                        if start not in seen:
                            region, room = _region(start, top, lost, colour, seen)
                            part_points, part_credit = region_part(len(region), room, region_min)
                            points += part_points
                            credit += part_credit
            if new_colour is not None:  # join the regions of the new colour beside it
                size, room = 1, open_sides
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
        wings, wing = self.wings, tables.wing
        butterfly_points = tables.butterfly_points
        for c in (spot, *sides):
            if c in top and c not in lost:
                before = wings.get(c, NO_WING)
                after = NO_WING if wing[top[c]] is None else _wing(c, top, lost, tables)
                if before != after:
                    points += butterfly_points * ((after == WING_SCORES) - (before == WING_SCORES))
                    open_wings += (after == WING_OPEN) - (before == WING_OPEN)
        return (points, lost_weight, credit, open_wings, *shape_rest)


def score(shape: Shape, tables: Tables) -> int:
    """The exact score of an area from its shape, when its model is `final`: points less discards."""
    return shape[0] + tables.discard_points * shape[1]


def child_area(area: Mapping[Cell, Sequence[int]], cell: Cell, card: int) -> dict[Cell, tuple[int, ...]]:
    """A copy of `area` with `card` placed on `cell`."""
    child = dict(area)
    child[cell] = tuple(area.get(cell, ())) + (card,)
    return child


def area_key(area: Mapping[Cell, Iterable[int]]) -> frozenset:
    """A key for an area's contents (the order its cells were placed does not matter)."""
    return frozenset(area.items())
