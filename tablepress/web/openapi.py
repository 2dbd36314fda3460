"""The OpenAPI document as the API really answers: every error a `{"detail": string}` object, the statuses
each route can give, and the request bodies the routes read by hand (`requests.py`, `workshop.py`,
`jobs_routes.py`).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

ERROR = {"type": "object", "required": ["detail"], "additionalProperties": True,
         "properties": {"detail": {"type": "string"}, "line": {"type": "integer"}}}
REASONS = {400: "Bad request", 403: "Wrong or missing token", 404: "No such thing", 409: "Not now (illegal or too early)",
           413: "Body too large", 422: "A field is wrong (named)", 429: "A limit is reached",
           503: "Busy or the store did not answer", 507: "The store is out of space"}
#: What every request can be refused with before a route sees it (request line, headers, body limits).
ANY = (400,)
STORE = (503, 507)
BODY = (413, 422)
#: The statuses each route can give beyond its success.
STATUSES: dict[tuple[str, str], tuple[int, ...]] = {
    ("get", "/api/catalog"): (),
    ("get", "/api/games"): (),
    ("post", "/api/games"): (*BODY, 429, *STORE),
    ("get", "/api/games/{game_id}"): (403, 404),
    ("post", "/api/games/{game_id}/actions"): (403, 404, 409, *BODY, *STORE),
    ("post", "/api/games/{game_id}/undo"): (403, 404, 409, *STORE),
    ("post", "/api/games/{game_id}/bot"): (403, 404, 409, *BODY, *STORE),
    ("post", "/api/games/{game_id}/reclaim"): (403, 404, 409, *STORE),
    ("post", "/api/games/{game_id}/rematch"): (403, 404, 409, 422, 429, *STORE),
    ("get", "/api/games/{game_id}/record"): (404, 409),
    ("get", "/api/games/{game_id}/replay"): (403, 404, 422),
    ("post", "/api/variants"): (403, *BODY, 429, *STORE),
    ("get", "/api/variants"): (403, 422),
    ("get", "/api/variants/{variant_id}"): (403, 404),
    ("delete", "/api/variants/{variant_id}"): (403, 404, *STORE),
    ("patch", "/api/variants/{variant_id}"): (403, 404, *BODY, *STORE),
    ("get", "/api/cards/{name}"): (404,),
    ("post", "/api/simulations"): (*BODY, 429, *STORE),
    ("get", "/api/simulations/{job_id}"): (404,),
    ("get", "/api/simulations/{job_id}/events"): (404, 429),
    ("post", "/api/players"): (*BODY, 429, *STORE),
    ("get", "/api/players/me"): (403,),
    ("post", "/api/players/me/link"): (403, *STORE),
    ("post", "/api/players/link"): (404, *BODY, *STORE),
    ("post", "/api/tables"): (403, *BODY, 429, *STORE),
    ("get", "/api/tables"): (),
    ("get", "/api/tables/{table_id}"): (403, 404),
    ("post", "/api/tables/{table_id}/join"): (403, 404, 409, 422, 429, *STORE),
    ("post", "/api/games/{game_id}/chat"): (403, 404, *BODY, 429, *STORE),
    ("get", "/api/games/{game_id}/chat"): (404, 422),
    ("get", "/api/ratings/{game}"): (404,),
    ("get", "/api/games/{game_id}/ratings"): (404,),
    ("get", "/api/games/{game_id}/clock"): (404, *STORE),
    ("post", "/api/guides/{name}"): (404, 429, *STORE),
    ("get", "/api/games/{game_id}/guide"): (403, 404),
}
TEXT = {"type": "string"}
SPECS = {"type": "array", "items": TEXT, "minItems": 1}
#: The JSON bodies the routes read.
BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("post", "/api/games"): {"type": "object", "required": ["game", "seats"], "properties": {
        "game": TEXT, "seats": SPECS, "options": {"type": "object"}, "seed": {"type": "integer", "minimum": 0},
        "names": {"type": "array", "items": TEXT}, "variant": {"oneOf": [TEXT, {"type": "object"}]}}},
    ("post", "/api/games/{game_id}/actions"): {"type": "object", "required": ["action"],
                                              "properties": {"action": TEXT}},
    ("post", "/api/games/{game_id}/bot"): {"type": "object", "properties": {"agent": TEXT}},
    ("post", "/api/variants"): {"type": "object", "required": ["game", "toml"], "properties": {
        "game": TEXT, "name": TEXT, "toml": TEXT, "public": {"type": "boolean"}}},
    ("patch", "/api/variants/{variant_id}"): {"type": "object", "required": ["public"],
                                             "properties": {"public": {"type": "boolean"}}},
    ("post", "/api/simulations"): {"type": "object", "required": ["game", "games"], "properties": {
        "game": TEXT, "games": {"type": "integer", "minimum": 1}, "players": {"type": "integer", "minimum": 1},
        "seats": SPECS, "seed": {"type": "integer", "minimum": 0}, "options": {"type": "object"},
        "variant": TEXT, "compare": TEXT}},
    ("post", "/api/players"): {"type": "object", "required": ["name"], "properties": {"name": TEXT}},
    ("post", "/api/players/link"): {"type": "object", "required": ["code"], "properties": {"code": TEXT}},
    ("post", "/api/tables"): {"type": "object", "required": ["game"], "properties": {
        "game": TEXT, "players": {"type": "integer", "minimum": 1}, "options": {"type": "object"},
        "ai": {"type": "object", "additionalProperties": TEXT}, "private": {"type": "boolean"},
        "rated": {"type": "boolean"}, "clock": {"type": "integer", "minimum": 10}}},
    ("post", "/api/games/{game_id}/chat"): {"type": "object", "properties": {"text": TEXT, "emote": TEXT}},
}
#: Successes besides the route's own (a dry run answers 200 where a save answers 201).
MORE_SUCCESS = {("post", "/api/variants"): {"200": {"description": "The variant checks (dry run)", "content": {
    "application/json": {"schema": {"type": "object"}}}}}}


def document(app: FastAPI) -> dict[str, Any]:
    """The app's OpenAPI document, made once (what `app.openapi` returns once `describe` set it)."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    schema = get_openapi(title=app.title, version=app.version, routes=app.routes)
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    components["Error"] = ERROR
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            key = (method, path)
            responses = {code: answer for code, answer in operation.get("responses", {}).items()
                         if not code.startswith("4")}
            responses.update(MORE_SUCCESS.get(key, {}))
            for status in sorted({*ANY, *STATUSES.get(key, (404, 422))}):
                responses[str(status)] = {"description": REASONS[status], "content": error}
            operation["responses"] = responses
            if key in BODIES:
                operation["requestBody"] = {"required": key != ("post", "/api/games/{game_id}/bot"),
                                            "content": {"application/json": {"schema": BODIES[key]}}}
    app.openapi_schema = schema
    return schema


def describe(app: FastAPI) -> None:
    """Make `app` serve `document(app)` at /openapi.json."""
    app.openapi = lambda: document(app)  # type: ignore[method-assign]
