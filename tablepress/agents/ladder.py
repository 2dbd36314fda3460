"""The strength ladder: head-to-head win rates of agent specs in every game, with Wilson 95% intervals.

A rung pits a challenger spec against an opponent spec in one game at one player count. It is a
simulator run (`tablepress.sim`): in game `index` the challenger holds seat `index % players` and the
opponent spec every other seat, so every seat (first player included) is played equally; the results
are the simulator's rows and the interval is the simulator's `wilson`. A shared victory counts 1/k to
each of its k winners. The fair share of one seat is 1/players: a challenger above it is stronger.

Where the first player is drawn at random (By This; Pressed unless told), the seat does not say the turn position, and turn
position can weigh more than the agents: the challenger's win rate is also given per turn position
(1 = the first to act), so a result reads against the position it was played from.

Everything is seeded: the same seed gives the same games, whatever the number of worker processes
(unless a time budget such as `ismcts:1s` is used).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..core.registry import get_game
from ..core.rng import derive_seed
from ..sim.backends import cpu_seconds, run_games
from ..sim.design import turn_position
from ..sim.runner import SimSpec
from ..sim.stats import wilson

#: The default rungs: (challenger, opponent, games at 2 players, games at the largest player count).
#: ismcts at two budgets (100 and 300 iterations) each meet greedy, the common yardstick.
DEFAULT_RUNGS: tuple[tuple[str, str, int, int], ...] = (
    ("greedy", "random", 100, 40),
    ("ismcts:100", "greedy", 20, 10),
    ("ismcts:300", "greedy", 40, 16),
)


@dataclass
class GameResult:
    """One ladder game: where the challenger sat, its share of the victory, and the scores."""

    index: int
    seat: int
    share: float
    scores: list[float]
    #: The challenger's turn position (0 = the first to act).
    position: int = 0


@dataclass
class Rung:
    """One challenger-vs-opponent measurement in one game at one player count."""

    game: str
    players: int
    challenger: str
    opponent: str
    games: int = 0
    wins: float = 0.0
    mean_margin: float = 0.0
    #: CPU seconds the rung's games took (this process and its workers).
    seconds: float = 0.0
    results: list[GameResult] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        """The challenger's share of the victories."""
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """Wilson 95% interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def fair_share(self) -> float:
        """The win rate of an agent exactly as strong as its opponents."""
        return 1.0 / self.players

    def by_position(self) -> list[dict[str, Any]]:
        """The challenger's games, win rate and Wilson 95% interval per turn position (1 = the first to act)."""
        out = []
        for position in range(self.players):
            shares = [r.share for r in self.results if r.position == position]
            wins = sum(shares)
            lo, hi = wilson(wins, len(shares))
            out.append({"position": position + 1, "games": len(shares),
                        "win_rate": wins / len(shares) if shares else None, "ci95": [lo, hi]})
        return out

    def summary(self) -> dict[str, Any]:
        """JSON-ready summary (without the per-game results)."""
        data = asdict(self)
        data.pop("results")
        lo, hi = self.ci95
        data.update(win_rate=self.win_rate, ci95=[lo, hi], fair_share=self.fair_share,
                    beats_fair_share=lo > self.fair_share, positions=self.by_position())
        return data


def run_rung(game_name: str, players: int, challenger: str, opponent: str, games: int, seed: int = 0,
             jobs: int = 1, on_rows: Callable[[int], None] | None = None,
             options: Mapping[str, Any] | None = None) -> Rung:
    """Play `games` games of one rung (on `jobs` local processes) and collect the challenger's results.

    `on_rows(n)` is called as each batch of n games finishes (for a progress bar).
    """
    game = get_game(game_name)
    game.check_players(players)
    rung = Rung(game.name, players, challenger, opponent)
    spec = SimSpec(rung.game, players, (challenger,) + (opponent,) * (players - 1),
                   game.normalise_options(options or {}), rotate=True)
    start = cpu_seconds()
    rows = run_games(spec, derive_seed(seed, rung.game, players, challenger, opponent), games, jobs=jobs,
                     on_rows=on_rows)
    rung.seconds = cpu_seconds() - start
    for row in rows:
        seat = row["index"] % players
        rung.results.append(GameResult(row["index"], seat, row["shares"][seat], row["scores"],
                                       turn_position(seat, row["first"], players)))
    rung.games = len(rows)
    rung.wins = sum(r.share for r in rung.results)
    margins = [r.scores[r.seat] - max(s for i, s in enumerate(r.scores) if i != r.seat) for r in rung.results]
    rung.mean_margin = sum(margins) / len(margins) if margins else 0.0
    return rung


def player_counts(game_name: str) -> list[int]:
    """The ladder's player counts for a game: 2 and the largest."""
    game = get_game(game_name)
    return sorted({max(2, game.min_players), game.max_players})


def positions_text(rung: Rung) -> str:
    """The challenger's win rate per turn position in one line: `1st 66% (61) · 2nd 40% (59)`."""
    return " · ".join(f"{_ordinal(entry['position'])} {_rate(entry)} ({entry['games']})" for entry in rung.by_position())


def positions_table(rungs: Sequence[Rung]) -> Any:
    """A Rich table of the challenger's win rate per turn position, one row per rung (games played from each
    position in brackets)."""
    from rich.table import Table

    table = Table(title="The challenger by turn position (1st = the first to act; games in brackets)")
    for column in ("game", "players", "challenger"):
        table.add_column(column, justify="right")
    for position in range(1, max((r.players for r in rungs), default=0) + 1):
        table.add_column(_ordinal(position), justify="right")
    for r in rungs:
        table.add_row(r.game, str(r.players), r.challenger,
                      *(f"{_rate(entry)} ({entry['games']})" for entry in r.by_position()))
    return table


def _ordinal(position: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(position, f"{position}th")


def _rate(entry: dict[str, Any]) -> str:
    return "–" if entry["win_rate"] is None else f"{entry['win_rate']:.0%}"


def markdown(rungs: Sequence[Rung]) -> str:
    """The ladder as a Markdown table (win rate of the challenger with its Wilson 95% interval, and per turn
    position with the games played from it)."""
    lines = [
        "| game | players | challenger | opponent | games | win rate | 95% CI | fair share | by turn position (games) "
        "| mean margin | s/game |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rungs:
        lo, hi = r.ci95
        lines.append(
            f"| {r.game} | {r.players} | `{r.challenger}` | `{r.opponent}` | {r.games} | {r.win_rate:.0%} | "
            f"{lo:.0%}–{hi:.0%} | {r.fair_share:.0%} | {positions_text(r)} | {r.mean_margin:+.1f} | "
            f"{r.seconds / max(1, r.games):.1f} |"
        )
    return "\n".join(lines) + "\n"


def parse_rung(text: str) -> tuple[str, str, int]:
    """`CHALLENGER/OPPONENT/GAMES` (e.g. `ismcts:300/greedy/40`) into its parts, checking the specs."""
    from ..core.errors import TablepressError
    from .base import parse_spec

    parts = text.split("/")
    if len(parts) != 3 or not parts[2].strip().isdecimal() or int(parts[2]) <= 0:
        raise TablepressError(f"--rung takes CHALLENGER/OPPONENT/GAMES such as ismcts:300/greedy/40, not {text!r}")
    for spec in parts[:2]:
        if parse_spec(spec)[0] == "human":
            raise TablepressError("the ladder has no human seats")
    return parts[0].strip().lower(), parts[1].strip().lower(), int(parts[2])


#: What `--out` writes, by the file's suffix.
OUT_SUFFIXES = (".md", ".json")


def ladder_command(
    games: Sequence[str] | None, rungs: Sequence[str] | None, players: str | None, seed: int, jobs: int,
    out: Path | None = None, as_json: bool = False,
) -> list[Rung]:
    """The `tablepress ladder` command: run every rung in every game and player count with a progress bar
    (games done, of how many, and the time left) on stderr; print a table (or, with `as_json`, one JSON
    object); write the results to `out` (.md: the Markdown table, .json: the summaries) if given."""
    import json

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    from ..core.errors import TablepressError
    from ..core.registry import game_names
    from .levels import check_level_seats

    for name in games or ():
        if Path(name).suffix.lower() in OUT_SUFFIXES:
            raise TablepressError(f"{name!r} is not a game: write the results with --out {name} "
                                  "(--json prints them instead)")
    if out is not None:
        if out.suffix.lower() not in OUT_SUFFIXES:
            raise TablepressError(f"{out}: --out writes a .md (Markdown table) or .json file")
        if not out.resolve().parent.is_dir():
            raise TablepressError(f"{out}: the folder {out.resolve().parent} does not exist")
    if jobs < 1:
        raise TablepressError(f"--jobs must be at least 1, not {jobs}")
    chosen = [get_game(name).name for name in (games or game_names())]
    plan = [(*parse_rung(text), None) for text in rungs] if rungs else list(DEFAULT_RUNGS)
    todo = []
    for name in chosen:
        for count in parse_counts(players, name):
            get_game(name).check_players(count)
            for challenger, opponent, number, most in plan:
                check_level_seats(name, (challenger, opponent))
                todo.append((name, count, challenger, opponent, number if count == 2 or most is None else most))
    console, errors = Console(), Console(stderr=True)
    results: list[Rung] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games, ETA"),
               TimeRemainingColumn())
    with Progress(*columns, console=errors, transient=True) as progress:
        task = progress.add_task("ladder", total=sum(item[-1] for item in todo))
        for name, count, challenger, opponent, number in todo:
            progress.update(task, description=f"{name} {count}p: {challenger} vs {opponent}")
            rung = run_rung(name, count, challenger, opponent, number, seed, jobs,
                            on_rows=lambda n: progress.advance(task, n))
            lo, hi = rung.ci95
            if not as_json:
                progress.console.print(
                    f"{name} {count}p  {challenger} vs {opponent}: {rung.win_rate:.0%} [{lo:.0%}, {hi:.0%}] "
                    f"of {rung.games} (fair {rung.fair_share:.0%}; by turn position {positions_text(rung)}), "
                    f"{rung.seconds / rung.games:.1f} s/game",
                    highlight=False,
                )
            results.append(rung)
    summaries = [r.summary() for r in results]
    if as_json:
        print(json.dumps(summaries))
    else:
        table = Table(title="Strength ladder (challenger's win rate, Wilson 95%)")
        for column in ("game", "players", "challenger", "opponent", "games", "win rate", "95% CI", "fair"):
            table.add_column(column, justify="right")
        for r in results:
            lo, hi = r.ci95
            table.add_row(r.game, str(r.players), r.challenger, r.opponent, str(r.games), f"{r.win_rate:.0%}",
                          f"{lo:.0%}–{hi:.0%}", f"{r.fair_share:.0%}")
        console.print(table)
        console.print(positions_table(results))
    if out is not None:
        text = markdown(results) if out.suffix.lower() == ".md" else json.dumps(summaries, indent=1) + "\n"
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise TablepressError(f"{out}: cannot write the file ({exc.strerror or exc})") from None
        if not as_json:
            console.print(f"results written to {out}", highlight=False)
    return results


def parse_counts(players: str | None, game_name: str) -> list[int]:
    """The player counts of `--players 2,4` (default: the ladder's counts for the game), or one clear error."""
    from ..core.errors import TablepressError

    if not players:
        return player_counts(game_name)
    parts = [p.strip() for p in players.split(",")]
    if not all(p.isascii() and p.isdecimal() and len(p) <= 2 for p in parts):
        raise TablepressError(f"--players takes player counts such as 2,4, not {players!r}")
    return [int(p) for p in parts]
