"""How worker processes (a simulation's pool, the server's AI decisions and jobs) treat Ctrl-C and their
parent's death.

Ctrl-C at a terminal reaches the whole process group. The process that started the workers stops them
itself, so a worker must not die of that Ctrl-C with a traceback of its own, nor outlive a server that was
killed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator


@contextlib.contextmanager
def workers_start_deaf_to_ctrl_c() -> Iterator[None]:
    """Around starting worker processes: they begin with Ctrl-C ignored.

    A worker still starting up has not yet ignored Ctrl-C itself (`watch_parent`, `ignore_ctrl_c`), so it
    would die of it with a traceback. An ignored signal stays ignored in a started child (forked or
    spawned), so SIGINT is ignored while the workers start: a Ctrl-C in those few milliseconds is lost
    (press it again). Blocking it instead would not do: a blocked signal is not kept through spawn, and
    another thread of the process may take it. Signal handlers belong to the main thread: elsewhere (a
    test client's loop) this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def ignore_ctrl_c() -> None:
    """In a worker: leave Ctrl-C to the process that started it (a process pool's initializer)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def watch_parent(parent: int) -> None:
    """In a worker: exit as soon as the server that started it is gone (even killed with SIGKILL)."""
    ignore_ctrl_c()  # the server stops us

    def watch() -> None:
        """Poll for the parent's death (the worker is then adopted by another process)."""
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()
