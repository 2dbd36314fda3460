"""`tablepress bench --web` keeps working: two human-paced games for a few seconds against a real server over
SQLite, the results written as Markdown and JSON (figures measured, never asserted)."""

from __future__ import annotations

import json

import pytest

from tablepress.bench.load import DEFAULT_RUNS, Run, parse_runs
from tablepress.core.errors import TablepressError


def test_runs_are_read_from_store_processes_and_game_counts():
    assert parse_runs(["postgresql:2:100,500", "sqlite:1:3"]) == [
        Run("postgresql", 2, 100), Run("postgresql", 2, 500), Run("sqlite", 1, 3)]
    assert len(parse_runs(DEFAULT_RUNS)) == 8
    for wrong in ("sqlite:2:10", "mysql:1:10", "postgresql:1", "postgresql:0:5", "sqlite:1:many"):
        with pytest.raises(TablepressError):
            parse_runs([wrong])


def test_two_games_for_a_few_seconds_are_measured_and_written(cli, tmp_path):
    out = tmp_path / "load.json"
    result = cli("bench", "--web", "--run", "sqlite:1:2", "--web-seconds", "3", "--think", "0.3", "--warmup", "1",
                 "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "Machine (before)" in result.stdout and "Machine (after)" in result.stdout
    written = json.loads(out.read_text())
    assert written["code"]  # the commit measured (or "unknown" outside a git checkout)
    (only,) = written["results"]
    assert only["run"] == {"store": "sqlite", "workers": 1, "games": 2, "label": "SQLite, 1 process, 2 games"}
    assert only["actions"] > 0 and only["failed"] == 0 and only["errors"] == []
    assert set(only["action_ms"]) == {"p50", "p95", "p99", "max"}
    assert only["games_started"] >= 2 and only["offered_per_s"] == pytest.approx(2 / 0.3)
    assert {"cores", "load average (1, 5, 15 min)"} <= set(only["machine_before"])
    markdown = tmp_path / "load.md"
    assert cli("bench", "--web", "--run", "sqlite:1:2", "--web-seconds", "2", "--think", "0.3", "--warmup", "0",
               "-o", str(markdown)).exit_code == 0
    table = markdown.read_text()
    assert "| SQLite | 1 | 2 |" in table and "p99 ms" in table


def test_a_wrong_output_file_is_refused_before_anything_runs(cli, tmp_path):
    result = cli("bench", "--web", "--run", "sqlite:1:2", "-o", str(tmp_path / "load.txt"))
    assert result.exit_code != 0 and "-o takes a .md or .json file" in result.output
