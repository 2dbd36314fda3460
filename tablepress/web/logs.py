"""Structured server logs: one JSON object a line — `time`, `level`, `event`, then the event's fields.

Events carry plain facts (game id, seat, agent spec, duration in seconds, client address), never a
seat token. A record logged without fields (uvicorn's, a library's) becomes event `message`.

Warnings and errors of one kind (logger, level, message, exception type) are written at most once every
REPEAT_INTERVAL seconds; the next one written carries `suppressed`: how many were left out since (accept()
failing with EMFILE thousands of times a second would otherwise fill the disk).
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from datetime import datetime, timezone
from typing import Any

#: Seconds between two written records of one kind of warning or error.
REPEAT_INTERVAL = 1.0
#: Kinds remembered at most (the oldest are forgotten past this).
MAX_KINDS = 1000


class Throttle(logging.Filter):
    """Lets one warning or error of each kind through every `interval` seconds and counts the rest, giving the
    count to the next record of that kind as `suppressed`. Records below WARNING always pass."""

    def __init__(self, interval: float = REPEAT_INTERVAL, clock: Any = time.monotonic):
        super().__init__()
        self.interval, self.clock = interval, clock
        self.kinds: dict[tuple[Any, ...], list[float]] = {}  # kind -> [last written, suppressed since]

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether to write the record (see the class)."""
        if record.levelno < logging.WARNING:
            return True
        kind = (record.name, record.levelno, str(record.msg), record.exc_info[0] if record.exc_info else None)
        now = self.clock()
        seen = self.kinds.get(kind)
        if seen is not None and now - seen[0] < self.interval:
            seen[1] += 1
            return False
        if seen is not None and seen[1]:
            record.suppressed = int(seen[1])
        if seen is None and len(self.kinds) >= MAX_KINDS:
            self.kinds.pop(next(iter(self.kinds)))
        self.kinds[kind] = [now, 0]
        return True


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
    handler.addFilter(Throttle())
    logging.basicConfig(level=level, handlers=[handler])


def setup_worker(level: int = logging.INFO) -> None:
    """In a worker process (an AI's, a simulation job's): every record, warning and uncaught exception goes to
    stderr as one JSON line (event `uncaught` with its traceback as a field), never as plain text."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    handler.addFilter(Throttle())
    logging.basicConfig(level=level, handlers=[handler], force=True)
    logging.captureWarnings(True)
    worker_log = logging.getLogger("tablepress.worker")

    def uncaught(kind: type[BaseException], exc: BaseException, tb: Any) -> None:
        worker_log.error("uncaught", exc_info=(kind, exc, tb), extra={"fields": {"error": f"{kind.__name__}: {exc}"}})

    sys.excepthook = uncaught
    threading.excepthook = lambda args: uncaught(args.exc_type, args.exc_value or args.exc_type(), args.exc_traceback)
