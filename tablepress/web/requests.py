"""Reading request bodies by hand: size-limited JSON, checked field by field, one clear message per fault.

Anything malformed becomes `BadRequest` (422) naming the field; nothing here touches a game.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from starlette.requests import ClientDisconnect, Request

from ..agents.base import HUMAN, parse_spec
from ..agents.levels import check_level_seats
from ..core.errors import TablepressError
from ..core.game import Game
from ..core.registry import game_names, get_package
from .fields import MAX_SHORT, MAX_SPEC, strings, text_fault
from .thinking import MAX_ITERATIONS, THINK_SECONDS

MAX_BODY = 64 * 1024
MAX_ACTION = 2000
MAX_NAME = 24
MAX_SEATS = 12
#: The largest AI budgets a web game may ask for: what the server gives any AI decision, in iterations
#: (`ismcts:5000`, `greedy:5000`) and seconds (`ismcts:10s`).
MAX_BUDGET = MAX_ITERATIONS
MAX_SECONDS = THINK_SECONDS
#: The most digits of a whole number and the deepest nesting of lists and objects a body may hold.
MAX_DIGITS = 32
MAX_DEPTH = 32
#: A card data variant's numbers may add up to at most this (ten times the largest published card data).
MAX_VARIANT_TOTAL = 10_000
#: The longest text a variant's card data may hold in one value.
MAX_CARD_TEXT = 4000
#: The most characters of a field name an error message repeats.
MAX_SHOWN = 40
#: A saved variant's id (`"variant": ID` in a create body; TOML text never looks like one).
VARIANT_ID = re.compile(r"[0-9a-f]{12}")


class BadRequest(TablepressError):
    """A request body that is not what the API takes (HTTP 422)."""


class Forbidden(TablepressError):
    """A wrong or malformed seat token (HTTP 403)."""


class TooLarge(TablepressError):
    """A request body over MAX_BODY bytes (HTTP 413)."""


class Unusable:
    """A number refused wherever it stands in a body (too many digits, NaN, Infinity); `why` says which."""

    def __init__(self, why: str):
        self.why = why


def _whole(text: str) -> int | Unusable:
    digits = len(text.lstrip("-"))
    return int(text) if digits <= MAX_DIGITS else Unusable(f"a number of {digits} digits; at most {MAX_DIGITS}")


def _real(text: str) -> float | Unusable:
    value = float(text)
    return value if math.isfinite(value) else Unusable(f"{text[:MAX_SHOWN]} is not a finite number")


def _constant(text: str) -> Unusable:
    return Unusable(f"{text} is not a number this API takes")


def leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every value in `value` that is not a list or an object, with its path (`options.summer`, `seats[1]`).

    BadRequest past MAX_DEPTH levels of nesting.
    """
    stack = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, dict):
            children = [(f"{where}.{_shown(k)}" if where else _shown(k), v) for k, v in item.items()]
        elif isinstance(item, list):
            children = [(f"{where}[{i}]", v) for i, v in enumerate(item)]
        else:
            yield where, item
            continue
        if depth >= MAX_DEPTH:
            raise BadRequest(f"{where or 'the body'}: nested more than {MAX_DEPTH} levels deep")
        stack.extend((v, w, depth + 1) for w, v in reversed(children))


def _shown(key: Any) -> str:
    """A field name as an error message repeats it: on one line, at most MAX_SHOWN characters."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(key)[:MAX_SHOWN])
    return text if len(str(key)) <= MAX_SHOWN else text + "..."


def text_field(value: Any, where: str, max_chars: int = MAX_SHORT, multiline: bool = False) -> str:
    """`value` if it is acceptable text (see `fields.text_fault`); BadRequest naming `where` otherwise."""
    fault = text_fault(value, max_chars, multiline)
    if fault is not None:
        raise BadRequest(f"{where}: {fault}")
    return value


def parse_json(body: bytes) -> Any:
    """The JSON in a request body, or BadRequest saying where it breaks or which field holds an unusable number."""
    if len(body) > MAX_BODY:
        raise TooLarge(f"the request body is over {MAX_BODY} bytes")
    try:
        data = json.loads(body.decode("utf-8"), parse_int=_whole, parse_float=_real, parse_constant=_constant)
    except UnicodeDecodeError:
        raise BadRequest("the request body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise BadRequest(f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise BadRequest("malformed JSON: nested too deeply") from None
    for where, leaf in leaves(data):
        if isinstance(leaf, Unusable):
            raise BadRequest(f"{where or 'the body'}: {leaf.why}")
    return data


async def read_body(request: Request) -> bytes:
    """The request body, read in chunks and refused (TooLarge) past MAX_BODY bytes without reading the rest."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        raise TooLarge(f"the request body is over {MAX_BODY} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise TooLarge(f"the request body is over {MAX_BODY} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        raise BadRequest("the connection closed before the request body arrived") from None
    return b"".join(chunks)


async def read_json(request: Request) -> Any:
    """The request's JSON body, size-limited as every API body is."""
    return parse_json(await read_body(request))


def game_named(name: Any) -> Game:
    """The registered game `name`; BadRequest naming the field otherwise."""
    if not isinstance(name, str) or not name.strip():
        raise BadRequest(f"game: must be a game name ({', '.join(game_names())})")
    text_field(name, "game")
    try:
        return get_package(name.strip()).game
    except TablepressError:
        raise BadRequest(f"game: no game {name.strip()[:40]!r} (known: {', '.join(game_names())})") from None


@dataclass
class CreateRequest:
    """A checked `POST /api/games` body."""

    game: str
    seats: list[str]
    options: dict[str, Any]
    seed: int | None
    names: list[str] | None
    variant: dict[str, Any] | str | None  # card data changes, or a saved variant's id


def parse_create(body: bytes) -> CreateRequest:
    """Check a create body: game (text), seats (agent specs), options (object), seed, names, variant (changes
    as an object or TOML text, or a saved variant's id)."""
    data = parse_json(body)
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object with 'game' and 'seats'")
    game = data.get("game")
    if not isinstance(game, str) or not game.strip():
        raise BadRequest(f"'game' must be a game name ({', '.join(game_names())})")
    text_field(game, "game")
    seats = data.get("seats")
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        raise BadRequest("'seats' must be a non-empty list of seat specs such as \"human\" or \"ismcts:500\"")
    if len(seats) > MAX_SEATS:
        raise BadRequest(f"'seats' lists {len(seats)} seats; at most {MAX_SEATS}")
    specs = []
    for index, spec in enumerate(seats):
        name = parse_web_spec(text_field(spec, f"seats[{index}]", MAX_SPEC), f"seats[{index}]")
        specs.append(HUMAN if name == HUMAN else spec.strip().lower())
    known_levels(game.strip(), specs)
    options = data.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadRequest("'options' must be a JSON object of option names to values")
    for key, value in options.items():
        if not isinstance(value, (str, int, float, bool, list)) or (
            isinstance(value, list) and not all(isinstance(v, (str, int)) for v in value)
        ):
            raise BadRequest(f"options.{_shown(key)}: must be text, a number, true/false or a list of names")
    for where, text in strings(options, "options"):
        text_field(text, where)
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise BadRequest("'seed' must be a whole number from 0 to 2^63-1")
    names = data.get("names")
    if names is not None:
        if not isinstance(names, list) or len(names) != len(seats) or not all(isinstance(n, str) for n in names):
            raise BadRequest("'names' must be a list of one name per seat")
        for index, name in enumerate(names):
            text_field(name, f"names[{index}]")
        names = [" ".join(n.split())[:MAX_NAME] or f"Player {i + 1}" for i, n in enumerate(names)]
    variant = data.get("variant")
    if isinstance(variant, str) and VARIANT_ID.fullmatch(variant.strip()):
        variant = variant.strip()
    elif isinstance(variant, str):
        text_field(variant, "variant", MAX_BODY, multiline=True)
        variant = parse_variant_text(variant) if variant.strip() else None
    if variant is not None and not isinstance(variant, str):
        check_variant(variant)
    return CreateRequest(game.strip(), specs, options, seed, names, variant)


def parse_variant_text(text: str) -> dict[str, Any]:
    """Card data changes written as TOML (like a variant file), or BadRequest naming the line."""
    try:
        return tomllib.loads(text, parse_float=_real)
    except tomllib.TOMLDecodeError as exc:
        raise BadRequest(f"variant: {exc}") from None
    except ValueError:
        raise BadRequest(f"variant: a number has more than {MAX_DIGITS} digits") from None
    except RecursionError:
        raise BadRequest(f"variant: nested more than {MAX_DEPTH} levels deep") from None


def check_variant(variant: Any) -> None:
    """BadRequest unless `variant` is an object of plain values whose numbers add up to at most MAX_VARIANT_TOTAL.

    The bound keeps what a variant may build (cards, rounds, hands) about as small as the published card data.
    """
    if not isinstance(variant, dict):
        raise BadRequest("'variant' must be an object (or TOML text) shaped like the game's card data")
    for where, text in strings(variant, "variant"):
        text_field(text, where, MAX_CARD_TEXT, multiline=True)
    total, largest = 0.0, ("", 0)
    for where, leaf in leaves(variant, "variant"):
        if isinstance(leaf, Unusable):
            raise BadRequest(f"{where}: {leaf.why}")
        if isinstance(leaf, (bool, str)):
            continue
        if not isinstance(leaf, (int, float)):
            raise BadRequest(f"{where}: must be text, a number, true/false, a list or a table")
        if isinstance(leaf, int) and len(str(abs(leaf))) > MAX_DIGITS:
            raise BadRequest(f"{where}: a number of more than {MAX_DIGITS} digits")
        total += abs(leaf)
        if abs(leaf) > abs(largest[1]):
            largest = (where, leaf)
    if total > MAX_VARIANT_TOTAL:
        raise BadRequest(f"variant: its numbers add up to {total:g}, over this server's limit of "
                         f"{MAX_VARIANT_TOTAL} (the largest: {largest[0]} = {largest[1]})")


def parse_action(body: bytes) -> str:
    """The action text of a `POST .../actions` body `{"action": ACTION}`."""
    data = parse_json(body)
    if not isinstance(data, dict) or "action" not in data:
        raise BadRequest("the body must be a JSON object {\"action\": ACTION}")
    action = data["action"]
    if not isinstance(action, str):
        raise BadRequest("'action' must be text, one of the legal_actions as given")
    if len(action) > MAX_ACTION:
        raise BadRequest(f"'action' is over {MAX_ACTION} characters")
    return action


#: Seats a visitor may not ask the server for: a policy seat loads a file from the server's disk.
SERVER_ONLY = frozenset({"policy"})


def parse_web_spec(spec: str, where: str) -> str:
    """The agent name of a seat spec sent to the server (within its budget caps); BadRequest naming `where`."""
    try:
        name, _budget = parse_spec(spec, MAX_BUDGET, MAX_SECONDS)
    except TablepressError as exc:
        raise BadRequest(f"{where}: {exc}") from None
    if name in SERVER_ONLY:
        raise BadRequest(f"{where}: {name} seats load a file on the server; the web app does not offer them")
    return name


def known_levels(game: str, specs: list[str], where: str = "seats") -> None:
    """BadRequest (naming the field `where` and the game's levels) if a `level:NAME` spec is not one of them."""
    try:
        check_level_seats(game, specs)
    except TablepressError as exc:
        raise BadRequest(f"{where}: {exc}") from None


def parse_agent(body: bytes) -> str:
    """The AI spec of a take-over body `{"agent": "greedy"}` (an AI, never `human`)."""
    data = parse_json(body) if body.strip() else {}
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object {\"agent\": SPEC}")
    spec = data.get("agent", "greedy")
    if not isinstance(spec, str):
        raise BadRequest("'agent' must be an AI seat spec such as \"greedy\" or \"ismcts:300\"")
    name = parse_web_spec(text_field(spec, "agent", MAX_SPEC), "agent")
    if name == HUMAN:
        raise BadRequest("agent: a human cannot take over a seat; name an AI")
    return spec.strip().lower()


def bearer_token(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header (None when there is no header)."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Forbidden("the Authorization header must be 'Bearer TOKEN'")
    return token.strip()
