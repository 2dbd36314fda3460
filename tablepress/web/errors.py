"""How the server answers an error: `{"detail": REASON}` with the reason on one line (at most MAX_DETAIL
characters) and a status by the error's kind (STATUS; any other TablepressError is 422), or the error as an
HTML page for a browser asking for a page outside /api/ (pages/errors.py). No traceback reaches a client."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..core.errors import IllegalAction, TablepressError
from .faults import StoreDown, StoreFull
from .hub import HubFull, NotFound, QuotaExceeded
from .pages.errors import error_response
from .requests import BadRequest, Forbidden, TooLarge
from .store import Stale

log = logging.getLogger("tablepress.web")

#: The most characters of an error's reason.
MAX_DETAIL = 300
STATUS = {NotFound: 404, Forbidden: 403, IllegalAction: 409, Stale: 409, TooLarge: 413, BadRequest: 422,
          QuotaExceeded: 429, HubFull: 503, StoreDown: 503, StoreFull: 507}


def one_line(reason: str) -> str:
    """An error's reason as the API gives it: on one line, at most MAX_DETAIL characters."""
    text = " ".join(reason.split()) or "invalid request"
    return text if len(text) <= MAX_DETAIL else text[:MAX_DETAIL - 3] + "..."


def handle_errors(app: FastAPI) -> None:
    """Have `app` answer every error as the module says: its own errors by STATUS, a malformed request 422
    naming the field, an HTTP error with its own status, anything unexpected 500 (logged)."""

    @app.exception_handler(TablepressError)
    async def _tablepress_error(request: Request, exc: TablepressError) -> Response:
        status = next((code for kind, code in STATUS.items() if isinstance(exc, kind)), 422)
        return error_response(request, status, one_line(str(exc)))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse({"detail": one_line(f"{where}: {first.get('msg', 'invalid request')}")}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return error_response(request, exc.status_code, one_line(str(exc.detail)), exc.headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error: %s", exc)
        return error_response(request, 500, "internal server error")
