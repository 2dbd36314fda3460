"""Workers the server and the simulator start ignore the Ctrl-C the terminal sends the whole process group,
from their first instruction on (tablepress/core/worker_signals.py)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

from tablepress.core.worker_signals import workers_start_deaf_to_ctrl_c


def _start_and_interrupt(deaf: bool) -> int | None:
    """Exit code of a spawned worker sent SIGINT while it is still starting up (this process taking Ctrl-C
    as a terminal's foreground job does, whatever it inherited)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return _interrupted_exit(deaf)
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupted_exit(deaf: bool) -> int | None:
    process = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(2.0,))  # alive long after the signal
    if deaf:
        with workers_start_deaf_to_ctrl_c():
            process.start()
    else:
        process.start()
    time.sleep(0.05)  # the child is importing, before any code of ours could ignore Ctrl-C
    os.kill(process.pid, signal.SIGINT)
    process.join(30)
    return process.exitcode


def test_a_worker_started_deaf_survives_ctrl_c_while_it_starts():
    assert _start_and_interrupt(deaf=True) == 0


def test_mutant_a_worker_started_plainly_dies_of_that_ctrl_c():
    """Without the guard the same Ctrl-C kills the starting worker: the check above can fail."""
    assert _start_and_interrupt(deaf=False) != 0


def test_ctrl_c_is_ignored_only_while_the_workers_start_and_the_handler_is_restored():
    handler = signal.getsignal(signal.SIGINT)
    with workers_start_deaf_to_ctrl_c():
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    assert signal.getsignal(signal.SIGINT) is handler
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


def test_off_the_main_thread_it_changes_nothing():
    handler = signal.getsignal(signal.SIGINT)
    errors: list[BaseException] = []

    def enter() -> None:
        try:
            with workers_start_deaf_to_ctrl_c():
                assert signal.getsignal(signal.SIGINT) is handler
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    thread = threading.Thread(target=enter)
    thread.start()
    thread.join()
    assert errors == []
    assert signal.getsignal(signal.SIGINT) is handler
