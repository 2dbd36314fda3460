"""The designer's workshop: saved card-data variants (`/api/variants`) and the Make page (`/make/{name}`).

A variant is TOML in the shape of the game's cards.toml, checked as `simulate --variant` checks a file
before it is stored: TOML syntax (the error names its line), the server's bounds on numbers and card
copies, the shape of the published data (the error names the field, and the line that sets it), and one
seeded random game at every player count the game allows, each played in a worker within a time limit.
A variant's card data never changes once saved; games, simulations and print sheets refer to it by id.
A variant belongs to its maker (`variant_makers.py`), who may unlist it (`PATCH /api/variants/{id}`
`{"public": false}`: it still opens by its id, for friends with the link) or delete it (games already
made with it keep their own copy of its card data).
"""

from __future__ import annotations

import re
import secrets
import tomllib
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from ..core.errors import TablepressError
from ..core.game import Game
from ..core.registry import get_package
from ..core.variants import MAX_VARIANT_BYTES, base_data, check_shape, variant_changes
from .clients import client_address
from .errors import one_line
from .faults import writing
from .hub import NotFound, QuotaExceeded, check_variant_size
from .jobs import JobPool
from .quotas import variant_checks
from .requests import VARIANT_ID, BadRequest, check_variant, game_named, read_json, text_field
from .store import Store
from .variant_makers import asking, check_maker, described, new_maker

STATIC = Path(__file__).parent / "static"
#: Variants the server keeps at most (429 past that), and the most characters of a variant's name.
MAX_VARIANTS = 2_000
MAX_VARIANT_NAME = 60
#: Saved variants of one game the Make page lists (the newest).
MAX_LISTED_VARIANTS = 100

router = APIRouter()


class VariantError(BadRequest):
    """A variant that does not check (422), with the line of its TOML the fault is on, if known."""

    def __init__(self, detail: str, line: int | None = None):
        super().__init__(detail)
        self.line = line


class Variants:
    """Saved variants by id, for every surface that takes `variant=ID` (games, simulations, print sheets)."""

    def __init__(self, store: Store):
        self.store = store

    def get(self, variant_id: str) -> dict[str, Any]:
        """{"id", "game", "name", "toml", "overrides"} of a saved variant; KeyError if there is none."""
        if not isinstance(variant_id, str) or not VARIANT_ID.fullmatch(variant_id):
            raise KeyError(variant_id)
        return self.store.variant(variant_id)


class Workshop:
    """The workshop's parts over the server's store: the saved variants and the simulation jobs."""

    def __init__(self, store: Store, workers: int | None = None):
        self.store = store
        self.variants = Variants(self.store)
        self.jobs = JobPool(self.store, workers)

    def start(self) -> None:
        """Start the simulation jobs' dispatcher (call once the event loop runs)."""
        self.jobs.start()

    async def close(self) -> None:
        """Stop the job workers (their jobs resume at the next start); the store stays open for its owner."""
        await self.jobs.close()


# ----- checking a variant ------------------------------------------------------------------------
def toml_error(exc: tomllib.TOMLDecodeError, text: str) -> VariantError:
    """A TOML syntax error as `line N: what (column C)`."""
    message = str(exc)
    found = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if found:
        line = int(found.group(1))
        return VariantError(f"line {line}: {message[:found.start()]} (column {found.group(2)})", line)
    if message.endswith("(at end of document)"):
        line = max(1, text.count("\n") + (0 if text.endswith("\n") else 1))
        return VariantError(f"line {line}: {message.removesuffix(' (at end of document)')} (at the end)", line)
    return VariantError(f"not valid TOML: {message}")


def parse_toml(text: str) -> dict[str, Any]:
    """The variant's TOML as data; VariantError naming the line of a syntax error."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_VARIANT_BYTES:
        raise VariantError(f"toml: the variant is over {MAX_VARIANT_BYTES} bytes")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(exc, text) from None
    except ValueError:  # tomllib refuses a whole number of over 4,300 digits this way
        raise VariantError("toml: a number is far too long") from None
    except RecursionError:
        raise VariantError("toml: nested too deeply") from None


def field_lines(text: str) -> dict[str, int]:
    """Every table and key the TOML text sets, as a field path (`flowers.Zinnia.table`), with its first line."""
    lines: dict[str, int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = re.match(r"\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$", line)
        if header:
            table = _path(header.group(1))
            lines.setdefault(table, number)
            continue
        key = re.match(r"\s*((?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*'))*)"
                       r"\s*=", line)
        if key:
            lines.setdefault(f"{table}.{_path(key.group(1))}" if table else _path(key.group(1)), number)
    return lines


def _path(dotted: str) -> str:
    parts = re.findall(r"\"[^\"]*\"|'[^']*'|[^.\s]+", dotted)
    return ".".join(part.strip("\"'") for part in parts)


def line_of(message: str, text: str) -> int | None:
    """The line of the TOML text setting the field an error message names (the most specific one), if any."""
    best: tuple[int, int] | None = None
    for path, number in field_lines(text).items():
        if re.search(r"(?<![\w.])" + re.escape(path) + r"(?=[:\[])", message) and (best is None or len(path) > best[0]):
            best = (len(path), number)
    return None if best is None else best[1]


def without_source(message: str) -> str:
    """An error message without the `variant: ` / `variant.` its checks put before the field."""
    for prefix in ("variant: ", "variant."):
        if message.startswith(prefix):
            return message[len(prefix):]
    return message


def field_error(exc: TablepressError, text: str) -> VariantError:
    """A check's error as the API gives it: the field first, with the line of the TOML that sets it."""
    detail = without_source(str(exc))
    return VariantError(detail, line_of(detail, text))


async def check_text(request: Request, game: Game, text: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(overrides, changes) of a variant's TOML for `game`, checked as the module says; VariantError if it fails."""
    if not isinstance(text, str):
        raise VariantError("toml: must be the variant's TOML text")
    text_field(text, "toml", MAX_VARIANT_BYTES, multiline=True)
    overrides = parse_toml(text)
    if not overrides:
        raise VariantError("toml: the variant changes nothing: change a value of the published cards")
    base = base_data(game)
    if base is None:
        raise VariantError(f"game: {game.name} has no card data to change")
    try:
        check_shape(overrides, base)
        check_variant(overrides)
        check_variant_size(game, overrides)
    except TablepressError as exc:
        raise field_error(exc, text) from None
    except RecursionError:
        raise VariantError("toml: nested too deeply") from None
    changes = variant_changes(overrides, base)
    if not changes:
        raise VariantError("toml: the variant changes nothing: every value is the published one")
    thinker = request.app.state.hub.checker
    for players in range(game.min_players, game.max_players + 1):
        try:
            await thinker.check_variant(game, overrides, players, {})
        except TablepressError as exc:
            raise field_error(exc, text) from None
    return overrides, changes


def variant_name(value: Any) -> str:
    """A variant's name: text on one line of 1 to MAX_VARIANT_NAME characters; BadRequest otherwise."""
    if not isinstance(value, str):
        raise BadRequest("name: must be the variant's name (text)")
    text_field(value, "name")
    name = " ".join("".join(c for c in value if c.isprintable()).split())
    if not name:
        raise BadRequest("name: give the variant a name")
    if len(name) > MAX_VARIANT_NAME:
        raise BadRequest(f"name: at most {MAX_VARIANT_NAME} characters, not {len(name)}")
    return name


def refused(exc: VariantError) -> JSONResponse:
    """The 422 answer for a variant that does not check: {"detail", "line"?}."""
    body: dict[str, Any] = {"detail": one_line(str(exc))}
    if exc.line is not None:
        body["line"] = exc.line
    return JSONResponse(body, status_code=422)


# ----- routes --------------------------------------------------------------------------------------
@router.post("/api/variants", status_code=201, response_model=None)
async def post_variant(request: Request, dry_run: bool = False) -> dict[str, Any] | JSONResponse:
    """Save a variant: `{"game", "name", "toml", "public"?}` → 201 {"id", "public", "maker_token"?} (the maker
    token only when someone not signed in saves without one). With `?dry_run=1` only check it:
    200 {"ok": true, "changes"}. A variant that does not check is 422 {"detail", "line"?}."""
    data = await read_json(request)
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object {\"game\", \"name\", \"toml\"}")
    game = game_named(data.get("game"))
    name = variant_name(data.get("name")) if not dry_run or data.get("name") is not None else ""
    public = public_flag(data.get("public", True))
    try:
        with variant_checks(request.app.state).entering(client_address(request)):
            overrides, changes = await check_text(request, game, data.get("toml"))
    except VariantError as exc:
        return refused(exc)
    if dry_run:
        return JSONResponse({"ok": True, "changes": changes})
    workshop: Workshop = request.app.state.workshop
    if workshop.store.count_variants() >= MAX_VARIANTS:
        raise QuotaExceeded(f"this server already keeps {MAX_VARIANTS} variants, the most it may")
    owner, token = new_maker(request)
    variant_id = secrets.token_hex(6)
    with writing("variant", variant=variant_id, client=client_address(request)):
        workshop.store.add_variant(variant_id, game.name, name, data["toml"], overrides, client_address(request),
                                   owner, public)
    answer: dict[str, Any] = {"id": variant_id, "public": public}
    if token is not None:
        answer["maker_token"] = token
    return answer


def public_flag(value: Any) -> bool:
    """The `public` field of a body: true or false; BadRequest otherwise."""
    if not isinstance(value, bool):
        raise BadRequest("public: must be true (listed) or false (only by its link)")
    return value


@router.get("/api/variants")
async def list_variants(request: Request, game: str) -> dict[str, Any]:
    """The newest saved variants of a game that are public or the asker's own:
    {"variants": [{"id", "name", "created", "public", "mine"}]}."""
    chosen = game_named(game)
    keys = asking(request)
    found = request.app.state.workshop.store.variants_of(chosen.name, MAX_LISTED_VARIANTS, keys)
    return {"variants": [described(variant, keys) for variant in found]}


@router.get("/api/variants/{variant_id}")
async def get_variant(request: Request, variant_id: str) -> dict[str, Any]:
    """A saved variant, listed or not: {"id", "game", "name", "toml", "changes": [{"field", "old", "new"}],
    "public", "mine"}."""
    variant = saved(request, variant_id)
    game = get_package(variant["game"]).game
    changes = variant_changes(variant["overrides"], base_data(game))
    mine = described(variant, asking(request))["mine"]
    return {"id": variant["id"], "game": variant["game"], "name": variant["name"], "toml": variant["toml"],
            "changes": changes, "public": variant["public"], "mine": mine}


@router.delete("/api/variants/{variant_id}", status_code=204, response_class=Response)
async def delete_variant(request: Request, variant_id: str) -> Response:
    """Delete a saved variant: 204 for its maker, 403 for anyone else, 404 if there is none. Games made
    with it keep their own copy of its card data."""
    variant = saved(request, variant_id)
    owner = check_maker(variant, asking(request))
    with writing("variant", variant=variant_id, client=client_address(request)):
        if not request.app.state.workshop.store.delete_variant(variant_id, owner):
            raise NotFound(f"no variant {variant_id[:40]!r}")
    return Response(status_code=204)


@router.patch("/api/variants/{variant_id}")
async def patch_variant(request: Request, variant_id: str) -> dict[str, Any]:
    """List or unlist a saved variant: `{"public": bool}` → {"id", "public"}; for its maker only (403)."""
    data = await read_json(request)
    if not isinstance(data, dict) or "public" not in data:
        raise BadRequest("the body must be a JSON object {\"public\": true|false}")
    public = public_flag(data["public"])
    owner = check_maker(saved(request, variant_id), asking(request))
    with writing("variant", variant=variant_id, client=client_address(request)):
        if not request.app.state.workshop.store.set_variant_public(variant_id, owner, public):
            raise NotFound(f"no variant {variant_id[:40]!r}")
    return {"id": variant_id, "public": public}


def saved(request: Request, variant_id: str) -> dict[str, Any]:
    """The stored variant `variant_id`; NotFound if there is none."""
    try:
        return request.app.state.variants.get(variant_id)
    except KeyError:
        raise NotFound(f"no variant {variant_id[:40]!r}") from None


@router.get("/api/cards/{name}")
async def published_cards(name: str) -> dict[str, Any]:
    """A game's published card data as its designer wrote it: {"game", "title", "toml"} (its cards.toml)."""
    try:
        package = get_package(name)
    except TablepressError:
        raise NotFound(f"no game {name[:40]!r}") from None
    path = package.file("cards.toml")
    if path is None:
        raise NotFound(f"{name} has no card data (cards.toml) to change")
    return {"game": package.name, "title": package.game.title, "toml": path.read_text(encoding="utf-8")}


@router.get("/make/{name}", include_in_schema=False)
async def make_page(name: str) -> FileResponse:
    """The designer's workspace for one game (the page reads the game from its address)."""
    try:
        get_package(name)
    except TablepressError:
        raise NotFound(f"no game {name[:40]!r}") from None
    return FileResponse(STATIC / "make.html")


def resolve(variants: Variants, variant_id: Any, game: str, field: str = "variant") -> dict[str, Any]:
    """The saved variant `variant_id` of `game`; BadRequest naming `field` if there is none or it is another game's."""
    try:
        variant = variants.get(variant_id)
    except KeyError:
        raise BadRequest(f"{field}: no saved variant {str(variant_id)[:40]!r}") from None
    if variant["game"] != game:
        raise BadRequest(f"{field}: the variant {variant['name']!r} is for {variant['game']}, not {game}")
    return variant

