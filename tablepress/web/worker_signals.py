"""How the server's worker processes (AI decisions, simulation jobs) treat Ctrl-C and their parent's death.

The server stops its workers itself when it stops; a worker must neither die of the Ctrl-C the terminal
sends to the whole process group nor outlive a server that was killed.
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

    Ctrl-C at a terminal reaches the whole process group, and a spawned worker still importing has not
    yet ignored it itself (`watch_parent`), so it would die with a traceback. An ignored signal stays
    ignored in a spawned child; a blocked one does not, so the server blocks SIGINT meanwhile and a Ctrl-C
    in that moment reaches the server's own handler afterwards instead of being lost. Signal handlers
    belong to the main thread: elsewhere (a test client's loop) this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def watch_parent(parent: int) -> None:
    """In a worker: exit as soon as the server that started it is gone (even killed with SIGKILL)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group; the server stops us

    def watch() -> None:
        """Poll for the parent's death (the worker is then adopted by another process)."""
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()
