"""Whether the server can serve (`GET /readyz`): the one place that asks the store.

A store with `check()` (the store interface's readiness: it answers and its schema is current) is asked
that; an older store is asked a trivial query on each of its tables.
"""

from __future__ import annotations

from typing import Any

#: Seconds the store has to answer a readiness check before the server counts as not ready.
READY_TIMEOUT = 2.0


def store_ready(store: Any) -> tuple[bool, str]:
    """(ready, why not on one line) for `store`; never raises."""
    try:
        check = getattr(store, "check", None)
        if check is not None:
            readiness = check()
            return bool(readiness.ok), "" if readiness.ok else str(readiness.reason or "the store is not ready")
        store.has("")
        store.load_actions("")
    except Exception as exc:  # noqa: BLE001 - any failure of the store means "not ready", said on one line
        return False, " ".join(f"the store does not answer: {exc}".split())
    return True, ""
