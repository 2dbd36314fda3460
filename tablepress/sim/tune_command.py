"""`tablepress tune`: read the fields and the target, run the search with a progress bar, verify the winner on
fresh seeds, print the best candidates (or `--json`) and write the winning variant file.
"""

from __future__ import annotations

import json
import math
import random
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..core.errors import DataError, TablepressError
from ..core.game import Game
from ..core.registry import get_game
from ..core.rng import derive_seed
from ..core.variants import apply_variant, base_data, change_lines, variant_changes
from .backends import backend_session
from .console import RateColumn
from .guards import Guard, GuardSpec, broken, guard_specs, judge_all
from .numbers import interval, number, percent, rounded_tree
from .runner import SimSpec, play_chunk
from .service import Arm, run_simulation, seat_plan
from .tune import (MIN_GAMES, Dimension, Measure, Scored, Target, Values, affordable, at_edge, candidates, change_size,
                   halving_plan, overrides, paired_difference, parse_target, parse_vary, rotation_cycle,
                   successive_halving, variant_toml, whole_steps)

#: The most games one tune may play.
MAX_BUDGET = 10_000_000
#: Candidates shown in the table (all of them are in --json).
SHOWN = 8
#: Arms beside the candidates in every round of the search: the published cards, for the guards.
BASELINE = 1


@dataclass
class TuneSetup:
    """A checked request: the game, seats, the fields and their candidates, the target and the budget's split."""

    game: Game
    players: int
    seats: str | None
    seat_specs: tuple[str, ...]
    options: dict[str, Any]
    base: dict[str, Any]
    dims: list[Dimension]
    target: Target
    seed: int
    budget: int
    verify: int
    combinations: int
    pool: list[Values]
    refused: list[tuple[Values, str]]
    plan: list[tuple[int, int]]
    guards: list[GuardSpec] = field(default_factory=list)

    def label(self, values: Values) -> str:
        """A candidate as one line: `scoring.region_min=4, copies.4=+2`."""
        return ", ".join(f"{d.field}={d.shown(v)}" for d, v in zip(self.dims, values))

    def published(self) -> Values:
        """The values of the published card data."""
        return tuple(d.published_value() for d in self.dims)

    def variant(self, values: Values) -> dict[str, Any]:
        """The variant a candidate plays."""
        return overrides(self.dims, values, self.base)

    def search_games(self) -> int:
        """Games the search plays (the plan's total, with the published cards beside every round)."""
        return sum((n + BASELINE) * g for n, g in self.plan)


@dataclass
class TuneResult:
    """The ranking after the search, and the winner against the published cards on fresh seeds."""

    ranking: list[Scored[Values]]
    verify_seed: int
    winner: Measure
    published: Measure | None
    difference: dict[str, Any] | None
    out: Path | None = None
    rounds: list[dict[str, int]] = field(default_factory=list)
    guards: list[Guard] = field(default_factory=list)

    @property
    def meets_goal(self) -> bool:
        """Whether the winner reaches the goal on fresh seeds and holds every guard there."""
        return self.winner.reaches_goal and not broken(self.guards)


def prepare(game: str, vary: Sequence[str], target: str, budget: int, seats: str | None, players: int | None,
            option: Mapping[str, Any], seed: int | None, verify: int | None, backend: str,
            out: Path | None, keep: Sequence[str] = ()) -> TuneSetup:
    """Check every argument before a game is played; TablepressError (one line) for the first problem."""
    chosen = get_game(game)
    count, seat_specs = seat_plan(chosen, seats, players)
    options = chosen.normalise_options(option)
    if not 1 <= budget <= MAX_BUDGET:
        raise TablepressError(f"-n takes 1 to {MAX_BUDGET:,} games, not {budget}")
    if backend not in ("local", "ray"):
        raise TablepressError(f"--backend takes local or ray, not {backend!r}")
    if out is not None and out.suffix.lower() != ".toml":
        raise TablepressError(f"{out}: --out writes a variant file (.toml)")
    if out is not None and not out.resolve().parent.is_dir():
        raise TablepressError(f"{out}: the folder {out.resolve().parent} does not exist")
    base = base_data(chosen)
    if base is None:
        raise TablepressError(f"{chosen.name} has no card data to tune")
    if not vary:
        raise TablepressError("give at least one --vary FIELD[=LO..HI], e.g. --vary scoring.region_min=3..6")
    dims = [parse_vary(text, base) for text in vary]
    seen: set[tuple[tuple[str, ...], int | None]] = set()
    for dim in dims:
        if (dim.path, dim.entry) in seen:
            raise TablepressError(f"--vary {dim.field}: given twice")
        seen.add((dim.path, dim.entry))
    names = figure_names(chosen, count, options)
    chosen_target = parse_target(target, names, count)
    guards = guard_specs(keep, count, names)
    step = rotation_cycle(seat_specs)
    verify_games = whole_steps(max(1, budget // 10), step) if verify is None else verify
    if verify_games < 1:
        raise TablepressError(f"--verify takes 1 or more games, not {verify_games}")
    search = budget - 2 * verify_games
    if search < MIN_GAMES:
        raise TablepressError(f"-n {budget} leaves {max(0, search)} games for the search after 2 × {verify_games} "
                              f"to verify; give -n {2 * verify_games + 2 * MIN_GAMES} or more")
    run_seed = seed if seed is not None else random.getrandbits(31)
    combinations = math.prod(len(d.values()) for d in dims)
    tried = candidates(dims, affordable(search, combinations, step=step, extra=BASELINE), run_seed)
    setup = TuneSetup(chosen, count, seats, tuple(seat_specs), options, base, dims, chosen_target, run_seed, budget,
                      verify_games, combinations, [], [], [], guards)
    for values in tried:
        try:
            apply_variant(setup.variant(values), chosen, count, options, setup.label(values))
            setup.pool.append(values)
        except DataError as exc:
            setup.refused.append((values, str(exc)))
    if not setup.pool:
        raise TablepressError(f"every candidate breaks the card data, e.g. {setup.refused[0][1]}")
    setup.plan = halving_plan(len(setup.pool), search, step, extra=BASELINE)
    return setup


def figure_names(game: Game, players: int, options: Mapping[str, Any]) -> list[str]:
    """The game's card-level figures, from one seeded random game of the published cards."""
    row = play_chunk(SimSpec(game.name, players, ("random",) * players, options), 0, [0])[0]
    return sorted(key[len("fig."):] for key in row if key.startswith("fig."))


def run_tune(setup: TuneSetup, jobs: int | None, backend: str, address: str | None, errors: Console) -> TuneResult:
    """The search and the verification, with one progress bar on stderr."""
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
               TextColumn("ETA"), TimeRemainingColumn())
    total = setup.search_games() + 2 * setup.verify
    with Progress(*columns, console=errors, transient=True) as progress, backend_session(backend, address):
        task = progress.add_task(f"tune {setup.game.name}", total=total)

        def games(label: str, variant: Mapping[str, Any] | None, seed: int, count: int) -> list[dict[str, Any]]:
            with warnings.catch_warnings():  # the summary of a few games warns of its own precision; tune reads rows
                warnings.simplefilter("ignore", RuntimeWarning)
                result = run_simulation(setup.game.name, count, [Arm(label, variant)], seed, setup.seats, setup.players,
                                        setup.options, backend, jobs, address,
                                        on_rows=lambda _, n: progress.advance(task, n))
            return result.runs[0][2]

        baseline: list[dict[str, Any]] = []

        def play(pool: Sequence[Values], number: int, count: int) -> list[list[dict[str, Any]]]:
            seed = derive_seed(setup.seed, "tune", number)
            baseline.extend(games("published cards", None, seed, count))
            return [games(setup.label(v), setup.variant(v), seed, count) for v in pool]

        def note(number: int, rounds: int, alive: int, count: int) -> None:
            progress.update(task, description=f"tune {setup.game.name}: round {number + 1}/{rounds}, "
                                              f"{alive} candidates × {count} games")

        ranking = successive_halving(setup.pool, setup.plan, play, setup.target.measure,
                                     lambda v: change_size(setup.dims, v), note,
                                     lambda rows: judge_all(setup.guards, baseline, rows))
        progress.update(task, description=f"tune {setup.game.name}: verifying on fresh seeds")
        verify_seed = derive_seed(setup.seed, "verify")
        best = ranking[0].candidate
        winner_rows = games("winner", setup.variant(best), verify_seed, setup.verify)
        published = difference = None
        if best == setup.published():
            progress.update(task, total=total - setup.verify)
            base_rows = winner_rows
        else:
            base_rows = games("published cards", None, verify_seed, setup.verify)
            published = setup.target.measure(base_rows)
            bound = 1.0 if setup.target.kind == "first-player-fair" else math.inf
            difference = paired_difference(setup.target.per_game(base_rows), setup.target.per_game(winner_rows), bound)
    rounds = [{"candidates": n, "games": g} for n, g in setup.plan]
    return TuneResult(ranking, verify_seed, setup.target.measure(winner_rows), published, difference, rounds=rounds,
                      guards=judge_all(setup.guards, base_rows, winner_rows))


def tune_command(game: str, vary: Sequence[str], target: str, budget: int, seats: str | None, players: int | None,
                 option: Mapping[str, Any], seed: int | None, verify: int | None, jobs: int | None, backend: str,
                 address: str | None, as_json: bool, out: Path | None, console: Console, errors: Console,
                 keep: Sequence[str] = ()) -> None:
    """Run `tablepress tune` (docs/reference.md, "Commands"); TablepressError for bad input, before anything is played."""
    if jobs is not None and jobs < 1:
        raise TablepressError(f"--jobs must be at least 1, not {jobs}")
    if address and backend != "ray":
        raise TablepressError("--address is for --backend ray")
    setup = prepare(game, vary, target, budget, seats, players, option, seed, verify, backend, out, keep)
    result = run_tune(setup, jobs, backend, address, errors)
    if out is not None:
        write_winner(out, setup, result)
        result.out = out
    if as_json:
        print(json.dumps(rounded_tree(as_json_result(setup, result)), ensure_ascii=False))
    else:
        print_result(console, setup, result)


def write_winner(path: Path, setup: TuneSetup, result: TuneResult) -> None:
    """Write the winning variant as TOML (`simulate --variant` reads it back); one line if it cannot be written."""
    best = result.ranking[0].candidate
    m = result.winner
    comment = (f"tablepress tune {setup.game.name}: {setup.target.describe(setup.players)}\n"
               f"{setup.label(best)}; seed {setup.seed}; on {m.games} fresh games: {_value(setup, m.value)} "
               f"(95% CI {_interval(setup, m.ci95)}), goal {_value(setup, m.goal)}")
    if broken(result.guards):
        comment += "\nnot a change to adopt: it breaks " + "; ".join(g.why() for g in broken(result.guards))
    try:
        path.write_text(variant_toml(setup.variant(best), comment), encoding="utf-8")
    except OSError as exc:
        raise TablepressError(f"{path}: cannot write the variant ({exc.strerror or exc})") from None


def as_json_result(setup: TuneSetup, result: TuneResult) -> dict[str, Any]:
    """What `tune --json` prints."""
    def entry(scored: Scored[Values]) -> dict[str, Any]:
        measure = scored.measure.as_json() if scored.measure else {"games": 0}
        return {"values": values(scored.candidate), "rounds": scored.rounds,
                "published": scored.candidate == setup.published(), **measure,
                "breaks": [g.figure for g in scored.broken], "meets_goal": scored.meets_goal}

    def values(candidate: Values) -> dict[str, Any]:
        return {d.field: d.json_value(v) for d, v in zip(setup.dims, candidate)}

    best = result.ranking[0].candidate
    variant = setup.variant(best)
    return {
        "game": setup.game.name, "players": setup.players, "seats": list(setup.seat_specs), "seed": setup.seed,
        "options": setup.options, "budget": setup.budget,
        "games_played": setup.search_games() + result.winner.games + (result.published.games if result.published else 0),
        "target": {**setup.target.as_json(), "text": setup.target.describe(setup.players)},
        "vary": [d.as_json() for d in setup.dims],
        "combinations": setup.combinations,
        "candidates": len(setup.pool),
        "refused": [{"values": values(v), "error": error} for v, error in setup.refused],
        "rounds": result.rounds,
        "ranking": [entry(s) for s in result.ranking],
        "winner": {"values": values(best), "variant": variant,
                   "changes": variant_changes(variant, setup.base), "published": best == setup.published()},
        "guards": [g.as_json() for g in result.guards],
        "meets_goal": result.meets_goal,
        "verdict": verdict(setup, result),
        "at_edge": at_edge(setup.dims, best),
        "verification": {"seed": result.verify_seed, "games": setup.verify, "winner": result.winner.as_json(),
                         "published": result.published.as_json() if result.published else None,
                         "difference": result.difference},
        "out": str(result.out) if result.out else None,
    }


def _rate(setup: TuneSetup) -> bool:
    return setup.target.kind == "first-player-fair"


def _value(setup: TuneSetup, value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "—"
    return percent(value) if _rate(setup) else number(value)


def _interval(setup: TuneSetup, pair: Sequence[float]) -> str:
    return interval(pair, as_percent=_rate(setup))


def _signed(setup: TuneSetup, value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "—"
    shown = f"{value * 100:.1f} points" if _rate(setup) else number(abs(value))
    return ("−" if value < 0 else "+") + shown.lstrip("-")


def verdict(setup: TuneSetup, result: TuneResult) -> str:
    """One line: does the winner reach the goal on fresh seeds, and is it nearer than the published cards."""
    m = result.winner
    reach = ("reaches the goal (it is inside the 95% interval)" if m.reaches_goal
             else f"misses the goal by {_value(setup, m.distance)} (outside the 95% interval)")
    line = f"On fresh seeds the winner {reach}"
    faults = broken(result.guards)
    if faults:
        line += (f", but it does not meet the goal: it changes the game past {len(faults)} guard"
                 f"{'s' if len(faults) > 1 else ''} (" + "; ".join(g.why() for g in faults) + ")")
    if result.published is not None:
        nearer = "nearer to" if m.distance < result.published.distance else "no nearer to"
        line += f"; it is {nearer} the goal than the published cards"
    if m.games < 100:
        line += f"; {m.games} games are few: give a larger -n for a surer answer"
    edges = at_edge(setup.dims, result.ranking[0].candidate)
    if edges:
        line += "; the winner is at the end of its range, so the best may lie past it: try --vary " + ", ".join(edges)
    return line + "."


def print_result(console: Console, setup: TuneSetup, result: TuneResult) -> None:
    """The best candidates, the verification on fresh seeds, the winner's changes and where it was written."""
    seats = ",".join(dict.fromkeys(setup.seat_specs))
    console.print(f"[bold]tune {setup.game.name}[/] — {setup.players} players, seats {seats}, seed {setup.seed}: "
                  f"{setup.target.describe(setup.players)}", highlight=False, soft_wrap=True)
    rounds = ", ".join(f"{r['candidates']}×{r['games']}" for r in result.rounds)
    refused = f", {len(setup.refused)} refused by the card data check" if setup.refused else ""
    console.print(f"{len(setup.pool)} candidates of {setup.combinations:,} combinations{refused}; "
                  f"rounds (candidates×games, same seeds for all): {rounds}", highlight=False, soft_wrap=True)
    for values, error in setup.refused[:3]:
        console.print(f"  refused: {error}", highlight=False, soft_wrap=True)
    table = Table(title=f"Best candidates (of {len(result.ranking)})")
    table.add_column("#", justify="right")
    for dim in setup.dims:
        table.add_column(dim.field + (" (offset)" if dim.offset else ""), justify="right")
    for head in ("games", "value", "95% CI", "goal", "off by", "guards"):
        table.add_column(head, justify="right")
    for rank, scored in enumerate(result.ranking[:SHOWN], start=1):
        m = scored.measure
        mark = " (published)" if scored.candidate == setup.published() else ""
        cells = [d.shown(v) for d, v in zip(setup.dims, scored.candidate)]
        cells[-1] += mark
        faults = "breaks " + ",".join(g.figure for g in scored.broken) if scored.broken else "held"
        if m is None:
            table.add_row(str(rank), *cells, "0", "—", "—", "—", "—", "—")
        else:
            table.add_row(str(rank), *cells, str(m.games), _value(setup, m.value), _interval(setup, m.ci95),
                          _value(setup, m.goal), _value(setup, m.distance), faults)
    console.print(table)
    check = Table(title=f"Verification on fresh seeds (seed {result.verify_seed}, {setup.verify} games each)")
    for head in ("cards", "value", "95% CI", "goal", "off by"):
        check.add_column(head, justify="left" if head == "cards" else "right")
    best = result.ranking[0].candidate
    arms = [("winner: " + setup.label(best), result.winner)]
    if result.published is not None:
        arms.insert(0, ("published cards", result.published))
    for name, m in arms:
        check.add_row(name, _value(setup, m.value), _interval(setup, m.ci95), _value(setup, m.goal),
                      _value(setup, m.distance))
    console.print(check)
    if result.difference is not None:
        d = result.difference
        console.print(f"winner − published on the same {d['games']} games: {_signed(setup, d['diff'])} "
                      f"(95% CI {_signed(setup, d['ci95'][0])} to {_signed(setup, d['ci95'][1])})", highlight=False,
                      soft_wrap=True)
    if result.guards and best != setup.published():
        console.print(guards_table(result.guards, result.verify_seed))
    console.print(verdict(setup, result), highlight=False, soft_wrap=True)
    lines = change_lines(setup.variant(best), setup.base)
    if not lines:
        console.print("The published cards are the best candidate: no change proposed.")
    for line in lines:
        console.print(f"change {line}", highlight=False, soft_wrap=True)
    if result.out is not None:
        console.print(f"variant written to {result.out} (tablepress simulate {setup.game.name} --variant {result.out})",
                      highlight=False, soft_wrap=True)


def guards_table(guards: Sequence[Guard], seed: int) -> Table:
    """The winner's guards on fresh seeds: each figure published → winner, the paired difference and whether it held."""
    table = Table(title=f"Guards: the winner against the published cards on the same fresh games (seed {seed})")
    for head in ("figure", "published", "winner", "winner − published (95% CI)", "tolerance", "held"):
        table.add_column(head, justify="left" if head in ("figure", "held") else "right")
    for guard in guards:
        share = guard.spec.share

        def shown(value: float) -> str:
            return percent(value) if share else number(value)

        def signed(value: float) -> str:
            text = f"{abs(value) * 100:.1f}" if share else number(abs(value))
            return ("−" if value < 0 else "+") + text if math.isfinite(value) else "—"

        unit = " pts" if share else ""
        moved = f"{signed(guard.difference)}{unit} ({signed(guard.ci95[0])} to {signed(guard.ci95[1])})"
        table.add_row(guard.spec.label(), shown(guard.published), shown(guard.value), moved,
                      guard.spec.tolerance.text(share), "yes" if guard.held else "[bold red]NO[/]")
    return table
