"""By This scoring and shelf order (rules.md, Close and By This's slide), over plain numbers.

A shelf is read left to right under the Key in play: on an ascending Key the numbers never fall, on a
descending Key they never rise; equal numbers sit side by side. Closing scores the shelf's length plus
1 for every extra card in a pile of same-number cards side by side (three 1s = +2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def in_order(before: int, after: int, ascending: bool) -> bool:
    """Whether a card numbered `after` may stand right of one numbered `before` under the Key."""
    return before <= after if ascending else before >= after


def first_out_of_order(numbers: Sequence[int], ascending: bool) -> int | None:
    """The index of the first card out of order with its left neighbour, or None if the shelf is in order."""
    for index in range(1, len(numbers)):
        if not in_order(numbers[index - 1], numbers[index], ascending):
            return index
    return None


def piles(numbers: Sequence[int]) -> list[tuple[int, int, int]]:
    """Runs of equal numbers side by side as (start index, length, number), left to right."""
    runs: list[tuple[int, int, int]] = []
    start = 0
    for index in range(1, len(numbers) + 1):
        if index == len(numbers) or numbers[index] != numbers[start]:
            runs.append((start, index - start, numbers[start]))
            start = index
    return runs if numbers else []


def close_points(numbers: Sequence[int]) -> int:
    """What closing a shelf with these numbers (left to right) scores: length + extra cards in piles."""
    if not numbers:
        return 0
    runs = 1
    for index in range(1, len(numbers)):
        if numbers[index] != numbers[index - 1]:
            runs += 1
    return 2 * len(numbers) - runs


@dataclass
class CloseScore:
    """The score of closing one shelf, with its parts."""

    total: int
    length: int
    pile_bonus: int
    piles: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: total first, then length, pile bonus and every pile of two or more."""
        return {"total": self.total, "length": self.length, "pile_bonus": self.pile_bonus, "piles": self.piles}


def score_close(names: Sequence[str], numbers: Sequence[int]) -> CloseScore:
    """Score closing the shelf `names` whose numbers under the Key are `numbers`, with every pile named."""
    pile_list = [
        {"number": number, "cards": list(names[start:start + length]), "bonus": length - 1}
        for start, length, number in piles(numbers)
        if length > 1
    ]
    bonus = sum(p["bonus"] for p in pile_list)
    return CloseScore(total=len(numbers) + bonus, length=len(numbers), pile_bonus=bonus, piles=pile_list)
