"""The lobby people of the load benchmark: named players who meet at open tables, play and chat, as the site's
lobby page and table page use the API, beside spectators who keep the lobby open.

Every person is a player (`POST /api/players`, its token then used as Bearer) on a loopback address of its own
where there are enough (players and tables are counted per address by the server; see `check_lobby`). Half are
hosts, half guests, and each comes back to the lobby after every game:

- a host opens the lobby's event stream (`GET /api/tables/events`), makes a public two-seat table
  (`POST /api/tables`) and, like the lobby page, asks after its table (`GET /api/tables/{id}`) at every lobby
  event until its game has begun; then plays seat 0;
- a guest opens the lobby's event stream and joins one of the open tables it lists, chosen at random
  (`POST /api/tables/{id}/join`; a 409 — someone else sat first — sends it to another), then plays its seat;
- while playing, a person chats on one turn in CHAT_EVERY (`POST /api/games/{id}/chat`), while it thinks, never
  past the server's chat rate (a message held back instead is counted);
- spectators keep a lobby stream open all along (they open it before the people arrive).

Timed besides what `People` times: a join (the join sent → the begun game's first view on both players'
WebSockets), a lobby update (a table's creation sent → a spectator's stream listing it; tables made before the
stream's first event are not counted) and a chat message (sent → the other seat's WebSocket carrying it).
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..web.chat import RATE as CHAT_RATE
from ..web.chat import WINDOW as CHAT_WINDOW
from ..web.players import PLAYERS_AN_HOUR
from ..web.social import MAX_LOBBY_STREAMS
from ..web.tables import TABLES_AN_HOUR
from .event_stream import EventStream, StreamError
from .load_client import ADDRESSES, Connection, HttpError, People, Table, quantiles

#: A person chats on one turn in this many.
CHAT_EVERY = 4
#: What people say (each message also carries a number, so that its arrival can be matched to its sending).
PHRASES = ("hi, good luck", "nice one", "hmm, let me think", "well played", "oops", "your move", "close game")
#: The client keeps its chat this far below the server's rate: the server counts by when it stored a message.
CHAT_MARGIN = 1.5
#: Seconds a host waits for a lobby event before asking after its table anyway.
ASK_SECONDS = 5.0
LOBBY_PATH = "/api/tables/events"


def spectators_for(games: int) -> int:
    """The spectators keeping the lobby open in a run of `games` games: one for every ten games, at least one."""
    return max(1, games // 10)


def check_lobby(games: int) -> str | None:
    """Why a lobby run of `games` games would break the server's limits (None if it would not): every person
    may hold a lobby stream at once, and players are counted per client address."""
    streams = 2 * games + spectators_for(games)
    if streams > MAX_LOBBY_STREAMS:
        return (f"{games} games' people and spectators may hold {streams} lobby streams at once, over the"
                f" {MAX_LOBBY_STREAMS} one server process serves")
    per_address = -(-2 * games // len(ADDRESSES))
    if per_address > PLAYERS_AN_HOUR:
        return f"{per_address} players an address, over the server's {PLAYERS_AN_HOUR} an hour"
    return None


class Budget:
    """The server's hourly count per client address, kept on the client so the load stays within it."""

    def __init__(self, count: int, seconds: float, clock: Callable[[], float]):
        self.count, self.seconds, self.clock = count, seconds, clock
        self.starts: dict[str, deque[float]] = {}

    def take(self, address: str) -> bool:
        """Count one start from `address`; False (nothing counted) if it would go past the limit."""
        now = self.clock()
        starts = self.starts.setdefault(address, deque())
        while starts and starts[0] <= now - self.seconds:
            starts.popleft()
        if len(starts) >= self.count:
            return False
        starts.append(now)
        return True


@dataclass(frozen=True)
class Player:
    """A person with a name: its token and the address it comes from."""

    name: str
    token: str
    local: str


@dataclass
class Meeting:
    """A game begun at a table: when its join was sent, and when each seat's WebSocket carried its first view."""

    join_sent: float | None = None
    seen: dict[int, float] = field(default_factory=dict)


@dataclass
class SocialTally:
    """What the lobby people did and timed (times from the people's clock)."""

    players: int = 0
    created: dict[str, float] = field(default_factory=dict)  # table id → its creation sent
    meetings: dict[str, Meeting] = field(default_factory=dict)  # game id → its meeting
    join_conflicts: int = 0
    sightings: list[tuple[str, float, float]] = field(default_factory=list)  # table id, seen, stream's first event
    chats: list[tuple[float, float]] = field(default_factory=list)  # sent, until the other seat had it
    chat_posts: list[tuple[float, float]] = field(default_factory=list)  # sent, until answered
    pending_chat: dict[str, float] = field(default_factory=dict)  # text → sent, until the other seat has it
    held: int = 0


@dataclass
class SocialResult:
    """The lobby and chat figures of a run (latencies in milliseconds)."""

    players: int
    spectators: int
    tables: int
    joins: int
    join_conflicts: int
    join_ms: dict[str, float]
    lobby_seen: int
    lobby_ms: dict[str, float]
    chats: int
    chats_seen: int
    chat_ms: dict[str, float]
    chat_post_ms: dict[str, float]
    held: int


class LobbyPage:
    """A person's open lobby: its event stream read in the background (opened again when the server ends it, as
    a browser's EventSource does), the newest list of waiting tables kept, `on_tables(page, tables)` called
    with each."""

    def __init__(self, host: str, port: int, local: str, clock: Callable[[], float],
                 on_tables: Callable[[LobbyPage, list[dict[str, Any]]], None] = lambda page, tables: None):
        self.address = (host, port, local)
        self.stream = EventStream(host, port, local, LOBBY_PATH)
        self.clock, self.on_tables = clock, on_tables
        self.tables: list[dict[str, Any]] | None = None
        self.opened: float | None = None  # when the first list came
        self.seen: set[str] = set()  # the tables any list has shown
        self.news = asyncio.Event()
        self.reading: asyncio.Task | None = None

    async def __aenter__(self) -> LobbyPage:
        await self.stream.__aenter__()
        self.reading = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.reading is not None:
            self.reading.cancel()
            await asyncio.gather(self.reading, return_exceptions=True)
        self.stream.close()

    async def _read(self) -> None:
        while True:
            async for event in self.stream:
                if event.name == "tables":
                    self.tables = json.loads(event.data)
                    if self.opened is None:
                        self.opened = self.clock()
                    self.on_tables(self, self.tables)
                    self.news.set()
            self.stream.close()
            self.stream = EventStream(*self.address, LOBBY_PATH)
            await self.stream.__aenter__()

    async def changed(self, timeout: float | None = None) -> None:
        """Wait for a new list of tables (at most `timeout` seconds); StreamError if the stream broke."""
        waiting = asyncio.create_task(self.news.wait())
        assert self.reading is not None
        try:
            await asyncio.wait([waiting, self.reading], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiting.cancel()
        if self.reading.done():
            self.reading.result()
        self.news.clear()


class Lobby(People):
    """Hosts, guests and spectators on the server at host:port until `stop()` (see the module's docstring);
    play is timed in `tally` as by `People`, the lobby and chat in `social`."""

    def __init__(self, host: str, port: int, game: str, think: float, spectators: int, seed: int = 0,
                 **kwargs: Any):
        super().__init__(host, port, game, think, seed, **kwargs)
        self.spectators = spectators
        #: Set once every spectator has the lobby open (or failed to open it): then the people arrive.
        self.watched = asyncio.Event()
        self._opening = spectators
        self.social = SocialTally()
        self.games: dict[str, Table] = {}
        self.tables_made = Budget(TABLES_AN_HOUR, 3600, self.clock)
        self.players_made = Budget(PLAYERS_AN_HOUR, 3600, self.clock)
        self._turns: dict[tuple[str, int], int] = {}
        self._chatted: dict[tuple[str, int], deque[float]] = {}
        self._said = 0

    def tasks(self, games: int) -> list[asyncio.Task]:
        """Start the spectators, then `games` hosts and as many guests (arriving within `think` seconds)."""
        if not self.spectators:
            self.watched.set()
        people = [(role, n, self._next_address()) for n in range(games) for role in ("Host", "Guest")]
        watchers = [self._next_address() for _ in range(self.spectators)]
        return ([asyncio.create_task(self.keep_coming(role, n, local)) for role, n, local in people]
                + [asyncio.create_task(self.spectate(local)) for local in watchers])

    # ----- people -----------------------------------------------------------------------------------------
    async def keep_coming(self, role: str, n: int, local: str) -> None:
        """A person arrives, takes a name, and goes from the lobby to a game and back until stopped."""
        await self._until_stopped(self.watched.wait())
        await asyncio.sleep(self.rng.uniform(0, self.think))
        player = await self._become_player(f"{role} {n + 1}", local)
        while player is not None and not self.stopping.is_set():
            found = await (self._host(player) if role == "Host" else self._join(player))
            if found is None:
                await self._until_stopped(asyncio.sleep(1.0))
                continue
            game_id, seat = found
            table = self.games.setdefault(game_id, Table(game_id, {}))
            await self._person(table, seat, -1, player.token, player.local)
            if table.over and seat == 0:
                self.tally.games_finished += 1

    async def _become_player(self, name: str, local: str) -> Player | None:
        """A new player of that name from `local` (None, counted, if the server refused)."""
        if not self.players_made.take(local):
            self.social.held += 1
            return None
        http = Connection(self.host, self.port, local)
        try:
            status, body = await http.request("POST", "/api/players", {"name": name})
        except HttpError as exc:
            self.tally.error(str(exc))
            return None
        finally:
            http.close()
        if status != 201:
            self.tally.error(f"naming a player: {status} {body[:200]!r}")
            return None
        self.social.players += 1
        return Player(name, json.loads(body)["token"], local)

    async def _host(self, player: Player) -> tuple[str, int] | None:
        """Open the lobby, make a table and wait there until its game begins: (game id, seat 0)."""
        if not self.tables_made.take(player.local):
            self.social.held += 1
            await self.stopping.wait()
            return None
        http = Connection(self.host, self.port, player.local)
        try:
            async with LobbyPage(self.host, self.port, player.local, self.clock) as page:
                await page.changed()
                sent = self.clock()
                status, body = await http.request("POST", "/api/tables", {"game": self.game, "players": 2},
                                                  player.token)
                if status != 201:
                    self.tally.error(f"making a table: {status} {body[:200]!r}")
                    return None
                table_id = json.loads(body)["id"]
                self.social.created[table_id] = sent
                while not self.stopping.is_set():
                    status, body = await http.request("GET", f"/api/tables/{table_id}", token=player.token)
                    if status != 200:
                        self.tally.error(f"waiting at a table: {status} {body[:200]!r}")
                        return None
                    game_id = json.loads(body).get("game_id")
                    if game_id is not None:
                        return game_id, 0
                    await self._until_stopped(page.changed(ASK_SECONDS))
        except (HttpError, StreamError, OSError, asyncio.TimeoutError) as exc:
            if not self.stopping.is_set():
                self.tally.error(f"hosting: {type(exc).__name__} {exc}")
        finally:
            http.close()
        return None

    async def _join(self, player: Player) -> tuple[str, int] | None:
        """Open the lobby and join an open table it lists: (game id, seat) once its game began."""
        http = Connection(self.host, self.port, player.local)
        try:
            async with LobbyPage(self.host, self.port, player.local, self.clock) as page:
                while not self.stopping.is_set():
                    if not await self._until_stopped(page.changed()):
                        return None
                    tables = [t for t in page.tables or [] if t["open_seats"] > 0 and t["game"] == self.game]
                    self.rng.shuffle(tables)
                    for table in tables:
                        sent = self.clock()
                        status, body = await http.request("POST", f"/api/tables/{table['id']}/join", {},
                                                          player.token)
                        if status == 409:  # taken or begun meanwhile: another table
                            self.social.join_conflicts += 1
                            continue
                        reply = json.loads(body) if status == 200 else {}
                        if "game_id" not in reply:
                            self.tally.error(f"joining a table: {status} {body[:200]!r}")
                            return None
                        self.social.meetings.setdefault(reply["game_id"], Meeting()).join_sent = sent
                        self.tally.games_started += 1
                        return reply["game_id"], reply["seat"]
        except (HttpError, StreamError, OSError, asyncio.TimeoutError) as exc:
            if not self.stopping.is_set():
                self.tally.error(f"joining: {type(exc).__name__} {exc}")
        finally:
            http.close()
        return None

    async def spectate(self, local: str) -> None:
        """Keep the lobby open until stopped."""
        arrived = False
        while not self.stopping.is_set():
            try:
                async with LobbyPage(self.host, self.port, local, self.clock, self._sighted) as page:
                    assert page.reading is not None
                    if await self._until_stopped(page.changed()) and not arrived:
                        arrived = True
                        self._arrived()
                    await self._until_stopped(page.reading)
            except (StreamError, OSError, asyncio.TimeoutError) as exc:
                if not arrived:
                    arrived = True
                    self._arrived()
                if not self.stopping.is_set():
                    self.tally.error(f"spectating the lobby: {type(exc).__name__} {exc}")
                    await self._until_stopped(asyncio.sleep(1.0))

    def _arrived(self) -> None:
        """A spectator has the lobby open (or failed to open it); the last one lets the people in."""
        if self._opening > 0:
            self._opening -= 1
            if self._opening == 0:
                self.watched.set()

    def _sighted(self, page: LobbyPage, tables: list[dict[str, Any]]) -> None:
        """A spectator's stream listed these tables: note the first sighting of each by this stream."""
        now = self.clock()
        for table in tables:
            if table["id"] not in page.seen:
                page.seen.add(table["id"])
                assert page.opened is not None
                self.social.sightings.append((table["id"], now, page.opened))

    async def _until_stopped(self, work: Awaitable[Any]) -> bool:
        """Wait for `work` or for the run to stop; whether `work` finished (its errors raised)."""
        task = asyncio.ensure_future(work)
        stop = asyncio.create_task(self.stopping.wait())
        try:
            await asyncio.wait([task, stop], return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
            if not task.done():
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        if task.cancelled():
            return False
        task.result()
        return True

    # ----- play hooks -------------------------------------------------------------------------------------
    def _first_view(self, table: Table, seat: int) -> None:
        """Note when this seat first saw the begun game (a join is timed to both seats' first views)."""
        self.social.meetings.setdefault(table.game_id, Meeting()).seen.setdefault(seat, self.clock())

    def _heard_chat(self, table: Table, seat: int, message: dict[str, Any]) -> None:
        """Time a message the other seat sent, from its sending to this seat's WebSocket carrying it."""
        if message.get("seat") != seat:
            sent = self.social.pending_chat.pop(message.get("text", ""), None)
            if sent is not None:
                self.social.chats.append((sent, self.clock() - sent))

    async def _while_thinking(self, table: Table, seat: int, http: Connection, token: str) -> None:
        """On one turn in CHAT_EVERY (from a random first), say something, within the chat rate."""
        key = (table.game_id, seat)
        turn = self._turns[key] = self._turns.get(key, self.rng.randrange(CHAT_EVERY)) + 1
        if turn % CHAT_EVERY:
            return
        said, now = self._chatted.setdefault(key, deque()), self.clock()
        while said and said[0] <= now - CHAT_WINDOW * CHAT_MARGIN:
            said.popleft()
        if len(said) >= CHAT_RATE:
            self.social.held += 1
            return
        said.append(now)
        self._said += 1
        text = f"{self.rng.choice(PHRASES)} ({self._said})"
        self.social.pending_chat[text] = now
        try:
            status, body = await http.request("POST", f"/api/games/{table.game_id}/chat", {"text": text}, token)
        except HttpError as exc:
            self.social.pending_chat.pop(text, None)
            self.tally.error(str(exc))
            return
        if status == 201:
            self.social.chat_posts.append((now, self.clock() - now))
        else:
            self.social.pending_chat.pop(text, None)
            self.tally.error(f"chatting: {status} {body[:200]!r}")

    # ----- figures ----------------------------------------------------------------------------------------
    def result(self) -> SocialResult:
        """The lobby and chat figures of everything so far."""
        social = self.social
        joins = [max(m.seen.values()) - m.join_sent for m in social.meetings.values()
                 if m.join_sent is not None and len(m.seen) == 2]
        lobby = [seen - social.created[table_id] for table_id, seen, opened in social.sightings
                 if table_id in social.created and social.created[table_id] >= opened]
        return SocialResult(
            players=social.players, spectators=self.spectators, tables=len(social.created), joins=len(joins),
            join_conflicts=social.join_conflicts, join_ms=quantiles(joins), lobby_seen=len(lobby),
            lobby_ms=quantiles(lobby), chats=len(social.chat_posts), chats_seen=len(social.chats),
            chat_ms=quantiles([took for _, took in social.chats]),
            chat_post_ms=quantiles([took for _, took in social.chat_posts]), held=social.held)
