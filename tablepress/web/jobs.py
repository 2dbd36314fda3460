"""Simulation jobs: a queue in SQLite, played by worker processes, at most `workers` at once.

A job is `tablepress simulate` run by the web: the worker calls `sim.service.run_simulation` — the
function the CLI calls — with the stored request, writes its progress to the job's row as chunks of
games finish, and at the end the summary (`SimulationResult.as_json()`, exactly `simulate --json`) and
the HTML report (`sim.report.report_html`, what `simulate --report` writes). The server only reads them.

Bounds: a job plays at most MAX_GAMES games (checked when it is asked for), at most MAX_WAITING jobs
wait or run at once and CLIENT_WAITING of one client's (429 past that), a job playing over `seconds`
is stopped and failed with that reason, and only the newest KEEP_JOBS finished jobs are kept. Workers
run at a lower priority, so play on the server stays quick while they work.

A restart never loses a job silently: queued jobs stay queued, and a job that was running is played
again from its first game (its seeds give the same numbers) unless it was interrupted MAX_ATTEMPTS
times already — then it is failed, saying so. A worker that dies (killed, out of memory) fails its job
with its exit code.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import secrets
import time
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Any

from ..core.errors import TablepressError
from .hub import QuotaExceeded
from .logs import event
from ..core.worker_signals import watch_parent, workers_start_deaf_to_ctrl_c
from .workshop_store import QUEUED, RUNNING, WorkshopStore

log = logging.getLogger("tablepress.web")

#: The most games one job plays (per arm of a comparison).
MAX_GAMES = 20_000
#: Jobs waiting or running at once at most, and of them one client's (more are refused with 429).
MAX_WAITING = 20
CLIENT_WAITING = 3
#: Finished jobs kept (the oldest beyond are deleted as new ones come).
KEEP_JOBS = 200
#: The longest a job may play, in seconds of wall clock.
JOB_SECONDS = 3600.0
#: Starts of one job at most: a job interrupted by restarts this often is failed, not tried again.
MAX_ATTEMPTS = 2
#: How often the dispatcher looks at its workers, and how often a worker writes its progress (seconds).
POLL_SECONDS = 0.2
PROGRESS_SECONDS = 0.25
#: How much lower a worker's CPU priority is than the server's.
NICENESS = 10


class QueueFull(QuotaExceeded):
    """As many jobs wait or run as the server takes (HTTP 429)."""


def default_workers() -> int:
    """Jobs run at once by default: half the cores (one on two cores), at least one."""
    return max(1, (os.cpu_count() or 1) // 2)


@dataclass
class Running:
    """A job being played: its worker process, its attempt number and when it started."""

    process: BaseProcess
    attempt: int
    started: float


class JobPool:
    """The queue of simulation jobs and the worker processes playing them."""

    def __init__(self, store: WorkshopStore, workers: int | None = None, seconds: float = JOB_SECONDS):
        self.store = store
        self.workers = workers or default_workers()
        self.seconds = seconds
        self.running: dict[str, Running] = {}
        self._task: asyncio.Task | None = None
        self._wake: asyncio.Event | None = None
        self.recover()

    def recover(self) -> None:
        """Jobs left running by a previous server go back to the queue, or fail after MAX_ATTEMPTS starts."""
        for job_id in self.store.job_ids(RUNNING):
            job = self.store.job(job_id)
            if job["attempt"] >= MAX_ATTEMPTS:
                self.store.fail(job_id, f"the server stopped {job['attempt']} times while this simulation ran"
                                        f" (last at {job['done']} of {job['games']} games); not tried again")
                event(log, "job_failed", logging.WARNING, job=job_id, error="interrupted too often")
            else:
                self.store.requeue(job_id)
                event(log, "job_resumed", job=job_id, attempt=job["attempt"])

    def submit(self, request: dict[str, Any], games: int, client: str | None) -> str:
        """Queue a checked request (see `jobs_routes.parse_simulation`); its id. QueueFull past MAX_WAITING
        jobs, or CLIENT_WAITING of `client`'s."""
        waiting = self.store.count_jobs(QUEUED, RUNNING)
        if waiting >= MAX_WAITING:
            raise QueueFull(f"{waiting} simulations are already waiting or running, the most this server takes;"
                            " try again when one has finished")
        if client is not None and self.store.count_jobs(QUEUED, RUNNING, client=client) >= CLIENT_WAITING:
            raise QueueFull(f"you already have {CLIENT_WAITING} simulations waiting or running, the most one client"
                            " may; try again when one has finished")
        job_id = secrets.token_hex(6)
        self.store.add_job(job_id, request, games, client)
        self.store.forget_jobs(KEEP_JOBS)
        event(log, "job_queued", job=job_id, game=request["game"], games=games, arms=len(request["arms"]))
        if self._wake is not None:
            self._wake.set()
        return job_id

    def queue_position(self, job_id: str) -> int | None:
        """How many queued jobs are ahead of this one (None if it is not queued)."""
        queued = self.store.job_ids(QUEUED)
        return queued.index(job_id) if job_id in queued else None

    # ----- the dispatcher ------------------------------------------------------------------------
    def start(self) -> None:
        """Start dispatching jobs to workers (call once the event loop runs)."""
        if self._task is None or self._task.done():
            self._wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._dispatch(), name="simulation-jobs")

    async def _dispatch(self) -> None:
        """Start queued jobs while workers are free; reap finished and overdue ones."""
        assert self._wake is not None
        while True:
            try:
                self._reap()
                while len(self.running) < self.workers:
                    queued = [job_id for job_id in self.store.job_ids(QUEUED) if job_id not in self.running]
                    if not queued:
                        break
                    self._launch(queued[0])
            except Exception as exc:  # noqa: BLE001 - e.g. a locked database; look again shortly
                event(log, "jobs_failed", logging.ERROR, error=f"{type(exc).__name__}: {exc}")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)
            self._wake.clear()

    def _launch(self, job_id: str) -> None:
        attempt = self.store.start_job(job_id)
        context = multiprocessing.get_context("spawn")
        process = context.Process(target=work, args=(self.store.path, job_id, attempt, os.getpid()),
                                  name=f"simulation-{job_id}")
        with workers_start_deaf_to_ctrl_c():
            process.start()
        self.running[job_id] = Running(process, attempt, time.monotonic())
        event(log, "job_started", job=job_id, attempt=attempt, pid=process.pid)

    def _reap(self) -> None:
        for job_id, run in list(self.running.items()):
            process = run.process
            if process.is_alive() and time.monotonic() - run.started > self.seconds:
                process.kill()
                process.join(5)
                took = f"{self.seconds:g} seconds" if self.seconds < 120 else f"{self.seconds / 60:g} minutes"
                self.store.fail(job_id, f"stopped after {took}, the longest a simulation may"
                                        " run on this server; ask for fewer games or faster seats", run.attempt)
                event(log, "job_failed", logging.WARNING, job=job_id, error="over time")
            elif process.is_alive():
                continue
            else:
                process.join()
                code = process.exitcode
                self.store.fail(job_id, f"the simulation's worker stopped unexpectedly (exit code {code})",
                                run.attempt)  # a no-op when the worker finished or failed the job itself
                event(log, "job_ended", job=job_id, exit=code, status=self.store.job(job_id)["status"])
            process.close()
            del self.running[job_id]

    async def close(self) -> None:
        """Stop dispatching and stop the workers; their jobs stay running in the store, to resume at the next start."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for run in self.running.values():
            run.process.kill()
        for run in self.running.values():
            run.process.join(5)
        self.running.clear()


# ----- in the worker process ---------------------------------------------------------------------
def work(db: str, job_id: str, attempt: int, parent: int) -> None:
    """Play one job (in a worker process) and store its summary and report, or fail it with the reason."""
    watch_parent(parent)
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    store = WorkshopStore(db)
    try:
        job = store.job(job_id)
        result = simulate(job["request"], Progress(store, job_id, attempt, len(job["request"]["arms"])))
        from ..sim.report import report_html

        store.finish(job_id, attempt, result.as_json(), report_html(result.runs, result.differences))
    except TablepressError as exc:
        store.fail(job_id, " ".join(str(exc).split())[:300], attempt)
    except MemoryError:
        store.fail(job_id, "the simulation needs more memory than this server has", attempt)
    except Exception as exc:  # noqa: BLE001 - the job fails with the reason rather than the worker dying silently
        log.exception("simulation %s failed", job_id)
        store.fail(job_id, f"internal error: {type(exc).__name__}: {exc}"[:300], attempt)
    finally:
        store.close()


class Progress:
    """`on_rows` for run_simulation: counts finished games and writes them to the job's row now and then."""

    def __init__(self, store: WorkshopStore, job_id: str, attempt: int, arms: int):
        self.store, self.job_id, self.attempt, self.arms = store, job_id, attempt, arms
        self.played = 0
        self.written = 0.0

    def __call__(self, _label: str, games: int) -> None:
        """Games just finished in one arm (a comparison plays every game twice: done counts pairs)."""
        self.played += games
        now = time.monotonic()
        if now - self.written >= PROGRESS_SECONDS:
            self.written = now
            self.store.progress(self.job_id, self.attempt, self.played // self.arms)


def simulate(request: dict[str, Any], on_rows: Progress | None = None) -> Any:
    """Run a stored request exactly as `tablepress simulate` runs the same one; the SimulationResult.

    Each arm's overrides are checked with `apply_variant` at the request's player count, as the CLI
    checks a `--variant` file.
    """
    from ..core.registry import get_game
    from ..core.variants import apply_variant
    from ..sim.service import Arm, run_simulation

    game = get_game(request["game"])
    options = game.normalise_options(request.get("options") or {})
    players = request["players"]
    arms = []
    for arm in request["arms"]:
        overrides = arm["overrides"]
        if overrides is not None:
            overrides = apply_variant(overrides, game, players, options, f"variant {arm['label']}").variant
        arms.append(Arm(arm["label"], overrides))
    return run_simulation(game.name, request["games"], arms, request["seed"], ",".join(request["seats"]), players,
                          request.get("options") or {}, jobs=1, on_rows=on_rows)
