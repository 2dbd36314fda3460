"""`tablepress simulate`: parse the run, play it with a progress bar, print the summary, write the extras."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ..core.errors import TablepressError
from ..core.game import Game
from ..core.registry import get_game
from ..core.variants import load_variant
from .service import Arm, SimulationResult, run_simulation, seat_plan
from .stats import count_text, figure_label

#: Words for the published card data where a variant file is expected (`--compare base my.toml`).
BASE_WORDS = ("base", "published")


class RateColumn(ProgressColumn):
    """Games per second so far."""

    def render(self, task: Any) -> Text:
        """The finished games per elapsed second."""
        elapsed = task.elapsed or 0.0
        rate = task.completed / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:,.1f} games/s", style="cyan")


def _variant(source: str | None, game: Game, players: int, options: Mapping[str, Any]) -> tuple[str, Any]:
    """(label, overrides or None) for a variant file, or for the published cards ("base")."""
    if source is None or source.strip().lower() in BASE_WORDS:
        return "published cards", None
    return Path(source).stem, load_variant(source, game, players, options).variant


#: The most games one run plays (a run's rows are kept in memory for the summary).
MAX_GAMES = 10_000_000


def check_arguments(games: int, jobs: int | None, backend: str, address: str | None, report: Path | None,
                    out: Path | None) -> None:
    """Refuse impossible arguments before anything is played, each with one clear line."""
    from .store import FORMATS

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
        raise TablepressError(f"-o {out}: -o names the rows file (.sqlite or .parquet); give game options as "
                              f"--option {out}")
    if out is not None and out.suffix.lower() not in FORMATS:
        raise TablepressError(f"{out}: --out takes a .sqlite, .db or .parquet file")
    for path in (report, out):
        if path is not None and not path.resolve().parent.is_dir():
            raise TablepressError(f"{path}: the folder {path.resolve().parent} does not exist")


def make_folder(path: Path) -> Path:
    """Create a folder (and its parents) for records, or raise one clear line."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TablepressError(f"{path}: cannot create the folder ({exc.strerror or exc})") from None
    return path


def simulate_command(game: str, games: int, seed: int | None, seats: str | None, players: int | None,
                     option: Mapping[str, Any], jobs: int | None, backend: str, address: str | None,
                     variant: Sequence[str] | None, compare: Sequence[str] | None, as_json: bool,
                     report: Path | None, out: Path | None, records: Path | None,
                     console: Console, errors: Console) -> None:
    """Run `tablepress simulate` (contract.md); raises TablepressError for bad input."""
    chosen = get_game(game)
    count, _ = seat_plan(chosen, seats, players)
    options = chosen.normalise_options(option)
    variants = list(variant or [])
    if variants and compare:
        raise TablepressError("give either --variant FILE or --compare A B, not both")
    if len(variants) > 2:
        raise TablepressError(f"--variant given {len(variants)} times; give one file, or two to compare them")
    if len(variants) == 2:
        compare, variants = tuple(variants), []
    check_arguments(games, jobs, backend, address, report, out)
    sources = list(compare) if compare else [variants[0] if variants else None]
    arms = [Arm(*_variant(source, chosen, count, options)) for source in sources]
    if compare and len(arms) == 2 and arms[0].label == arms[1].label:
        arms = [Arm(f"A: {arms[0].label}", arms[0].overrides), Arm(f"B: {arms[1].label}", arms[1].overrides)]
    folders: list[str | None] | None = None
    if records is not None:
        make_folder(records)
        folders = [str(make_folder(records / _slug(arm.label)) if len(arms) > 1 else records) for arm in arms]
    result = _run_with_bar(chosen, games, arms, seed, seats, count, options, backend, jobs, address, folders, errors)
    runs, differences = result.runs, result.differences
    if out is not None:
        from .store import save_rows

        save_rows(out, [(label if (arm.overrides is not None or compare) else None, rows)
                        for (label, _, rows), arm in zip(runs, arms)])
    if report is not None:
        from .report import write_report

        write_report(report, runs, differences)
    if as_json:
        print(json.dumps(result.as_json(), ensure_ascii=False))
        return
    for label, summary, _ in runs:
        print_summary(console, summary, label if len(runs) > 1 else summary.get("variant"))
    if differences is not None:
        console.print(differences_table(differences, runs[0][0], runs[1][0]))
    for path, what in ((report, "report"), (out, "rows"), (records, "records")):
        if path is not None:
            console.print(f"{what} written to {path}")


def _slug(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in label).strip("-") or "run"


def _run_with_bar(chosen: Game, games: int, arms: Sequence[Arm], seed: int | None, seats: str | None,
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


def _f(value: float, digits: int = 3) -> str:
    return "—" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}g}"


def _pct(pair: Sequence[float]) -> str:
    return f"{pair[0] * 100:.1f}–{pair[1] * 100:.1f}%"


def _ci(pair: Sequence[float]) -> str:
    return f"[{_f(pair[0])}, {_f(pair[1])}]"


def print_summary(console: Console, summary: dict[str, Any], label: str | None = None) -> None:
    """The balance summary as terminal tables: seats, the game's shape and its card-level figures."""
    solo = summary["players"] == 1
    title = f"{summary['game']} — {summary['games']} games, {summary['players']} players, seed {summary.get('seed')}"
    seats = Table(title=title + (f" — variant {label}" if label else ""))
    heads = ["seat", "agent"] + ([] if solo else ["wins", "win rate", "95% CI"]) + ["mean score", "sd", "5%–95%"]
    for head in heads:
        seats.add_column(head, justify="left" if head in ("seat", "agent") else "right")
    for s in summary["seats"]:
        q = s["score"].get("quantiles", {})
        wins = [] if solo else [count_text(s["wins"]), f"{s['win_rate']:.1%}", _pct(s["ci95"])]
        seats.add_row(str(s["seat"] + 1), s["agent"], *wins, _f(s["mean_score"]), _f(s["score"]["sd"]),
                      f"{_f(q.get('5', math.nan))}…{_f(q.get('95', math.nan))}")
    console.print(seats)
    shape = Table(title="The game's shape")
    shape.add_column("figure")
    shape.add_column("value", justify="right")
    shape.add_column("95% CI / note", justify="right")
    shape.add_row("turns", _f(summary["turns"]["mean"]), _ci(summary["turns"]["ci95"]))
    shape.add_row("decisions", _f(summary["decisions"]["mean"]), _ci(summary["decisions"]["ci95"]))
    shape.add_row("legal actions per decision", _f(summary["branching"]), "")
    if not solo:
        fp = summary["first_player"]
        shape.add_row("first player win rate", f"{fp['win_rate']:.1%}",
                      f"{_pct(fp['ci95'])}; fair {fp['fair']:.1%}, p = {_f(fp['p_value'], 2)}")
        shape.add_row("margin of victory", _f(summary["margin"]["mean"]), _ci(summary["margin"]["ci95"]))
        shape.add_row("lead changes", _f(summary["lead_changes"]["mean"]), _ci(summary["lead_changes"]["ci95"]))
        shape.add_row("halfway leader wins", f"{summary['decisiveness']:.1%}", "decisiveness")
        shape.add_row("shared victories", f"{summary['shared_victories']:.1%}", "")
        if len(summary["agents"]) > 1:
            for agent in summary["agents"]:
                shape.add_row(f"win rate of {agent['agent']}", f"{agent['win_rate']:.1%}", _pct(agent["ci95"]))
    console.print(shape)
    if summary["figures"]:
        figs = Table(title="Card-level figures (mean per game)")
        for head in ("figure", "mean", "95% CI", "sd"):
            figs.add_column(head, justify="left" if head == "figure" else "right")
        for name, d in summary["figures"].items():
            figs.add_row(name.replace("_", " "), _f(d["mean"]), _ci(d["ci95"]), _f(d["sd"]))
        console.print(figs)


def differences_table(differences: dict[str, Any], label_a: str, label_b: str) -> Table:
    """Each figure's B − A difference on common seeds, with its 95% CI and significance."""
    table = Table(title=f"B − A on the same seeds (A: {label_a}, B: {label_b})")
    table.add_column("figure", no_wrap=True)
    for head in ("A", "B", "B − A", "95% CI", "p", "significant"):
        table.add_column(head, justify="right")
    for key, d in differences.items():
        table.add_row(figure_label(key), _f(d["a"]), _f(d["b"]), _f(d["diff"]), _ci(d["ci95"]),
                      _f(d["p_value"], 2), "[bold red]yes[/]" if d["significant"] else "no")
    return table
