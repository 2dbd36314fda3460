"""A room's views worked out once per game revision: each seat's view (hints included) and its JSON.

A view is built when a seat first asks for it at a revision and kept, with its encoded body, until the
room's revision moves on (any write here, or a refresh from the store after another process wrote). A GET
of the same seat at the same revision is then a dictionary lookup: no rebuilding, no hints, no encoding; the
WebSocket push of a view sends the same text as the POST that caused it answered.
Only the current revision's views are held, at most MAX_VIEWS of them (the seats and the spectator).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi.encoders import jsonable_encoder

#: Views kept per room at most (more seats than that are built each time rather than held).
MAX_VIEWS = 16


def encode(view: dict[str, Any]) -> str:
    """A view as the JSON text FastAPI and Starlette would send (compact, not ASCII-escaped, no NaN)."""
    try:
        return json.dumps(view, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except TypeError:  # something only FastAPI's encoder knows how to write
        return json.dumps(jsonable_encoder(view), ensure_ascii=False, allow_nan=False, separators=(",", ":"))


@dataclass
class Cached:
    """One seat's view at one revision, and its JSON once someone asked for it (an HTTP body or a WebSocket text)."""

    view: dict[str, Any]
    _text: str | None = field(default=None, repr=False)
    _body: bytes | None = field(default=None, repr=False)

    @property
    def text(self) -> str:
        """The view as JSON text, encoded on first use."""
        if self._text is None:
            self._text = encode(self.view)
        return self._text

    @property
    def body(self) -> bytes:
        """The view as UTF-8 JSON bytes."""
        if self._body is None:
            self._body = self.text.encode("utf-8")
        return self._body


class ViewCache:
    """Views of one room keyed by (revision, seat); asking at a new revision forgets the older ones."""

    def __init__(self) -> None:
        self.revision: int | None = None
        self._held: dict[int | None, Cached] = {}

    def get(self, revision: int, seat: int | None, build: Callable[[], dict[str, Any]]) -> Cached:
        """The view of `seat` at `revision`, built with `build()` only if not held already."""
        if revision != self.revision:
            self.clear()
            self.revision = revision
        found = self._held.get(seat)
        if found is None:
            found = Cached(build())
            if len(self._held) < MAX_VIEWS:
                self._held[seat] = found
        return found

    def clear(self) -> None:
        """Forget every view (the game changed)."""
        self._held = {}
        self.revision = None

    def __len__(self) -> int:
        return len(self._held)
