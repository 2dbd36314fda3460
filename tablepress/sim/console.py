"""A simulation run at the command line, the parts `simulate`, `simulate --vary` and `tune` share: the checks on
a run's arguments, the progress bar, the stamp on its provenance, and the verdict and provenance it prints."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ..core.errors import TablepressError
from ..core.game import Game
from .numbers import interval, number, p_text, percent
from .provenance import provenance_lines, rerun_command, typed_command
from .service import Arm, SimulationResult, run_simulation
from .store import FORMATS

#: The most games one run plays (a run's rows are kept in memory for the summary).
MAX_GAMES = 10_000_000


class RateColumn(ProgressColumn):
    """Games per second so far."""

    def render(self, task: Any) -> Text:
        """The finished games per elapsed second."""
        elapsed = task.elapsed or 0.0
        rate = task.completed / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:,.1f} games/s", style="cyan")


def check_arguments(games: int, jobs: int | None, backend: str, address: str | None, report: Path | None,
                    out: Path | None) -> None:
    """Refuse impossible arguments before anything is played, each with one clear line."""
    if not 1 <= games <= MAX_GAMES:
        shown = str(games) if len(str(games)) <= 12 else f"a number of {len(str(games))} digits"
        raise TablepressError(f"-n takes 1 to {MAX_GAMES:,} games, not {shown}")
    if jobs is not None and jobs < 1:
        raise TablepressError(f"--jobs must be at least 1, not {jobs}")
    if backend not in ("local", "ray"):
        raise TablepressError(f"--backend takes local or ray, not {backend!r}")
    if address and backend != "ray":
        raise TablepressError("--address is for --backend ray")
    if report is not None and report.suffix.lower() not in (".html", ".htm"):
        raise TablepressError(f"{report}: --report writes an .html file")
    if out is not None and "=" in out.name and out.suffix.lower() not in FORMATS:
        raise TablepressError(f"-o {out}: -o names the rows file (.sqlite, .parquet or .csv); give game options as "
                              f"--option {out}")
    if out is not None and out.suffix.lower() not in FORMATS:
        raise TablepressError(f"{out}: --out takes a .sqlite, .db, .parquet or .csv file")
    for path in (report, out):
        if path is not None and not path.resolve().parent.is_dir():
            raise TablepressError(f"{path}: the folder {path.resolve().parent} does not exist")


def stamp(provenance: dict[str, Any] | None, started: float, extra: int, game: str, games: int, seed: int,
          seats: str | None, players: Any, option: Mapping[str, Any], more: Sequence[str]) -> None:
    """Finish a run's provenance for the command line: the whole command's time, its extra games, how to repeat it."""
    if provenance is None:
        return
    provenance.update(seconds=round(time.time() - started, 3), extra_games=extra, command=typed_command(),
                      rerun=rerun_command(game, games, seed, seats, players, option, more))


def run_with_bar(chosen: Game, games: int, arms: Sequence[Arm], seed: int | None, seats: str | None,
                 players: int, options: Mapping[str, Any], backend: str, jobs: int | None, address: str | None,
                 folders: Sequence[str | None] | None, errors: Console) -> SimulationResult:
    """Play a run with a Rich progress bar per arm (games, games/s, ETA) on stderr."""
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
               TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=errors, transient=True) as progress:
        title = {arm.label: arm.label if len(arms) > 1 else chosen.title for arm in arms}
        tasks = {arm.label: progress.add_task(title[arm.label], total=games) for arm in arms}
        return run_simulation(chosen.name, games, arms, seed, seats, players, options, backend, jobs, address,
                              folders, on_rows=lambda label, n: progress.advance(tasks[label], n))


def print_provenance(console: Console, provenance: Mapping[str, Any] | None) -> None:
    """Where the numbers come from, as the last dim lines: version, commit, time, machine, seeds, command."""
    if provenance:
        for line in provenance_lines(provenance):
            console.print(Text(line, style="dim"))


def print_quality(console: Console, quality: Mapping[str, Any]) -> None:
    """The verdict on the game: its headline, then one row per quality measure naming the better variant."""
    console.print(f"[bold]Verdict:[/] on the game's quality measures, {quality['headline']}")
    console.print(quality_table(quality))


def quality_table(quality: Mapping[str, Any]) -> Table:
    """Each quality measure: every variant's estimate with its interval, which is better, and against the first
    the difference with its interval and corrected p."""
    labels = quality["labels"]
    table = Table(title="Quality measures (which variant plays better)",
                  caption=f"p corrected for {quality['tests']} comparisons by {quality['correction']}; "
                          f"{quality['method']}")
    table.add_column("measure")
    table.add_column("better")
    for label in labels:
        table.add_column(label, justify="right")
    for label in labels[1:]:
        table.add_column(f"{label} − {labels[0]}" if len(labels) > 2 else "B − A", justify="right")
        table.add_column("p (corrected)", justify="right")
    table.add_column("verdict")
    for m in quality["measures"]:
        cells = [f"{_estimate(v, m)} {_estimate_ci(v, m)}" for v in m["values"]]
        pairs = []
        for pair in m["pairs"]:
            pairs += [f"{_diff(pair['diff'], m)} {_diff_ci(pair['ci95'], m)}",
                      p_text(pair["p_adjusted"]).removeprefix("p = ")]
        mark = "[bold]" if m.get("best") else ""
        table.add_row(m["label"].split(" (")[0], m["better_text"], *cells, *pairs, f"{mark}{m['text']}")
    return table


def _estimate(value: Mapping[str, Any], measure: Mapping[str, Any]) -> str:
    return percent(value["value"]) if measure.get("unit") == "rate" else number(value["value"])


def _estimate_ci(value: Mapping[str, Any], measure: Mapping[str, Any]) -> str:
    return interval(value["ci95"], measure.get("unit") == "rate")


def _diff(diff: float, measure: Mapping[str, Any]) -> str:
    if measure.get("unit") == "rate":
        return f"{'+' if diff > 0 else ''}{number(diff * 100)} pts"
    return f"{'+' if diff > 0 else ''}{number(diff)}"


def _diff_ci(ci: Sequence[float], measure: Mapping[str, Any]) -> str:
    if measure.get("unit") == "rate":
        return f"[{number(ci[0] * 100)}, {number(ci[1] * 100)}]"
    return interval(ci)
