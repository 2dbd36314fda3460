"""The simulation routes: `POST/GET /api/simulations`, the progress stream and the report page `/simulations/{id}`.

A request is checked field by field before it is queued (422 naming the field, 429 when the queue is
full); its variants are resolved to their card data then (with their id, name and TOML, for the command
that repeats the job), so a job plays what was asked for even if the server restarts before it runs.

A job's `games` is every game it plays, known from the start: each arm's games and, for a comparison, the
verdict's skill-gap games (`jobs.planned_games`); `plan` breaks that total down.
"""

from __future__ import annotations

import asyncio
import html
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, StreamingResponse

from ..agents.base import HUMAN
from ..core.errors import TablepressError
from ..sim.service import seat_plan
from .clients import client_address
from .hub import NotFound
from .jobs import MAX_GAMES, JobPool, planned_games, skill_gap_games
from .fields import MAX_SPEC, strings
from .quotas import Slots
from .requests import MAX_SEATS, BadRequest, game_named, parse_web_spec, read_json, text_field
from .workshop import Workshop, resolve, without_source
from .workshop_store import DONE, FAILED, QUEUED

STATIC = Path(__file__).parent / "static"
#: The label of the published cards in a summary (as `tablepress simulate` names them).
PUBLISHED = "published cards"
#: Words for the published cards where a variant id is expected (`"compare": "base"`).
BASE_WORDS = ("base", "published")
#: Progress streams open at once at most (and of them one client's), how often one looks for news, and its
#: keep-alive (seconds).
MAX_STREAMS = 200
CLIENT_STREAMS = 20
STREAM_SECONDS = 0.3
KEEPALIVE_SECONDS = 15.0

router = APIRouter()
streams = Slots(MAX_STREAMS, CLIENT_STREAMS, "progress streams")


class HeldStream(StreamingResponse):
    """A streaming response that gives its client's stream slot back when it ends, however it ends (even if
    its body never started)."""

    def __init__(self, body: AsyncIterator[str], client: str | None, **kwargs: Any):
        super().__init__(body, **kwargs)
        self.client = client

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Send the stream, then release the slot."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            streams.give_back(self.client)


async def parse_simulation(request: Request, data: Any) -> tuple[dict[str, Any], int]:
    """A `POST /api/simulations` body checked and resolved: (the job's request, every game it plays); BadRequest
    naming the field."""
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object {\"game\", \"games\", \"players\", \"seats\", ...}")
    game = game_named(data.get("game"))
    games = data.get("games")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise BadRequest(f"games: a whole number of games from 1 to {MAX_GAMES:,}, the most one simulation plays here")
    players = data.get("players", game.default_players)
    if isinstance(players, bool) or not isinstance(players, int) or not (
            game.min_players <= players <= game.max_players):
        raise BadRequest(f"players: a whole number from {game.min_players} to {game.max_players}")
    seats = data.get("seats", ["random"])
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats) or len(seats) > MAX_SEATS:
        raise BadRequest(f"seats: a list of 1 to {MAX_SEATS} AI seat specs such as \"greedy\" or \"ismcts:200\"")
    for index, spec in enumerate(seats):
        name = parse_web_spec(text_field(spec, f"seats[{index}]", MAX_SPEC), f"seats[{index}]")
        if name == HUMAN:
            raise BadRequest(f"seats[{index}]: a simulation plays AI seats only, not human")
    try:
        count, specs = seat_plan(game, ",".join(s.strip().lower() for s in seats), players)
    except TablepressError as exc:
        raise BadRequest(f"players: {exc}") from None
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise BadRequest("seed: a whole number from 0 to 2^63-1")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise BadRequest("options: an object of option names to values")
    for where, text in strings(options, "options"):
        text_field(text, where)
    try:
        options = game.normalise_options(options)
    except TablepressError as exc:
        raise BadRequest(f"options: {exc}") from None
    workshop: Workshop = request.app.state.workshop
    sides: list[tuple[str, dict[str, Any] | None, dict[str, Any] | None]] = []
    for field in ("variant", "compare"):
        value = data.get(field)
        if value is None or (isinstance(value, str) and value.strip().lower() in BASE_WORDS):
            sides.append((PUBLISHED, None, None))
            continue
        variant = resolve(workshop.variants, value, game.name, field)
        try:
            await request.app.state.hub.checker.check_variant(game, variant["overrides"], count, options)
        except TablepressError as exc:
            raise BadRequest(f"{field}: {without_source(str(exc))}") from None
        saved = {"id": variant["id"], "name": variant["name"], "toml": variant["toml"]}
        sides.append((variant["name"], variant["overrides"], saved))
    compared = data.get("compare") is not None
    arms = sides if compared else sides[:1]
    if compared and arms[0][0] == arms[1][0]:
        arms = [(f"{letter}: {label}", overrides, saved) for letter, (label, overrides, saved) in zip("AB", arms)]
    job = {"game": game.name, "games": games, "players": count, "seats": list(specs),
           "seed": random.getrandbits(31) if seed is None else seed, "options": jsonable(options),
           "arms": [{"label": label, "overrides": overrides, "variant": saved} for label, overrides, saved in arms]}
    return job, planned_games(job)


def jsonable(options: dict[str, Any]) -> dict[str, Any]:
    """Options as JSON keeps them (tuples as lists)."""
    return json.loads(json.dumps(options))


def status_of(pool: JobPool, job: dict[str, Any]) -> dict[str, Any]:
    """What `GET /api/simulations/{id}` answers: status, progress (done of every game the job plays, `plan`
    breaking them down), and the summary or the reason."""
    request = job["request"]
    reply: dict[str, Any] = {"id": job["id"], "status": job["status"], "done": job["done"], "games": job["games"],
                             "game": request["game"], "players": request["players"], "seats": request["seats"],
                             "seed": request["seed"], "arms": [arm["label"] for arm in request["arms"]],
                             "plan": {"games_per_arm": request["games"], "arms": len(request["arms"]),
                                      "skill_gap_games": skill_gap_games(request)}}
    if job["status"] == QUEUED:
        reply["ahead"] = pool.queue_position(job["id"])
    if job["status"] == DONE:
        reply["summary"] = job["summary"]
    if job["status"] == FAILED:
        reply["error"] = job["error"]
    return reply


def job_of(request: Request, job_id: str) -> dict[str, Any]:
    """The stored job, or NotFound."""
    try:
        return request.app.state.workshop.store.job(job_id)
    except KeyError:
        raise NotFound(f"no simulation {job_id[:40]!r}") from None


@router.post("/api/simulations", status_code=202)
async def post_simulation(request: Request) -> dict[str, Any]:
    """Queue a simulation: 202 {"id"}; 422 naming a bad field, 429 when the queue is full."""
    job, games = await parse_simulation(request, await read_json(request))
    pool: JobPool = request.app.state.workshop.jobs
    return {"id": pool.submit(job, games, client_address(request))}


@router.get("/api/simulations/{job_id}")
async def get_simulation(request: Request, job_id: str) -> dict[str, Any]:
    """A simulation's status: {"status", "done", "games", "plan", "summary"? (`simulate --json`'s numbers, the
    provenance describing this request), "error"?}."""
    return status_of(request.app.state.workshop.jobs, job_of(request, job_id))


@router.get("/api/simulations/{job_id}/events")
async def simulation_events(request: Request, job_id: str) -> StreamingResponse:
    """Server-sent events: the status (without the summary) whenever it changes, until the job is done or failed."""
    job_of(request, job_id)
    pool: JobPool = request.app.state.workshop.jobs

    async def events() -> AsyncIterator[str]:
        """One `data:` line a change; a comment now and then keeps the connection open."""
        last: Any = None
        quiet = 0.0
        while True:
            reply = status_of(pool, job_of(request, job_id))
            reply.pop("summary", None)
            if reply != last:
                last, quiet = reply, 0.0
                yield f"data: {json.dumps(reply)}\n\n"
            elif quiet >= KEEPALIVE_SECONDS:
                quiet = 0.0
                yield ": still working\n\n"
            if reply["status"] in (DONE, FAILED) or await request.is_disconnected():
                return
            await asyncio.sleep(STREAM_SECONDS)
            quiet += STREAM_SECONDS

    client = client_address(request)
    streams.take(client)  # no await between here and the response: a burst is admitted exactly
    return HeldStream(events(), client, media_type="text/event-stream", headers={"Cache-Control": "no-store"})


@router.get("/simulations/{job_id}", include_in_schema=False, response_model=None)
async def simulation_page(request: Request, job_id: str) -> HTMLResponse | FileResponse:
    """The report once the job is done (what `simulate --report` writes, with a way back); before, live progress."""
    job = job_of(request, job_id)
    if job["status"] != DONE:
        return FileResponse(STATIC / "simulation.html")
    report = request.app.state.workshop.store.report(job_id) or ""
    game = html.escape(job["request"]["game"])
    bar = (f'<nav style="font:15px system-ui,sans-serif;margin:-1em 0 1em"><a href="/games/{game}">← {game}</a> · '
           f'<a href="/make/{game}">Make a variant</a> · <a href="/api/simulations/{job_id}">summary as JSON</a></nav>')
    return HTMLResponse(report.replace("<body>\n", "<body>\n" + bar + "\n", 1))
