"""Simulation jobs over the API: the same numbers as `tablepress simulate --json`, every error, the progress
stream, the report page, the bounds, and what a restart (even SIGKILL) or a dead worker does to a job."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
import warnings
from pathlib import Path


warnings.filterwarnings("ignore", message="Using `httpx`")


from tablepress.web import jobs  # noqa: E402
from tablepress.web.jobs import MAX_ATTEMPTS, JobPool  # noqa: E402
from tablepress.web.workshop_store import WorkshopStore  # noqa: E402

from web_helpers import Server  # noqa: E402

TABLEPRESS = str(Path(sys.executable).with_name("tablepress"))
SMALL_REGIONS = "[scoring]\nregion_min = 3\n"




def finished(client, job_id: str, timeout: float = 180.0) -> dict:
    """Poll a job until it is done or failed."""
    deadline = time.monotonic() + timeout
    while True:
        status = client.get(f"/api/simulations/{job_id}").json()
        if status["status"] in ("done", "failed"):
            return status
        assert time.monotonic() < deadline, f"the job is still {status['status']} ({status['done']} games)"
        time.sleep(0.2)


def submit(client, **body) -> str:
    """Queue a simulation; its id."""
    reply = client.post("/api/simulations", json=body)
    assert reply.status_code == 202, reply.text
    return reply.json()["id"]


def cli_json(*args: str, folder: Path | None = None) -> dict:
    """`tablepress simulate ... --json`'s object (run in `folder`, if given)."""
    done = subprocess.run([TABLEPRESS, "simulate", *args, "--json"], capture_output=True, text=True, timeout=300,
                          cwd=folder)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


#: Provenance that differs between two runs of the same numbers: when and how long, how the run was asked for,
#: and the local processes (results do not depend on --jobs).
VOLATILE = ("started", "seconds", "command", "rerun", "request", "variant_files", "jobs")


def numbers(summary: dict) -> dict:
    """A summary without the volatile parts of its provenance (the time, the load, the command line)."""
    provenance = {key: value for key, value in summary["provenance"].items() if key not in VOLATILE}
    provenance["machine"] = {key: value for key, value in provenance["machine"].items() if key != "load_average"}
    return {**summary, "provenance": provenance}


def rerun(provenance: dict, folder: Path) -> dict:
    """Run a web job's `rerun` command through the CLI in `folder`, its variant files written there first."""
    for entry in provenance["variant_files"]:
        (folder / entry["file"]).write_text(entry["toml"])
    words = shlex.split(provenance["rerun"])
    assert words[:2] == ["tablepress", "simulate"], words
    return cli_json(*words[2:], folder=folder)


def test_a_simulation_through_the_api_gives_the_clis_numbers(client, tmp_path):
    job_id = submit(client, game="by-this", games=24, players=3, seats=["random"], seed=7)
    status = finished(client, job_id)
    assert status["status"] == "done" and status["done"] == status["games"] == 24, status
    summary = status["summary"]
    typed = cli_json("by-this", "-n", "24", "--seed", "7", "--players", "3", "--seats", "random")
    assert numbers(summary) == numbers(typed)
    provenance = summary["provenance"]
    assert provenance["command"] is None and provenance["request"]["job"] == job_id, provenance
    assert provenance["tablepress"] and provenance["seed"] == 7 and len(provenance["game_seeds"]["seeds"]) == 24
    assert numbers(rerun(provenance, tmp_path)) == numbers(summary)
    page = client.get(f"/simulations/{job_id}").text
    assert "Balance report: by-this — 24 games, 3 players" in page and "data:image/png;base64," in page


def test_a_comparison_through_the_api_gives_the_clis_numbers(client, tmp_path):
    reply = client.post("/api/variants", json={"game": "flowers", "name": "small-regions", "toml": SMALL_REGIONS})
    variant_id = reply.json()["id"]
    job_id = submit(client, game="flowers", games=16, players=2, seats=["random"], seed=3, compare=variant_id)
    announced = client.get(f"/api/simulations/{job_id}").json()
    assert announced["games"] == 64 and announced["plan"] == {"games_per_arm": 16, "arms": 2, "skill_gap_games": 32}
    status = finished(client, job_id)
    assert status["status"] == "done" and status["arms"] == ["published cards", "small-regions"], status
    assert status["done"] == status["games"] == 64, status
    (tmp_path / "small-regions.toml").write_text(SMALL_REGIONS)
    expected = cli_json("flowers", "-n", "16", "--seed", "3", "--players", "2", "--seats", "random",
                        "--compare", "base", str(tmp_path / "small-regions.toml"))
    summary = status["summary"]
    assert numbers(summary) == numbers(expected) and "differences" in expected
    assert "skill_gap" in [measure["name"] for measure in summary["quality"]["measures"]]
    provenance = summary["provenance"]
    assert provenance["command"] is None and provenance["extra_games"] == 32
    assert [arm["variant"] for arm in provenance["request"]["arms"]] == [None, variant_id]
    again = tmp_path / "again"
    again.mkdir()
    assert numbers(rerun(provenance, again)) == numbers(summary)
    assert "Differences" in client.get(f"/simulations/{job_id}").text


def test_a_comparisons_progress_counts_its_skill_gap_games_and_no_typed_command(monkeypatch):
    monkeypatch.setattr(sys, "argv", [TABLEPRESS, "serve", "--port", "8000"])  # as a worker of `tablepress serve`
    request = {"game": "by-this", "games": 3, "players": 2, "seats": ["random", "random"], "seed": 1, "options": {},
               "arms": [{"label": "A", "overrides": None}, {"label": "B", "overrides": None}]}
    heard: list[int] = []
    result = jobs.simulate(request, lambda _label, games: heard.append(games))
    assert sum(heard) == jobs.planned_games(request) == 12
    assert result.quality["skill_seats"] and result.provenance["extra_games"] == 6
    assert result.provenance["command"] is None, result.provenance["command"]
    assert result.provenance["rerun"] == "tablepress simulate by-this -n 3 --seed 1 --seats random --players 2 " \
                                         "--compare base base"


def test_the_report_of_a_comparison_shows_the_verdict_and_the_provenance(client):
    variant_id = client.post("/api/variants", json={"game": "flowers", "name": "v", "toml": SMALL_REGIONS}).json()["id"]
    job_id = submit(client, game="flowers", games=4, players=2, seats=["random"], seed=5, compare=variant_id)
    assert finished(client, job_id)["status"] == "done"
    page = client.get(f"/simulations/{job_id}").text
    assert "<h2>Verdict on the game</h2>" in page and "The skill gap played extra games" in page
    assert page.index("Verdict on the game") < page.index("Differences, largest first")
    assert "<details class=meta><summary>Provenance: tablepress " in page
    assert "to repeat: tablepress simulate flowers -n 4 --seed 5 --seats random --players 2 --compare base v.toml" \
        in page
    assert "<h2>Repeat it on your machine</h2>" in page and f"job {job_id}" in page


def test_a_variant_alone_and_a_variant_against_itself(client):
    variant_id = client.post("/api/variants", json={"game": "flowers", "name": "v", "toml": SMALL_REGIONS}).json()["id"]
    one = finished(client, submit(client, game="flowers", games=4, players=2, seats=["random"], seed=1,
                                  variant=variant_id))
    assert one["arms"] == ["v"] and one["summary"]["variant"] == "v"
    both_id = submit(client, game="flowers", games=2, seats=["random"], variant=variant_id, compare=variant_id)
    both = client.get(f"/api/simulations/{both_id}").json()
    assert both["arms"] == ["A: v", "B: v"]


def test_bad_requests_are_refused_naming_the_field(client):
    variant_id = client.post("/api/variants", json={"game": "flowers", "name": "v", "toml": SMALL_REGIONS}).json()["id"]
    base = {"game": "by-this", "games": 10, "players": 3, "seats": ["random"]}
    cases = [
        ({**base, "game": "nope"}, "game: no game 'nope'"),
        ({**base, "games": 0}, "games: a whole number of games from 1 to 20,000"),
        ({**base, "games": 20_001}, "games: "),
        ({**base, "games": "10"}, "games: "),
        ({**base, "players": 9}, "players: "),
        ({**base, "seats": []}, "seats: "),
        ({**base, "seats": ["human"]}, "seats[0]: a simulation plays AI seats only"),
        ({**base, "seats": ["random", "ismcts:999999"]}, "seats[1]: "),
        ({**base, "seats": ["ismcts:60s"]}, "seats[0]: "),
        ({**base, "seats": ["telepath"]}, "seats[0]: "),
        ({**base, "seed": -1}, "seed: "),
        ({**base, "options": {"young": "maybe"}}, "options: "),
        ({**base, "variant": "000000000000"}, "variant: no saved variant"),
        ({**base, "compare": variant_id}, "compare: the variant 'v' is for flowers, not by-this"),
    ]
    for body, detail in cases:
        reply = client.post("/api/simulations", json=body)
        assert reply.status_code == 422, (body, reply.text)
        assert detail in reply.json()["detail"], (body, reply.json())
    assert client.post("/api/simulations", content=b"[]").status_code == 422
    assert client.get("/api/simulations/000000000000").status_code == 404
    assert client.get("/simulations/000000000000").status_code == 404


def test_the_queue_is_bounded_for_the_server_and_for_each_client(client, monkeypatch):
    monkeypatch.setattr(jobs, "CLIENT_WAITING", 1)
    submit(client, game="by-this", games=5, seats=["random"])
    reply = client.post("/api/simulations", json={"game": "by-this", "games": 5, "seats": ["random"]})
    assert reply.status_code == 429 and reply.json()["detail"].startswith("you already have 1 simulations")
    monkeypatch.setattr(jobs, "MAX_WAITING", 1)
    reply = client.post("/api/simulations", json={"game": "by-this", "games": 5, "seats": ["random"]})
    assert reply.status_code == 429 and "simulations are already waiting or running" in reply.json()["detail"]


def test_progress_streams_until_done_and_the_page_shows_progress_first(client):
    job_id = submit(client, game="by-this", games=30, players=2, seats=["random"], seed=2)
    page = client.get(f"/simulations/{job_id}")
    assert page.status_code == 200 and "/static/simulation.js" in page.text  # not done yet: the progress page
    events = []
    with client.stream("GET", f"/api/simulations/{job_id}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        for line in stream.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
    assert events[-1]["status"] == "done" and events[-1]["done"] == 30 and "summary" not in events[-1]
    dones = [e["done"] for e in events]
    assert dones == sorted(dones) and {e["status"] for e in events} <= {"queued", "running", "done"}


def test_a_job_over_its_time_is_failed_with_the_reason(app, client):
    app.state.workshop.jobs.seconds = 0.5
    status = finished(client, submit(client, game="by-this", games=20_000, seats=["greedy"]))
    assert status["status"] == "failed" and status["error"].startswith("stopped after 0.5 seconds, the longest")


def test_a_dead_worker_fails_its_job_with_the_reason(app, client):
    job_id = submit(client, game="by-this", games=20_000, seats=["greedy"])
    pool = app.state.workshop.jobs
    deadline = time.monotonic() + 60
    while job_id not in pool.running:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    pool.running[job_id].process.kill()
    status = finished(client, job_id)
    assert status["status"] == "failed" and status["error"] == "the simulation's worker stopped unexpectedly (exit code -9)"


def test_a_job_left_running_resumes_once_then_fails_with_the_reason(tmp_path, monkeypatch):
    monkeypatch.setattr(jobs, "STALE_SECONDS", 0.5)
    store = WorkshopStore(tmp_path / "games.db")
    request = {"game": "by-this", "games": 5, "players": 2, "seats": ["random", "random"], "seed": 1, "options": {},
               "arms": [{"label": "published cards", "overrides": None}]}
    for job_id in ("aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc", "dddddddddddd"):
        store.add_job(job_id, request, 5, None)
    store.start_job("aaaaaaaaaaaa")
    for _ in range(MAX_ATTEMPTS):
        store.requeue("bbbbbbbbbbbb")
        store.start_job("bbbbbbbbbbbb")
    time.sleep(1.0)  # their heartbeats stop: the server running them died
    store.start_job("dddddddddddd")  # another server's, beating
    JobPool(store)  # what a server starting on this file does
    assert store.job("aaaaaaaaaaaa")["status"] == "queued"
    assert store.job("dddddddddddd")["status"] == "running"
    failed = store.job("bbbbbbbbbbbb")
    assert failed["status"] == "failed" and failed["error"].startswith(f"the server stopped {MAX_ATTEMPTS} times")
    assert store.job("cccccccccccc")["status"] == "queued"
    store.close()


def test_a_job_survives_a_killed_server(tmp_path):
    db = tmp_path / "games.db"
    server = Server(db)
    try:
        reply = server.client.post("/api/simulations", json={"game": "by-this", "games": 20_000, "players": 2,
                                                             "seats": ["random"], "seed": 5})
        job_id = reply.json()["id"]
        deadline = time.monotonic() + 120
        while server.client.get(f"/api/simulations/{job_id}").json()["done"] == 0:
            assert time.monotonic() < deadline, "the job never started"
            time.sleep(0.1)
        server.kill()
        server = Server(db)
        deadline = time.monotonic() + 120
        while True:  # played again from its first game by a new worker (attempt 2), never lost
            status = server.client.get(f"/api/simulations/{job_id}").json()
            store = WorkshopStore(db)
            attempt = store.job(job_id)["attempt"]
            store.close()
            if attempt == 2 and status["status"] in ("running", "done") and status["done"] > 0:
                break
            assert status["status"] in ("queued", "running"), status
            assert time.monotonic() < deadline, status
            time.sleep(0.1)
    finally:
        server.stop()
