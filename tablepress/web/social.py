"""The news of players, the lobby and chat (players.py, tables.py, chat.py), kept live — chat messages to a
game's WebSocket watchers, lobby changes to the lobby's event streams.

News made here is pushed at once to this process's watchers and streams, and announced through the store; on
PostgreSQL one task per process LISTENs on `store.social.SOCIAL_CHANNEL` and pushes what other processes
announced (each announcement names the process that made it, which skips its own).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from typing import Any

from .faults import backoff
from .hub import Hub
from .logs import event
from .store import backend_of
from .store.postgres import CONNECT_SECONDS
from .store.social import SOCIAL_CHANNEL
from .store.sql import one_line

log = logging.getLogger("tablepress.web")

#: Lobby event streams one process serves at most.
MAX_LOBBY_STREAMS = 500


class Social:
    """One process's live news: chat to game watchers, lobby changes to lobby streams."""

    def __init__(self, hub: Hub):
        self.hub = hub
        self.origin = secrets.token_hex(8)
        #: One flag per lobby stream: set when the open tables changed.
        self.lobby: set[asyncio.Event] = set()
        #: Grows at every change of the open tables (made here or announced by another process).
        self.lobby_version = 0
        #: (lobby_version, the open tables as JSON): read once per change for every lobby stream here.
        self.lobby_list: tuple[int, str] | None = None
        #: Set while the other processes' announcements are heard (PostgreSQL's LISTEN is on).
        self.listening = asyncio.Event()
        #: When this process last swept the expired tables for its lobby streams (time.monotonic()).
        self.expired_at = float("-inf")
        self._listener: asyncio.Task | None = None

    def chat_posted(self, game_id: str, message: dict[str, Any]) -> None:
        """A message was stored: push it to this process's watchers of the game and announce it."""
        self._push_chat(game_id, message)
        self._announce({"kind": "chat", "game": game_id, "message": message})

    def tables_changed(self) -> None:
        """The lobby's tables changed: wake this process's lobby streams and announce it."""
        self._wake_lobby()
        self._announce({"kind": "tables"})

    def _push_chat(self, game_id: str, message: dict[str, Any]) -> None:
        room = self.hub.rooms.get(game_id)
        for watcher in list(room.watchers) if room is not None else ():
            watcher.push({"chat": message})

    def _wake_lobby(self) -> None:
        self.lobby_version += 1
        for flag in list(self.lobby):
            flag.set()

    def _announce(self, payload: dict[str, Any]) -> None:
        try:
            self.hub.store.announce({**payload, "origin": self.origin})
        except Exception as exc:  # noqa: BLE001 - stored already; other processes' clients catch up on reconnect
            event(log, "announce_failed", logging.WARNING, error=one_line(exc))

    def heard(self, payload: str) -> None:
        """An announcement from the channel: push what another process announced."""
        try:
            note = json.loads(payload)
        except ValueError:
            return
        if not isinstance(note, dict) or note.get("origin") == self.origin:
            return
        if note.get("kind") == "tables":
            self._wake_lobby()
        elif note.get("kind") == "chat" and isinstance(note.get("game"), str) and isinstance(note.get("message"), dict):
            self._push_chat(note["game"], note["message"])

    def start(self) -> None:
        """Listen to the other processes (PostgreSQL only); call once the event loop runs."""
        if self._listener is None and backend_of(self.hub.store.url)[0] == "postgresql":
            self._listener = asyncio.get_running_loop().create_task(self._listen(), name="listen-social")

    async def close(self) -> None:
        """Stop listening."""
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)
            self._listener = None

    async def _listen(self) -> None:
        """Pass every announcement on SOCIAL_CHANNEL to `heard`, connecting again after a failure."""
        import psycopg

        failures = 0
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self.hub.store.url, autocommit=True, connect_timeout=CONNECT_SECONDS,
                        application_name="tablepress-social") as conn:
                    await conn.execute(f"LISTEN {SOCIAL_CHANNEL}")
                    self.listening.set()
                    if failures:
                        self._wake_lobby()  # tables may have changed while nobody listened
                    failures = 0
                    async for note in conn.notifies():
                        self.heard(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a dropped connection: listen again
                self.listening.clear()
                failures += 1
                event(log, "listen_failed", logging.WARNING, channel=SOCIAL_CHANNEL, failures=failures,
                      error=one_line(exc))
                await asyncio.sleep(backoff(failures))
