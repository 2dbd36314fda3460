"""The game's quality figures from result rows: one declared list, shared by `tune`'s guards and A/B verdicts.

A quality measure reads every game's row (see `runner.play_one`) into one number per game and averages
them into an `Estimate` with a 95% interval: a Wilson interval for a share of games, a t interval for a
mean. Each measure says which direction is better: `higher`, `lower`, `closer` (to `goal(players)`,
such as the fair first-player share 1/players) or `none` (a change is only a change: game length).

The API is small:
- `MEASURES`: the declared measures, by name (`turns`, `shared`, `decisive`, `lead_changes`, `spread`,
  `first_gap`, `score`);
- `per_game(rows, name)`: a measure's value in every game (NaN where a game has none), for paired
  comparisons on common seeds; `name` may also be a card-level figure `fig.NAME`;
- `measure(rows, name) -> Estimate` and `figures(rows) -> dict[str, Estimate]` (every measure that
  applies at the rows' player count).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .stats import FIG, mean_ci, wilson

Row = Mapping[str, Any]
Better = Literal["higher", "lower", "closer", "none"]


@dataclass(frozen=True)
class Estimate:
    """A figure over a set of games: its value, 95% interval and how many games measured it."""

    value: float
    ci95: tuple[float, float]
    games: int

    def as_json(self) -> dict[str, Any]:
        """The estimate for `--json` (None for what was never measured)."""
        return {"value": _finite(self.value), "ci95": [_finite(v) for v in self.ci95], "games": self.games}


@dataclass(frozen=True)
class Measure:
    """One quality measure: name, label, the better direction, and how it reads a game.

    `share` measures count games (each game 0 or 1, or a win share) and take a Wilson interval; the others
    a t interval. `goal` gives the value a `closer` measure aims at for a player count.
    """

    name: str
    label: str
    better: Better
    game_value: Callable[[Row], float]
    share: bool = False
    multiplayer: bool = True
    goal: Callable[[int], float] | None = None
    unit: str = ""

    def applies(self, players: int) -> bool:
        """Whether the measure means anything at this player count (solo games have no winners to compare)."""
        return players > 1 or not self.multiplayer


def _players(row: Row) -> int:
    return len(row["scores"])


def _turns(row: Row) -> float:
    return float(row["turns"])


def _shared(row: Row) -> float:
    return float(len(row["winners"]) > 1)


def _decisive(row: Row) -> float:
    leader = row["leader_half"]
    return float(leader >= 0 and leader in row["winners"])


def _lead_changes(row: Row) -> float:
    return float(row["lead_changes"])


def _spread(row: Row) -> float:
    scores = row["scores"]
    return float(max(scores) - min(scores))


def _first_gap(row: Row) -> float:
    return float(row["shares"][row["first"]]) - 1 / _players(row)


def _score(row: Row) -> float:
    scores = row["scores"]
    return float(sum(scores) / len(scores))


#: The quality measures, in the order tables show them. Shared victories: games with two or more winners;
#: decisiveness: games the leader at halfway wins; score spread: top score − bottom score; first-player
#: gap: the first player's win share − the fair 1/players.
MEASURES: dict[str, Measure] = {m.name: m for m in (
    Measure("turns", "game length (turns)", "none", _turns, multiplayer=False, unit="turns"),
    Measure("shared", "shared victories", "lower", _shared, share=True),
    Measure("decisive", "decisiveness", "none", _decisive, share=True),
    Measure("lead_changes", "lead changes a game", "higher", _lead_changes),
    Measure("spread", "score spread", "lower", _spread, unit="points"),
    Measure("first_gap", "first-player gap", "closer", _first_gap, share=True,
            goal=lambda players: 0.0),
    Measure("score", "mean score", "none", _score, multiplayer=False, unit="points"),
)}


def known(name: str) -> bool:
    """Whether `name` is a quality measure or a card-level figure `fig.NAME`."""
    return name in MEASURES or name.startswith(FIG)


def per_game(rows: Sequence[Row], name: str) -> np.ndarray:
    """The measure `name` (or card-level figure `fig.NAME`) in every game; NaN where a game lacks it."""
    if name.startswith(FIG):
        return np.array([float(row.get(name, math.nan)) for row in rows], dtype=float)
    reader = MEASURES[name].game_value
    return np.array([reader(row) for row in rows], dtype=float)


def measure(rows: Sequence[Row], name: str) -> Estimate:
    """The measure `name` over `rows`: mean with a Wilson interval for a share, else a t interval.

    A first-player gap's interval is the Wilson interval of the first player's win share, less 1/players.
    """
    values = per_game(rows, name)
    known_values = values[~np.isnan(values)]
    n = int(known_values.size)
    if n == 0:
        return Estimate(math.nan, (math.nan, math.nan), 0)
    spec = MEASURES.get(name)
    mean = float(known_values.mean())
    if spec is not None and spec.share:
        offset = -1 / _players(rows[0]) if name == "first_gap" else 0.0
        low, high = wilson(float((known_values - offset).sum()), n)
        return Estimate(mean, (low + offset, high + offset), n)
    summary = mean_ci(known_values)
    return Estimate(mean, (summary["ci95"][0], summary["ci95"][1]), n)


def figures(rows: Sequence[Row]) -> dict[str, Estimate]:
    """Every quality measure that applies at the rows' player count, by name, in `MEASURES` order."""
    players = _players(rows[0]) if rows else 2
    return {name: measure(rows, name) for name, spec in MEASURES.items() if spec.applies(players)}


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None
