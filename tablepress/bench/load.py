"""The load benchmark (not a test): `tablepress bench --web`, concurrent human-paced games against real servers.

For each run (store, server processes, concurrent games) it starts `tablepress serve --workers N` on
127.0.0.1 over a fresh store (a SQLite file, or a new database of a throwaway PostgreSQL cluster it starts
and stops itself), lets the people of `load_client` play that many By This games at once, two human seats a
game, each seat thinking `think` seconds on its turn, and measures for `seconds` after a warm-up:

- action latency: p50 / p95 / p99 / max of `POST /api/games/{id}/actions`, sent to answered;
- seen latency: from an action being sent to the other seat's WebSocket carrying the new view;
- actions a second served (answered 200) against offered (one a second per game: what the same people would
  make of a server that answered at once);
- CPU seconds per action of the server processes, of PostgreSQL and of the clients, and the machine (cores,
  load average) before and after.

A lobby run (`lobby:STORE:PROCESSES:GAMES`) has the people of `lobby_client` meet as named players at the
lobby's tables, chat while they play, and spectators keep the lobby open; it also times joins, lobby updates
and chat messages. The results are written by `load_report`.

Measured, never asserted; the load average says how shared the machine was.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx

from ..core.errors import TablepressError
from . import machine
from .load_client import People, quantiles
from .load_report import load_table, write
from .load_runs import Result, Run
from .lobby_client import Lobby, check_lobby, spectators_for
from .web import children, cpu_seconds, free_port

#: The runs of the issue's table: PostgreSQL with 1 and 2 processes at 100, 200 and 500 games; SQLite (one
#: process only) at 100 and 200; the lobby and chat over PostgreSQL with 1 and 2 processes at 100 and 200.
DEFAULT_RUNS = ("postgresql:1:100,200,500", "postgresql:2:100,200,500", "sqlite:1:100,200",
                "lobby:postgresql:1:100,200", "lobby:postgresql:2:100,200")
#: Seconds a server may take to answer /healthz after it starts.
START_SECONDS = 60.0
STORES = ("postgresql", "sqlite")
#: A plain run's games are made by `POST /api/games`; a lobby run's people meet at the lobby's tables and chat.
KINDS = ("table", "lobby")


def parse_runs(specs: Sequence[str]) -> list[Run]:
    """Runs from `[lobby:]STORE:WORKERS:GAMES[,GAMES...]` specs; TablepressError naming a wrong one."""
    runs = []
    for spec in specs:
        parts = spec.split(":")
        kind = parts.pop(0) if parts and parts[0] in KINDS else "table"
        try:
            store, workers, games = parts
            counts = [int(g) for g in games.split(",")]
            processes = int(workers)
        except ValueError:
            raise TablepressError(f"--run takes STORE:WORKERS:GAMES such as postgresql:2:100,500 (a lobby run:"
                                  f" lobby:STORE:WORKERS:GAMES), not {spec!r}") from None
        if store not in STORES:
            raise TablepressError(f"--run {spec}: the store is one of {', '.join(STORES)}")
        if processes < 1 or any(count < 1 for count in counts):
            raise TablepressError(f"--run {spec}: processes and games are whole numbers from 1")
        if store == "sqlite" and processes > 1:
            raise TablepressError(f"--run {spec}: over SQLite the server runs in one process")
        for count in counts:
            reason = check_lobby(count) if kind == "lobby" else None
            if reason:
                raise TablepressError(f"--run {spec}: {reason}")
        runs.extend(Run(store, processes, count, kind) for count in counts)
    return runs


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its children (Linux /proc; 0 for one gone)."""
    total = 0.0
    for each in (pid, *children(pid)):
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += cpu_seconds(each)
    return total


def postmaster_pid(data: Path) -> int | None:
    """The process id of a PostgreSQL cluster's server, from its data folder (None if unreadable)."""
    try:
        return int((data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def worker_processes(pid: int) -> list[int]:
    """The worker processes uvicorn started under `pid` (not its multiprocessing resource tracker)."""
    found = []
    for child in children(pid):
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
    return found


@contextlib.contextmanager
def server(store_url: str, workers: int) -> Iterator[tuple[subprocess.Popen, int]]:
    """`tablepress serve` on a free port of 127.0.0.1 over `store_url` with `workers` processes, AI pause off,
    answering /healthz; stopped at the end. Yields (process, port)."""
    port = free_port()
    exe = Path(sys.executable).with_name("tablepress")
    env = {**os.environ, "TABLEPRESS_DATABASE_URL": store_url}
    log = tempfile.TemporaryFile(mode="w+")  # the server's JSON log lines; a pipe nobody reads would fill up
    proc = subprocess.Popen([str(exe), "serve", "--host", "127.0.0.1", "--port", str(port), "--ai-delay", "0",
                             "--workers", str(workers)], env=env, stdout=subprocess.DEVNULL, stderr=log, text=True)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200 \
                        and (workers == 1 or len(worker_processes(proc.pid)) >= workers):
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                proc.wait()
                log.seek(0)
                raise TablepressError(f"the server did not start: {log.read()[-500:]}")
            time.sleep(0.1)
        time.sleep(1.0 if workers > 1 else 0)  # every worker has its app built and listens
        yield proc, port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


async def play(port: int, games: int, seconds: float, think: float, warmup: float,
               progress: Callable[[str], None], game: str = "by-this", kind: str = "table") -> tuple[People, float, float]:
    """Keep `games` games going for `warmup` + `seconds` (made by their people, or met at the lobby's tables for
    a lobby run); (the people, when measuring started and ended)."""
    people = (Lobby("127.0.0.1", port, game, think, spectators_for(games)) if kind == "lobby"
              else People("127.0.0.1", port, game, think))
    slots = people.tasks(games)
    clock = people.clock
    began = clock()
    start, end = began + warmup, began + warmup + seconds
    try:
        while (now := clock()) < end:
            await asyncio.sleep(min(5.0, max(0.05, end - now)))
            now = clock()
            phase = "warming up" if now < start else f"{min(seconds, now - start):.0f}/{seconds:.0f} s"
            done = [took for sent, took in people.tally.actions if sent >= start]
            p99 = f", p99 {quantiles(done)['p99']:.0f} ms" if done else ""
            social = (f", {len(people.social.created)} tables made, {len(people.social.chat_posts)} chat messages"
                      if isinstance(people, Lobby) else "")
            progress(f"  {phase}: {people.tally.games_started} games started, {len(done)} actions measured{p99}"
                     f"{social}, {people.tally.failed} failed")
    finally:
        people.stop()
        await asyncio.wait(slots, timeout=REQUEST_GRACE)
        for task in slots:
            task.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
    return people, start, end


#: Seconds the people get to finish what they are doing once the run ends.
REQUEST_GRACE = 10.0


def measure(run: Run, store_url: str, seconds: float, think: float, warmup: float,
            progress: Callable[[str], None], postgres: int | None = None) -> Result:
    """One run against a fresh server over `store_url` (`postgres`: the cluster's server process, for its CPU)."""
    before = machine()
    with server(store_url, run.workers) as (proc, port):
        progress(f"{run.label}: server up on 127.0.0.1:{port}")
        marks: dict[str, float] = {}

        def sample(name: str) -> None:
            marks[f"{name}_server"] = tree_cpu(proc.pid)
            marks[f"{name}_postgres"] = tree_cpu(postgres) if postgres else 0.0
            marks[f"{name}_client"] = time.process_time()

        async def timed() -> tuple[People, float, float]:
            loop = asyncio.get_running_loop()
            loop.call_later(warmup, sample, "start")
            people, start, end = await play(port, run.games, seconds, think, warmup, progress, kind=run.kind)
            return people, start, end

        people, start, end = asyncio.run(timed())
        sample("end")
    tally = people.tally
    measured = [took for sent, took in tally.actions if start <= sent < end]
    seen = [took for sent, took in tally.seen if start <= sent < end]
    count = max(1, len(measured))

    def per_action(name: str) -> float:
        return 1000 * (marks[f"end_{name}"] - marks.get(f"start_{name}", marks[f"end_{name}"])) / count

    return Result(
        run=run, seconds=seconds, think=think, actions=len(measured),
        offered_per_s=run.games / think, served_per_s=len(measured) / seconds,
        action_ms=quantiles(measured), seen_ms=quantiles(seen), create_ms=quantiles(tally.creations),
        refused=tally.refused, failed=tally.failed, games_started=tally.games_started,
        games_finished=tally.games_finished, server_cpu_ms=per_action("server"),
        postgres_cpu_ms=per_action("postgres") if postgres else None, client_cpu_ms=per_action("client"),
        machine_before=before, machine_after=machine(), errors=tally.errors,
        social=people.result() if isinstance(people, Lobby) else None,
    )


def bench_load(runs: Sequence[Run], seconds: float = 30.0, think: float = 1.0, warmup: float = 5.0,
               progress: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True),
               durable: bool = False) -> Iterator[Result]:
    """Measure every run in turn, yielding each result once measured. PostgreSQL runs share one throwaway
    cluster (fsync off unless `durable`), a fresh database each; SQLite runs a fresh file each."""
    cluster = None
    try:
        for run in runs:
            if run.store == "postgresql":
                if cluster is None:
                    from .postgres import FAST, Cluster, missing

                    reason = missing()
                    if reason:
                        raise TablepressError(f"cannot start a throwaway PostgreSQL: {reason}")
                    progress("starting a throwaway PostgreSQL cluster on 127.0.0.1")
                    cluster = Cluster("" if durable else FAST)
                url = cluster.database()
                try:
                    yield measure(run, url, seconds, think, warmup, progress, postmaster_pid(cluster.data))
                finally:
                    cluster.drop(url)
            else:
                with tempfile.TemporaryDirectory(prefix="tablepress-load-") as folder:
                    yield measure(run, str(Path(folder) / "games.db"), seconds, think, warmup, progress)
    finally:
        if cluster is not None:
            cluster.stop()


def load_command(specs: Sequence[str] | None, seconds: float, think: float, warmup: float, out: Path | None,
                 durable: bool, command: str) -> Iterator[Any]:
    """`tablepress bench --web`: the machine, each run's table row as it is measured, the whole table, the
    machine again; the results so far written to `out` (.md or .json) after each run. Bad input raises
    TablepressError."""
    from . import machine_table

    runs = parse_runs(specs or DEFAULT_RUNS)
    if out is not None and out.suffix not in (".md", ".json"):
        raise TablepressError(f"-o takes a .md or .json file, not {out.name}")
    if seconds <= 0 or think <= 0 or warmup < 0:
        raise TablepressError("--web-seconds and --think are over 0, --warmup 0 or more")
    yield machine_table(" (before)")
    results: list[Result] = []
    for result in bench_load(runs, seconds, think, warmup, durable=durable):
        results.append(result)
        if out is not None:
            write(results, out, command)  # after every run, so a run cut short keeps what it measured
        yield load_table([result], title=result.run.label)
    plain = [r for r in results if r.social is None]
    lobby = [r for r in results if r.social is not None]
    if plain:
        yield load_table(plain)
    if lobby:
        yield load_table(lobby, title="The lobby and chat: players meet at tables, play and chat")
    yield machine_table(" (after)")
