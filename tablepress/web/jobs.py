"""Simulation jobs: a queue in the store, played by worker processes, at most `workers` at once per process.

A job is `tablepress simulate` run by the web: the worker calls `sim.service.run_simulation` — the
function the CLI calls — with the stored request (and, for a comparison, the verdict's skill-gap games, as
the CLI plays them), writes its progress to the job's row as chunks of games finish, and at the end the
summary (`SimulationResult.as_json()`: `simulate --json`'s numbers) and the HTML report
(`sim.report.report_html`, what `simulate --report` writes, verdict and provenance included). The server
only reads them.

A job's provenance is the CLI's with what differs said plainly: no command line was typed, so `command` is
null and `request` describes what was asked of the site; `rerun` is the `tablepress simulate` command that
gives the same numbers, with `variant_files` naming the TOML files it reads (and their text); the time taken
is the job's own, the machine the server's.

Bounds: a job plays at most MAX_GAMES games (checked when it is asked for), at most MAX_WAITING jobs
wait or run at once and CLIENT_WAITING of one client's (429 past that), a job playing over `seconds`
is stopped and failed with that reason, and only the newest KEEP_JOBS finished jobs are kept. Workers
run at a lower priority, so play on the server stays quick while they work.

Every server process runs a dispatcher over the one store. A dispatcher claims a queued job before it
starts a worker (`Store.claim_job`: a conditional update, so of processes asking at once one gets each
job) and stamps a heartbeat on each job it runs every HEARTBEAT_SECONDS, by the database's clock. A job
whose heartbeat has stopped for over STALE_SECONDS (its process died or lost the database) is put back
in the queue by any process — at its start or while it runs — and played again from its first game (its
seeds give the same numbers), unless it was interrupted MAX_ATTEMPTS times already: then it is failed,
saying so. A job another live process runs is never touched, and a process whose job was taken from it
stops that worker (its writes are fenced by the attempt number anyway). A worker that dies (killed, out of
memory) fails its job with its exit code.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import multiprocessing
import os
import re
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any

from ..core.errors import TablepressError
from .faults import writing
from .hub import QuotaExceeded
from .logs import event, setup_worker
from ..core.worker_signals import watch_parent, workers_start_deaf_to_ctrl_c
from .workshop_store import DONE, FAILED, QUEUED, RUNNING, WorkshopStore

if TYPE_CHECKING:
    from ..sim.service import SimulationResult

log = logging.getLogger("tablepress.web")

#: The most games a job may be asked for (per arm of a comparison, whose skill gap plays as many again).
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
#: How often a dispatcher stamps its running jobs' heartbeats and looks for stalled jobs, and how long a job's
#: heartbeat may stop before the job is taken for abandoned and queued again (seconds, the database's clock).
HEARTBEAT_SECONDS = 2.0
STALE_SECONDS = 20.0
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
        self._next_beat = 0.0
        self.recover()

    def recover(self) -> None:
        """Running jobs whose heartbeat stopped over STALE_SECONDS ago (their process died) go back to the queue,
        or fail after MAX_ATTEMPTS starts; jobs whose process still beats are left alone."""
        for job in self.store.stalled_jobs(STALE_SECONDS):
            job_id, attempt = job["id"], job["attempt"]
            if job_id in self.running:
                continue
            if attempt >= MAX_ATTEMPTS:
                self.store.fail(job_id, f"the server stopped {attempt} times while this simulation ran"
                                        f" (last at {job['done']} of {job['games']} games); not tried again", attempt)
                event(log, "job_failed", logging.WARNING, job=job_id, error="interrupted too often")
            elif self.store.requeue(job_id, attempt, stalled=STALE_SECONDS):
                event(log, "job_resumed", job=job_id, attempt=attempt)

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
        with writing("job", job=job_id, client=client):
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
                if time.monotonic() >= self._next_beat:
                    self._next_beat = time.monotonic() + HEARTBEAT_SECONDS
                    self._beat()
                    self.recover()
                while len(self.running) < self.workers:
                    claimed = self.store.claim_job()
                    if claimed is None:
                        break
                    self._launch(*claimed)
            except Exception as exc:  # noqa: BLE001 - e.g. a locked database; look again shortly
                event(log, "jobs_failed", logging.ERROR, error=f"{type(exc).__name__}: {exc}")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)
            self._wake.clear()

    def _launch(self, job_id: str, attempt: int) -> None:
        context = multiprocessing.get_context("spawn")
        process = context.Process(target=work, args=(self.store.path, job_id, attempt, os.getpid()),
                                  name=f"simulation-{job_id}")
        with workers_start_deaf_to_ctrl_c():
            process.start()
        self.running[job_id] = Running(process, attempt, time.monotonic())
        event(log, "job_started", job=job_id, attempt=attempt, pid=process.pid)

    def _beat(self) -> None:
        """Stamp the heartbeat of every job this process runs; stop the worker of one taken from it."""
        for job_id, run in list(self.running.items()):
            if self.store.beat(job_id, run.attempt) or self.store.job(job_id)["status"] in (DONE, FAILED):
                continue  # a finished job's worker is reaped with its exit code
            run.process.kill()
            run.process.join(5)
            run.process.close()
            del self.running[job_id]
            event(log, "job_lost", logging.WARNING, job=job_id, attempt=run.attempt)

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
        """Stop dispatching and stop the workers; their jobs stay running in the store until their heartbeats are
        STALE_SECONDS old, then any process queues them again."""
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
    """Play one job (in a worker process) and store its summary and report, or fail it with the reason.

    Whatever goes wrong reaches the log as JSON lines (`logs.setup_worker`): a fault of the server's own as
    event `job_crashed` with its traceback as a field; one that leaves the job unstored ends the worker with
    exit code 1 (the dispatcher then fails the job, saying so)."""
    setup_worker()
    watch_parent(parent)
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    try:
        store = WorkshopStore(db)
        try:
            play(store, job_id, attempt)
        finally:
            store.close()
    except BaseException as exc:  # noqa: BLE001 - one JSON line, never a plain traceback from the process
        log.error("job_worker_failed", exc_info=True, extra={"fields": {"job": job_id,
                                                                        "error": f"{type(exc).__name__}: {exc}"}})
        raise SystemExit(1) from None


def play(store: WorkshopStore, job_id: str, attempt: int) -> None:
    """Play the job and store its result, or fail it with the reason (see `work`)."""
    try:
        job = store.job(job_id)
        result = simulate(job["request"], Progress(store, job_id, attempt), job_id)
        store.finish(job_id, attempt, result.as_json(), report_of(result))
    except TablepressError as exc:
        store.fail(job_id, " ".join(str(exc).split())[:300], attempt)
    except MemoryError:
        store.fail(job_id, "the simulation needs more memory than this server has", attempt)
    except Exception as exc:  # noqa: BLE001 - the job fails with the reason rather than the worker dying silently
        log.error("job_crashed", exc_info=True, extra={"fields": {"job": job_id,
                                                                  "error": f"{type(exc).__name__}: {exc}"}})
        store.fail(job_id, f"internal error: {type(exc).__name__}: {exc}"[:300], attempt)


class Progress:
    """`on_rows` for run_simulation: counts finished games and writes them to the job's row now and then."""

    def __init__(self, store: WorkshopStore, job_id: str, attempt: int):
        self.store, self.job_id, self.attempt = store, job_id, attempt
        self.played = 0
        self.written = 0.0

    def __call__(self, _label: str, games: int) -> None:
        """Games just finished, in any arm or in the skill-gap run: each counts once (see `planned_games`)."""
        self.played += games
        now = time.monotonic()
        if now - self.written >= PROGRESS_SECONDS:
            self.written = now
            self.store.progress(self.job_id, self.attempt, self.played)


def skill_gap_games(request: Mapping[str, Any]) -> int:
    """The games a request's verdict adds for the skill gap: every arm's games again when arms are compared
    (at two or more players, as `tablepress simulate --compare` plays them), else none."""
    arms = len(request["arms"])
    return request["games"] * arms if arms > 1 and request["players"] > 1 else 0


def planned_games(request: Mapping[str, Any]) -> int:
    """Every game a job plays: each arm's games, and the skill gap's (the job's `games`, known from the start)."""
    return request["games"] * len(request["arms"]) + skill_gap_games(request)


def simulate(request: dict[str, Any], on_rows: Callable[[str, int], None] | None = None,
             job_id: str | None = None) -> SimulationResult:
    """Run a stored request exactly as `tablepress simulate` runs the same one; the SimulationResult, its
    provenance describing the web request (`web_provenance`).

    Each arm's overrides are checked with `apply_variant` at the request's player count, as the CLI
    checks a `--variant` file. A comparison plays the skill-gap games too and is judged with them, as the CLI
    judges it; `on_rows` hears of every game, the skill gap's included.
    """
    from ..core.registry import get_game
    from ..core.variants import apply_variant
    from ..sim.service import Arm, play_skill_gap, run_simulation
    from ..sim.verdict import quality_verdict

    started = time.time()
    game = get_game(request["game"])
    options = game.normalise_options(request.get("options") or {})
    players = request["players"]
    arms = []
    for arm in request["arms"]:
        overrides = arm["overrides"]
        if overrides is not None:
            overrides = apply_variant(overrides, game, players, options, f"variant {arm['label']}").variant
        arms.append(Arm(arm["label"], overrides))
    result = run_simulation(game.name, request["games"], arms, request["seed"], ",".join(request["seats"]), players,
                            request.get("options") or {}, jobs=1, on_rows=on_rows)
    extra = skill_gap_games(request)
    if extra:
        skill = play_skill_gap(game.name, request["games"], arms, result.seed, players, request.get("options") or {},
                               jobs=1, on_rows=on_rows)
        result.quality = quality_verdict([(label, rows) for label, _, rows in result.runs], skill)
    if result.provenance is not None:
        result.provenance.update(web_provenance(request, job_id, started, extra))
    return result


def web_provenance(request: Mapping[str, Any], job_id: str | None, started: float, extra: int) -> dict[str, Any]:
    """What a job's provenance says in place of the CLI's: no typed command, the request, the command that
    repeats it (with the variant files it reads), and the job's own time from `started`."""
    from ..core.registry import get_game
    from ..sim.provenance import rerun_command

    game = get_game(request["game"])
    defaults = json.loads(json.dumps(game.normalise_options({})))
    options = {key: value for key, value in (request.get("options") or {}).items() if defaults.get(key) != value}
    files = variant_files(request["arms"])
    sources = [entry["file"] if entry else "base" for entry in files]
    if len(sources) > 1:
        more = ["--compare", *sources]
    else:
        more = ["--variant", sources[0]] if files[0] else []
    asked = {"route": "POST /api/simulations", "job": job_id, "game": game.name, "games": request["games"],
             "players": request["players"], "seats": list(request["seats"]), "seed": request["seed"],
             "options": options, "arms": [{"label": arm["label"], "variant": (arm.get("variant") or {}).get("id")}
                                          for arm in request["arms"]]}
    return {"command": None, "request": asked,
            "rerun": rerun_command(game.name, request["games"], request["seed"], seats_text(request["seats"]),
                                   request["players"], options, more),
            "variant_files": [entry for entry in files if entry], "extra_games": extra,
            "started": datetime.fromtimestamp(started, timezone.utc).isoformat(timespec="seconds"),
            "seconds": round(time.time() - started, 3)}


def seats_text(seats: Sequence[str]) -> str:
    """Seat specs as `--seats` takes them, the repeated last spec left out (`random,random,random` → `random`)."""
    specs = list(seats)
    while len(specs) > 1 and specs[-1] == specs[-2]:
        specs.pop()
    return ",".join(specs)


def variant_files(arms: Sequence[Mapping[str, Any]]) -> list[dict[str, Any] | None]:
    """Per arm, the TOML file the CLI reads for it — {"file", "variant", "name", "toml"} — or None for the
    published cards. A file is named after its variant, so the CLI labels it the same; the same variant twice
    shares a file, two different variants of one name get different files."""
    out: list[dict[str, Any] | None] = []
    taken: dict[str, Any] = {}
    for arm in arms:
        if arm["overrides"] is None:
            out.append(None)
            continue
        saved = arm.get("variant") or {}
        name = saved.get("name") or arm["label"]
        stem = re.sub(r'[\\/:*?"<>|\x00-\x1f]+', "-", name).strip(" -.") or "variant"
        key = saved.get("id") or json.dumps(arm["overrides"], sort_keys=True)
        file, number = f"{stem}.toml", 1
        while file in taken and taken[file] != key:
            number += 1
            file = f"{stem}-{number}.toml"
        taken[file] = key
        out.append({"file": file, "variant": saved.get("id"), "name": name, "toml": saved.get("toml")})
    return out


def report_of(result: SimulationResult) -> str:
    """The job's HTML report: what `simulate --report` writes (provenance, verdict, differences), and how to
    repeat the job with the CLI."""
    from ..sim.report import report_html

    return report_html(result.runs, result.differences, result.provenance, result.quality,
                       repeat_html(result.provenance or {}))


def repeat_html(provenance: Mapping[str, Any]) -> str:
    """A section of the report: the job came from the web site; the command (and variant files) that repeat it."""
    if not provenance.get("rerun"):
        return ""
    asked = provenance.get("request") or {}
    files = "".join(f"<p>Save variant {html.escape(str(entry['name']))} as <code>{html.escape(entry['file'])}</code>"
                    + (f":</p><pre>{html.escape(entry['toml'])}</pre>" if entry.get("toml") else
                       f" (its TOML: <code>GET /api/variants/{html.escape(str(entry['variant']))}</code>).</p>")
                    for entry in provenance.get("variant_files") or [])
    return ("<h2>Repeat it on your machine</h2>"
            f"<p class=meta>This simulation was asked of the web site (job {html.escape(str(asked.get('job')))}), not "
            "typed as a command; the command below plays the same games on the same seeds and gives the same "
            f"numbers.</p>{files}<pre>{html.escape(provenance['rerun'])}</pre>")
