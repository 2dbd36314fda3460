"""An error's reason as the API gives it: one line, at most MAX_DETAIL characters."""

from __future__ import annotations

#: The most characters of an error's reason.
MAX_DETAIL = 300


def one_line(reason: str) -> str:
    """An error's reason as the API gives it: on one line, at most MAX_DETAIL characters."""
    text = " ".join(reason.split()) or "invalid request"
    return text if len(text) <= MAX_DETAIL else text[:MAX_DETAIL - 3] + "..."
