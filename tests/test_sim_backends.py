"""The same seed gives the same numbers on any number of local processes and on a real local Ray."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tablepress.cli import app
from tablepress.sim.backends import chunks, run_games
from tablepress.sim.runner import SimSpec, play_one

runner = CliRunner()


def _json(*args: str) -> dict:
    result = runner.invoke(app, ["simulate", "flowers", "-n", "20", "--seed", "11", "--seats", "random", "--json", *args])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    return data


def test_jobs_1_jobs_2_and_ray_give_identical_results() -> None:
    pytest.importorskip("ray")
    one = _json("--jobs", "1")
    two = _json("--jobs", "2")
    on_ray = _json("--backend", "ray")
    assert {**one, "provenance": None} == {**two, "provenance": None} == {**on_ray, "provenance": None}
    assert sum(seat["wins"] for seat in one["seats"]) == pytest.approx(20)


def test_rows_are_identical_and_in_order_on_a_pool() -> None:
    spec = SimSpec("flowers", 3, ("random", "random", "random"))
    alone = run_games(spec, 5, 17, jobs=1)
    pooled = run_games(spec, 5, 17, jobs=2)
    assert alone == pooled
    assert [row["index"] for row in pooled] == list(range(17))
    assert play_one(spec, 5, 16) == alone[16]


def test_chunks_cover_every_game_once() -> None:
    for games, workers in [(1, 2), (17, 2), (1000, 2), (5, 8)]:
        parts = chunks(games, workers)
        assert sorted(i for part in parts for i in part) == list(range(games))


def test_progress_is_reported_for_every_game() -> None:
    seen: list[int] = []
    run_games(SimSpec("flowers", 2, ("random", "random")), 1, 9, jobs=2, on_rows=seen.append)
    assert sum(seen) == 9


def test_a_game_that_fails_is_one_line_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from tablepress.core.errors import TablepressError
    from tablepress.sim import runner as sim_runner

    def broken(game, match):  # noqa: ANN001, ANN202
        raise KeyError("petal")

    monkeypatch.setattr(sim_runner, "card_figures", broken)
    with pytest.raises(TablepressError, match=r"^game 0 \(seed \d+\) failed: KeyError: 'petal'$"):
        run_games(SimSpec("flowers", 2, ("random", "random")), 1, 3, jobs=1)


def test_every_game_is_logged_move_by_move_and_replays(tmp_path) -> None:  # noqa: ANN001
    from tablepress.core import records
    from tablepress.core.match import load_record

    spec = SimSpec("planted", 3, ("random", "greedy:1", "random"), records=str(tmp_path))
    row = play_one(spec, 4, 2)
    record = load_record(tmp_path / "game-000002.json")
    assert len(record["actions"]) == row["decisions"] > 0
    assert record["seats"] == row["seats"] == ["random", "greedy:1", "random"]
    replayed = records.from_record(record)
    assert replayed.is_over and [float(s) for s in replayed.game.scores(replayed.state)] == row["scores"]


def test_rotated_seats_move_the_first_spec_one_seat_a_game() -> None:
    spec = SimSpec("flowers", 3, ("ismcts", "greedy", "greedy"), rotate=True)
    assert [spec.seats_of(i).index("ismcts") for i in range(5)] == [0, 1, 2, 0, 1]
    assert SimSpec("flowers", 2, ("a", "b")).seats_of(1) == ["a", "b"]
    rows = run_games(SimSpec("by-this", 2, ("greedy:1", "random"), rotate=True), 3, 4, jobs=1)
    assert [row["seats"] for row in rows] == [["greedy:1", "random"], ["random", "greedy:1"]] * 2


def test_a_local_ray_instance_lives_on_the_loopback_interface() -> None:
    """Ray's node, and so every server it binds, is 127.0.0.1 — never the machine's network address."""
    ray = pytest.importorskip("ray")
    from tablepress.sim.backends import backend_session

    with backend_session("ray"):
        nodes = ray.nodes()
        assert nodes and {node["NodeManagerAddress"] for node in nodes} == {"127.0.0.1"}
        assert ray.get_runtime_context().gcs_address.startswith("127.0.0.1:")
