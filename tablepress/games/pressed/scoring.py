"""Pressed scoring: a card planted in the Flower Bed, and the final scoring of a pressed collection.

The bed is a list of columns, each a list of flower indices from row 1 down. Planting scores count
over the played card's row and column together (each card once). Final scoring groups the pressed
cards by flower; Baby's Breath joins groups; each group scores once. `best_final` finds the best Baby's
Breath placement and Tulip choice; `final_score` scores a declared one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import Any

from .cards import CHOSEN, COPY, DISTINCT, NOTHING, SHORTEST, PressedCards

Bed = Sequence[Sequence[int]]


# ----- planting ------------------------------------------------------------------------------------
def line_cards(bed: Bed, row: int, column: int) -> list[int]:
    """The flowers in `row` and `column` together, without the card at (row, column) itself."""
    cards = [card for r, card in enumerate(bed[column]) if r != row]
    cards += [col[row] for c, col in enumerate(bed) if c != column and len(col) > row]
    return cards


def is_shortest(bed: Bed, column: int) -> bool:
    """Whether `column` is a shortest column of the bed (ties count as shortest)."""
    return len(bed[column]) == min(len(col) for col in bed)


@dataclass(frozen=True)
class PlantScore:
    """What a planted card scores and why."""

    points: int
    kind: int  # the flower played
    acts_as: int  # the flower it scored as (a Baby's Breath's copy; otherwise itself)
    count: int  # the count looked up in the table
    copied: int | None = None  # the flower a Baby's Breath copied
    chosen: int | None = None  # the flower a Tulip (or a Baby's Breath as one) chose
    note: str = ""

    def as_dict(self, cards: PressedCards, row: int, column: int) -> dict[str, Any]:
        """JSON-ready breakdown (contract: "total" plus its parts)."""
        data: dict[str, Any] = {
            "total": self.points,
            "flower": cards.names[self.kind],
            "row": row + 1,
            "column": column + 1,
            "scored_as": cards.names[self.acts_as],
            "count": self.count,
        }
        if self.copied is not None:
            data["copied"] = cards.names[self.copied]
        if self.chosen is not None:
            data["chosen"] = cards.names[self.chosen]
        if self.note:
            data["note"] = self.note
        return data


def plant_score(
    bed: Bed, column: int, kind: int, cards: PressedCards, copy: int | None = None, choose: int | None = None
) -> PlantScore:
    """Score `kind` played into the next space of `column` (before it is added to `bed`).

    `copy` is the flower a Baby's Breath copies; `choose` the flower a Tulip (or a Baby's Breath
    copying one) chooses. Both must be flowers in the card's row or column; callers check that.
    """
    row = len(bed[column])
    others = [card for card in bed[column]]
    others += [col[row] for c, col in enumerate(bed) if c != column and len(col) > row]
    acts = kind
    if cards.effects[kind] == COPY:
        if copy is None:
            return PlantScore(0, kind, kind, 0, note="nothing to copy")
        if cards.effects[copy] == COPY:
            return PlantScore(0, kind, copy, 0, copied=copy, note="a copy of a copy scores nothing")
        acts = copy
    copied = copy if acts != kind else None
    if cards.effects[acts] == SHORTEST and not is_shortest(bed, column):
        return PlantScore(0, kind, acts, 0, copied=copied, note="not a shortest column")
    what = cards.counts[acts]
    chosen = None
    if what == DISTINCT:
        count = len(set(others) | {acts})
    elif what == CHOSEN:
        if choose is None:
            return PlantScore(0, kind, acts, 0, copied=copied, note="nothing to choose")
        chosen = choose
        count = others.count(choose) + (1 if choose == acts else 0)
    elif what == NOTHING:
        count = 0
    else:
        count = others.count(what) + (1 if what == acts else 0)
    return PlantScore(cards.points(acts, count), kind, acts, count, copied=copied, chosen=chosen)


# ----- final scoring -------------------------------------------------------------------------------
@dataclass
class GroupScore:
    """One group of pressed flowers at final scoring."""

    kind: int
    cards: int  # pressed cards of the flower itself
    tucked: int  # Baby's Breaths tucked behind it
    count: int  # the count looked up in its table
    points: int
    chosen: int | None = None  # for a Tulip: the group it chose

    def as_dict(self, cards: PressedCards) -> dict[str, Any]:
        """JSON-ready form."""
        data: dict[str, Any] = {
            "flower": cards.names[self.kind],
            "cards": self.cards,
            "babys_breath": self.tucked,
            "count": self.count,
            "points": self.points,
        }
        if self.chosen is not None:
            data["chose"] = cards.names[self.chosen]
        return data


@dataclass
class FinalScore:
    """A pressed collection's final score with its groups and the choices used."""

    total: int
    groups: list[GroupScore]
    unplaced: int  # Baby's Breaths with no group to join
    declared: bool  # whether the choices were declared (False: the best ones were found)
    cards: int = 0
    choices: list[str] = field(default_factory=list)

    def as_dict(self, names: PressedCards) -> dict[str, Any]:
        """JSON-ready breakdown (contract: "total" plus its parts)."""
        return {
            "total": self.total,
            "cards": self.cards,
            "choices": ", ".join(self.choices) or "none",
            "chosen_by": "declared" if self.declared else "best",
            "groups": [group.as_dict(names) for group in self.groups],
            "unplaced_babys_breath": self.unplaced,
        }


def collection_counts(cards_list: Sequence[int], cards: PressedCards) -> tuple[int, ...]:
    """Counts per flower of a list of flower indices."""
    counts = [0] * len(cards.names)
    for card in cards_list:
        counts[card] += 1
    return tuple(counts)


def _group_values(
    counts: Sequence[int], tucked: Sequence[int], chosen: Mapping[int, int], cards: PressedCards
) -> list[GroupScore]:
    groups = [k for k in cards.kinds if counts[k] and cards.effects[k] != COPY]
    size = {k: counts[k] + tucked[k] for k in groups}
    result = []
    for k in groups:
        what = cards.counts[k]
        pick = None
        if what == DISTINCT:
            count = len(groups)
        elif what == CHOSEN:
            pick = chosen.get(k)
            count = size.get(pick, 0) if pick is not None else 0
        elif what == NOTHING:
            count = 0
        else:
            count = size.get(what, 0)
        result.append(GroupScore(k, counts[k], tucked[k], count, cards.points(k, count), pick))
    return result


def final_score(
    counts: Sequence[int],
    cards: PressedCards,
    tucked: Sequence[int] | None = None,
    chosen: Mapping[int, int] | None = None,
) -> FinalScore:
    """Score a collection (`counts` per flower) with declared choices.

    `tucked[k]` Baby's Breaths join group k (any left over join nothing and score nothing);
    `chosen[t]` is the group a chooser (Tulip) group counts. Callers check the choices are allowed.
    """
    tucked = list(tucked) if tucked is not None else [0] * len(cards.names)
    chosen = dict(chosen or {})
    groups = _group_values(counts, tucked, chosen, cards)
    copy_kind = cards.copy_kind
    spare = (counts[copy_kind] if copy_kind is not None else 0) - sum(tucked)
    result = FinalScore(sum(g.points for g in groups), groups, max(spare, 0), True, sum(counts))
    result.choices = _describe(groups, cards)
    return result


def _describe(groups: Sequence[GroupScore], cards: PressedCards) -> list[str]:
    copy_kind = cards.copy_kind
    text = []
    for group in groups:
        if group.tucked and copy_kind is not None:
            text.append(f"{group.tucked} {cards.names[copy_kind]}→{cards.names[group.kind]}")
    for group in groups:
        if group.chosen is not None:
            text.append(f"{cards.names[group.kind]}→{cards.names[group.chosen]}")
    return text


def best_final(
    counts: Sequence[int],
    cards: PressedCards,
    fixed_tucked: Sequence[int] | None = None,
    fixed_chosen: Mapping[int, int] | None = None,
) -> FinalScore:
    """The best final score of a collection: the best Baby's Breath placement and Tulip choices.

    Choices in `fixed_tucked` / `fixed_chosen` (declared by the player) are kept; only the rest are
    chosen. Each chooser's target is tried in turn; for each, the free Baby's Breaths are placed by an
    exact knapsack over groups (a group's value depends only on its own size once targets are fixed).
    """
    tucked_key = tuple(fixed_tucked) if fixed_tucked is not None else None
    chosen_key = tuple(sorted((fixed_chosen or {}).items()))
    total, tucked, chosen = _best(tuple(counts), cards, tucked_key, chosen_key)
    result = final_score(counts, cards, tucked, chosen)
    result.declared = False
    return result


def best_total(counts: Sequence[int], cards: PressedCards) -> int:
    """Only the best final total of a collection (cached; used by search and heuristics): `best_final`'s
    total, found without the choices that make it."""
    return _best_value(tuple(counts), cards)


@lru_cache(maxsize=262_144)
def _best_value(counts: tuple[int, ...], cards: PressedCards) -> int:
    """`_best`'s value alone, for at most one chooser (a Tulip; more go to `_best`): each group's readers
    score at its size plus the Baby's Breaths tucked into it, so the Breaths go where they gain most —
    one Breath to the best single gain, more by a max-plus knapsack of the groups, run once from each end
    so that every target of the chooser is tried against it instead of a knapsack each."""
    groups = [k for k in cards.kinds if counts[k] and cards.effects[k] != COPY]
    if not groups:  # Baby's Breaths alone score nothing
        return 0
    choosers = [k for k in groups if cards.counts[k] == CHOSEN]
    if len(choosers) > 1:
        return _best(counts, cards, None, ())[0]
    copy_kind = cards.copy_kind
    free = counts[copy_kind] if copy_kind is not None else 0
    rows = cards.point_rows
    present = set(groups)
    constant = 0
    readers: dict[int, list[int]] = {g: [] for g in groups}
    for k in groups:
        what = cards.counts[k]
        if what == DISTINCT:
            constant += cards.points(k, len(groups))
        elif what in present:
            readers[what].append(k)
    # Per group what its readers (the chooser aside) score with 0..free Baby's Breaths tucked into it.
    spans = range(free + 1)
    values = [[sum(_row_at(rows[k], counts[g] + extra) for k in readers[g]) for extra in spans] for g in groups]
    targets = [index for index, g in enumerate(groups) if not choosers or g != choosers[0]]
    if choosers and not targets:  # a chooser with no other group scores nothing
        choosers = []
    if not free:
        total = sum(part[0] for part in values)
        if choosers:
            total += max(_row_at(rows[choosers[0]], counts[groups[index]]) for index in targets)
        return total + constant
    if free == 1:
        base = sum(part[0] for part in values)
        gains = [part[1] - part[0] for part in values]
        if not choosers:
            return base + max(gains) + constant
        order = sorted(range(len(groups)), key=gains.__getitem__, reverse=True)
        row = rows[choosers[0]]
        best = None
        for index in targets:
            size = counts[groups[index]]
            elsewhere = gains[order[0]] if order[0] != index else (gains[order[1]] if len(order) > 1 else None)
            here = gains[index] + _row_at(row, size + 1) - _row_at(row, size)
            total = _row_at(row, size) + (here if elsewhere is None or here > elsewhere else elsewhere)
            best = total if best is None or total > best else best
        return base + best + constant
    nothing = [0.0] + [float("-inf")] * free  # no groups: nothing tucked is worth 0, any tucked is impossible
    if not choosers:
        folded = nothing
        for part in values:
            folded = _max_plus(folded, part, free)
        return int(folded[free]) + constant
    before = [nothing]
    for part in values:
        before.append(_max_plus(before[-1], part, free))
    after = [nothing]
    for part in reversed(values):
        after.append(_max_plus(after[-1], part, free))
    after.reverse()
    row = rows[choosers[0]]
    best = None
    for index in targets:
        read = [values[index][extra] + _row_at(row, counts[groups[index]] + extra) for extra in spans]
        total = _max_plus(_max_plus(before[index], read, free), after[index + 1], free)[free]
        best = total if best is None or total > best else best
    return int(best) + constant


def _max_plus(left: Sequence[float], right: Sequence[float], free: int) -> list[float]:
    """The best total for each number of Baby's Breaths (0..free) split between two knapsacks."""
    return [max(left[used] + right[total - used] for used in range(total + 1)) for total in range(free + 1)]


def _row_at(row: tuple[int, ...], count: int) -> int:
    """`PressedCards.points` from a row of `point_rows`: past the row's end the last entry."""
    return row[count] if count < len(row) else row[-1]


@lru_cache(maxsize=65536)
def _best(
    counts: tuple[int, ...],
    cards: PressedCards,
    fixed_tucked: tuple[int, ...] | None,
    fixed_chosen: tuple[tuple[int, int], ...],
) -> tuple[int, tuple[int, ...], dict[int, int]]:
    kinds = len(cards.names)
    base = list(fixed_tucked) if fixed_tucked is not None else [0] * kinds
    groups = [k for k in cards.kinds if counts[k] and cards.effects[k] != COPY]
    copy_kind = cards.copy_kind
    free = (counts[copy_kind] if copy_kind is not None else 0) - sum(base)
    if not groups:
        return 0, tuple(base), {}
    declared = dict(fixed_chosen)
    choosers = [k for k in groups if cards.counts[k] == CHOSEN and k not in declared]
    options = [[g for g in groups if g != t] or [None] for t in choosers]
    if not free:
        # Without Baby's Breaths to place, each chooser's points depend on its own target alone: the
        # first best target of each (max keeps the first) is the first best of all combinations.
        chosen = dict(declared)
        for t, targets in zip(choosers, options):
            if targets != [None]:
                chosen[t] = max(targets, key=lambda g: cards.points(t, counts[g] + base[g]))
        value, tucked = _place(counts, groups, base, free, chosen, cards)
        return value, tucked, chosen
    best: tuple[int, tuple[int, ...], dict[int, int]] | None = None
    for targets in product(*options):
        chosen = dict(declared)
        chosen.update({t: g for t, g in zip(choosers, targets) if g is not None})
        value, tucked = _place(counts, groups, base, free, chosen, cards)
        if best is None or value > best[0]:
            best = (value, tucked, chosen)
    assert best is not None
    return best


def _place(
    counts: Sequence[int], groups: list[int], base: list[int], free: int, chosen: Mapping[int, int],
    cards: PressedCards,
) -> tuple[int, tuple[int, ...]]:
    """Place `free` Baby's Breaths over `groups` to maximise the total, targets fixed (exact DP)."""
    # Which groups' values depend on the size of group g.
    readers: dict[int, list[int]] = {g: [] for g in groups}
    constant = 0
    for k in groups:
        what = cards.counts[k]
        if what == DISTINCT:
            constant += cards.points(k, len(groups))
        elif what == CHOSEN:
            target = chosen.get(k)
            if target is None:
                continue
            readers[target].append(k)
        elif what == NOTHING:
            continue
        elif what in readers:
            readers[what].append(k)

    rows = cards.point_rows
    if not free:
        total = 0
        for g in groups:
            size = counts[g] + base[g]
            for k in readers[g]:
                total += _row_at(rows[k], size)
        return total + constant, tuple(base)
    # dp over groups: best[b] = best value using b free Baby's Breaths so far.
    minus = float("-inf")
    best: list[float] = [0.0] + [minus] * free
    picks: list[list[int]] = []
    for g in groups:
        size = counts[g] + base[g]
        values = [0] * (free + 1)  # what g's readers score with that many more Baby's Breaths tucked
        for k in readers[g]:
            for extra in range(free + 1):
                values[extra] += _row_at(rows[k], size + extra)
        new = [minus] * (free + 1)
        take = [0] * (free + 1)
        for used in range(free + 1):
            if best[used] == minus:
                continue
            for extra in range(free - used + 1):
                v = best[used] + values[extra]
                if v > new[used + extra]:
                    new[used + extra] = v
                    take[used + extra] = extra
        picks.append(take)
        best = new
    tucked = list(base)
    remaining = free
    for g, take in zip(reversed(groups), reversed(picks)):
        tucked[g] += take[remaining]
        remaining -= take[remaining]
    return int(best[free]) + constant, tuple(tucked)
