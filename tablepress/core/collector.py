"""The cyclic garbage collector set for a run of many games.

A run of games allocates many small containers that live a while (the agents' memos of positions), so
the collector's full passes come often, and each one walks every object the program holds: modules,
classes and functions as well as the memos. While games run (`games_running`), what exists when the run
starts is frozen (left out of collections: it lives as long as the run anyway; a program that froze
objects itself keeps its own choice), and the youngest objects are collected less often. Both are restored
afterwards. Reference counting frees everything else as
before; only the collection of reference cycles waits longer.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: Allocations between two collections of the youngest generation during a run (Python's default: 700).
RUN_THRESHOLD = 10_000

#: How many runs are going on (the collector is one per process: the first sets it, the last restores it).
_running = 0
_threshold = gc.get_threshold()
#: Whether the first run froze what existed (not when the program had frozen objects itself: they stay so).
_froze = False
_lock = threading.Lock()


@contextmanager
def games_running() -> Iterator[None]:
    """Run the block with the collector set for many games (see the module doc); runs may nest or overlap."""
    global _running, _threshold, _froze
    with _lock:
        _running += 1
        if _running == 1:
            _threshold = gc.get_threshold()
            _froze = gc.get_freeze_count() == 0
            if _froze:
                gc.freeze()
            gc.set_threshold(max(_threshold[0], RUN_THRESHOLD), *_threshold[1:])
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0:
                gc.set_threshold(*_threshold)
                if _froze:
                    gc.unfreeze()
