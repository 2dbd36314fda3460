"""`tablepress bench`: the machine it ran on, and agent game rates beside random play (measured, never asserted)."""

from __future__ import annotations

from tablepress.bench import AGENT_SPECS, agent_games, bench_tables, machine
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
