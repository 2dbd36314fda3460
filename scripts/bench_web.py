#!/usr/bin/env python3
"""Load benchmark for the web app (not a test): N concurrent bot games driven over the HTTP API on loopback.

Starts `tablepress serve` on 127.0.0.1 with a fresh database and AI pauses off, creates N games whose
human seats are played by bots (random legal actions) over HTTP, all at once, and reports action
latency (p50/p95/p99 of POST .../actions, and of GET views), throughput, and the server's memory per
game (resident set size growth divided by N).

    .venv/bin/python scripts/bench_web.py --games 50 --game flowers
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of values, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def play(client: httpx.AsyncClient, game: str, seats: list[str], seed: int, limit: int,
               posts: list[float], gets: list[float]) -> int:
    """Create one game and play its human seats with random legal actions until it ends (or `limit` actions)."""
    reply = await client.post("/api/games", json={"game": game, "seats": seats, "seed": seed})
    reply.raise_for_status()
    gid, tokens = reply.json()["id"], reply.json()["tokens"]
    rng = random.Random(seed)
    done = 0
    while done < limit:
        start = time.perf_counter()
        view = (await client.get(f"/api/games/{gid}")).json()
        gets.append(time.perf_counter() - start)
        if view["status"] == "over":
            break
        mine = [s for s in view["to_move"] if str(s) in tokens]
        if not mine:
            await asyncio.sleep(0.002)  # an AI seat is thinking on the server
            continue
        headers = {"Authorization": f"Bearer {tokens[str(mine[0])]}"}
        start = time.perf_counter()
        seat_view = (await client.get(f"/api/games/{gid}", headers=headers)).json()
        gets.append(time.perf_counter() - start)
        if not seat_view["legal_actions"]:
            continue
        start = time.perf_counter()
        answer = await client.post(f"/api/games/{gid}/actions", headers=headers,
                                   json={"action": rng.choice(seat_view["legal_actions"])})
        posts.append(time.perf_counter() - start)
        if answer.status_code == 200:
            done += 1
    return done


async def run(url: str, games: int, game: str, seats: list[str], limit: int) -> tuple[list[float], list[float], int, float]:
    """Play all games at once; returns POST and GET latencies, actions taken and wall time."""
    posts: list[float] = []
    gets: list[float] = []
    limits = httpx.Limits(max_connections=games * 2, max_keepalive_connections=games * 2)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        start = time.perf_counter()
        counts = await asyncio.gather(*[play(client, game, seats, seed, limit, posts, gets) for seed in range(games)])
        wall = time.perf_counter() - start
    return posts, gets, sum(counts), wall


def main() -> None:
    """Parse arguments, start the server, run the load and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games")
    parser.add_argument("--game", default="flowers")
    parser.add_argument("--seats", default="human,human", help="seat specs; human seats are played over HTTP")
    parser.add_argument("--actions", type=int, default=10_000, help="stop each game after this many HTTP actions")
    args = parser.parse_args()
    seats = args.seats.split(",")

    exe = Path(sys.executable).with_name("tablepress")
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = subprocess.Popen([str(exe), "serve", "--port", str(port), "--db", f"{tmp}/bench.db", "--ai-delay", "0"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    if httpx.get(url + "/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.05)
            base = rss_kib(server.pid)
            cpu_before = cpu_seconds(server.pid)
            client_before = time.process_time()
            posts, gets, actions, wall = asyncio.run(run(url, args.games, args.game, seats, args.actions))
            client_cpu = time.process_time() - client_before
            after = rss_kib(server.pid)
            cpu = cpu_seconds(server.pid) - cpu_before
        finally:
            server.terminate()
            server.wait(timeout=10)
    ms = 1000
    print(f"{args.games} concurrent {args.game} games ({','.join(seats)}), {actions} HTTP actions in {wall:.1f} s "
          f"= {actions / wall:.0f} actions/s")
    print(f"POST action latency: p50 {percentile(posts, .5) * ms:.1f} ms, p95 {percentile(posts, .95) * ms:.1f} ms, "
          f"p99 {percentile(posts, .99) * ms:.1f} ms, mean {statistics.fmean(posts) * ms:.1f} ms")
    print(f"GET view latency:    p50 {percentile(gets, .5) * ms:.1f} ms, p95 {percentile(gets, .95) * ms:.1f} ms")
    requests = len(posts) + len(gets) + args.games
    print(f"server CPU: {cpu:.1f} s for {requests} requests = {cpu / requests * 1000:.2f} ms a request "
          f"(load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores); "
          f"the bot clients used {client_cpu:.1f} s")
    print(f"server memory: {base / 1024:.1f} MiB idle -> {after / 1024:.1f} MiB with the games "
          f"= {(after - base) / args.games:.0f} KiB per game")


if __name__ == "__main__":
    main()
