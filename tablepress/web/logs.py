"""Structured server logs: one JSON object a line — `time`, `level`, `event`, then the event's fields.

Events carry plain facts (game id, seat, agent spec, duration in seconds, client address), never a
seat token. A record logged without fields (uvicorn's, a library's) becomes event `message`.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from typing import Any


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
    logging.basicConfig(level=level, handlers=[handler])
