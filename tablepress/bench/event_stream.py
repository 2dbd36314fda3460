"""A minimal server-sent events client for the load benchmark's lobby people: one `GET` of an event stream over
its own HTTP/1.1 connection from a chosen local address, its chunked body read as it comes and cut into events.

Far less work than a general HTTP library, so that hundreds of lobby streams fit in the client process beside
the server. Comments (the server's keep-alive lines) come out as events named "" so that a reader sees the
stream is alive.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass


class StreamError(Exception):
    """The stream was refused (a status other than 200) or broke off mid-event."""


@dataclass(frozen=True)
class Event:
    """One server-sent event: its name ("" for a comment, "message" when unnamed) and its data lines joined."""

    name: str
    data: str


def parse_event(block: str) -> Event:
    """One event from the text between two blank lines."""
    name, data = "", []
    for line in block.split("\n"):
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
    if not name and data:
        name = "message"
    return Event(name, "\n".join(data))


class EventStream:
    """`GET path` as an event stream from `local`; iterate over its events until the server ends it.

    `async with EventStream(...) as stream: async for event in stream: ...`; StreamError if refused."""

    def __init__(self, host: str, port: int, local: str, path: str, timeout: float = 30.0):
        self.host, self.port, self.local, self.path, self.timeout = host, port, local, path, timeout
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def __aenter__(self) -> EventStream:
        try:
            await asyncio.wait_for(self._open(), self.timeout)
        except BaseException:
            self.close()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    async def _open(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port, local_addr=(self.local, 0))
        self._writer.write(f"GET {self.path} HTTP/1.1\r\nhost: {self.host}:{self.port}\r\n"
                           "accept: text/event-stream\r\n\r\n".encode())
        status = int((await self._reader.readuntil(b"\r\n")).split(b" ", 2)[1])
        chunked, length = False, 0
        while (line := await self._reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.partition(b":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == b"transfer-encoding" and value == b"chunked":
                chunked = True
            elif name == b"content-length":
                length = int(value)
        if status != 200 or not chunked:
            body = await self._reader.readexactly(length) if length else b""
            raise StreamError(f"GET {self.path}: {status} {body[:200]!r}")

    async def _chunks(self) -> AsyncIterator[bytes]:
        """The body's chunks until its last (empty) one."""
        reader = self._reader
        assert reader is not None
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                return
            chunk = await reader.readexactly(size + 2)
            yield chunk[:-2]

    async def __aiter__(self) -> AsyncIterator[Event]:
        buffer = ""
        try:
            async for chunk in self._chunks():
                buffer += chunk.decode()
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    yield parse_event(block)
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            raise StreamError(f"GET {self.path}: {type(exc).__name__} {exc}") from None
        if buffer.strip():
            raise StreamError(f"GET {self.path}: the stream ended mid-event")

    def close(self) -> None:
        """Close the connection."""
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None
