"""`tablepress bench`: the machine it ran on, and agent game rates beside random play (measured, never asserted)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from rich.table import Table

from tablepress.bench import AGENT_SPECS, against, agent_games, agent_rate, bench_tables, machine
from tablepress.bench.against import HERE
from tablepress.core.errors import TablepressError
from tablepress.core.registry import get_game


def test_agent_games_play_whole_games_with_the_agent_in_every_seat() -> None:
    """At least one whole game is played, counting every decision, in CPU seconds."""
    result = agent_games(get_game("by-this"), 2, "greedy", seconds=0.0)
    assert result.games == 1 and result.actions > 10 and result.seconds > 0
    assert result.games_per_second == result.games / result.seconds


def test_the_machine_is_reported_with_the_figures() -> None:
    """Cores and load average are read from the machine; bench prints them before and after the figures."""
    info = machine()
    assert int(info["cores"]) >= 1
    assert len(info["load average (1, 5, 15 min)"].split(", ")) == 3
    tables = list(bench_tables(["by-this"], "2", 0.01, ismcts=False))
    titles = [str(table.title) for table in tables]
    assert titles[0].startswith("Machine") and titles[-1].startswith("Machine")
    speed = tables[1]
    headers = [str(column.header) for column in speed.columns]
    assert "greedy games/s" in headers and not any("ismcts" in h for h in headers)
    assert speed.row_count == 1
    assert AGENT_SPECS == ("greedy", "ismcts:300")


def _cells(table: Table) -> list[list[str]]:
    return [list(map(str, column.cells)) for column in table.columns]


def test_against_times_another_commit_beside_this_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--against HEAD` checks HEAD out, times both trees in their own processes and removes the worktree and
    the temporary folder that held it."""
    before = subprocess.run(["git", "worktree", "list"], cwd=HERE, capture_output=True, text=True).stdout
    made: list[str] = []
    real_mkdtemp = tempfile.mkdtemp

    def recorded_mkdtemp(*args, **kwargs) -> str:
        made.append(real_mkdtemp(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(tempfile, "mkdtemp", recorded_mkdtemp)
    tables = list(bench_tables(["by-this"], "2", 0.01, ismcts=False, against="HEAD"))
    side = next(table for table in tables if "against this code" in str(table.title))
    game, players, agent, then, now, ratio, rounds = _cells(side)
    assert (game, players, agent) == (["by-this"], ["2"], ["greedy"])
    assert float(then[0]) > 0 and float(now[0]) > 0 and ratio[0].endswith("×")
    low, high = map(float, rounds[0].rstrip("×").split("–"))
    assert 0 < low <= high
    after = subprocess.run(["git", "worktree", "list"], cwd=HERE, capture_output=True, text=True).stdout
    assert after == before
    held = [folder for folder in made if Path(folder).name.startswith("tablepress-against-")]
    assert len(held) == 1 and not Path(held[0]).exists()


def test_against_alternates_the_trees_round_by_round_on_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """ABBA: a drift of the machine's speed falls on both trees. In a round the tree going first plays for its
    time and the other exactly as many games from the same seed; the rates are all games over all seconds,
    and each round's ratio is its own."""
    calls = []

    def timed(tree, game, players, spec, seconds, seed=0, games=None):
        calls.append((tree, seed, games))
        played = 10 if games is None else games
        return played, played * (0.2 if tree == "old" else 0.1 * (1 + seed))

    monkeypatch.setattr(against, "timed_in", timed)
    (before, now), ratios = against.side_by_side(("old", "new"), "by-this", 2, "greedy", 8.0, rounds=4, first=1)
    assert calls == [("new", 0, None), ("old", 0, 10), ("old", 1, None), ("new", 1, 10),
                     ("new", 2, None), ("old", 2, 10), ("old", 3, None), ("new", 3, 10)]
    assert before == pytest.approx(40 / 8.0) and now == pytest.approx(40 / 10.0)
    assert ratios == pytest.approx([2.0, 1.0, 2 / 3, 0.5])


def test_the_timing_script_plays_exactly_the_games_asked_for() -> None:
    """Given a game count, the timing script plays that many games whatever its time (the paired round)."""
    games, decisions, _ = agent_rate.agent_games(get_game("by-this"), 2, "random", 0.0, 3, games_wanted=3)
    assert games == 3 and decisions > 0


def test_against_an_unknown_revision_is_one_clear_line() -> None:
    with pytest.raises(TablepressError, match="no commit 'no-such-branch'"):
        list(bench_tables(["by-this"], "2", 0.01, ismcts=False, against="no-such-branch"))


def test_against_outside_a_git_checkout_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(against, "HERE", tmp_path)
    with pytest.raises(TablepressError, match="not a git checkout"):
        with against.worktree("HEAD"):
            pass


def test_the_timing_script_refuses_a_tree_it_did_not_import(tmp_path: Path) -> None:
    """The child process checks that the tree it times is the one it imported (a path mix-up fails loudly)."""
    script = Path(agent_rate.__file__)
    done = subprocess.run([sys.executable, str(script), str(tmp_path), "by-this", "2", "greedy", "0", "0"],
                          capture_output=True, text=True)
    assert done.returncode != 0 and "not from" in done.stderr
