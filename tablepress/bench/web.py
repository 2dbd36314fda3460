"""Benchmark (not a test): simulated games a second the web server sustains while it serves play, and
play latency while a simulation job runs.

Starts `tablepress serve` on 127.0.0.1 over a fresh database (AI pauses off), then

1. plays a game against an AI over HTTP and times every `POST /api/games/{id}/actions` (baseline);
2. queues a simulation job (`POST /api/simulations`) and, while it runs, plays the same way again,
   reading the job's progress: simulated games per second of wall clock, and the job's worker CPU.

The server's own CPU per request comes from /proc (Linux), robust to the machine's load; the wall-clock
figures are not, so the report prints the load average with them.

    .venv/bin/python -m tablepress.bench.web --game by-this --games 3000 --actions 80
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    """A TCP port nobody listens on right now (loopback)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The process ids of a process's children (Linux /proc)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of `values`, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def play(client: httpx.Client, game: str, opponent: str, actions: int, rng: random.Random) -> list[float]:
    """Play seat 0 of games against `opponent` with random legal moves; the seconds each action POST took."""
    latencies: list[float] = []
    while len(latencies) < actions:
        reply = client.post("/api/games", json={"game": game, "seats": ["human", opponent]}).json()
        game_id, token = reply["id"], reply["tokens"]["0"]
        headers = {"Authorization": f"Bearer {token}"}
        while len(latencies) < actions:
            view = client.get(f"/api/games/{game_id}", headers=headers).json()
            if view["status"] == "over":
                break
            if 0 not in view["to_move"] or not view["legal_actions"]:
                time.sleep(0.002)
                continue
            started = time.perf_counter()
            answer = client.post(f"/api/games/{game_id}/actions", headers=headers,
                                 json={"action": rng.choice(view["legal_actions"])})
            if answer.status_code == 200:
                latencies.append(time.perf_counter() - started)
    return latencies


def summary(latencies: list[float]) -> str:
    """p50 / p95 / max in milliseconds."""
    ms = [x * 1000 for x in latencies]
    return f"p50 {statistics.median(ms):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms, max {max(ms):.1f} ms"


def bench_web(game: str = "by-this", games: int = 3000, players: int = 3, actions: int = 80,
              opponent: str = "random") -> dict[str, Any]:
    """Run the benchmark (see the module docstring); its figures."""
    folder = tempfile.mkdtemp(prefix="tablepress-bench-web-")
    port = free_port()
    exe = Path(sys.executable).with_name("tablepress")
    server = subprocess.Popen([str(exe), "serve", "--host", "127.0.0.1", "--port", str(port), "--db",
                               str(Path(folder) / "bench.db"), "--ai-delay", "0"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if client.get("/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)
        rng = random.Random(1)
        play(client, game, opponent, 5, rng)  # warm up the AI workers
        cpu0 = cpu_seconds(server.pid)
        baseline = play(client, game, opponent, actions, rng)
        base_cpu = cpu_seconds(server.pid) - cpu0
        job = client.post("/api/simulations", json={"game": game, "games": games, "players": players,
                                                    "seats": ["random"], "seed": 1}).json()["id"]
        while client.get(f"/api/simulations/{job}").json()["done"] == 0:
            time.sleep(0.05)
        start_done, started = client.get(f"/api/simulations/{job}").json()["done"], time.monotonic()
        workers = set(children(server.pid))
        worker_cpu0 = {pid: cpu_seconds(pid) for pid in workers}
        cpu1 = cpu_seconds(server.pid)
        during = play(client, game, opponent, actions, rng)
        during_cpu = cpu_seconds(server.pid) - cpu1
        status = client.get(f"/api/simulations/{job}").json()
        elapsed = time.monotonic() - started
        worker_cpu = sum(cpu_seconds(pid) - cpu for pid, cpu in worker_cpu0.items() if Path(f"/proc/{pid}").exists())
        played = status["done"] - start_done
        return {
            "game": game, "players": players, "load": os.getloadavg(),
            "baseline": baseline, "during": during,
            "server_cpu_ms_per_action": (1000 * base_cpu / len(baseline), 1000 * during_cpu / len(during)),
            "sim_games": played, "sim_seconds": elapsed, "sim_games_per_s": played / elapsed if elapsed else 0.0,
            "sim_status": status["status"],
            "worker_cpu_seconds": worker_cpu,
        }
    finally:
        client.close()
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark from the command line and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="by-this")
    parser.add_argument("--games", type=int, default=3000, help="games of the simulation job")
    parser.add_argument("--players", type=int, default=3, help="players of the simulated games")
    parser.add_argument("--actions", type=int, default=80, help="actions played (and timed) in each phase")
    parser.add_argument("--opponent", default="random", help="the AI seat of the played games")
    args = parser.parse_args(argv)
    r = bench_web(args.game, args.games, args.players, args.actions, args.opponent)
    print(f"machine load average {r['load'][0]:.2f} / {r['load'][1]:.2f} / {r['load'][2]:.2f} ({os.cpu_count()} cores)")
    print(f"play ({args.game}, human against {args.opponent}), POST action latency:")
    for label, latencies, cpu in (("no job running", r["baseline"], r["server_cpu_ms_per_action"][0]),
                                  ("during the job", r["during"], r["server_cpu_ms_per_action"][1])):
        print(f"  {label}:  {summary(latencies)}; server CPU {cpu:.2f} ms an action (with the views polled meanwhile)")
    rate_cpu = r["sim_games"] / r["worker_cpu_seconds"] if r["worker_cpu_seconds"] else float("nan")
    print(f"simulation job ({args.game}, {args.players} random seats): {r['sim_games']} games in {r['sim_seconds']:.1f} s"
          f" while serving play = {r['sim_games_per_s']:.1f} games/s ({rate_cpu:.1f} games a worker CPU second);"
          f" job {r['sim_status']} when play stopped")


if __name__ == "__main__":
    main()
