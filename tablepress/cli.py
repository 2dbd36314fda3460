"""The `tablepress` command: play, score, replay and bench (docs/reference.md, "Commands")."""

from __future__ import annotations

import json
import math
import os
import random
import signal
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .agents.base import HUMAN, parse_seats
from .agents.levels import check_level_seats
from .core.errors import TablepressError
from .core.files import read_position
from .core.game import Game, Option
from .core.match import Match, load_record
from .core.records import from_record
from .core.registry import game_names, get_game

app = typer.Typer(
    help="tablepress — play, simulate, print and change tabletop card games: " + ", ".join(game_names()) + ".",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
console = Console()
GAME_HELP = "the game: " + ", ".join(game_names())
OPTION_HELP = "game option KEY=VALUE (repeatable; the options of each game: play --help)"
errors = Console(stderr=True)


def fail(message: str) -> typer.Exit:
    """Print one clear line to stderr and give the exit to raise."""
    errors.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code=2)


def version(value: bool) -> None:
    """`--version`: print the installed version and stop."""
    if value:
        from importlib.metadata import version as installed

        console.print(f"tablepress {installed('tablepress')}", highlight=False)
        raise typer.Exit()


@app.callback()
def main_options(
    show_version: Annotated[bool, typer.Option("--version", callback=version, is_eager=True,
                                               help="print the version and exit")] = False,
) -> None:
    """tablepress — play, simulate, print and change tabletop card games."""


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """`K=V` pairs from --option into a dict, with a clear error for anything else."""
    options = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise TablepressError(f"--option takes KEY=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def games_epilog() -> str:
    """Each game's player counts (default first), options and the seat agents, for `play --help`."""
    from .agents.base import AGENTS

    lines = [f"Seats (--seats): {', '.join([HUMAN, *AGENTS])}, each with an optional budget: "
             "ismcts:500 (iterations a decision), ismcts:2s (seconds)."]
    for name in game_names():
        game = get_game(name)
        options = "; ".join(f"{o.name}={_option_values(o)} ({o.help}; default {_shown(o.default)})"
                            for o in game.options) or "none"
        lines.append(f"{name}: {game.min_players}–{game.max_players} players (default {game.default_players});"
                     f" options: {options}.")
    return "\n\n".join(lines)


def _option_values(option: Option) -> str:
    if option.kind == "bool":
        return "true|false"
    if option.kind == "set":
        return f"{option.size or 'some'} of {'|'.join(option.choices)}"
    return "|".join(option.choices) if option.choices else "N"


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (tuple, list)):
        return ",".join(map(str, value))
    return str(value)


def player_count(chosen: Game, players: int | None, seats: str | None) -> int:
    """The number of players: --players, else as many as --seats lists (when it lists several), else the default."""
    if players is not None:
        if players < 1:
            raise TablepressError(f"--players must be at least 1, not {players}")
        return players
    specs = [s for s in (seats or "").split(",") if s.strip()]
    return len(specs) if len(specs) > 1 else chosen.default_players


def check_record(record: Path | None) -> None:
    """Refuse a --record path that cannot be written, before anything is played."""
    if record is None:
        return
    if "=" in record.name and record.suffix.lower() != ".json":
        raise TablepressError(f"--record {record}: -o names the record file now; give game options as --option {record}")
    folder = record.resolve().parent
    if record.is_dir():
        raise TablepressError(f"--record {record}: is a folder; give a file such as {record / 'game.json'}")
    if not folder.is_dir():
        raise TablepressError(f"--record {record}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (record.exists() and not os.access(record, os.W_OK)):
        raise TablepressError(f"--record {record}: cannot write there (permission denied)")


@app.command(epilog=games_epilog())
def play(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    players: Annotated[Optional[int], typer.Option("--players", "-p", help="number of players (default: as many as --seats lists, else the game's default)")] = None,
    seats: Annotated[Optional[str], typer.Option(help="seat specs, e.g. human,random (the last repeats)")] = None,
    seed: Annotated[Optional[int], typer.Option(help="seed for the shuffle (random if not given)")] = None,
    option: Annotated[Optional[list[str]], typer.Option("--option", help=OPTION_HELP)] = None,
    record: Annotated[Optional[Path], typer.Option("--record", "-o", help="write the game record (JSON) here, also when the game is left or interrupted")] = None,
) -> None:
    """Play in the terminal against AI players or hot-seat; with no human seat, play to the end unattended."""
    from .terminal import play_in_terminal

    try:
        chosen = get_game(game)
        count = player_count(chosen, players, seats)
        chosen.check_players(count)
        seat_specs = parse_seats(seats or f"{HUMAN},random", count)
        check_level_seats(chosen.name, seat_specs)
        check_record(record)
        match = Match(chosen, count, seed if seed is not None else random.getrandbits(31),
                      parse_options(option), seat_specs)
        play_in_terminal(match, console, record)
    except TablepressError as exc:
        raise fail(str(exc)) from None


@app.command()
def score(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    file: Annotated[Path, typer.Argument(help="position file (formats in docs/reference.md)")],
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """Score a position typed by hand, for games played at a real table."""
    try:
        chosen = get_game(game)
        result = chosen.score_position(read_position(file), str(file))
    except TablepressError as exc:
        raise fail(str(exc)) from None
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
        return
    console.print(score_table(result))


def score_table(result: dict) -> Table:
    """A score reply as a table: one row a player, every scalar part of the breakdown as a column."""
    rows = result["players"]
    keys = [k for k, v in rows[0].items() if k not in ("name", "total") and isinstance(v, (int, float, str))]
    table = Table(title=f"{result['game']} — scores")
    table.add_column("player")
    for key in keys:
        table.add_column(key.replace("_", " "), justify="right")
    table.add_column("total", justify="right", style="bold")
    for row in rows:
        table.add_row(row["name"] or "—", *(str(row[k]) for k in keys), str(row["total"]))
    return table


@app.command()
def replay(record: Annotated[Path, typer.Argument(help="a game record (JSON)")]) -> None:
    """Re-run a game record, check every move, and print the final scores."""
    try:
        data = load_record(record)
        match = from_record(data)
    except TablepressError as exc:
        raise fail(f"{record}: {exc}" if not str(exc).startswith(str(record)) else str(exc)) from None
    game = match.game
    table = Table(title=f"{game.title} — {len(match.actions)} actions replayed")
    table.add_column("seat")
    table.add_column("agent")
    table.add_column("score", justify="right")
    winners = game.winners(match.state) if match.is_over else []
    for seat, value in enumerate(game.scores(match.state)):
        table.add_row(str(seat + 1), match.seats[seat], f"{value}{' ★' if seat in winners else ''}")
    console.print(table)
    console.print("Game over." if match.is_over else "[yellow]The record ends before the game does.[/]")


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    games: Annotated[int, typer.Option("-n", "--games", help="number of games")] = 1000,
    seed: Annotated[Optional[int], typer.Option(help="run seed (random if not given; printed)")] = None,
    seats: Annotated[Optional[str], typer.Option(help="seat specs, e.g. greedy,random (the last repeats; default greedy); they rotate over the turn positions")] = None,
    players: Annotated[Optional[str], typer.Option("--players", "-p", help="number of players; a list (2,3,4) runs a sweep that compares them")] = None,
    option: Annotated[Optional[list[str]], typer.Option("--option", help=OPTION_HELP)] = None,
    jobs: Annotated[Optional[int], typer.Option(help="local processes (default: all cores)")] = None,
    backend: Annotated[str, typer.Option(help="local or ray")] = "local",
    address: Annotated[Optional[str], typer.Option(help="Ray cluster address (default: a local Ray)")] = None,
    variant: Annotated[Optional[list[str]], typer.Option(help="TOML file overriding the card data (twice: compare them)")] = None,
    compare: Annotated[Optional[tuple[str, str]], typer.Option(help="A B [C ...]: variant files (or 'base') on the same seeds, with a verdict on the game's quality measures")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    report: Annotated[Optional[Path], typer.Option(help="write an HTML report with plots here")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="save one row per game (.sqlite, .parquet or .csv)")] = None,
    records: Annotated[Optional[Path], typer.Option(help="write every game's record (JSON) into this folder")] = None,
    vary: Annotated[Optional[str], typer.Option(help="FIELD=LO..HI: play at each value on common seeds and plot the quality measures (as tune --vary)")] = None,
    plot: Annotated[Optional[Path], typer.Option(help="where --vary writes its plot (.png; default: beside --report, else sensitivity-FIELD.png)")] = None,
    more: Annotated[Optional[list[str]], typer.Argument(help="more variants after --compare A B", show_default=False)] = None,
) -> None:
    """Self-play many games (seats rotated over the turn positions) and print the findings, then the balance summary."""
    from .sim.command import compare_arguments, parse_player_counts, simulate_command

    try:
        game, compare = compare_arguments(game, compare, more or [])
        counts = [player_count(get_game(game), count, seats) for count in parse_player_counts(players)] or [
            player_count(get_game(game), None, seats)]
        simulate_command(game, games, seed, seats, counts if len(counts) > 1 else counts[0], parse_options(option),
                         jobs, backend, address, variant, compare, as_json, report, out, records, console, errors,
                         vary=vary, plot=plot)
    except TablepressError as exc:
        raise fail(str(exc)) from None


@app.command()
def bench(
    games: Annotated[Optional[list[str]], typer.Argument(help="games to measure (default: all)")] = None,
    players: Annotated[Optional[str], typer.Option(help="player counts, e.g. 2,4 (default: fewest and most)")] = None,
    seconds: Annotated[float, typer.Option(help="seconds per measurement")] = 2.0,
    ismcts: Annotated[bool, typer.Option(help="also measure ISMCTS search iterations per second")] = True,
    simulator: Annotated[bool, typer.Option(help="also measure simulate: games per CPU second (random, greedy seats), --jobs 2 over 1")] = False,
    research: Annotated[bool, typer.Option(help="also compare with OpenSpiel (ISMCTS, python_block_dominoes; rl extra)")] = False,
    against: Annotated[Optional[str], typer.Option(help="also time the agents of this git revision (e.g. HEAD~1) beside this code's, alternately")] = None,
    web: Annotated[bool, typer.Option(help="instead, load the web server with concurrent human-paced games (bench/load.py)")] = False,
    run: Annotated[Optional[list[str]], typer.Option(help="with --web: \\[lobby:]STORE:PROCESSES:GAMES,... e.g. postgresql:2:100,500, or lobby:postgresql:1:100 for players meeting at the lobby's tables and chatting (repeatable; default: postgresql:1 and :2 at 100,200,500, sqlite:1 at 100,200, lobby:postgresql:1 and :2 at 100,200)")] = None,
    web_seconds: Annotated[float, typer.Option(help="with --web: seconds measured per run, after the warm-up")] = 30.0,
    think: Annotated[float, typer.Option(help="with --web: seconds a person thinks on each turn")] = 1.0,
    warmup: Annotated[float, typer.Option(help="with --web: seconds of play before measuring")] = 5.0,
    durable: Annotated[bool, typer.Option(help="with --web: PostgreSQL with fsync on (default off: a throwaway cluster)")] = False,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="with --web: also write the results here (.md or .json)")] = None,
) -> None:
    """Measure random-play actions per second, games per second and ISMCTS iterations per second
    (with --web: the web server's action latency under concurrent human-paced games)."""
    try:
        if web:
            from .bench.load import load_command

            command = "tablepress bench " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["bench"] else "tablepress bench --web"
            tables = load_command(run, web_seconds, think, warmup, out, durable, command)
        else:
            from .bench import bench_tables

            tables = bench_tables(games, players, seconds, ismcts, research, simulator, against)
        for table in tables:
            console.print(table)
    except TablepressError as exc:
        raise fail(str(exc)) from None


@app.command()
def ladder(
    games: Annotated[Optional[list[str]], typer.Argument(help="games to measure (default: all)")] = None,
    rung: Annotated[Optional[list[str]], typer.Option(help="CHALLENGER/OPPONENT/GAMES, e.g. ismcts:300/greedy/40 (repeatable; default: the standard ladder)")] = None,
    players: Annotated[Optional[str], typer.Option(help="player counts, e.g. 2,4 (default: 2 and the most)")] = None,
    seed: Annotated[int, typer.Option(help="seed of the ladder's games")] = 0,
    jobs: Annotated[int, typer.Option(help="worker processes")] = 1,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="also write the results here: .md (a Markdown table) or .json")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the results as JSON instead of the table")] = False,
    markdown: Annotated[Optional[Path], typer.Option(hidden=True, help="the same as --out FILE.md")] = None,
) -> None:
    """Measure the AI players' strength: each challenger against its opponent, win rates with 95% intervals."""
    from .agents.ladder import ladder_command

    try:
        ladder_command(games, rung, players, seed, jobs, out or markdown, as_json)
    except (TablepressError, ValueError) as exc:
        raise fail(str(exc)) from None


@app.command()
def rate(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    games: Annotated[int, typer.Option("--games", "-n", help="games each pair of entrants plays")] = 40,
    seed: Annotated[int, typer.Option(help="seed of the games")] = 0,
    jobs: Annotated[int, typer.Option(help="worker processes")] = 1,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="write the ratings here (default: the game's levels.json)")] = None,
) -> None:
    """Rate the game's AI levels: a 2-player round robin with random play (held at 1000), Elo by maximum likelihood."""
    from .agents.rate import rate_command

    try:
        rate_command(game, games, seed, jobs, out)
    except TablepressError as exc:
        raise fail(str(exc)) from None


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[Optional[Path], typer.Option(help="SQLite file keeping every game [default: tablepress.db]")] = None,
    database: Annotated[Optional[str], typer.Option(
        help="where every game is kept: postgresql://USER@HOST:PORT/DB, or a SQLite file (a path or sqlite:///PATH)"
             " [env var: TABLEPRESS_DATABASE_URL; default: --db]")] = None,
    ai_delay: Annotated[float, typer.Option(help="seconds an AI seat pauses before each move")] = 0.8,
    workers: Annotated[int, typer.Option(
        envvar="TABLEPRESS_WORKERS", show_envvar=True,
        help="server processes on one port (over 1 needs --database postgresql://...)")] = 1,
    public_url: Annotated[Optional[str], typer.Option(
        envvar="TABLEPRESS_PUBLIC_URL", show_envvar=True,
        help="the site's address as the world sees it (https://games.example.org): share links, og:url, QR codes"
             " and invites use it, never the request's Host [default: the address the server announces]")] = None,
    forwarded_allow_ips: Annotated[Optional[str], typer.Option(
        envvar="TABLEPRESS_FORWARDED_ALLOW_IPS", show_envvar=True,
        help="the reverse proxies (IP addresses or networks, comma-separated) whose X-Forwarded-For is believed"
             " as the client's address [default: none]")] = None,
) -> None:
    """Serve the web app: lobby, table and the HTTP/WebSocket API; every game is kept in --database (or --db)."""
    from .web.server import serve as run_server
    from .web.settings import parse_forwarded_allow_ips, parse_public_url

    if not 0 <= port <= 65535:
        raise fail(f"--port must be 0–65535, not {port}")
    if database is not None and db is not None:
        raise fail("give the store once: --database URL or --db FILE, not both")
    store = database or db or os.environ.get("TABLEPRESS_DATABASE_URL") or Path("tablepress.db")
    if not 1 <= workers <= 64:
        raise fail(f"--workers must be 1-64, not {workers}")
    if not math.isfinite(ai_delay) or ai_delay < 0:
        raise fail(f"--ai-delay takes seconds, 0 or more, not {ai_delay}")
    try:
        public = parse_public_url(public_url) if public_url else None
        proxies = parse_forwarded_allow_ips(forwarded_allow_ips)
    except TablepressError as exc:
        raise fail(str(exc)) from None
    # uvicorn stops gracefully on SIGTERM and then raises it again: exit 0 then (a requested stop), so the AI
    # workers are shut down
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    try:
        run_server(host, port, store, ai_delay, public_url=public, forwarded_allow_ips=proxies, workers=workers)
    except TablepressError as exc:
        raise fail(str(exc)) from None


@app.command("print")
def print_sheets(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="the PDF to write (.html with --intro for the web page)")] = None,
    paper: Annotated[str, typer.Option(help="a4 or letter")] = "a4",
    backs: Annotated[bool, typer.Option("--backs", help="a back page after each sheet, mirrored for duplex")] = False,
    bleed: Annotated[float, typer.Option(help="bleed in mm (0–5; 3 is typical)")] = 0.0,
    duplex: Annotated[str, typer.Option(help="with --backs: long (flip on the long edge) or short")] = "long",
    variant: Annotated[Optional[Path], typer.Option(help="TOML file overriding the card data")] = None,
    intro: Annotated[bool, typer.Option("--intro", help="print the one-page intro instead of the cards")] = False,
    listing: Annotated[bool, typer.Option("--list", help="list every card with its printed quantity")] = False,
    ink_saver: Annotated[bool, typer.Option("--ink-saver", help="light backs and frames: far less ink")] = False,
    parts: Annotated[str, typer.Option(help="what to print: all, or kinds by comma (cards,boards,tokens,...)")] = "all",
) -> None:
    """Print-and-play: every card in its printed quantity, 9 a page, then the boards and tokens (or the intro)."""
    from .printing.command import card_table, print_command

    try:
        if listing:
            console.print(card_table(game, variant))
        if out is None and not listing:
            raise TablepressError("give the file to write with -o FILE.pdf (or --list to list the cards)")
        if out is not None:
            console.print(print_command(game, out, paper, backs, bleed, duplex, variant, intro,
                                        ink_saver, parts), highlight=False,
                          soft_wrap=True)
    except TablepressError as exc:
        raise fail(str(exc)) from None


@app.command("new-game")
def new_game(
    name: Annotated[str, typer.Argument(help="the new game's name: lowercase letters, digits and hyphens")],
    where: Annotated[Path, typer.Option("--dir", "-o", help="where to write the game's folder")] = Path("."),
) -> None:
    """Start a new game: a pip-installable package with a small working engine, rules, intro and tests."""
    from .scaffold import new_game as write_skeleton

    try:
        root = write_skeleton(name, where)
    except TablepressError as exc:
        raise fail(str(exc)) from None
    console.print(f"{root}: a new game. Next: pip install -e {root} && pytest {root}", highlight=False,
                  soft_wrap=True)


@app.command()
def check(game: Annotated[str, typer.Argument(help=GAME_HELP)]) -> None:
    """Run the shared contract checks on an installed game: the checker at each declared player count, its
    recorded fingerprint, the asking-order check and its parts (terminal view, faces, components, intro, rules)."""
    from .core.contract import failures, run_contract
    from .core.registry import get_package

    try:
        package = get_package(game)
    except TablepressError as exc:
        raise fail(str(exc)) from None
    outcomes = run_contract(package, lambda index, total, name: errors.print(
        f"[{index}/{total}] {package.name}: {name}", highlight=False, soft_wrap=True, markup=False))
    failed = failures(outcomes)
    for outcome in failed:
        console.print(f"FAIL {package.name}: {outcome.name}: {outcome.text}", highlight=False, soft_wrap=True,
                      markup=False)
    if failed:
        errors.print(f"{len(failed)} of {len(outcomes)} checks failed", highlight=False)
        raise typer.Exit(code=1)
    console.print(f"{package.name}: all {len(outcomes)} checks passed", highlight=False)


@app.command()
def tune(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    vary: Annotated[list[str], typer.Option(help="FIELD[=LO..HI] of the card data to search, e.g. scoring.region_min=3..6, copies.4, flowers.Zinnia.table[3] (a list without [N]: an offset to every entry), things.Rice.Size, tools.\"Watering Can\" (its copies; 0 takes it out), keys.\"A to Z\".ascending (false..true), decks.2.Lily (without/with); repeatable")],
    target: Annotated[str, typer.Option(help="first-player-fair, card:NAME=median or figure:NAME=VALUE")],
    budget: Annotated[int, typer.Option("-n", "--games", help="games in all: the search and the verification")] = 1000,
    seats: Annotated[Optional[str], typer.Option(help="seat specs, e.g. greedy (the last repeats)")] = None,
    players: Annotated[Optional[int], typer.Option("--players", "-p", help="number of players")] = None,
    option: Annotated[Optional[list[str]], typer.Option("--option", help=OPTION_HELP)] = None,
    seed: Annotated[Optional[int], typer.Option(help="seed of the search (random if not given; printed)")] = None,
    verify: Annotated[Optional[int], typer.Option(help="games of the winner and of the published cards on fresh seeds (default: a tenth of -n)")] = None,
    jobs: Annotated[Optional[int], typer.Option(help="local processes (default: all cores)")] = None,
    backend: Annotated[str, typer.Option(help="local or ray")] = "local",
    address: Annotated[Optional[str], typer.Option(help="Ray cluster address (default: a local Ray)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="write the winning variant here (.toml, for simulate --variant)")] = None,
    keep: Annotated[Optional[list[str]], typer.Option(help="FIGURE[±TOL]: keep a figure near the published cards': turns, shared, decisive, lead_changes, spread, first_gap, score or fig.NAME; TOL is N% of the published value, or N in the figure's unit (percentage points for shares), e.g. turns±10%, shared±5, fig.NAME±0.5 (+- for ±); repeatable")] = None,
) -> None:
    """Search card data for values that bring a target figure to its goal (successive halving on common seeds).

    Every candidate is also judged against the published cards on the same games: game length (±10%),
    shared victories (±5 points), decisiveness (±10 points), lead changes and score spread (±25%) and the
    first-player gap (±5 points) must not move past their tolerance (--keep adds or changes one); a
    candidate that moves one is never reported as meeting the goal.
    """
    from .sim.tune_command import tune_command

    try:
        players = player_count(get_game(game), players, seats)
        tune_command(game, vary, target, budget, seats, players, parse_options(option), seed, verify, jobs, backend,
                     address, as_json, out, console, errors, keep or ())
    except TablepressError as exc:
        raise fail(str(exc)) from None


@app.command()
def train(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    steps: Annotated[int, typer.Option(help="learner decisions to train for")] = 20_000,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="the policy file to write (default GAME.pt; the curve goes beside it as .png)")] = None,
    players: Annotated[Optional[int], typer.Option("--players", "-p", help="number of players")] = None,
    option: Annotated[Optional[list[str]], typer.Option("--option", help=OPTION_HELP)] = None,
    seed: Annotated[int, typer.Option(help="seed of the training and evaluation games")] = 0,
    eval_games: Annotated[int, typer.Option(help="evaluation games against random and against greedy (0: none)")] = 200,
    resume: Annotated[Optional[Path], typer.Option(help="a policy file to go on training from")] = None,
    shaping: Annotated[float, typer.Option(help="weight of the score-margin shaping reward (0: the final reward only)")] = 1.0,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """Train a policy with masked PPO (the train extra); then `policy:FILE` is a seat spec."""
    from .rl.command import train_command

    try:
        train_command(game, steps, out, player_count(get_game(game), players, None), parse_options(option), seed,
                      eval_games, as_json, console, resume, shaping)
    except TablepressError as exc:
        raise fail(str(exc)) from None


def main() -> None:
    """Console entry point."""
    try:
        app()
    except KeyboardInterrupt:
        errors.print("interrupted")
        sys.exit(130)
