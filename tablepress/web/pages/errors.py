"""Errors as a person in a browser sees them: an HTML page in the site's frame for a page request, the API's
JSON `{"detail": REASON}` for everything else (any /api/ address, scripts, files, clients that ask for JSON)."""

from __future__ import annotations

from http import HTTPStatus

from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.requests import Request

from .shell import attr, page

#: Addresses that always answer JSON, whoever asks.
API_PREFIXES = ("/api/", "/ws/")


def wants_page(request: Request) -> bool:
    """Whether the request is a browser asking for a page: GET or HEAD, outside the API, accepting HTML."""
    if request.method not in ("GET", "HEAD") or request.url.path.startswith(API_PREFIXES):
        return False
    return "text/html" in request.headers.get("accept", "")


def error_page(status: int, detail: str) -> str:
    """The HTML of an error: what went wrong in words, the reason, and the ways on."""
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    heading = {404: "There is nothing at this address", 500: "Something went wrong on the server"}.get(status, phrase)
    body = (f'<section class="panel not-found"><h1>{attr(heading)}</h1>'
            f'<p>{attr(detail)}</p><p class="muted">Error {status}: {attr(phrase)}.</p>'
            '<p><a class="button primary" href="/">All games</a></p></section>')
    return page(f"{phrase} — Table Press", body, body_class="site error-site")


def error_response(request: Request, status: int, detail: str, headers: dict[str, str] | None = None) -> Response:
    """The error for this request: a page for a browser's page request, else JSON."""
    if wants_page(request):
        return HTMLResponse(error_page(status, detail), status_code=status, headers=headers)
    return JSONResponse({"detail": detail}, status_code=status, headers=headers)
