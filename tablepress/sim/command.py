"""`tablepress simulate`: parse the run, play it with a progress bar, print the summary, write the extras."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..core.errors import TablepressError
from ..core.game import Game
from ..core.registry import get_game
from ..core.variants import load_variant
from .console import RateColumn, check_arguments, print_provenance, print_quality, run_with_bar, stamp
from .correction import CORRECTION
from .findings import effect_text
from .numbers import interval, number, p_text, percent
from .service import Arm, SimulationResult, run_sweep, seat_plan
from .stats import count_text, figure_label, sweep_rows, verdict

#: Words for the published card data where a variant file is expected (`--compare base my.toml`).
BASE_WORDS = ("base", "published")


def _variant(source: str | None, game: Game, players: int, options: Mapping[str, Any]) -> tuple[str, Any]:
    """(label, overrides or None) for a variant file, or for the published cards ("base")."""
    if source is None or source.strip().lower() in BASE_WORDS:
        return "published cards", None
    return Path(source).stem, load_variant(source, game, players, options).variant


def parse_player_counts(text: str | None) -> list[int]:
    """`--players 3` → [3]; `--players 2,3,4` → [2, 3, 4] (a sweep); None → []. One clear line for anything else."""
    if text is None:
        return []
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isdecimal() and len(part) <= 3 for part in parts):
        raise TablepressError(f"--players takes a number or a list such as 2,3,4, not {text[:40]!r}")
    counts = [int(part) for part in parts]
    if len(set(counts)) != len(counts):
        raise TablepressError(f"--players {text}: each player count once")
    return counts


def make_folder(path: Path) -> Path:
    """Create a folder (and its parents) for records, or raise one clear line."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TablepressError(f"{path}: cannot create the folder ({exc.strerror or exc})") from None
    return path


def simulate_command(game: str, games: int, seed: int | None, seats: str | None, players: int | Sequence[int] | None,
                     option: Mapping[str, Any], jobs: int | None, backend: str, address: str | None,
                     variant: Sequence[str] | None, compare: Sequence[str] | None, as_json: bool,
                     report: Path | None, out: Path | None, records: Path | None,
                     console: Console, errors: Console, vary: str | None = None, plot: Path | None = None) -> None:
    """Run `tablepress simulate` (docs/reference.md, "Commands"); raises TablepressError for bad input.

    `players` as a list of counts runs a sweep: one run per count on the same seed, compared. `vary`
    (`FIELD=LO..HI`) runs the game at each value of one card-data field (`sensitivity.py`). Two or more
    `compare` sources are played on the same seeds and judged on the game's quality measures (`verdict.py`).
    """
    started = time.time()
    chosen = get_game(game)
    if vary is not None:
        from .sensitivity_command import sensitivity_command

        if compare or isinstance(players, Sequence) and not isinstance(players, str) and len(players) > 1:
            raise TablepressError("--vary plays one card set at one player count: leave out --compare and a "
                                  "--players list")
        count_given = players[0] if isinstance(players, Sequence) and not isinstance(players, str) else players
        if records is not None:
            raise TablepressError("--records is for one run; leave it out of --vary")
        sensitivity_command(chosen, vary, games, seed, seats, count_given, option, jobs, backend, address,
                            ", ".join(variant) if variant else None, as_json, report, out, plot, console, errors,
                            started)
        return
    if isinstance(players, Sequence) and not isinstance(players, str):
        if len(players) > 1:
            _sweep_command(chosen, games, seed, seats, list(players), option, jobs, backend, address, variant,
                           compare, as_json, report, out, records, console, errors, started)
            return
        players = players[0] if players else None
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
    arms = distinct_labels([Arm(*_variant(source, chosen, count, options)) for source in sources])
    folders: list[str | None] | None = None
    if records is not None:
        make_folder(records)
        folders = [str(make_folder(records / _slug(arm.label)) if len(arms) > 1 else records) for arm in arms]
    result = run_with_bar(chosen, games, arms, seed, seats, count, options, backend, jobs, address, folders, errors)
    runs, differences = result.runs, result.differences
    extra = 0
    if len(arms) > 1:
        extra = _judge_with_skill_gap(result, chosen, arms, options, backend, jobs, address, errors, as_json)
    sources_text = ["--compare", *[source or "base" for source in sources]] if compare else (
        ["--variant", variants[0]] if variants else [])
    stamp(result.provenance, started, extra, chosen.name, games, result.seed, seats, players, option, sources_text)
    if out is not None:
        from .store import save_rows

        save_rows(out, [(label if (arm.overrides is not None or compare) else None, rows)
                        for (label, _, rows), arm in zip(runs, arms)])
    if report is not None:
        from .report import write_report

        write_report(report, runs, differences, provenance=result.provenance, quality=result.quality)
    if as_json:
        print(json.dumps(result.as_json(), ensure_ascii=False))
        return
    if result.quality is not None:
        print_quality(console, result.quality)
    if differences is not None:
        console.print(f"[bold]Figures:[/] {verdict(differences, runs[-1][0], runs[0][0])}")
        changes = runs[-1][1].get("changes") or runs[0][1].get("changes")
        if changes and len(runs) == 2:
            console.print(changes_table(changes))
        console.print(differences_table(differences, runs[0][0], runs[-1][0]))
    for label, summary, _ in runs:
        print_summary(console, summary, label if len(runs) > 1 else summary.get("variant"), show_changes=len(runs) == 1)
    for path, what in ((report, "report"), (out, "rows"), (records, "records")):
        if path is not None:
            console.print(f"{what} written to {path}")
    print_provenance(console, result.provenance)


def compare_arguments(game: str, compare: Sequence[str] | None, more: Sequence[str]) -> tuple[str, list[str] | None]:
    """`simulate GAME --compare A B C D`: the command line parser takes A B as --compare's pair and C D as
    extra arguments; (game, every variant in order). One clear line for extra arguments without --compare."""
    from ..core.registry import game_names

    extra = list(more)
    if not compare:
        if extra:
            raise TablepressError(f"unexpected argument {extra[0]!r}: simulate takes one GAME (more variants "
                                  "follow --compare A B)")
        return game, None
    if game not in game_names() and any(name in game_names() for name in extra):
        # `simulate --compare A B C GAME`: the parser took C for the game.
        named = next(name for name in extra if name in game_names())
        extra = [game, *[name for name in extra if name != named]]
        game = named
    return game, [*compare, *extra]


def distinct_labels(arms: Sequence[Arm]) -> list[Arm]:
    """Arms whose labels are all different: a label given twice is prefixed A:, B:, C:..."""
    labels = [arm.label for arm in arms]
    if len(set(labels)) == len(labels):
        return list(arms)
    return [Arm(f"{chr(ord('A') + i)}: {arm.label}" if i < 26 else f"{i + 1}: {arm.label}", arm.overrides)
            for i, arm in enumerate(arms)]


def _judge_with_skill_gap(result: SimulationResult, chosen: Game, arms: Sequence[Arm], options: Mapping[str, Any],
                          backend: str, jobs: int | None, address: str | None, errors: Console,
                          quiet: bool) -> int:
    """Measure each arm's skill gap (greedy in one seat, random in the others, on the run's seeds) with a
    progress bar, and judge the arms again with it; the number of extra games played."""
    from .service import play_skill_gap
    from .verdict import SKILL_SEATS, quality_verdict

    players, games = result.players, result.games
    if players < 2:
        return 0
    if not quiet:
        errors.print(f"skill gap: {games} more games per variant ({SKILL_SEATS} rotated over the seats, the same "
                     "seeds), to see whether skill still pays", highlight=False)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
               TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=errors, transient=True) as progress:
        tasks = {arm.label: progress.add_task(f"skill gap: {arm.label}", total=games) for arm in arms}
        skill = play_skill_gap(chosen.name, games, arms, result.seed, players, options, backend, jobs, address,
                               on_rows=lambda label, n: progress.advance(tasks[label], n))
    result.quality = quality_verdict([(label, rows) for label, _, rows in result.runs], skill)
    return games * len(arms)


def _sweep_command(chosen: Game, games: int, seed: int | None, seats: str | None, counts: list[int],
                   option: Mapping[str, Any], jobs: int | None, backend: str, address: str | None,
                   variant: Sequence[str] | None, compare: Sequence[str] | None, as_json: bool,
                   report: Path | None, out: Path | None, records: Path | None,
                   console: Console, errors: Console, started: float | None = None) -> None:
    """`--players 2,3,4`: one run per count on the same seed, then the counts compared on the quality measures
    and figure by figure (terminal, --json, report)."""
    if compare or len(variant or []) > 1:
        raise TablepressError("a player-count sweep plays one card set: give at most one --variant, no --compare")
    if records is not None:
        raise TablepressError("--records is for one player count; leave it out of a sweep")
    check_arguments(games, jobs, backend, address, report, out)
    options = chosen.normalise_options(option)
    arms = [Arm(*_variant((variant or [None])[0], chosen, count, options)) for count in counts]
    arm = arms[0]
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
               TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=errors, transient=True) as progress:
        tasks = {f"{count} players": progress.add_task(f"{chosen.title}, {count} players", total=games)
                 for count in counts}
        sweep = run_sweep(chosen.name, games, counts, seed, seats, options, arm, backend, jobs, address,
                          on_rows=lambda label, n: progress.advance(tasks[label], n))
    runs = sweep.runs
    from .verdict import quality_verdict

    sweep.quality = quality_verdict([(label, rows) for label, _, rows in runs])
    stamp(sweep.provenance, started or time.time(), 0, chosen.name, games, sweep.seed, seats, counts, option,
          ["--variant", variant[0]] if variant else [])
    if out is not None:
        from .store import save_rows

        save_rows(out, [(label, rows) for label, _, rows in runs])
    if report is not None:
        from .report import write_report

        write_report(report, runs, None, provenance=sweep.provenance, quality=sweep.quality)
    if as_json:
        print(json.dumps(sweep.as_json(), ensure_ascii=False))
        return
    print_quality(console, sweep.quality)
    console.print(sweep_table(runs))
    for label, summary, _ in runs:
        print_summary(console, summary, summary.get("variant"))
    for path, what in ((report, "report"), (out, "rows")):
        if path is not None:
            console.print(f"{what} written to {path}")
    print_provenance(console, sweep.provenance)


def _slug(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in label).strip("-") or "run"


def print_warnings(console: Console, summary: dict[str, Any]) -> None:
    """Each warning of a run as one highlighted line."""
    for warning in summary.get("warnings", []):
        console.print(f"[bold yellow]warning:[/] {warning}")


def findings_table(summary: dict[str, Any], limit: int = 10) -> Table:
    """The ranked findings (the most important first), with effect, 95% interval and corrected p."""
    found = summary.get("findings", [])
    table = Table(title="Findings, most important first",
                  caption=f"p corrected for all {len(found)} findings by {summary.get('correction', CORRECTION)}"
                          + (f"; the first {limit} shown (all in --json and --report)" if len(found) > limit else ""))
    for head in ("#", "finding", "effect", "95% CI", "p (corrected)"):
        table.add_column(head, justify="left" if head == "finding" else "right")
    for rank, finding in enumerate(found[:limit], start=1):
        p = finding.get("p_adjusted")
        mark = "[bold red]" if finding.get("significant") else ""
        table.add_row(str(rank), f"{mark}{finding['text']}", *effect_text(finding),
                      "flag" if p is None else p_text(p).removeprefix("p = "))
    return table


def print_summary(console: Console, summary: dict[str, Any], label: str | None = None,
                  show_changes: bool = True) -> None:
    """The balance summary as terminal tables: warnings, findings first, then players, turn positions, the
    game's shape, cards, card-level figures and what the bots can do."""
    solo = summary["players"] == 1
    title = f"{summary['game']} — {summary['games']} games, {summary['players']} players, seed {summary.get('seed')}"
    console.print(f"[bold]{title}{f' — variant {label}' if label else ''}[/]")
    print_warnings(console, summary)
    if summary.get("left_out"):
        console.print(f"[bold]Not in play at {summary['players']} players:[/] {', '.join(summary['left_out'])}",
                      highlight=False)
    if summary.get("findings"):
        console.print(findings_table(summary))
    if summary.get("changes") and show_changes:
        console.print(changes_table(summary["changes"]))
    rotated = summary.get("rotation", {}).get("cycle")
    seats = Table(title="Players" + (" (each the N-th --seats spec, rotated over the seats)" if rotated else " by seat"))
    heads = ["player", "agent"] + ([] if solo else ["wins", "win rate", "95% CI"]) + ["mean score", "sd", "5%–95%"]
    for head in heads:
        seats.add_column(head, justify="left" if head in ("player", "agent") else "right")
    for s in summary["seats"]:
        q = s["score"].get("quantiles", {})
        wins = [] if solo else [count_text(s["wins"]), percent(s["win_rate"]), interval(s["ci95"], True)]
        seats.add_row(str(s["seat"] + 1), s["agent"], *wins, number(s["mean_score"]), number(s["score"]["sd"]),
                      f"{number(q.get('5', math.nan))}…{number(q.get('95', math.nan))}")
    console.print(seats)
    if not solo and summary.get("positions"):
        console.print(positions_table(summary))
    shape = Table(title="The game's shape")
    shape.add_column("figure")
    shape.add_column("value", justify="right")
    shape.add_column("95% CI / note", justify="right")
    shape.add_row("turns", number(summary["turns"]["mean"]), interval(summary["turns"]["ci95"]))
    shape.add_row("decisions", number(summary["decisions"]["mean"]), interval(summary["decisions"]["ci95"]))
    shape.add_row("legal actions per decision", number(summary["branching"]), "")
    if not solo:
        shape.add_row("margin of victory", number(summary["margin"]["mean"]), interval(summary["margin"]["ci95"]))
        shape.add_row("lead changes", number(summary["lead_changes"]["mean"]), interval(summary["lead_changes"]["ci95"]))
        shape.add_row("halfway leader wins", percent(summary["decisiveness"]), "decisiveness")
        shape.add_row("shared victories", percent(summary["shared_victories"]), "")
        if len(summary["agents"]) > 1:
            for agent in summary["agents"]:
                shape.add_row(f"win rate of {agent['agent']}", percent(agent["win_rate"]), interval(agent["ci95"], True))
    console.print(shape)
    if summary.get("cards"):
        console.print(cards_table(summary))
    if summary["figures"]:
        figs = Table(title="Card-level figures (mean per game)")
        for head in ("figure", "mean", "95% CI", "sd"):
            figs.add_column(head, justify="left" if head == "figure" else "right")
        for name, d in summary["figures"].items():
            figs.add_row(name.replace("_", " "), number(d["mean"]), interval(d["ci95"]), number(d["sd"]))
        console.print(figs)
    bots = summary.get("bots") or {}
    if bots:
        console.print(f"[bold]What the bots decide:[/] {bots['decisions']}. [bold]Not tested:[/] {bots['not_decided']}.")


def positions_table(summary: dict[str, Any]) -> Table:
    """Win rate per turn position (1 = first to act) with its interval, against the fair share."""
    table = Table(title="Turn positions (1 = first to act, by the game's own rule)")
    for head in ("position", "wins", "win rate", "95% CI", "fair", "p"):
        table.add_column(head, justify="right")
    for entry in summary["positions"]:
        table.add_row(str(entry["position"]), count_text(entry["wins"]), percent(entry["win_rate"]),
                      interval(entry["ci95"], True), percent(entry["fair"]), p_text(entry["p_value"]).removeprefix("p = "))
    return table


def cards_table(summary: dict[str, Any], limit: int = 15) -> Table:
    """The game's first card measure: per card how often players have it and the win-rate lift of having it."""
    measure, entries = next(iter(summary["cards"].items()))
    lifted = sorted(entries, key=lambda e: -e["lift"] if math.isfinite(e.get("lift", math.nan)) else math.inf)
    table = Table(title=f"Cards: players who {measure} each (per player per game; lift = win rate with − without)",
                  caption=f"the {limit} largest lifts of {len(entries)} shown (all measures in --json and --report)"
                          if len(entries) > limit else None)
    for head in ("card", "per player", "players with it", "win-rate lift", "95% CI", "p"):
        table.add_column(head, justify="left" if head == "card" else "right")
    for entry in lifted[:limit]:
        lift = entry.get("lift", math.nan)
        table.add_row(entry["card"], number(entry["mean"]), percent(entry["share"]),
                      "—" if lift != lift else f"{number(lift * 100)} pts",
                      interval([v * 100 for v in entry.get("ci95", [math.nan, math.nan])]) + " pts",
                      p_text(entry.get("p_value")).removeprefix("p = "))
    return table


def changes_table(changes: Sequence[dict[str, Any]]) -> Table:
    """A variant's changes to the published card data, each as a person writes it ("Watering Can: 3 copies
    → 0"), with the field as `--vary` names it."""
    table = Table(title="The variant changes")
    for head in ("change", "field"):
        table.add_column(head, justify="left")
    for change in changes:
        text = change.get("text") or f"{change['field']}: {_value(change['old'])} → {_value(change['new'])}"
        table.add_row(text, change["field"])
    return table


def _value(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return "—" if value is None else str(value)


def differences_table(differences: dict[str, Any], label_a: str, label_b: str) -> Table:
    """Each figure's B − A difference on common seeds, largest effect first, with its 95% CI and corrected p."""
    table = Table(title=f"B − A on the same seeds (A: {label_a}, B: {label_b}), largest effect first",
                  caption=f"p corrected for all {len(differences)} figures by {CORRECTION}")
    table.add_column("figure", no_wrap=True)
    for head in ("A", "B", "B − A", "95% CI", "p (corrected)", "significant"):
        table.add_column(head, justify="right")
    for key, d in differences.items():
        table.add_row(figure_label(key), number(d["a"]), number(d["b"]), number(d["diff"]), interval(d["ci95"]),
                      p_text(d.get("p_adjusted", d["p_value"])).removeprefix("p = "),
                      "[bold red]yes[/]" if d["significant"] else "no")
    return table


def sweep_table(runs: Sequence[tuple[str, dict[str, Any], Any]]) -> Table:
    """Player counts side by side: first-player advantage, length, margin, decisiveness and each figure."""
    table = Table(title="Player counts compared")
    table.add_column("figure")
    for label, _, _ in runs:
        table.add_column(label, justify="right")
    for name, cells in sweep_rows([summary for _, summary, _ in runs]):
        table.add_row(name, *cells)
    return table
