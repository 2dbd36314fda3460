"""One simulation, as the CLI and the web run it: arms (published cards or variants) played on common seeds.

`run_simulation` is the single entry point: `tablepress simulate` wraps it with a progress bar and the
terminal tables, the web's simulation jobs with a progress stream. The same request gives the same rows,
summaries and `--json` on both.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..agents.base import make_agent, parse_seats
from ..agents.levels import check_level_seats
from ..core.errors import TablepressError
from ..core.game import Game
from ..core.registry import get_game
from .backends import backend_session, run_games
from .runner import SimSpec

#: on_rows(arm label, games just finished) — called as each chunk of games arrives.
ArmProgress = Callable[[str, int], None]


@dataclass(frozen=True)
class Arm:
    """One side of a run: a label and the card-data overrides it plays (None: the published cards)."""

    label: str
    overrides: Mapping[str, Any] | None = None


@dataclass
class SimulationResult:
    """Everything a run produced: per arm (label, summary, rows), and B − A differences for two arms."""

    game: str
    games: int
    players: int
    seed: int
    runs: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = field(default_factory=list)
    differences: dict[str, Any] | None = None
    #: Where the numbers come from (`provenance.py`): version, commit, seeds, time, machine.
    provenance: dict[str, Any] | None = None
    #: The verdict on the game's quality measures for a comparison (`verdict.py`), better/worse per measure.
    quality: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        """What `simulate --json` prints: one arm's summary, or {quality, a, b, changes, differences, verdict}
        for a comparison (b: the last arm; with three or more, `arms` lists every summary and the differences
        are the last against the first); with its `provenance`; every number in the one format of `numbers.py`."""
        extra = {"provenance": self.provenance} if self.provenance is not None else {}
        if self.differences is None:
            return clean({**self.runs[0][1], **extra})
        from .correction import CORRECTION
        from .stats import verdict

        quality = {"quality": self.quality} if self.quality is not None else {}
        return clean({"game": self.game, "games": self.games, "players": self.players, "seed": self.seed,
                      **quality, "a": self.runs[0][1], "b": self.runs[-1][1],
                      **({"arms": [summary for _, summary, _ in self.runs]} if len(self.runs) > 2 else {}),
                      "changes": self.runs[-1][1].get("changes", []),
                      "correction": CORRECTION, "verdict": verdict(self.differences, self.runs[-1][0], self.runs[0][0]),
                      "differences": self.differences, **extra})


@dataclass
class SweepResult:
    """A run at each of several player counts (`--players 2,3,4`), on the same run seed."""

    game: str
    games: int
    seed: int
    results: list[SimulationResult] = field(default_factory=list)
    provenance: dict[str, Any] | None = None
    quality: dict[str, Any] | None = None

    @property
    def runs(self) -> list[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
        """One (label, summary, rows) per player count, labelled `N players`."""
        return [(f"{result.players} players", result.runs[0][1], result.runs[0][2]) for result in self.results]

    def as_json(self) -> dict[str, Any]:
        """What `simulate --players 2,3,4 --json` prints: {game, games, seed, players: [...], sweep: [summary...]}."""
        extra = {"provenance": self.provenance} if self.provenance is not None else {}
        if self.quality is not None:
            extra = {"quality": self.quality, **extra}
        return clean({"game": self.game, "games": self.games, "seed": self.seed,
                      "players": [result.players for result in self.results],
                      "sweep": [result.runs[0][1] for result in self.results], **extra})


def clean(value: Any) -> Any:
    """JSON-safe and in the one number format: NaN and infinities become null, tuples lists, floats rounded."""
    from .numbers import rounded_tree

    return rounded_tree(value)


#: What plays a seat when no --seats is given: the greedy player (random play would mislead about balance).
DEFAULT_SEATS = "greedy"


def seat_plan(game: Game, seats: str | None, players: int | None) -> tuple[int, tuple[str, ...]]:
    """(player count, one AI seat spec per seat; greedy by default); TablepressError for a human seat or a bad count."""
    count = players or game.default_players
    game.check_players(count)
    seat_specs = tuple(parse_seats(seats or DEFAULT_SEATS, count))
    if "human" in seat_specs:
        raise TablepressError("simulate plays AI seats only; --seats cannot include human")
    check_level_seats(game.name, seat_specs)
    for spec in set(seat_specs):
        make_agent(spec, 0)  # a seat that cannot be built (a policy file that does not load) fails before any game
    return count, seat_specs


def run_simulation(game: str, games: int, arms: Sequence[Arm], seed: int | None = None, seats: str | None = None,
                   players: int | None = None, options: Mapping[str, Any] | None = None,
                   backend: str = "local", jobs: int | None = None, address: str | None = None,
                   records: Sequence[str | None] | None = None,
                   on_rows: ArmProgress | None = None) -> SimulationResult:
    """Play every arm on the same seeds and summarise; two or more arms are compared: the last against the first
    figure by figure (B − A, `differences`), and all of them on the game's quality measures (`quality`).

    `records`, if given, is one folder (or None) per arm for each game's record.
    """
    from .provenance import collect
    from .stats import compare as compare_rows
    from .stats import left_out, summarise

    if not arms:
        raise TablepressError("a simulation plays at least one arm")
    started = time.time()
    chosen = get_game(game)
    count, seat_specs = seat_plan(chosen, seats, players)
    chosen_options = chosen.normalise_options(options or {})
    run_seed = seed if seed is not None else random.getrandbits(31)
    result = SimulationResult(chosen.name, games, count, run_seed)
    compared = len(arms) >= 2
    with backend_session(backend, address):
        for position, arm in enumerate(arms):
            folder = records[position] if records else None
            spec = SimSpec(chosen.name, count, seat_specs, chosen_options, arm.overrides, folder, balanced=True)
            progress = (lambda n, label=arm.label: on_rows(label, n)) if on_rows else None
            rows = run_games(spec, run_seed, games, backend, jobs, address, on_rows=progress)
            named = arm.label if arm.overrides is not None or compared else None
            summary = summarise(rows, chosen.name, count, run_seed, named)
            summary["changes"] = arm_changes(chosen, arm.overrides)
            played = chosen.with_variant(arm.overrides) if arm.overrides is not None else chosen
            summary["left_out"] = left_out(played, count, chosen_options)
            result.runs.append((arm.label, summary, rows))
    if compared:
        from .verdict import quality_verdict

        result.differences = compare_rows(result.runs[0][2], result.runs[-1][2], count)
        result.quality = quality_verdict([(label, rows) for label, _, rows in result.runs])
    result.provenance = collect(chosen.name, games, count, run_seed, seat_specs, started, jobs=jobs, backend=backend)
    return result


def arm_changes(game: Game, overrides: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The card-data fields an arm changes from the published cards: [{field, old, new}] (none for base)."""
    from ..core.variants import base_data, variant_changes

    return variant_changes(overrides, base_data(game)) if overrides else []


def run_sweep(game: str, games: int, player_counts: Sequence[int], seed: int | None = None, seats: str | None = None,
              options: Mapping[str, Any] | None = None, arm: Arm | None = None, backend: str = "local",
              jobs: int | None = None, address: str | None = None,
              on_rows: ArmProgress | None = None) -> SweepResult:
    """One run at each player count on the same run seed (progress labelled `N players`), for comparison."""
    if len(set(player_counts)) != len(player_counts) or len(player_counts) < 2:
        raise TablepressError("--players for a sweep lists two or more different counts, e.g. 2,3,4")
    chosen = get_game(game)
    for count in player_counts:
        seat_plan(chosen, seats, count)
    from .provenance import collect

    started = time.time()
    run_seed = seed if seed is not None else random.getrandbits(31)
    sweep = SweepResult(chosen.name, games, run_seed)
    for count in player_counts:
        label = f"{count} players"
        progress = (lambda _, n, label=label: on_rows(label, n)) if on_rows else None
        sweep.results.append(run_simulation(chosen.name, games, [arm or Arm("published cards")], run_seed, seats,
                                            count, options, backend, jobs, address, on_rows=progress))
    seat_specs = sweep.results[0].provenance["seats"] if sweep.results[0].provenance else []
    sweep.provenance = collect(chosen.name, games, list(player_counts), run_seed, seat_specs, started, jobs=jobs,
                               backend=backend)
    return sweep


def play_skill_gap(game: str, games: int, arms: Sequence[Arm], seed: int, players: int,
                   options: Mapping[str, Any] | None = None, backend: str = "local", jobs: int | None = None,
                   address: str | None = None, on_rows: ArmProgress | None = None) -> list[list[dict[str, Any]]]:
    """Each arm's rows of greedy against random seats (`verdict.SKILL_SEATS`, rotated over the turn positions)
    on the run's seeds: what a better player gains under each card set."""
    from .verdict import SKILL_SEATS

    chosen = get_game(game)
    specs = tuple(parse_seats(SKILL_SEATS, players))
    out = []
    with backend_session(backend, address):
        for arm in arms:
            spec = SimSpec(chosen.name, players, specs, chosen.normalise_options(options or {}), arm.overrides,
                           balanced=True)
            progress = (lambda n, label=arm.label: on_rows(label, n)) if on_rows else None
            out.append(run_games(spec, seed, games, backend, jobs, address, on_rows=progress))
    return out
