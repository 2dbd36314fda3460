"""`tablepress simulate GAME --vary FIELD=LO..HI`: the game at every value of one card-data field on common
seeds, its quality measures as a table, a plot (PNG) and a verdict against the published value."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ..core.errors import DataError, TablepressError
from ..core.game import Game
from ..core.variants import apply_variant, base_data
from .console import check_arguments, print_provenance, print_quality, run_with_bar, stamp
from .numbers import interval, number, percent
from .quality import EXTRA_MEASURES, MEASURES
from .sensitivity import MAX_VALUES, plot, points
from .service import Arm, clean, seat_plan
from .tune import overrides, parse_vary


def plot_path(field: str, plot_to: Path | None, report: Path | None) -> Path:
    """Where the plot goes: the path given, else beside the report (`REPORT-sensitivity.png`), else
    `sensitivity-FIELD.png` in the current folder."""
    if plot_to is not None:
        if plot_to.suffix.lower() != ".png":
            raise TablepressError(f"{plot_to}: --plot writes a .png file")
        if not plot_to.resolve().parent.is_dir():
            raise TablepressError(f"{plot_to}: the folder {plot_to.resolve().parent} does not exist")
        return plot_to
    if report is not None:
        return report.with_name(report.stem + "-sensitivity.png")
    slug = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in field).strip("-.")
    return Path(f"sensitivity-{slug}.png")


def sensitivity_command(chosen: Game, vary: str, games: int, seed: int | None, seats: str | None,
                        players: int | None, option: Mapping[str, Any], jobs: int | None, backend: str,
                        address: str | None, variant: str | None, as_json: bool, report: Path | None,
                        out: Path | None, plot_to: Path | None, console: Console, errors: Console,
                        started: float) -> None:
    """Play the game at each value of `vary` (same seeds), then print (or --json) the quality measures per
    value, the verdict against the published value and the plot's path; write the report and rows if asked."""
    if variant:
        raise TablepressError("--vary changes the published cards; leave out --variant")
    count, _ = seat_plan(chosen, seats, players)
    options = chosen.normalise_options(option)
    check_arguments(games, jobs, backend, address, report, out)
    base = base_data(chosen)
    if base is None:
        raise TablepressError(f"{chosen.name} has no card data to vary")
    dim = parse_vary(vary, base)
    values = list(dim.values())
    if len(values) > MAX_VALUES:
        raise TablepressError(f"--vary {dim.field}={dim.low}..{dim.high} is {len(values)} values; give at most "
                              f"{MAX_VALUES}")
    if len(values) < 2:
        raise TablepressError(f"--vary {dim.field}: give a range of two or more values, e.g. {dim.field}=3..6")
    reference = dim.published_value() if dim.published_value() in values else values[0]
    ordered = [reference] + [v for v in values if v != reference]
    arms = []
    for value in ordered:
        change = overrides([dim], (value,), base)
        label = f"{dim.field}={dim.shown(value)}"
        try:
            apply_variant(change, chosen, count, options, label)
        except DataError as exc:
            raise TablepressError(f"--vary {label}: {exc}") from None
        arms.append(Arm(label + (" (published)" if value == dim.published_value() else ""), change))
    target = plot_path(dim.field, plot_to, report)
    result = run_with_bar(chosen, games, arms, seed, seats, count, options, backend, jobs, address, None, errors)
    by_value = dict(zip(ordered, (rows for _, _, rows in result.runs)))
    found = points(values, [by_value[v] for v in values])
    published = dim.published_value() if dim.published_value() in values else None
    plot(dim.field, found, published, target)
    stamp(result.provenance, started, 0, chosen.name, games, result.seed, seats, players, option,
          ["--vary", vary])
    if out is not None:
        from .store import save_rows

        save_rows(out, [(label, rows) for label, _, rows in result.runs])
    if report is not None:
        from .report import write_report

        write_report(report, result.runs, None, provenance=result.provenance, quality=result.quality,
                     extra_html=_plot_html(target))
    if as_json:
        print(json.dumps(clean({"game": chosen.name, "games": games, "players": count, "seed": result.seed,
                                "vary": dim.as_json(), "points": found, "quality": result.quality,
                                "plot": str(target), "runs": [summary for _, summary, _ in result.runs],
                                "provenance": result.provenance}), ensure_ascii=False))
        return
    if result.quality is not None:
        print_quality(console, result.quality)
    console.print(sensitivity_table(dim.field, found, published))
    console.print(f"plot written to {target}")
    for path, what in ((report, "report"), (out, "rows")):
        if path is not None:
            console.print(f"{what} written to {path}")
    print_provenance(console, result.provenance)


def sensitivity_table(field: str, found: Sequence[dict[str, Any]], published: int | None) -> Table:
    """One line per value of the field, one column per quality measure (value and 95% interval)."""
    table = Table(title=f"Quality measures over {field} (same seeds at every value; 95% intervals)")
    table.add_column(field)
    names = list(found[0]["measures"]) if found else []
    for name in names:
        spec = MEASURES.get(name) or EXTRA_MEASURES[name]
        table.add_column(spec.label.split(" (")[0], justify="right")
    for point in found:
        cells = []
        for name in names:
            spec = MEASURES.get(name) or EXTRA_MEASURES[name]
            m = point["measures"][name]
            shown = percent(m["value"]) if spec.share else number(m["value"])
            cells.append(f"{shown} {interval(m['ci95'], spec.share)}")
        mark = " (published)" if point["value"] == published else ""
        table.add_row(f"{point['value']}{mark}", *cells)
    return table


def _plot_html(path: Path) -> str:
    """The sensitivity plot, inlined for the report."""
    import base64
    import html

    data = base64.b64encode(Path(path).read_bytes()).decode()
    return (f'<h2>Sensitivity</h2><figure><img alt="sensitivity" src="data:image/png;base64,{data}">'
            f"<figcaption>{html.escape(str(path))}</figcaption></figure>")
