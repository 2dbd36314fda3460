"""Guards for `tablepress tune`: figures a candidate must not move past a tolerance from the published cards.

Every quality measure of `quality.py` is guarded by default (`DEFAULTS`); `--keep FIGURE[±TOL]` adds a
guard or changes one's tolerance:

    FIGURE        a quality measure (turns, shared, decisive, lead_changes, spread, first_gap, score) or a
                  card-level figure fig.NAME
    ±N%           relative: N percent of the published value
    ±N            absolute, in the figure's own unit: turns, points, a count; for a share of games
                  (shared, decisive, first_gap) percentage points (`shared±5` = 5 points); `pts` may follow
    (nothing)     the measure's default tolerance (±10% for a card-level figure)

`+-` may stand for `±`. A guard compares the candidate with the published cards on the same games (the
same seeds): the paired difference, with its 95% interval. It holds when the difference stays within
the tolerance; a figure with a better direction may move that way as far as it likes (fewer shared
victories, more lead changes, a first-player gap nearer 0), but not the other way past the tolerance.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.errors import TablepressError
from . import quality
from .stats import FIG, mean_ci

Row = Mapping[str, Any]

@dataclass(frozen=True)
class Tolerance:
    """How far a figure may move: `amount` in the figure's unit (shares as fractions), or `relative` to it."""

    amount: float
    relative: bool = False

    def limit(self, published: float) -> float:
        """The tolerance in the figure's unit, given the published value."""
        return abs(published) * self.amount if self.relative else self.amount

    def text(self, share: bool = False) -> str:
        """`±10%`, `±5 pts` (a share) or `±0.5`."""
        if self.relative:
            return f"±{_plain(self.amount * 100)}%"
        return f"±{_plain(self.amount * 100)} pts" if share else f"±{_plain(self.amount)}"


#: The default guards: every quality measure of the game, each with its tolerance: relative for counts
#: and lengths, absolute percentage points for shares of games.
DEFAULTS: dict[str, Tolerance] = {
    "turns": Tolerance(0.10, relative=True),
    "shared": Tolerance(0.05),
    "decisive": Tolerance(0.10),
    "lead_changes": Tolerance(0.25, relative=True),
    "spread": Tolerance(0.25, relative=True),
    "first_gap": Tolerance(0.05),
}
#: A card-level figure named without a tolerance.
FIGURE_DEFAULT = Tolerance(0.10, relative=True)


@dataclass(frozen=True)
class GuardSpec:
    """A figure to keep and its tolerance."""

    figure: str
    tolerance: Tolerance

    @property
    def share(self) -> bool:
        """Whether the figure is a share of games (shown in percent, absolute tolerance in points)."""
        spec = quality.MEASURES.get(self.figure)
        return bool(spec and spec.share)

    @property
    def better(self) -> str:
        """The figure's better direction (`none` for a card-level figure)."""
        spec = quality.MEASURES.get(self.figure)
        return spec.better if spec else "none"

    def label(self) -> str:
        """The figure as tables name it."""
        spec = quality.MEASURES.get(self.figure)
        return spec.label if spec else self.figure


@dataclass(frozen=True)
class Guard:
    """A guard judged: the published and candidate values on the same games, their difference, and whether it held."""

    spec: GuardSpec
    published: float
    value: float
    difference: float
    ci95: tuple[float, float]
    games: int
    held: bool

    @property
    def figure(self) -> str:
        """The guarded figure's name."""
        return self.spec.figure

    def tolerance(self) -> float:
        """The tolerance in the figure's unit."""
        return self.spec.tolerance.limit(self.published)

    def as_json(self) -> dict[str, Any]:
        """The guard for `--json` (contract: figure, published, value, tolerance, held)."""
        return {"figure": self.figure, "label": self.spec.label(), "published": _finite(self.published),
                "value": _finite(self.value), "tolerance": _finite(self.tolerance()),
                "tolerance_text": self.spec.tolerance.text(self.spec.share), "better": self.spec.better,
                "difference": _finite(self.difference), "ci95": [_finite(v) for v in self.ci95],
                "games": self.games, "held": self.held}

    def why(self) -> str:
        """One phrase for a broken guard: `turns 26.7 → 12 (tolerance ±10%)`."""
        scale = 100 if self.spec.share else 1
        unit = "%" if self.spec.share else ""
        return (f"{self.figure} {_plain(self.published * scale)}{unit} → {_plain(self.value * scale)}{unit} "
                f"(tolerance {self.spec.tolerance.text(self.spec.share)})")


_KEEP = re.compile(r"^\s*(?P<figure>[^±+]+?)\s*(?:(?:±|\+-|\+/-)\s*(?P<amount>\d+(?:\.\d+)?)\s*"
                   r"(?P<unit>%|pts?|points?)?)?\s*$")


def parse_keep(text: str, figure_names: Sequence[str] = ()) -> GuardSpec:
    """`FIGURE[±TOL]` (module doc) → a GuardSpec; TablepressError naming the option and the choices otherwise.

    `figure_names` are the game's card-level figures (without `fig.`); a name among them may leave out `fig.`.
    """
    found = _KEEP.match(text)
    if not found:
        raise TablepressError(f"--keep {text!r}: give FIGURE or FIGURE±TOL, e.g. turns±10% or fig.NAME±0.5")
    name = found["figure"].strip()
    figure = _figure(name, figure_names)
    if figure is None:
        figures = ", ".join(f"fig.{f}" for f in figure_names) or "none"
        raise TablepressError(f"--keep {text}: no figure {name!r} (quality: {', '.join(quality.MEASURES)}; "
                              f"card figures: {figures})")
    share = bool(quality.MEASURES.get(figure) and quality.MEASURES[figure].share)
    if found["amount"] is None:
        return GuardSpec(figure, DEFAULTS.get(figure, FIGURE_DEFAULT if figure.startswith(FIG) else Tolerance(0.10, True)))
    amount, unit = float(found["amount"]), (found["unit"] or "")
    if unit == "%":
        return GuardSpec(figure, Tolerance(amount / 100, relative=True))
    if unit and not share:
        raise TablepressError(f"--keep {text}: {figure} is not a share of games, so its tolerance is N or N%, not points")
    return GuardSpec(figure, Tolerance(amount / 100 if share else amount))


def _figure(name: str, figure_names: Sequence[str]) -> str | None:
    lowered = name.casefold().replace("-", "_").replace(" ", "_")
    for measure in quality.MEASURES:
        if measure == lowered:
            return measure
    bare = name[len(FIG):] if name.startswith(FIG) else name
    match = next((f for f in figure_names if f == bare), None) or next(
        (f for f in figure_names if f.casefold() == bare.casefold()), None)
    return FIG + match if match else None


def guard_specs(keep: Sequence[str], players: int, figure_names: Sequence[str] = ()) -> list[GuardSpec]:
    """The default guards that apply at `players`, then each `--keep` (one for a default replaces its tolerance)."""
    specs = {name: GuardSpec(name, tol) for name, tol in DEFAULTS.items() if quality.MEASURES[name].applies(players)}
    for text in keep:
        spec = parse_keep(text, figure_names)
        specs[spec.figure] = spec
    return list(specs.values())


def judge(spec: GuardSpec, published_rows: Sequence[Row], rows: Sequence[Row]) -> Guard:
    """Judge one guard: the candidate's rows against the published cards' rows on the same seeds.

    Games are paired by their seed; games only one side played are left out. The guard holds when the
    paired mean difference is within the tolerance, or moves the figure in its better direction.
    """
    by_seed = {row["seed"]: row for row in published_rows}
    pairs = [(by_seed[row["seed"]], row) for row in rows if row["seed"] in by_seed]
    a = quality.per_game([p for p, _ in pairs], spec.figure)
    b = quality.per_game([c for _, c in pairs], spec.figure)
    mask = ~(np.isnan(a) | np.isnan(b))
    a, b = a[mask], b[mask]
    if a.size == 0:
        return Guard(spec, math.nan, math.nan, math.nan, (math.nan, math.nan), 0, False)
    published, value = float(a.mean()), float(b.mean())
    summary = mean_ci(b - a)
    ci95 = (float(summary["ci95"][0]), float(summary["ci95"][1]))
    return Guard(spec, published, value, value - published, ci95, int(a.size),
                 holds(spec, published, value, players=len(pairs[0][0]["scores"])))


def holds(spec: GuardSpec, published: float, value: float, players: int = 2) -> bool:
    """Whether moving the figure from `published` to `value` stays within the guard (module doc)."""
    limit = spec.tolerance.limit(published) + 1e-12
    moved = value - published
    better = spec.better
    if better == "higher":
        return moved >= -limit
    if better == "lower":
        return moved <= limit
    if better == "closer":
        goal_of = quality.MEASURES[spec.figure].goal
        goal = goal_of(players) if goal_of else 0.0
        return abs(value - goal) <= abs(published - goal) + limit
    return abs(moved) <= limit


def judge_all(specs: Sequence[GuardSpec], published_rows: Sequence[Row], rows: Sequence[Row]) -> list[Guard]:
    """Every guard judged (see `judge`)."""
    return [judge(spec, published_rows, rows) for spec in specs]


def broken(guards: Sequence[Guard]) -> list[Guard]:
    """The guards that did not hold."""
    return [g for g in guards if not g.held]


def _plain(value: float) -> str:
    if not math.isfinite(value):
        return "—"
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None
