"""Simulation jobs over many processes, on SQLite and PostgreSQL: a queued job is claimed by exactly one
dispatcher, a job another live process runs is never queued again, and a job whose process died is queued
again once its heartbeat has stopped for STALE_SECONDS, and finishes. Each dispatcher here is one server
process's part: a JobPool over its own store connection, in its own thread and event loop."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

import pytest

from tablepress.web import jobs
from tablepress.web.jobs import JobPool
from tablepress.web.store import DONE, QUEUED, RUNNING, Store, open_store

SHORT = {"game": "by-this", "games": 4, "players": 2, "seats": ["random", "random"], "seed": 1, "options": {},
         "arms": [{"label": "published cards", "overrides": None}]}
LONG = {**SHORT, "games": 20_000, "seats": ["greedy", "greedy"]}


@pytest.fixture(autouse=True)
def quick_heartbeats(monkeypatch):
    """Heartbeats every 0.25 s, stale after 3 s (the server's are 2 s and 20 s)."""
    monkeypatch.setattr(jobs, "HEARTBEAT_SECONDS", 0.25)
    monkeypatch.setattr(jobs, "STALE_SECONDS", 3.0)


class Dispatcher:
    """One process's job dispatcher: its own store connection, thread and event loop; `launched` records the
    (job, attempt) pairs it started a worker for."""

    def __init__(self, url: str):
        self.store = open_store(url)
        self.pool = JobPool(self.store, workers=1)  # what a server starting does (recover included)
        self.launched: list[tuple[str, int]] = []
        launch = self.pool._launch

        def record(job_id: str, attempt: int) -> None:
            self.launched.append((job_id, attempt))
            launch(job_id, attempt)

        self.pool._launch = record  # type: ignore[method-assign]
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, barrier: threading.Barrier | None = None) -> None:
        """Dispatch in a thread of its own until `stop` (after `barrier`, if given, so that two start together)."""

        async def run() -> None:
            if barrier is not None:
                barrier.wait(30)
            self.pool.start()
            while not self._stop.is_set():
                await asyncio.sleep(0.05)
            await self.pool.close()

        self._thread = threading.Thread(target=asyncio.run, args=(run(),), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop dispatching and kill its workers (their jobs stay running in the store), as a process dying."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(30)
        self.store.close()


def ended(store: Store, job_id: str) -> dict:
    """The job once done or failed (120 s at most, a guard against hangs)."""
    wait_for(f"job {job_id} ending", lambda: store.job(job_id)["status"] not in (QUEUED, RUNNING))
    return store.job(job_id)


def wait_for(what: str, check: Callable[[], bool], seconds: float = 120) -> None:
    """Poll `check` until true; AssertionError naming `what` after `seconds` (a guard against hangs)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {seconds:g} s"
        time.sleep(0.05)


@pytest.fixture
def url(database_url):
    """A fresh store's URL (SQLite, then PostgreSQL), its schema made."""
    open_store(database_url).close()
    return database_url


def test_processes_claiming_at_once_get_each_job_exactly_once(url):
    seed = open_store(url)
    for number in range(24):
        seed.add_job(f"job{number:02d}", SHORT, 4, None)
    stores = [open_store(url) for _ in range(6)]
    barrier = threading.Barrier(len(stores))
    claimed: list[list[tuple[str, int]]] = [[] for _ in stores]

    def claim(store: Store, into: list[tuple[str, int]]) -> None:
        barrier.wait(30)
        while (job := store.claim_job()) is not None:
            into.append(job)

    threads = [threading.Thread(target=claim, args=(store, into)) for store, into in zip(stores, claimed)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    every = [job for into in claimed for job in into]
    assert sorted(job_id for job_id, _ in every) == [f"job{n:02d}" for n in range(24)]  # each once, none lost
    assert {attempt for _, attempt in every} == {1} and seed.count_jobs(RUNNING) == 24
    assert seed.start_job("job00") is None  # claimed already: a second claim loses
    for store in (seed, *stores):
        store.close()


def test_two_dispatchers_racing_for_one_job_run_it_once(url):
    store = open_store(url)
    store.add_job("racedjob0001", SHORT, 4, None)
    pair = [Dispatcher(url), Dispatcher(url)]
    barrier = threading.Barrier(2)
    try:
        for dispatcher in pair:
            dispatcher.start(barrier)
        job = ended(store, "racedjob0001")
        assert job["status"] == DONE, job["error"]
        assert [d.launched for d in pair].count([("racedjob0001", 1)]) == 1, [d.launched for d in pair]
        assert [d.launched for d in pair].count([]) == 1
        job = store.job("racedjob0001")
        assert (job["attempt"], job["done"]) == (1, 4)
    finally:
        for dispatcher in pair:
            dispatcher.stop()
        store.close()


def test_a_process_starting_leaves_alone_a_job_another_live_process_runs(url):
    store = open_store(url)
    store.add_job("longjob00001", LONG, 20_000, None)
    running = Dispatcher(url)
    running.start()
    starting: Dispatcher | None = None
    try:
        wait_for("the first process starting the job", lambda: "longjob00001" in running.pool.running)
        assert running.launched == [("longjob00001", 1)]
        starting = Dispatcher(url)  # a process (re)starting recovers stalled jobs: this one is not
        assert (store.job("longjob00001")["status"], store.job("longjob00001")["attempt"]) == (RUNNING, 1)
        starting.start()
        time.sleep(2.5 * jobs.STALE_SECONDS)  # well past the limit: the running process's heartbeat goes on
        job = store.job("longjob00001")
        assert (job["status"], job["attempt"], starting.launched) == (RUNNING, 1, []), (job, starting.launched)
        assert running.pool.running["longjob00001"].process.is_alive()
        running.stop()  # the process running the job dies: the other takes it once its heartbeat is stale
        wait_for("the other process taking the job over", lambda: starting.launched == [("longjob00001", 2)], 60)
    finally:
        running.stop()
        if starting is not None:
            starting.stop()
        store.close()


def test_a_job_whose_process_died_is_queued_again_after_the_limit_and_finishes(url):
    dead = open_store(url)
    dead.add_job("orphanjob001", SHORT, 4, None)
    assert dead.start_job("orphanjob001") == 1  # claimed by a process that then died: no more heartbeats
    dead.close()
    store = open_store(url)
    survivor = Dispatcher(url)
    try:
        assert store.job("orphanjob001")["status"] == RUNNING  # its heartbeat is fresh: not queued at start
        survivor.start()
        job = ended(store, "orphanjob001")
        assert job["status"] == DONE, job["error"]
        assert survivor.launched == [("orphanjob001", 2)] and store.job("orphanjob001")["done"] == 4
    finally:
        survivor.stop()
        store.close()


def test_a_process_whose_job_was_taken_from_it_stops_that_worker(url):
    store = open_store(url)
    store.add_job("takenjob0001", LONG, 20_000, None)
    dispatcher = Dispatcher(url)
    dispatcher.start()
    try:
        wait_for("the job starting", lambda: "takenjob0001" in dispatcher.pool.running)
        first = dispatcher.pool.running["takenjob0001"].process
        assert store.requeue("takenjob0001", 1)  # as another process does once the heartbeat is stale
        wait_for("the first worker stopping", lambda: first._closed or not first.is_alive(), 30)  # type: ignore[attr-defined]
        wait_for("the job claimed again", lambda: store.job("takenjob0001")["status"] != QUEUED, 30)
        assert store.job("takenjob0001")["attempt"] == 2
    finally:
        dispatcher.stop()
        store.close()


# ----- two real `tablepress serve` processes over one PostgreSQL -----------------------------------------
def running_a_worker(pid: int) -> bool:
    """Whether process `pid` has a simulation worker among its children (a multiprocessing spawn child)."""
    children = open(f"/proc/{pid}/task/{pid}/children").read().split()
    for child in children:
        try:
            if b"spawn_main" in open(f"/proc/{child}/cmdline", "rb").read():
                return True
        except FileNotFoundError:
            continue
    return False


def test_restarting_the_other_server_leaves_the_running_job_alone(postgres, tmp_path):
    from cluster_helpers import environment, serve

    url = postgres.database()
    env = environment(url)
    servers = [serve(env, tmp_path), serve(env, tmp_path)]
    try:
        reply = servers[0].client.post("/api/simulations", json={"game": "by-this", "games": 20_000, "players": 2,
                                                                  "seats": ["greedy"], "seed": 3})
        job_id = reply.json()["id"]
        wait_for("the job starting", lambda: servers[0].client.get(f"/api/simulations/{job_id}").json()["done"] > 0)
        owner = next(s for s in servers if running_a_worker(s.proc.pid))
        other = servers[1 - servers.index(owner)]
        other.stop()
        servers[servers.index(other)] = other = serve(env, tmp_path)  # it recovers stalled jobs as it starts
        store = open_store(url)
        try:
            before = store.job(job_id)
            assert (before["status"], before["attempt"]) == (RUNNING, 1), before
            time.sleep(5)  # a few of the owner's heartbeats and of the restarted server's looks for stalled jobs
            after = store.job(job_id)
            assert (after["status"], after["attempt"]) == (RUNNING, 1) and after["done"] > before["done"], after
            assert running_a_worker(owner.proc.pid) and not running_a_worker(other.proc.pid)
        finally:
            store.close()
    finally:
        for server in servers:
            server.stop()
        postgres.drop(url)
