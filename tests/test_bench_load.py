"""`tablepress bench --web` keeps working: two human-paced games for a few seconds against a real server over
SQLite, the results written as Markdown and JSON (figures measured, never asserted); a lobby run's players meet
at tables, play and chat, and its joins, lobby updates and chat messages are timed."""

from __future__ import annotations

import json

import pytest

from tablepress.bench.load import DEFAULT_RUNS, Run, parse_runs
from tablepress.bench.lobby_client import Budget, check_lobby
from tablepress.core.errors import TablepressError


def test_runs_are_read_from_store_processes_and_game_counts():
    assert parse_runs(["postgresql:2:100,500", "sqlite:1:3"]) == [
        Run("postgresql", 2, 100), Run("postgresql", 2, 500), Run("sqlite", 1, 3)]
    assert len(parse_runs(DEFAULT_RUNS)) == 12
    assert parse_runs(["lobby:postgresql:2:100,200"]) == [
        Run("postgresql", 2, 100, "lobby"), Run("postgresql", 2, 200, "lobby")]
    assert Run("sqlite", 1, 3, "lobby").label == "lobby: SQLite, 1 process, 3 games"
    for wrong in ("sqlite:2:10", "mysql:1:10", "postgresql:1", "postgresql:0:5", "sqlite:1:many", "lobby:sqlite:2:10",
                  "lobby:postgresql:1", "chat:postgresql:1:10", "lobby:postgresql:1:300"):
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
    assert only["run"] == {"store": "sqlite", "workers": 1, "games": 2, "kind": "table",
                           "label": "SQLite, 1 process, 2 games"}
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


def test_a_lobby_run_stays_within_the_servers_stream_cap_and_hourly_quotas():
    assert check_lobby(200) is None
    assert "lobby streams" in check_lobby(300)
    now = [0.0]
    budget = Budget(2, 3600, lambda: now[0])
    assert budget.take("127.0.0.2") and budget.take("127.0.0.2") and not budget.take("127.0.0.2")
    assert budget.take("127.0.0.3")
    now[0] = 3600.5
    assert budget.take("127.0.0.2")


def test_players_meet_in_the_lobby_play_and_chat_and_each_is_timed(cli, tmp_path):
    out = tmp_path / "lobby.json"
    result = cli("bench", "--web", "--run", "lobby:sqlite:1:2", "--web-seconds", "4", "--think", "0.2", "--warmup", "1",
                 "-o", str(out))
    assert result.exit_code == 0, result.output
    (only,) = json.loads(out.read_text())["results"]
    assert only["run"]["kind"] == "lobby" and only["run"]["label"] == "lobby: SQLite, 1 process, 2 games"
    assert only["failed"] == 0 and only["errors"] == [], only["errors"]
    assert only["actions"] > 0 and only["games_started"] >= 2
    social = only["social"]
    assert social["players"] == 4 and social["spectators"] == 1 and social["held"] == 0
    assert social["tables"] >= 2 and social["joins"] >= 2  # each table joined and its game seen by both players
    assert social["lobby_seen"] >= 1 and social["chats"] > 0 and 0 < social["chats_seen"] <= social["chats"]
    for figures in ("join_ms", "lobby_ms", "chat_ms", "chat_post_ms"):
        assert set(social[figures]) == {"p50", "p95", "p99", "max"}
        assert 0 < social[figures]["p50"] <= social[figures]["p99"] <= social[figures]["max"]
    markdown = tmp_path / "lobby.md"
    assert cli("bench", "--web", "--run", "lobby:sqlite:1:2", "--web-seconds", "1", "--think", "0.2", "--warmup", "0",
               "-o", str(markdown)).exit_code == 0
    page = markdown.read_text()
    assert "## The lobby and chat" in page and "join p50 / p95 / p99 ms" in page and "| SQLite | 1 | 2 | 4 / 1 |" in page
    assert "| store | processes | games | offered/s |" not in page  # no plain runs: no plain table
