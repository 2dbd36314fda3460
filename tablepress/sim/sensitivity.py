"""Sensitivity of the game's quality to one card-data field: each quality measure (`quality.py`) at every
value of the field, played on common seeds, as a table and a plot with 95% intervals.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ..core.errors import TablepressError  # noqa: E402
from .quality import EXTRA_MEASURES, MEASURES, measure, seat_spread  # noqa: E402
from .verdict import measure_names  # noqa: E402

Row = Mapping[str, Any]
#: The most values one `simulate --vary` plays (each value is a whole run).
MAX_VALUES = 21


def points(values: Sequence[int], runs: Sequence[Sequence[Row]]) -> list[dict[str, Any]]:
    """Per value of the field: {value, measures: {name: {value, ci95, games}}} over that value's rows."""
    out = []
    for value, rows in zip(values, runs):
        players = len(rows[0]["scores"]) if rows else 2
        measured = {}
        for name in measure_names(players, skill=False):
            estimate = seat_spread(rows) if name == "seat_spread" else measure(rows, name)
            measured[name] = {"value": estimate.value, "ci95": list(estimate.ci95), "games": estimate.games}
        out.append({"value": value, "measures": measured})
    return out


def plot(field: str, found: Sequence[dict[str, Any]], published: int | None, path: str | Path) -> Path:
    """One panel per quality measure: its value at each value of `field` with 95% error bars, the published
    value dashed; written as a PNG to `path`."""
    names = list(found[0]["measures"]) if found else []
    cols = 3
    lines = max(1, math.ceil(len(names) / cols))
    fig, axes = plt.subplots(lines, cols, figsize=(10, 2.8 * lines), squeeze=False)
    xs = [point["value"] for point in found]
    for ax, name in zip(axes.flat, names):
        spec = MEASURES.get(name) or EXTRA_MEASURES[name]
        scale = 100 if spec.share else 1
        ys = [point["measures"][name]["value"] * scale for point in found]
        low = [y - point["measures"][name]["ci95"][0] * scale for y, point in zip(ys, found)]
        high = [point["measures"][name]["ci95"][1] * scale - y for y, point in zip(ys, found)]
        ax.errorbar(xs, ys, yerr=[low, high], fmt="o-", capsize=3, color="#3b6ea5")
        if published is not None:
            ax.axvline(published, color="#777", ls="--", lw=1)
        if spec.better == "closer" and spec.goal is not None:
            ax.axhline(spec.goal(2) * scale, color="#4c9a5a", ls=":", lw=1)
        better = {"higher": " (higher is better)", "lower": " (lower is better)",
                  "closer": " (closer to the dotted line)"}.get(spec.better, "")
        ax.set_title(spec.label.split(" (")[0] + better, fontsize=9)
        ax.set_ylabel("%" if spec.share else (spec.unit or "value"), fontsize=8)
        ax.set_xticks(xs)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.suptitle(f"Quality measures over {field} (95% intervals; dashed: the published value)", fontsize=10)
    fig.tight_layout()
    target = Path(path)
    try:
        fig.savefig(target, format="png", dpi=90)
    except OSError as exc:
        raise TablepressError(f"{target}: cannot write the plot ({exc.strerror or exc})") from None
    finally:
        plt.close(fig)
    return target
