"""`tablepress bench --against REF`: agent speed of this code beside another commit's, in one run.

A speed-up is only believable measured side by side: on a shared machine the load changes from one
minute to the next. REF (any git revision) is checked out into a temporary worktree; for each game,
player count and agent spec, whole self-play games are timed for both trees in `ROUNDS` rounds, each tree
in its own Python process (`agent_rate.py` run with the tree first on the path), in CPU seconds. In a
round the tree going first plays for its share of the time, and the other then plays exactly as many
games from the same seed — the same deals, so the round compares the same work; which tree goes first
alternates (ABBA...), so a drift of the machine's speed falls on both. The table gives each tree's games
over its seconds in all rounds, and the range of the rounds' own ratios. The worktree is removed afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from rich.table import Table

from ..core.errors import TablepressError
from . import agent_rate

#: The source tree this code runs from (the folder holding the `tablepress` package).
HERE = Path(__file__).resolve().parents[2]


def _git(*args: str, cwd: Path = HERE) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise TablepressError("--against needs git on the PATH") from None
    if done.returncode:
        message = (done.stderr.strip().splitlines() or ["git failed"])[-1]
        raise TablepressError(f"--against: git {args[0]}: {message}")
    return done.stdout.strip()


def resolve(ref: str) -> str:
    """The full commit id `ref` names in this checkout; TablepressError if there is none."""
    if not (HERE / ".git").exists():
        raise TablepressError(f"--against compares with a git revision: {HERE} is not a git checkout")
    try:
        commit = _git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}") if ref else ""
    except TablepressError:
        commit = ""
    if not commit:
        raise TablepressError(f"--against: no commit {ref!r} in {HERE}")
    return commit


@contextmanager
def worktree(ref: str) -> Iterator[tuple[Path, str]]:
    """A temporary checkout of `ref` (its folder and short commit id), removed on leaving."""
    commit = resolve(ref)
    with tempfile.TemporaryDirectory(prefix="tablepress-against-") as parent:
        folder = Path(parent) / "tree"
        _git("worktree", "add", "--detach", "--quiet", str(folder), commit)
        try:
            yield folder, commit[:7]
        finally:
            _git("worktree", "remove", "--force", str(folder))


#: Rounds in which each tree is timed, the order alternating (see the module doc).
ROUNDS = 4


def timed_in(tree: Path, game: str, players: int, spec: str, seconds: float, seed: int = 0,
             games: int | None = None) -> tuple[int, float]:
    """(games, CPU seconds) of whole `spec` self-play games of `game` with the code of `tree`, played for
    about `seconds` (or exactly `games` games) in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, str(Path(agent_rate.__file__)), str(tree), game, str(players), spec, str(seconds),
               str(seed), *([str(games)] if games is not None else [])]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise TablepressError(f"--against: {game} {players}p {spec} failed in {tree}: {last}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["games"], result["seconds"]


def side_by_side(trees: tuple[Path, Path], game: str, players: int, spec: str, seconds: float,
                 rounds: int = ROUNDS, first: int = 0) -> tuple[list[float], list[float]]:
    """Games per CPU second of each of the two `trees` over all rounds, and each round's ratio of the second
    tree's rate to the first's. Round r plays deal seed r: the tree going first for `seconds / rounds`, the
    other exactly as many games; the tree `first` (0 or 1) goes first in the first round, the order
    alternating after it."""
    games, used, ratios = 0, [0.0, 0.0], []
    for round_ in range(rounds):
        leader = first if round_ % 2 == 0 else 1 - first
        spent = [0.0, 0.0]
        played, spent[leader] = timed_in(trees[leader], game, players, spec, seconds / rounds, seed=round_)
        _, spent[1 - leader] = timed_in(trees[1 - leader], game, players, spec, seconds / rounds, seed=round_,
                                        games=played)
        games += played
        used[0] += spent[0]
        used[1] += spent[1]
        ratios.append(spent[0] / spent[1])
    return [games / used[0], games / used[1]], ratios


def against_table(ref: str, counts: Sequence[tuple[str, Sequence[int]]], specs: Sequence[str], seconds: float) -> Table:
    """Agent games per CPU second of `ref` and of this code, side by side, with the ratio."""
    with worktree(ref) as (tree, commit):
        named = ref if commit.startswith(ref) or ref.startswith(commit) else f"{ref} ({commit})"
        table = Table(title=f"Whole agent games per CPU second: {named} against this code")
        for head in ("game", "players", "agent", f"{ref}", "now", "now / before", f"{ROUNDS} rounds"):
            table.add_column(head, justify="right")
        first = 0
        for game, players in counts:
            for count in players:
                for spec in specs:
                    (before, now), ratios = side_by_side((tree, HERE), game, count, spec, seconds, first=first)
                    first = 1 - first
                    table.add_row(game, str(count), spec, f"{before:.3g}", f"{now:.3g}", f"{now / before:.2f}×",
                                  f"{min(ratios):.2f}–{max(ratios):.2f}×")
        return table
