"""The people of the load benchmark: human-paced players of web games, cheap enough that hundreds of games fit
in one client process beside the server.

Each game has two human seats, each a person on a loopback address of its own (127.0.0.2 to 127.0.0.251, so
the server's per-address limits see many clients). A person watches the game over a WebSocket with their
seat's token; when a pushed view says it is their turn they think for `think` seconds, then post a random
legal action over a keep-alive HTTP/1.1 connection (a minimal client: a request is a few hundred bytes
written and one response read, far less work than a general HTTP library). Timed: every action's round trip
(`POST /api/games/{id}/actions`), and how long after an action was sent the other seat's WebSocket carried the
new view (the opponent seeing the move). A game that ends is replaced by a new one while the run lasts.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect

from .web import percentile

#: The loopback addresses the people come from (127.0.0.1 is left to the server and the bench itself).
ADDRESSES = tuple(f"127.0.0.{n}" for n in range(2, 252))
#: Seconds a keep-alive connection may stay idle before the person opens a new one (the server closes at 5).
IDLE_SECONDS = 4.0
#: Seconds any one request or WebSocket handshake may take before it counts as failed.
REQUEST_SECONDS = 30.0


def address(n: int) -> str:
    """The loopback address of person `n`."""
    return ADDRESSES[n % len(ADDRESSES)]


def quantiles(seconds: Sequence[float]) -> dict[str, float]:
    """p50, p95, p99 and max of durations in seconds, as milliseconds (empty: none)."""
    if not seconds:
        return {}
    ms = [s * 1000 for s in seconds]
    return {"p50": percentile(ms, 0.5), "p95": percentile(ms, 0.95), "p99": percentile(ms, 0.99), "max": max(ms)}


class HttpError(Exception):
    """A request got no complete answer (the connection broke or timed out)."""


class Connection:
    """One keep-alive HTTP/1.1 connection to the server from one local address, opened on demand."""

    def __init__(self, host: str, port: int, local: str):
        self.host, self.port, self.local = host, port, local
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._used = 0.0

    async def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, bytes]:
        """Send one request (a JSON body if `body` is not None) and read its answer: (status, body bytes)."""
        try:
            return await asyncio.wait_for(self._exchange(method, path, body, token), REQUEST_SECONDS)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError) as exc:
            self.close()
            raise HttpError(f"{method} {path}: {type(exc).__name__} {exc}") from None

    async def _exchange(self, method: str, path: str, body: Any, token: str | None) -> tuple[int, bytes]:
        if self._writer is None or self._writer.is_closing() or time.monotonic() - self._used > IDLE_SECONDS:
            self.close()
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port, local_addr=(self.local, 0))
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"host: {self.host}:{self.port}", f"content-length: {len(data)}"]
        if body is not None:
            head.append("content-type: application/json")
        if token is not None:
            head.append(f"authorization: Bearer {token}")
        reader, writer = self._reader, self._writer
        assert reader is not None and writer is not None
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        status_line = await reader.readuntil(b"\r\n")
        status = int(status_line.split(b" ", 2)[1])
        length, closing = 0, False
        while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection" and value.strip().lower() == b"close":
                closing = True
        answer = await reader.readexactly(length)
        self._used = time.monotonic()
        if closing:
            self.close()
        return status, answer

    def close(self) -> None:
        """Close the connection (the next request opens a new one)."""
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None


@dataclass
class Tally:
    """What the people measured: (time sent, seconds) of every action answered 200 and of every move seen by
    the other seat, and counts of everything else."""

    actions: list[tuple[float, float]] = field(default_factory=list)
    seen: list[tuple[float, float]] = field(default_factory=list)
    refused: int = 0
    failed: int = 0
    games_started: int = 0
    games_finished: int = 0
    creations: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def error(self, text: str) -> None:
        """Count a failure, keeping the first few messages."""
        self.failed += 1
        if len(self.errors) < 5:
            self.errors.append(text)


@dataclass
class Table:
    """One game being played by its two people."""

    game_id: str
    tokens: dict[str, str]
    #: (seat, when) of the action in flight, until the other seat's WebSocket carries its view.
    pending: tuple[int, float] | None = None
    over: bool = False


class People:
    """Plays `games` concurrent games on the server at host:port until `stop()`; everything timed goes to `tally`."""

    def __init__(self, host: str, port: int, game: str, think: float, seed: int = 0,
                 clock: Callable[[], float] = time.perf_counter):
        self.host, self.port, self.game, self.think = host, port, game, think
        self.rng = random.Random(seed)
        self.clock = clock
        self.tally = Tally()
        self.stopping = asyncio.Event()
        self._people = 0

    def _next_address(self) -> str:
        self._people += 1
        return address(self._people)

    def tasks(self, games: int) -> list[asyncio.Task]:
        """Start keeping `games` games going (the first moves within `think` seconds); the tasks doing it."""
        return [asyncio.create_task(self.keep_playing(slot, self.think)) for slot in range(games)]

    async def keep_playing(self, slot: int, start_within: float) -> None:
        """Play one game after another in this slot until stopped (the first move within `start_within` s)."""
        delay = self.rng.uniform(0, start_within)
        while not self.stopping.is_set():
            table = await self._create()
            if table is None:
                await asyncio.sleep(1.0)
                continue
            self.tally.games_started += 1
            seats = [asyncio.create_task(self._person(table, seat, delay, table.tokens[str(seat)],
                                                      self._next_address())) for seat in (0, 1)]
            try:
                await asyncio.gather(*seats)
            finally:
                for task in seats:
                    task.cancel()
            if table.over:
                self.tally.games_finished += 1
            delay = self.rng.uniform(0, self.think)

    async def _create(self) -> Table | None:
        """A new two-person game (None if the server refused or failed)."""
        connection = Connection(self.host, self.port, self._next_address())
        started = self.clock()
        try:
            status, body = await connection.request("POST", "/api/games",
                                                    {"game": self.game, "seats": ["human", "human"]})
        except HttpError as exc:
            self.tally.error(str(exc))
            return None
        finally:
            connection.close()
        if status != 201:
            self.tally.error(f"creating a game: {status} {body[:200]!r}")
            return None
        self.tally.creations.append(self.clock() - started)
        reply = json.loads(body)
        return Table(reply["id"], reply["tokens"])

    async def _person(self, table: Table, seat: int, first_delay: float, token: str, local: str) -> None:
        """One seat's person on address `local` with the seat's `token`: watch the game, and on each turn think,
        then act; until the game ends or stop()."""
        http = Connection(self.host, self.port, local)
        url = f"ws://{self.host}:{self.port}/ws/games/{table.game_id}?token={token}"
        news = asyncio.Event()
        latest: list[dict[str, Any]] = []  # the newest view pushed (one at most)
        tasks: list[asyncio.Task] = []
        try:
            async with connect(url, local_addr=(local, 0), max_size=None, open_timeout=REQUEST_SECONDS) as socket:
                tasks = [asyncio.create_task(self._watch(table, seat, socket, latest, news)),
                         asyncio.create_task(self._decide(table, seat, http, token, latest, news, first_delay)),
                         asyncio.create_task(self.stopping.wait())]
                done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    task.result()
        except (OSError, asyncio.TimeoutError) as exc:
            self.tally.error(f"watching {table.game_id}: {type(exc).__name__} {exc}")
        except Exception as exc:  # noqa: BLE001 - a closed socket mid-run is counted, not fatal
            if not self.stopping.is_set():
                self.tally.error(f"watching {table.game_id}: {type(exc).__name__} {exc}")
        finally:
            for task in tasks:
                task.cancel()
            http.close()

    async def _watch(self, table: Table, seat: int, socket: Any, latest: list[dict[str, Any]],
                     news: asyncio.Event) -> None:
        """Keep the newest view pushed in `latest` (and time the other seat's move being seen) until the game ends."""
        first = True
        async for message in socket:
            view = json.loads(message)
            if "chat" in view:
                self._heard_chat(table, seat, view["chat"])
                continue
            if first:
                first = False
                self._first_view(table, seat)
            if table.pending is not None and table.pending[0] != seat:
                sent, table.pending = table.pending[1], None
                self.tally.seen.append((sent, self.clock() - sent))
            latest[:] = [view]
            news.set()
            if view["status"] == "over":
                table.over = True
                return

    async def _decide(self, table: Table, seat: int, http: Connection, token: str, latest: list[dict[str, Any]],
                      news: asyncio.Event, first_delay: float) -> None:
        """On each view that makes it this seat's turn, think, then act (views pushed meanwhile wait)."""
        acted_at = -1  # the revision of the view this person last acted on
        while True:
            await news.wait()
            news.clear()
            view = latest[0]
            if seat in view["to_move"] and view["legal_actions"] and view["revision"] > acted_at:
                acted_at = view["revision"]
                think, first_delay = (self.think if first_delay < 0 else first_delay), -1
                await self._act(table, seat, http, token, view["legal_actions"], think)
                if latest[0]["revision"] > acted_at:
                    news.set()  # a view came while acting: look at it

    async def _act(self, table: Table, seat: int, http: Connection, token: str, legal: list[str],
                   think: float) -> None:
        """Think (chatting meanwhile, if this person does), then post one of the legal actions and time its answer."""
        began = self.clock()
        await self._while_thinking(table, seat, http, token)
        await asyncio.sleep(max(0.0, think - (self.clock() - began)))
        if self.stopping.is_set():
            return
        sent = self.clock()
        table.pending = (seat, sent)
        try:
            status, body = await http.request("POST", f"/api/games/{table.game_id}/actions",
                                              {"action": self.rng.choice(legal)}, token)
        except HttpError as exc:
            self.tally.error(str(exc))
            return
        took = self.clock() - sent
        if status == 200:
            self.tally.actions.append((sent, took))
        elif status == 409:
            self.tally.refused += 1
        else:
            self.tally.error(f"acting: {status} {body[:200]!r}")

    def _first_view(self, table: Table, seat: int) -> None:
        """A seat's WebSocket carried its first view of the game (here: nothing to do)."""

    def _heard_chat(self, table: Table, seat: int, message: dict[str, Any]) -> None:
        """A seat's WebSocket carried a chat message (here: nobody chats)."""

    async def _while_thinking(self, table: Table, seat: int, http: Connection, token: str) -> None:
        """What a person does on its turn before acting, within its thinking time (here: nothing)."""

    def stop(self) -> None:
        """Every person stops after what they are doing now."""
        self.stopping.set()
