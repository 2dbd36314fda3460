"""Whether the server is up (`GET /healthz`) and can serve (`GET /readyz`): the one place that asks the store.

A store with `check()` (the store interface's readiness: it answers and its schema is current) is asked
that; an older store is asked a trivial query on each of its tables.
"""

from __future__ import annotations

from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from .errors import one_line

#: Seconds the store has to answer a readiness check before the server counts as not ready.
READY_TIMEOUT = 2.0

router = APIRouter()


@router.get("/healthz", include_in_schema=False)
async def health(request: Request) -> dict[str, Any]:
    """Whether the server is up, and how many games it keeps."""
    hub = request.app.state.hub
    return {"ok": True, "games": len(hub.rooms) + len(hub.archive)}


@router.get("/readyz", include_in_schema=False)
async def ready(request: Request) -> JSONResponse:
    """200 when the store answers and its schema is current, else 503 saying why."""
    ok, reason = False, f"the store did not answer within {READY_TIMEOUT:g} seconds"
    with anyio.move_on_after(READY_TIMEOUT):
        ok, reason = await anyio.to_thread.run_sync(store_ready, request.app.state.hub.store, abandon_on_cancel=True)
    return JSONResponse({"ok": True} if ok else {"ok": False, "detail": one_line(reason)},
                        status_code=200 if ok else 503)


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
