"""The search behind `tablepress tune`: card-data values that bring a target figure to its goal.

Every piece is a pure function or a small value, so the search is tested without playing a game:
- `parse_vary` (`vary.py`) reads `--vary FIELD[=LO..HI]` into a `Dimension`: one number of the card
  data, an entry of a list, a whole list shifted by an offset, a card's copies by name (0 takes it
  out), a true/false flag or a name in a list, and the whole numbers it may take;
- `parse_target` reads `--target` into a `Target`, which measures a candidate from its result rows;
- `candidates` lists the value combinations to try (all of them, or a seeded sample that keeps the
  published values);
- `halving_plan` and `successive_halving` spend the budget by successive halving: every candidate of a
  round plays the same seeds (common random numbers), the better half goes on to the next round with
  about twice the games, and the games of all rounds add up for the survivors;
- `variant_toml` writes the winner as a variant file `simulate --variant` reads.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import numpy as np

from ..core.errors import TablepressError
from .guards import Guard, broken
from .stats import FIG, mean_ci, wilson
from .vary import (MAX_VALUES, Dimension, Values, at_edge, candidates, change_size, default_range,  # noqa: F401
                   overrides, parse_vary)

Row = Mapping[str, Any]
C = TypeVar("C")

#: The fewest games a candidate plays in the first round: fewer would rank candidates on noise alone.
MIN_GAMES = 8


# ----- targets -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Measure:
    """A candidate's target figure from its games: value, 95% interval, goal, and how far off it is."""

    value: float
    ci95: tuple[float, float]
    goal: float
    games: int

    @property
    def reaches_goal(self) -> bool:
        """Whether the goal lies inside the 95% interval."""
        return self.ci95[0] <= self.goal <= self.ci95[1]

    @property
    def distance(self) -> float:
        """|value − goal| (infinite when nothing was measured)."""
        return abs(self.value - self.goal) if math.isfinite(self.value) else math.inf

    def as_json(self) -> dict[str, Any]:
        """The measure for `--json`."""
        return {"value": _finite(self.value), "ci95": [_finite(v) for v in self.ci95], "goal": _finite(self.goal),
                "off_by": _finite(self.distance), "goal_in_ci95": self.reaches_goal, "games": self.games}


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


@dataclass(frozen=True)
class Target:
    """What the tuner brings to a goal: the first player's win rate, a card's figure, or any figure."""

    kind: str  # "first-player-fair", "card" or "figure"
    figure: str | None = None
    goal: float | None = None
    family: tuple[str, ...] = ()

    def describe(self, players: int) -> str:
        """One line: which figure, towards which goal."""
        if self.kind == "first-player-fair":
            return f"first-player win rate → fair {1 / players:.1%}"
        if self.kind == "card":
            prefix = self.figure.partition(".")[0] if self.figure else ""
            return f"{self.figure} → the median of the {len(self.family)} {prefix}.* figures"
        return f"{self.figure} → {self.goal:g}"

    def per_game(self, rows: Sequence[Row]) -> np.ndarray:
        """The target figure of every game (NaN where a game has nothing to measure)."""
        if self.kind == "first-player-fair":
            return np.array([row["shares"][row["first"]] for row in rows], dtype=float)
        return _column(rows, self.figure or "")

    def measure(self, rows: Sequence[Row]) -> Measure:
        """The target over a candidate's games (Wilson interval for a win rate, t interval for a figure)."""
        values = self.per_game(rows)
        known = values[~np.isnan(values)]
        if self.kind == "first-player-fair":
            players = len(rows[0]["shares"]) if rows else 2
            rate = float(known.mean()) if known.size else math.nan
            return Measure(rate, wilson(float(known.sum()), int(known.size)), 1 / players, len(rows))
        summary = mean_ci(known)
        goal = self.goal if self.goal is not None else family_median(rows, self.family)
        return Measure(summary["mean"], tuple(summary["ci95"]), goal, len(rows))  # type: ignore[arg-type]

    def as_json(self) -> dict[str, Any]:
        """The target for `--json`."""
        return {"kind": self.kind, "figure": self.figure, "goal": self.goal, "family": list(self.family)}


def family_median(rows: Sequence[Row], family: Sequence[str]) -> float:
    """The median of the family's mean figures (a figure never measured is left out)."""
    means = [m for m in (_mean(_column(rows, name)) for name in family) if math.isfinite(m)]
    return float(np.median(means)) if means else math.nan


def _column(rows: Sequence[Row], name: str) -> np.ndarray:
    return np.array([float(row.get(FIG + name, math.nan)) for row in rows], dtype=float)


def _mean(values: np.ndarray) -> float:
    known = values[~np.isnan(values)]
    return float(known.mean()) if known.size else math.nan


TARGET_HELP = "first-player-fair, card:NAME=median or figure:NAME=VALUE"


def parse_target(text: str, figures: Sequence[str], players: int) -> Target:
    """`first-player-fair`, `card:NAME=median` or `figure:NAME=VALUE` → a Target; one line listing the choices otherwise.

    `figures` are the game's figure names. A card is a figure `FAMILY.NAME` of a family of two or more
    (`planted.Zinnia` among `planted.*`); `card:Zinnia` takes the first family holding it, in name
    order, and `card:pressed.Zinnia` names the family.
    """
    spec = text.strip()
    kind, colon, rest = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "first-player-fair" and not colon:
        if players < 2:
            raise TablepressError("--target first-player-fair needs 2 or more players")
        return Target("first-player-fair")
    name, equals, goal = rest.partition("=")
    name, goal = name.strip(), goal.strip()
    if kind == "figure" and colon:
        figure = _find(name, figures)
        if figure is None:
            raise TablepressError(f"--target {spec}: no figure {name!r} (figures: {', '.join(figures)})")
        try:
            value = float(goal)
        except ValueError:
            value = math.nan
        if not equals or not math.isfinite(value):
            raise TablepressError(f"--target {spec}: give the goal as a number, e.g. figure:{figure}=5")
        return Target("figure", figure, value)
    if kind == "card" and colon:
        families = card_families(figures)
        cards = sorted({member for members in families.values() for member in members})
        figure = _find(name, [f for f in figures if f.partition(".")[0] in families])
        if figure is None:
            matches = [f"{family}.{member}" for family, members in families.items()
                       for member in members if member.casefold() == name.casefold()]
            figure = matches[0] if matches else None
        if figure is None:
            raise TablepressError(f"--target {spec}: no card {name!r} (cards: {', '.join(cards) or 'none'})")
        if goal.lower() != "median":
            raise TablepressError(f"--target {spec}: a card's goal is its family's median: card:{name}=median")
        family = figure.partition(".")[0]
        return Target("card", figure, None, tuple(f"{family}.{m}" for m in families[family]))
    raise TablepressError(f"--target {spec!r}: unknown target; give {TARGET_HELP}")


def card_families(figures: Sequence[str]) -> dict[str, list[str]]:
    """Figures named FAMILY.MEMBER grouped by family, families of two or more only, in name order."""
    families: dict[str, list[str]] = {}
    for name in sorted(figures):
        family, dot, member = name.partition(".")
        if dot:
            families.setdefault(family, []).append(member)
    return {family: members for family, members in families.items() if len(members) >= 2}


def _find(name: str, names: Sequence[str]) -> str | None:
    if name in names:
        return name
    return next((n for n in names if n.casefold() == name.casefold()), None)


# ----- the search --------------------------------------------------------------------------------
def halving_plan(candidates: int, budget: int, step: int = 1, extra: int = 0) -> list[tuple[int, int]]:
    """(candidates, new games each) per round of successive halving within `budget` games.

    ⌈log2 n⌉ rounds (one for a single candidate) share the budget equally; each round keeps the better
    half (rounded up), so a survivor's games about double every round. What the rounding leaves goes
    to the last round. Games come in whole multiples of `step` where the share allows (a whole cycle
    of the seat rotation, so every round is balanced over turn positions). `extra` arms play every
    round's games beside the candidates (the published cards the guards compare with) and count in
    the budget: a round then costs (candidates + extra) × games.
    """
    if candidates < 1 or budget < 1:
        return []
    rounds = max(1, math.ceil(math.log2(candidates)))
    share = budget // rounds
    plan, alive = [], candidates
    for _ in range(rounds):
        plan.append((alive, whole_steps(share // (alive + extra), step)))
        alive = math.ceil(alive / 2)
    last_alive, last_games = plan[-1]
    spare = budget - sum((n + extra) * g for n, g in plan)
    plan[-1] = (last_alive, last_games + whole_steps(spare // (last_alive + extra), step))
    return plan


def whole_steps(games: int, step: int) -> int:
    """`games` rounded down to a multiple of `step`, unless that leaves none."""
    return games // step * step if games >= step else games


def affordable(budget: int, available: int, min_games: int = MIN_GAMES, step: int = 1, extra: int = 0) -> int:
    """The most candidates a budget can start with, each playing at least `min_games` in the first round."""
    count = max(1, min(available, budget // max(1, min_games)))
    while count > 1 and halving_plan(count, budget, step, extra)[0][1] < min_games:
        count -= 1
    return count


def rotation_cycle(seat_specs: Sequence[str]) -> int:
    """Games in one cycle of the seat rotation: 1 when every seat plays the same agent, else a Williams
    square's (the player count when it is even, twice it when odd)."""
    players = len(seat_specs)
    if len(set(seat_specs)) <= 1:
        return 1
    return players if players % 2 == 0 else 2 * players


@dataclass
class Scored(Generic[C]):
    """A candidate with its games so far (all on the same seeds as every other survivor), its measure and
    its guards judged against the published cards on the same games."""

    candidate: C
    rows: list[Row] = field(default_factory=list)
    measure: Measure | None = None
    rounds: int = 0
    guards: list[Guard] = field(default_factory=list)

    @property
    def broken(self) -> list[Guard]:
        """The guards this candidate breaks."""
        return broken(self.guards)

    @property
    def meets_goal(self) -> bool:
        """Whether the goal lies in the measure's interval and every guard holds."""
        return self.measure is not None and self.measure.reaches_goal and not self.broken


#: play(candidates, round number, games each) → the new rows of each candidate, on the same seeds.
Play = Callable[[Sequence[C], int, int], Sequence[Sequence[Row]]]
#: on_round(round number, rounds, candidates alive, games each)
RoundNote = Callable[[int, int, int, int], None]


def successive_halving(pool: Sequence[C], plan: Sequence[tuple[int, int]], play: Play,
                       measure: Callable[[Sequence[Row]], Measure],
                       closeness: Callable[[C], float] = lambda c: 0.0,
                       on_round: RoundNote | None = None,
                       guard: Callable[[Sequence[Row]], list[Guard]] | None = None) -> list[Scored[C]]:
    """Run the plan and return every candidate ranked: the last round's first, then by rank.

    A candidate that breaks a guard (`guard` judges its rows) ranks below every candidate that breaks
    none; then the nearest the goal first; ties go to the candidate `closeness` finds nearest the
    published cards. A round whose plan gives no games is skipped (its candidates keep their measures).
    """
    alive = [Scored(c) for c in pool]
    out: list[Scored[C]] = []
    rank = _ranking(closeness)
    for number, (count, games) in enumerate(plan):
        alive = alive[:count]
        if on_round:
            on_round(number, len(plan), len(alive), games)
        if games > 0:
            for scored, rows in zip(alive, play([s.candidate for s in alive], number, games)):
                scored.rows.extend(rows)
                scored.measure = measure(scored.rows)
                scored.rounds = number + 1
                if guard is not None:
                    scored.guards = guard(scored.rows)
        alive.sort(key=rank)
        keep = math.ceil(len(alive) / 2) if number + 1 < len(plan) else len(alive)
        out = alive[keep:] + out
        alive = alive[:keep]
    return sorted(alive, key=rank) + out


def _ranking(closeness: Callable[[Any], float]) -> Callable[[Scored[Any]], tuple[bool, float, float]]:
    def key(scored: Scored[Any]) -> tuple[bool, float, float]:
        distance = scored.measure.distance if scored.measure else math.inf
        return (bool(scored.broken), distance, closeness(scored.candidate))

    return key


def paired_difference(a: np.ndarray, b: np.ndarray, bound: float = math.inf) -> dict[str, Any]:
    """B − A over the games both measured (same seeds): mean and 95% t interval, kept within ±`bound`."""
    mask = ~(np.isnan(a) | np.isnan(b))
    summary = mean_ci(b[mask] - a[mask])
    ci95 = [max(-bound, summary["ci95"][0]), min(bound, summary["ci95"][1])]
    return {"diff": _finite(summary["mean"]), "ci95": [_finite(v) for v in ci95], "games": summary["n"]}


# ----- the variant file --------------------------------------------------------------------------
def variant_toml(variant: Mapping[str, Any], comment: str = "") -> str:
    """A variant (nested tables of numbers, texts, truth values and lists) as TOML that `read_variant` reads."""
    lines = [f"# {line}" for line in comment.splitlines()]
    _table(variant, [], lines)
    return "\n".join(lines).lstrip("\n") + "\n"


def _table(table: Mapping[str, Any], path: list[str], lines: list[str]) -> None:
    plain = [(k, v) for k, v in table.items() if not isinstance(v, Mapping)]
    nested = [(k, v) for k, v in table.items() if isinstance(v, Mapping)]
    if plain and path:
        lines.append("")
        lines.append("[" + ".".join(_toml_key(k) for k in path) + "]")
    for key, value in plain:
        lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    for key, value in nested:
        _table(value, [*path, str(key)], lines)


def _toml_key(key: Any) -> str:
    text = str(key)
    return text if re.fullmatch(r"[A-Za-z0-9_-]+", text) else json.dumps(text, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TablepressError(f"a variant value of kind {type(value).__name__} cannot be written as TOML")
