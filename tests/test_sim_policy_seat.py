"""A `policy:FILE` seat (a library with its own threads: PyTorch) plays on the process pool with the
default --jobs and on a local Ray, with the same rows as in one process.

`simulate` builds every seat once in its own process before any game (so that a bad file is one clear
error), which runs PyTorch's OpenMP thread pool there. Workers forked from that process deadlocked in
their first parallel region (their OpenMP runtime waits for threads fork did not copy): the pool sat at
0% CPU for ever. pytest-timeout bounds the runs below, so such a hang is a failure, not a stuck suite.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("pettingzoo")

from typer.testing import CliRunner  # noqa: E402

from tablepress.agents.base import make_agent  # noqa: E402
from tablepress.cli import app  # noqa: E402
from tablepress.rl.train import TrainConfig, train  # noqa: E402
from tablepress.sim.backends import default_jobs, fork_would_deadlock, pool_context, run_games  # noqa: E402
from tablepress.sim.runner import SimSpec  # noqa: E402

#: Bounds a run that deadlocks (seconds); workers importing PyTorch on a loaded machine take a while.
HANG = 300
GAMES = 4


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A By This policy for 3 players after one small PPO update, built once here as `simulate` builds it."""
    path = tmp_path_factory.mktemp("policy") / "by-this.pt"
    train(TrainConfig(game="by-this", players=3, steps=150, batch=150, minibatch=64, checkpoint_every=1), path)
    make_agent(f"policy:{path}", 0)
    return path


def _spec(policy: Path) -> SimSpec:
    """By This at 3 players: the policy in the first seat, random in the others."""
    return SimSpec("by-this", 3, (f"policy:{policy}", "random", "random"))


def test_this_process_holds_what_a_forked_worker_would_deadlock_in(policy: Path) -> None:
    """The premise of the tests below: PyTorch's OpenMP runtime is loaded here, so the pool spawns."""
    assert fork_would_deadlock()
    assert pool_context().get_start_method() == "spawn"


@pytest.mark.timeout(HANG)
def test_a_policy_seat_plays_on_the_pool_with_the_default_jobs(policy: Path) -> None:
    """The rows of the default pool are those of one process (the policy is deterministic)."""
    assert default_jobs() > 1, "the default --jobs must start a pool for this test to mean anything"
    pooled = run_games(_spec(policy), 3, GAMES)
    assert pooled == run_games(_spec(policy), 3, GAMES, jobs=1)


@pytest.mark.timeout(HANG)
def test_simulate_with_a_policy_seat_finishes_with_the_default_jobs(policy: Path) -> None:
    """The issue's command, in this process: `simulate by-this --seats policy:FILE,random,random`."""
    result = CliRunner().invoke(app, ["simulate", "by-this", "-n", str(GAMES), "--seed", "5",
                                      "--seats", f"policy:{policy},random,random", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == GAMES


@pytest.mark.timeout(HANG)
def test_a_policy_seat_plays_on_a_local_ray(policy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On Ray (a local instance on 127.0.0.1 only) the policy, named by a path relative to the working
    folder, plays the same games as in one process."""
    pytest.importorskip("ray")
    monkeypatch.chdir(policy.parent)
    spec = SimSpec("by-this", 3, (f"policy:{policy.name}", "random", "random"))
    assert run_games(spec, 3, GAMES, backend="ray") == run_games(spec, 3, GAMES, jobs=1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is the default start method on Linux only")
def test_a_process_without_an_openmp_runtime_keeps_forking() -> None:
    """Plain runs keep the cheap start (a forked worker inherits the loaded games and counts in this process's
    CPU seconds): the check reads this process's own libraries, here a fresh one that has not loaded PyTorch."""
    code = ("import multiprocessing, sys\n"
            "from tablepress.sim.backends import fork_would_deadlock, pool_context\n"
            "print(fork_would_deadlock(), pool_context().get_start_method(), 'torch' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG, check=True)
    assert done.stdout.split() == ["False", "fork", "False"]
