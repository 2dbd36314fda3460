"""The print-and-play PDF of `/games/{name}/print.pdf`: the query checked field by field, then the sheets
drawn by the same printer as `tablepress print` (so the same choices give the same bytes). A variant's
deck may hold at most the server's bound of card copies (`hub.check_variant_size`).

A visitor cannot make the server draw PDFs without bound: one PDF is drawn at a time, at most
MAX_WAITING more requests wait for the printer, and of all those one client may have CLIENT_PRINTS (429 past
either, so a few clients asking for ever new choices cannot keep everyone else out), and finished PDFs are
kept in an LRU cache of at most MAX_CACHE_BYTES, keyed by everything that decides the bytes.
"""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...core.errors import TablepressError
from ...core.registry import get_game
from ...core.variants import apply_variant
from ...printing.layout import DUPLEX, MAX_BLEED, PAPERS
from ...printing.sheets import render_sheets
from ..hub import NotFound, QuotaExceeded, check_variant_size
from ..requests import BadRequest

#: The query parameters print.pdf takes, in the order the form sends them.
FIELDS = ("paper", "backs", "bleed", "ink_saver", "duplex", "variant")
#: Requests waiting for the printer at most (beyond the one being drawn).
MAX_WAITING = 8
#: PDFs one client may have drawn or waiting at once.
CLIENT_PRINTS = 1
#: Bytes of finished PDFs kept at most.
MAX_CACHE_BYTES = 64 * 1024 * 1024
#: The longest value of any parameter.
MAX_VALUE = 64


@dataclass(frozen=True)
class PrintChoices:
    """What a visitor chose: the options of `tablepress print` (and a variant's id)."""

    paper: str = "a4"
    backs: bool = False
    bleed: float = 0.0
    ink_saver: bool = False
    duplex: str = "long"
    variant: str | None = None


def parse_choices(query: Mapping[str, list[str]]) -> PrintChoices:
    """The choices in a query (each name to its values); BadRequest naming the first wrong field."""
    unknown = sorted(set(query) - set(FIELDS))
    if unknown:
        raise BadRequest(f"{unknown[0]}: print.pdf takes {', '.join(FIELDS)}")
    values: dict[str, str] = {}
    for field, given in query.items():
        if len(given) != 1:
            raise BadRequest(f"{field}: give it once, not {len(given)} times")
        if len(given[0]) > MAX_VALUE:
            raise BadRequest(f"{field}: at most {MAX_VALUE} characters")
        values[field] = given[0].strip()
    paper = values.get("paper", "a4").lower()
    if paper not in PAPERS:
        raise BadRequest(f"paper: takes {' or '.join(PAPERS)}, not {values['paper']!r}")
    duplex = values.get("duplex", "long").lower()
    if duplex not in DUPLEX:
        raise BadRequest(f"duplex: takes {' or '.join(DUPLEX)}, not {values['duplex']!r}")
    return PrintChoices(paper, _flag(values, "backs"), _bleed(values.get("bleed") or "0"), _flag(values, "ink_saver"),
                        duplex, values.get("variant") or None)


def _flag(values: Mapping[str, str], field: str) -> bool:
    """A 0|1 field (absent is 0)."""
    value = values.get(field, "0")
    if value not in ("0", "1"):
        raise BadRequest(f"{field}: takes 0 or 1, not {value!r}")
    return value == "1"


def _bleed(value: str) -> float:
    """The bleed in millimetres, 0 to MAX_BLEED."""
    try:
        bleed = float(value)
    except ValueError:
        bleed = math.nan
    if not math.isfinite(bleed) or not 0 <= bleed <= MAX_BLEED:
        raise BadRequest(f"bleed: takes 0 to {MAX_BLEED:g} mm, not {value!r}")
    return bleed


def variant_of(store: Any, variant_id: str, game: str) -> dict[str, Any]:
    """The stored variant `variant_id` of `game` (NotFound if unknown, BadRequest if another game's)."""
    try:
        if store is None:
            raise KeyError(variant_id)
        variant = store.get(variant_id)
    except KeyError:
        raise NotFound(f"variant: no variant {variant_id!r}") from None
    if variant["game"] != game:
        raise BadRequest(f"variant: {variant_id!r} is a variant of {variant['game']}, not {game}")
    return variant


def pdf_key(game: str, choices: PrintChoices, variant: Mapping[str, Any] | None) -> tuple:
    """Everything that decides the PDF's bytes (a variant by its name and card data, not its id)."""
    varied = None if variant is None else (variant["name"], json.dumps(variant["overrides"], sort_keys=True))
    return (game, choices.paper, choices.backs, choices.bleed, choices.ink_saver, choices.duplex, varied)


def draw_pdf(game_name: str, choices: PrintChoices, variant: Mapping[str, Any] | None) -> bytes:
    """The sheets as `tablepress print GAME --paper .. [--backs] --bleed .. [--ink-saver] --duplex ..
    [--variant NAME.toml]` writes them; a variant's cards are marked with its name."""
    game = get_game(game_name)
    label = None
    try:
        if variant is not None:
            check_variant_size(game, variant["overrides"])  # no sheets for a deck past the server's bound
            game = apply_variant(variant["overrides"], game, source=f"variant {variant['name']}")
            label = variant["name"]
        data, _summary = render_sheets(game, choices.paper, choices.backs, choices.bleed, choices.duplex,
                                       choices.ink_saver, "all", label)
    except TablepressError as exc:
        raise BadRequest(str(exc)) from None
    return data


class Printer:
    """Draws PDFs one at a time (call `pdf` from a worker thread), with a bounded queue and an LRU cache."""

    def __init__(self, max_waiting: int = MAX_WAITING, max_bytes: int = MAX_CACHE_BYTES,
                 per_client: int = CLIENT_PRINTS):
        self.max_waiting = max_waiting
        self.per_client = per_client
        self._by_client: dict[str, int] = {}
        self.max_bytes = max_bytes
        self._cache: OrderedDict[tuple, bytes] = OrderedDict()
        self._cached_bytes = 0
        self._waiting = 0
        self._guard = threading.Lock()
        self._drawing = threading.Lock()
        #: PDFs drawn (not served from the cache), for tests and logs.
        self.drawn = 0

    def pdf(self, key: tuple, draw: Callable[[], bytes], client: str | None = None) -> bytes:
        """The cached bytes for `key`, or `draw()` once the printer is free; QuotaExceeded if too many wait, or
        if `client` already has its share drawn or waiting."""
        with self._guard:
            if (hit := self._hit(key)) is not None:
                return hit
            if self._waiting >= self.max_waiting + 1:
                raise QuotaExceeded("the printer is busy with other PDFs; try again in a moment")
            mine = self._by_client.get(client, 0) if client is not None else 0
            if mine >= self.per_client:
                raise QuotaExceeded(f"the printer is already drawing {mine} PDF for you; wait for it, then ask again")
            self._waiting += 1
            if client is not None:
                self._by_client[client] = mine + 1
        try:
            with self._drawing:
                with self._guard:
                    if (hit := self._hit(key)) is not None:
                        return hit
                data = draw()
                self.drawn += 1
                self._keep(key, data)
                return data
        finally:
            with self._guard:
                self._waiting -= 1
                if client is not None:
                    left = self._by_client.pop(client) - 1
                    if left:
                        self._by_client[client] = left

    def _hit(self, key: tuple) -> bytes | None:
        """The cached bytes (now the most recently used), or None; call holding the guard."""
        data = self._cache.get(key)
        if data is not None:
            self._cache.move_to_end(key)
        return data

    def _keep(self, key: tuple, data: bytes) -> None:
        """Cache `data`, dropping the least recently used PDFs past max_bytes."""
        if len(data) > self.max_bytes:
            return
        with self._guard:
            self._cache[key] = data
            self._cached_bytes += len(data)
            while self._cached_bytes > self.max_bytes:
                _old, dropped = self._cache.popitem(last=False)
                self._cached_bytes -= len(dropped)
