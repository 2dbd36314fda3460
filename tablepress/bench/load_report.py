"""What `tablepress bench --web` writes: its results as Markdown (docs/LOAD.md), JSON, or rich tables for the
terminal — one table for the plain runs (games made by `POST /api/games`), a second for the lobby runs (players
meeting at tables, chatting)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.errors import TablepressError
from .load_runs import Result
from .lobby_client import CHAT_EVERY, CHAT_RATE, CHAT_WINDOW

COLUMNS = ("store", "processes", "games", "offered/s", "served/s", "p50 ms", "p95 ms", "p99 ms", "max ms",
           "seen p50 / p99 ms", "failed / 409", "server CPU ms/action", "PostgreSQL CPU ms/action", "load 1 min before → after")
LOBBY_COLUMNS = ("store", "processes", "games", "players / spectators", "served/s", "p50 ms", "p95 ms", "p99 ms",
                 "seen p50 / p99 ms", "joins (409)", "join p50 / p95 / p99 ms", "lobby p50 / p95 / p99 ms",
                 "chats seen / sent", "chat p50 / p95 / p99 ms", "failed / 409", "server CPU ms/action",
                 "PostgreSQL CPU ms/action", "load 1 min before → after")


def ms(figures: dict[str, float], key: str) -> str:
    """One latency figure in whole milliseconds (or '–')."""
    return f"{figures[key]:,.0f}" if key in figures else "–"


def spread(figures: dict[str, float]) -> str:
    """p50 / p95 / p99 in whole milliseconds."""
    return " / ".join(ms(figures, key) for key in ("p50", "p95", "p99"))


def load(info: dict[str, str]) -> str:
    """The 1-minute load average of `machine()`'s figures."""
    return info["load average (1, 5, 15 min)"].split(",")[0]


def store_name(result: Result) -> str:
    """PostgreSQL or SQLite."""
    return "PostgreSQL" if result.run.store == "postgresql" else "SQLite"


def tail(result: Result) -> list[str]:
    """The last columns of either table: failures, CPU, the machine's load."""
    return [f"{result.failed} / {result.refused}", f"{result.server_cpu_ms:.2f}",
            "–" if result.postgres_cpu_ms is None else f"{result.postgres_cpu_ms:.2f}",
            f"{load(result.machine_before)} → {load(result.machine_after)}"]


def row(result: Result) -> list[str]:
    """A plain run as one table row (COLUMNS)."""
    a, s = result.action_ms, result.seen_ms
    return [store_name(result), str(result.run.workers), str(result.run.games), f"{result.offered_per_s:,.0f}",
            f"{result.served_per_s:,.0f}", ms(a, "p50"), ms(a, "p95"), ms(a, "p99"), ms(a, "max"),
            f"{ms(s, 'p50')} / {ms(s, 'p99')}", *tail(result)]


def lobby_row(result: Result) -> list[str]:
    """A lobby run as one table row (LOBBY_COLUMNS)."""
    a, s, social = result.action_ms, result.seen_ms, result.social
    assert social is not None
    return [store_name(result), str(result.run.workers), str(result.run.games),
            f"{social.players} / {social.spectators}", f"{result.served_per_s:,.0f}", ms(a, "p50"), ms(a, "p95"),
            ms(a, "p99"), f"{ms(s, 'p50')} / {ms(s, 'p99')}", f"{social.joins} ({social.join_conflicts})",
            spread(social.join_ms), spread(social.lobby_ms), f"{social.chats_seen} / {social.chats}",
            spread(social.chat_ms), *tail(result)]


def code_version() -> str:
    """The commit the package was measured at (`git describe --always --dirty`), or "unknown"."""
    try:
        done = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=Path(__file__).parent,
                              capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "unknown"


def table_lines(columns: Sequence[str], rows: Sequence[list[str]]) -> list[str]:
    """A Markdown table."""
    return ["| " + " | ".join(columns) + " |", "|" + "|".join("---:" for _ in columns) + "|",
            *("| " + " | ".join(cells) + " |" for cells in rows)]


def people_line(results: Sequence[Result]) -> str:
    """The clients' CPU and the game creations' p99, run by run."""
    return (f"Client CPU (the people): {', '.join(f'{r.client_cpu_ms:.2f}' for r in results)} ms an action;"
            f" game creation p99 {', '.join(ms(r.create_ms, 'p99') for r in results)} ms.")


def lobby_lines(results: Sequence[Result]) -> list[str]:
    """The lobby runs' section: how they play, their table, their clients."""
    lines = [
        "## The lobby and chat", "",
        "Each person is a named player (`POST /api/players`, its token then sent as Bearer) on a loopback address"
        " of its own where there are enough. Half are hosts: each opens the lobby's event stream"
        " (`GET /api/tables/events`), makes a public two-seat table (`POST /api/tables`) and asks after it"
        " (`GET /api/tables/{id}`) at every lobby event until its game begins, as the lobby page does. The other"
        " half join an open table the stream lists, picked at random (`POST /api/tables/{id}/join`; a 409 means"
        " someone sat first: counted in *joins (409)*, then another table). Both play the begun game as above and"
        f" go back to the lobby when it ends. While thinking, a person chats on one turn in {CHAT_EVERY}"
        f" (`POST /api/games/{{id}}/chat`, kept within the server's {CHAT_RATE} messages in {CHAT_WINDOW:g} s a"
        " seat); one spectator for every ten games keeps a lobby stream open all along. *Join*: from the join"
        " sent to the begun game's first view on both players' WebSockets; *lobby*: from a table's creation sent"
        " to a spectator's stream listing it (every spectator counts); *chat*: from a message sent to the other"
        " seat's WebSocket carrying it. These three are timed over the whole run, warm-up included (most tables"
        " are made as the run begins and as games end); the actions, *seen* and CPU are measured as above.", "",
        *table_lines(LOBBY_COLUMNS, [lobby_row(r) for r in results]), "",
        f"Client CPU (the people): {', '.join(f'{r.client_cpu_ms:.2f}' for r in results)} ms an action;"
        f" chat post p99 {', '.join(ms(r.social.chat_post_ms, 'p99') for r in results if r.social)} ms;"
        f" tables made {', '.join(str(r.social.tables) for r in results if r.social)}.", "",
    ]
    held = [f"{r.run.label}: {r.social.held}" for r in results if r.social and r.social.held]
    if held:
        lines += [f"Held back by the people to stay within the server's quotas: {', '.join(held)}.", ""]
    return lines


def markdown(results: Sequence[Result], command: str) -> str:
    """The results as a Markdown page: how they were measured, the machine, the tables, any errors."""
    if not results:
        return "# Load\n\nNothing was measured.\n"
    first = results[0]
    plain = [r for r in results if r.social is None]
    lobby = [r for r in results if r.social is not None]
    lines = [
        "# Load: concurrent human-paced games", "",
        f"Written by `{command}`. Each game has two human seats, each a person on a loopback address of its own"
        f" (127.0.0.2–127.0.0.251) watching over a WebSocket; on their turn a person thinks {first.think:g} s, then"
        f" posts a random legal action over keep-alive HTTP. Measured for {first.seconds:g} s after a warm-up;"
        " a game that ends is replaced. Offered: one action a second per game (an instant server); served:"
        " actions answered 200 a second. *Seen*: from an action sent to the other seat's WebSocket carrying the"
        " new view. CPU is per action served, over the measured seconds. PostgreSQL is a throwaway cluster on"
        " the same machine (fsync off); the clients run on the same machine too.", "",
        f"Machine: {first.machine_before['cores']} cores, Python {first.machine_before['python']},"
        f" {first.machine_before['platform']}; load average (1 min) before and after each run in the table."
        f" Code: {code_version()} (`-dirty`: with changes not committed).", "",
    ]
    if plain:
        lines += [*table_lines(COLUMNS, [row(r) for r in plain]), "", people_line(plain), ""]
    if lobby:
        lines += lobby_lines(lobby)
    errors = [f"- {r.run.label}: {e}" for r in results for e in r.errors]
    if errors:
        lines += ["First failures:", "", *errors, ""]
    return "\n".join(lines)


def write(results: Sequence[Result], path: Path, command: str) -> None:
    """Write the results to `path`: Markdown for .md, JSON for .json; TablepressError for anything else."""
    if path.suffix == ".json":
        path.write_text(json.dumps({"command": command, "code": code_version(),
                                    "results": [r.as_json() for r in results]}, indent=2) + "\n")
    elif path.suffix == ".md":
        path.write_text(markdown(results, command))
    else:
        raise TablepressError(f"-o takes a .md or .json file, not {path.name}")


def load_table(results: Sequence[Result], title: str = "Concurrent human-paced games") -> Any:
    """The results as a rich table for the terminal (the lobby's columns when the first is a lobby run)."""
    from rich.table import Table as RichTable

    lobby = bool(results) and results[0].social is not None
    table = RichTable(title=title)
    for column in LOBBY_COLUMNS if lobby else COLUMNS:
        table.add_column(column, justify="right")
    for result in results:
        table.add_row(*(lobby_row(result) if lobby else row(result)))
    return table
