"""A search's budget for one decision: a number of iterations, or seconds (`Seconds`) of which the first
iteration always runs."""

from __future__ import annotations

import time

from .base import Seconds


class Allowance:
    """When one decision's search stops: after `budget` iterations, or once `budget` seconds have passed."""

    def __init__(self, budget: int | Seconds):
        self.budget = budget
        self.deadline = time.perf_counter() + float(budget) if isinstance(budget, Seconds) else None

    def spent(self, iterations: int) -> bool:
        """Whether the search stops before another iteration, `iterations` having run."""
        if self.deadline is None:
            return iterations >= self.budget
        return bool(iterations) and time.perf_counter() >= self.deadline
