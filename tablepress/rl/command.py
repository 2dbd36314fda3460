"""The `tablepress train` command: train with a progress bar, evaluate, draw the curve, print a table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..core.errors import TablepressError
from ..core.registry import get_game

#: The opponents of the final evaluation, as on the ladder.
OPPONENTS = ("random", "greedy")


def _torch() -> None:
    try:
        import torch
    except ImportError:
        raise TablepressError("training needs the train extra: pip install 'tablepress[train]'") from None
    torch.set_num_threads(1)


def train_command(game_name: str, steps: int, out: Path | None, players: int | None, options: dict[str, str],
                  seed: int, eval_games: int, as_json: bool, console: Console,
                  resume: Path | None = None, shaping: float = 1.0) -> dict[str, Any]:
    """Train (or go on from `resume`), checkpoint to `out` (default GAME.pt), evaluate against random and greedy, plot the curve
    (`out` with .png); print a table (or one JSON object) and return the summary."""
    _torch()
    from .train import TrainConfig, evaluate, plot_curve, train

    game = get_game(game_name)
    options = dict(game.normalise_options(options))
    game.check_players(players or game.default_players)
    out = Path(out or f"{game.name}.pt")
    if out.is_dir():
        raise TablepressError(f"-o {out}: is a folder; give a file such as {out / (game.name + '.pt')}")
    if not out.parent.exists():
        raise TablepressError(f"-o {out}: the folder {out.parent} does not exist")
    if shaping < 0:
        raise TablepressError(f"--shaping must be 0 or more, not {shaping}")
    if eval_games < 0:
        raise TablepressError(f"--eval-games must be 0 or more, not {eval_games}")
    config = TrainConfig(game=game.name, players=players, options=options, steps=steps, seed=seed, resume=resume,
                         shaping=shaping)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=console, disable=as_json, transient=False)
    with progress:
        task = progress.add_task(f"train {game.name}", total=steps)

        def on_update(done: int, record: dict[str, float]) -> None:
            progress.update(task, completed=done,
                            description=f"train {game.name}: win rate {record['win_rate']:.2f}, "
                                        f"value loss {record['value_loss']:.3f}")

        _, meta = train(config, out, on_update)
        evaluations = []
        for opponent in OPPONENTS if eval_games else ():
            task = progress.add_task(f"evaluate vs {opponent}", total=eval_games)
            evaluations.append(evaluate(out, game.name, meta.players, options, opponent, eval_games, seed,
                                        on_game=lambda task=task: progress.advance(task)))
    curve = out.with_suffix(".png")
    plot_curve(meta, evaluations, curve)
    summary = {"game": game.name, "players": meta.players, "steps": meta.steps,
               "games": meta.history[-1]["games"] if meta.history else 0, "policy": str(out), "curve": str(curve),
               "evaluations": [e.summary() for e in evaluations]}
    if as_json:
        console.print_json(json.dumps(summary))
        return summary
    table = Table(title=f"{game.name}, {meta.players} players: policy:{out} after {meta.steps} decisions")
    for column in ("opponent", "games", "win rate", "95% interval", "fair share", "above fair share"):
        table.add_column(column)
    for e in evaluations:
        lo, hi = e.ci95
        table.add_row(e.opponent, str(e.games), f"{e.win_rate:.3f}", f"[{lo:.3f}, {hi:.3f}]", f"{e.fair_share:.3f}",
                      "yes" if lo > e.fair_share else "no")
    console.print(table)
    console.print(f"learning curve: {curve}", highlight=False)
    return summary
