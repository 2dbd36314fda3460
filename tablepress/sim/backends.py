"""Where the games run: in this process, on a local process pool, or on Ray. Rows stream back in chunks.

Every backend returns the same rows in index order, so the statistics never depend on `--jobs` or
`--backend`. `on_rows(n)` is called as each chunk arrives (for the progress bar). The pool forks its
workers, unless this process has loaded a library a forked worker would deadlock in (PyTorch, once a
`policy:FILE` seat is built): then it spawns them (`pool_context`).
"""

from __future__ import annotations

import multiprocessing
import os
import re
import resource
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from multiprocessing.context import BaseContext
from typing import Any

from ..core.errors import TablepressError
from ..core.worker_signals import ignore_ctrl_c, workers_start_deaf_to_ctrl_c
from .runner import SimSpec, play_chunk

Rows = list[dict[str, Any]]
Progress = Callable[[int], None]


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and by its finished workers (a closed pool's included).

    Unlike the wall clock, the difference across a run holds on a machine shared with other work.
    """
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def chunks(games: int, workers: int) -> list[list[int]]:
    """Game indices split into chunks: small enough for a moving bar and balanced load, big enough to be cheap."""
    size = max(1, min(50, games // max(1, workers * 8)))
    return [list(range(start, min(games, start + size))) for start in range(0, games, size)]


def _sorted(rows: Rows) -> Rows:
    return sorted(rows, key=lambda row: row["index"])


def run_local(spec: SimSpec, seed: int, games: int, jobs: int, on_rows: Progress | None = None) -> Rows:
    """Play `games` games on `jobs` processes (in this process when jobs is 1); rows in index order."""
    if jobs < 1:
        raise TablepressError(f"--jobs must be at least 1, not {jobs}")
    rows: Rows = []
    if jobs == 1 or games <= 1:
        for chunk in chunks(games, 1):
            rows += play_chunk(spec, seed, chunk)
            if on_rows:
                on_rows(len(chunk))
        return rows
    pool = ProcessPoolExecutor(max_workers=min(jobs, games), initializer=ignore_ctrl_c, mp_context=pool_context())
    try:
        with workers_start_deaf_to_ctrl_c():  # the first submit starts the workers
            pending = {pool.submit(play_chunk, spec, seed, chunk) for chunk in chunks(games, jobs)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                part = future.result()
                rows += part
                if on_rows:
                    on_rows(len(part))
    except BaseException:  # Ctrl-C, or a chunk's error: stop at once, not after every queued chunk
        _stop(pool)
        raise
    pool.shutdown()
    return _sorted(rows)


#: OpenMP runtimes (GNU's, which PyTorch's CPU operations run on; LLVM's; Intel's) as they appear in the
#: process's memory map. Their worker threads do not survive fork, and a forked child's first parallel
#: region then waits for ever for threads it does not have.
OPENMP_RUNTIMES = re.compile(r"/lib(g|i)?omp[^/]*\.so")


def pool_context() -> BaseContext:
    """How the pool starts its workers: the platform's default (fork on Linux: a worker inherits every module
    and table already loaded), or spawn (a fresh interpreter) once this process has loaded a library that a
    forked child could deadlock in."""
    return multiprocessing.get_context("spawn" if fork_would_deadlock() else None)


def fork_would_deadlock() -> bool:
    """Whether this process has loaded an OpenMP runtime (`OPENMP_RUNTIMES`); where there is no memory map to
    read, whether it has imported PyTorch."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            return OPENMP_RUNTIMES.search(maps.read()) is not None
    except OSError:
        return "torch" in sys.modules


def _stop(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers now and drop its queued chunks."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):  # the executor has no public list
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)  # its manager thread sees them gone and ends


#: A local Ray instance binds and talks over this address only.
LOOPBACK = "127.0.0.1"
#: Ray's switch for "a single machine": its node address is then the loopback one.
RAY_LOOPBACK = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


def _start_ray(address: str | None) -> bool:
    """Connect to Ray (the cluster at `address`, or a light local instance); True if this call started it.

    A local instance lives on the loopback interface only: on Linux Ray otherwise takes the machine's
    network address for its node and binds its servers there.
    """
    if not address:
        os.environ.update(RAY_LOOPBACK)  # read by Ray at import, and inherited by its workers
    try:
        import ray
        from ray._private import ray_constants
    except ImportError:
        raise TablepressError("--backend ray needs Ray: pip install 'tablepress[ray]'") from None
    if ray.is_initialized():
        return False
    try:
        if address:
            ray.init(address=address, log_to_driver=False, logging_level="ERROR")
        else:
            ray_constants.ENABLE_RAY_CLUSTER = False  # Ray was imported before the environment said so
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR",
                     _node_ip_address=LOOPBACK)
    except (ConnectionError, RuntimeError, ValueError, ray.exceptions.RayError) as exc:
        raise TablepressError(ray_failure(exc, address)) from None
    return True


#: What to do when a cluster refuses us for want of its token (Ray 2.59+ starts clusters with token auth on).
TOKEN_HELP = ("the cluster asks for its authentication token: on the head node run `ray get-auth-token`, then "
              "here set RAY_AUTH_TOKEN to it (or RAY_AUTH_TOKEN_PATH to a file holding it) and RAY_AUTH_MODE=token")


def ray_failure(exc: BaseException, address: str | None) -> str:
    """One line saying why Ray could not be started or reached (and what to do when it is the token)."""
    where = f"at {address}" if address else "locally"
    text = str(exc).strip()
    if type(exc).__name__ == "AuthenticationError" or "authentication token" in text.lower():
        return f"cannot reach Ray {where}: {TOKEN_HELP}"
    first = text.splitlines()[0] if text else type(exc).__name__
    return f"cannot start or reach Ray {where}: {first}"


@contextmanager
def backend_session(backend: str, address: str | None = None) -> Iterator[None]:
    """Keep one Ray connection open for several runs (an A/B comparison); nothing to do for local."""
    started = backend == "ray" and _start_ray(address)
    try:
        yield
    finally:
        if started:
            import ray

            ray.shutdown()


def run_ray(spec: SimSpec, seed: int, games: int, address: str | None = None,
            on_rows: Progress | None = None) -> Rows:
    """Play `games` games as Ray tasks: on the cluster at `address`, or on a light local instance.

    A local instance is started with 2 CPUs, no dashboard and worker logs kept out of the terminal,
    and shut down afterwards unless a `backend_session` keeps it; a cluster reached by address is left
    running.
    """
    import ray

    with backend_session("ray", address):
        task = ray.remote(play_chunk)
        spec_ref = ray.put(spec)
        workers = int(ray.cluster_resources().get("CPU", 2))
        pending = [task.remote(spec_ref, seed, chunk) for chunk in chunks(games, workers)]
        rows: Rows = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    part = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = getattr(exc, "cause", None)
                    raise TablepressError(str(cause) if cause is not None else str(exc).splitlines()[0]) from None
                rows += part
                if on_rows:
                    on_rows(len(part))
        return _sorted(rows)


def run_games(spec: SimSpec, seed: int, games: int, backend: str = "local", jobs: int | None = None,
              address: str | None = None, on_rows: Progress | None = None) -> Rows:
    """Play a run on the chosen backend ("local" or "ray"); the rows are the same on either."""
    if games < 1:
        raise TablepressError(f"-n must be at least 1 game, not {games}")
    if backend == "local":
        if address:
            raise TablepressError("--address is for --backend ray")
        return run_local(spec, seed, games, default_jobs() if jobs is None else jobs, on_rows)
    if backend == "ray":
        return run_ray(spec, seed, games, address, on_rows)
    raise TablepressError(f"--backend takes local or ray, not {backend!r}")
