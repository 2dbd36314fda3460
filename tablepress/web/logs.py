"""Structured server logs: one JSON object a line — `time`, `level`, `event`, then the event's fields.

Events carry plain facts (game id, seat, agent spec, duration in seconds, client address), never a
seat token. A record logged without fields (uvicorn's, a library's) becomes event `message`.

Warnings and errors of one kind (logger, level, message, exception type) are written at most once every
REPEAT_INTERVAL seconds; the next one written carries `suppressed`: how many were left out since (accept()
failing with EMFILE thousands of times a second would otherwise fill the disk). A kind that falls silent has
its last record written a second later with the count, so no storm ends unreported.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from datetime import datetime, timezone
from collections.abc import Callable
from typing import Any

#: Seconds between two written records of one kind of warning or error.
REPEAT_INTERVAL = 1.0
#: Kinds remembered at most (the oldest are forgotten past this).
MAX_KINDS = 1000


class Throttle(logging.Filter):
    """Lets one warning or error of each kind through every `interval` seconds and counts the rest, giving the
    count to the next record of that kind as `suppressed`. Records below WARNING always pass.

    With `write` (what writes a record past the filters), a kind that falls silent is not left with an unsaid
    count: `interval` seconds after the last record written, the last one left out is written with the count
    of the others (`later(delay, fn)` runs `fn` after `delay` seconds: a timer thread unless a test gives one).
    """

    def __init__(self, interval: float = REPEAT_INTERVAL, clock: Any = time.monotonic,
                 write: Callable[[logging.LogRecord], None] | None = None,
                 later: Callable[[float, Callable[[], None]], None] | None = None):
        super().__init__()
        self.interval, self.clock, self.write = interval, clock, write
        self.later = later or _timer
        self.kinds: dict[tuple[Any, ...], list[Any]] = {}  # kind -> [last written, suppressed since, last left out]
        self._due: set[tuple[Any, ...]] = set()  # kinds whose count is to be written by `later`
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether to write the record (see the class)."""
        if record.levelno < logging.WARNING:
            return True
        kind = (record.name, record.levelno, str(record.msg), record.exc_info[0] if record.exc_info else None)
        with self._lock:
            now = self.clock()
            seen = self.kinds.get(kind)
            if seen is not None and now - seen[0] < self.interval:
                seen[1] += 1
                seen[2] = record
                if self.write is not None and kind not in self._due:
                    self._due.add(kind)
                    self.later(self.interval - (now - seen[0]), lambda: self._flush(kind))
                return False
            if seen is not None and seen[1]:
                record.suppressed = int(seen[1])
            if seen is None and len(self.kinds) >= MAX_KINDS:
                self.kinds.pop(next(iter(self.kinds)))
            self.kinds[kind] = [now, 0, None]
            return True

    def _flush(self, kind: tuple[Any, ...]) -> None:
        """Write the last record of `kind` left out, with the count of the others, unless one was written since."""
        with self._lock:
            self._due.discard(kind)
            seen = self.kinds.get(kind)
            if seen is None or not seen[1] or seen[2] is None:
                return
            record, left_out = seen[2], seen[1] - 1
            self.kinds[kind] = [self.clock(), 0, None]
        if left_out:
            record.suppressed = left_out
        assert self.write is not None
        self.write(record)


def _timer(delay: float, fn: Callable[[], None]) -> None:
    timer = threading.Timer(max(0.0, delay), fn)
    timer.daemon = True
    timer.start()


def past_filters(handler: logging.Handler) -> Callable[[logging.LogRecord], None]:
    """What writes a record through `handler` without its filters (a Throttle's late count)."""
    def write(record: logging.LogRecord) -> None:
        handler.acquire()
        try:
            handler.emit(record)
        finally:
            handler.release()
    return write


class JsonLines(logging.Formatter):
    """Formats every record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as `{"time", "level", "logger", "event", ...fields}` on one line."""
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            entry["event"] = record.getMessage()
            entry.update(fields)
        else:
            entry["event"] = "message"
            entry["message"] = record.getMessage()
        suppressed = getattr(record, "suppressed", None)
        if suppressed:
            entry["suppressed"] = suppressed
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def event(logger: logging.Logger, name: str, level: int = logging.INFO, **fields: Any) -> None:
    """Log event `name` with `fields` (formatted by JsonLines as one JSON line)."""
    logger.log(level, name, extra={"fields": fields})


def setup(level: int = logging.INFO) -> None:
    """Send every log record to stderr as JSON lines (the server calls this once at start; a no-op if
    logging is set up already)."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    handler.addFilter(Throttle(write=past_filters(handler)))
    logging.basicConfig(level=level, handlers=[handler])


def setup_worker(level: int = logging.INFO) -> None:
    """In a worker process (an AI's, a simulation job's): every record, warning and uncaught exception goes to
    stderr as one JSON line (event `uncaught` with its traceback as a field), never as plain text."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    handler.addFilter(Throttle(write=past_filters(handler)))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    logging.captureWarnings(True)
    worker_log = logging.getLogger("tablepress.worker")

    def uncaught(kind: type[BaseException], exc: BaseException, tb: Any) -> None:
        worker_log.error("uncaught", exc_info=(kind, exc, tb), extra={"fields": {"error": f"{kind.__name__}: {exc}"}})

    sys.excepthook = uncaught
    threading.excepthook = lambda args: uncaught(args.exc_type, args.exc_value or args.exc_type(), args.exc_traceback)
