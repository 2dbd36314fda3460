"""Issue 22, the command line and a newcomer's rough edges: every bad argument is one line (exit 2) that
changes nothing, Ctrl-C and SIGTERM end cleanly, options mean the same everywhere, numbers read as a
person counts them, and a mistyped move gets a reason and a "did you mean"."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from rich.console import Console

from tablepress.core import records
from tablepress.core.errors import IllegalAction
from tablepress.core.match import Match
from tablepress.core.registry import get_game
from tablepress.sim.stats import count_text, figure_label, mean_ci, summarise
from tablepress.terminal import did_you_mean, play_in_terminal


def one_line_error(result, *fragments: str) -> str:
    """Assert a refused command: exit 2, one `error:` line on stderr holding every fragment, no traceback."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


# ----- play: arguments checked before the game starts -------------------------------------------------
@pytest.mark.parametrize("where, says", [
    ("missing/r.json", "does not exist"),
    (".", "is a folder"),
    ("summer=true", "--option summer=true"),
])
def test_a_record_that_cannot_be_written_is_refused_before_play(cli, tmp_path, monkeypatch, where, says):
    monkeypatch.chdir(tmp_path)
    result = cli("play", "flowers", "--seats", "human", "--record", where)  # a human seat: nothing may be asked
    one_line_error(result, says)
    assert "Stacks" not in result.stdout and sorted(os.listdir(tmp_path)) == []


def test_players_must_be_a_count_the_game_allows(cli, tmp_path):
    record = tmp_path / "r.json"
    for count, says in (("0", "--players must be at least 1, not 0"), ("-3", "at least 1"), ("9", "1–4 players")):
        one_line_error(cli("play", "flowers", "--players", count, "--seats", "random", "-o", str(record)), says)
    assert not record.exists()


def test_seats_without_players_say_how_many_play(cli, tmp_path):
    record = tmp_path / "r.json"
    result = cli("play", "flowers", "--seats", "random,random,random,random", "--seed", "1", "-o", str(record))
    assert result.exit_code == 0, result.stderr
    assert json.loads(record.read_text())["seats"] == ["random"] * 4
    one_line_error(cli("play", "by-this", "--seats", "random,random,random,random,random"), "2–4 players, not 5")
    simulated = cli("simulate", "by-this", "-n", "2", "--jobs", "1", "--seats", "random,greedy", "--json")
    assert simulated.exit_code == 0 and json.loads(simulated.stdout)["players"] == 2


def test_pressed_electives_are_refused_where_every_flower_is_in_the_deck(cli, tmp_path):
    record = tmp_path / "r.json"
    result = cli("play", "pressed", "--players", "4", "--seats", "random", "--option", "electives=AN,BB,TU",
                 "-o", str(record))
    one_line_error(result, "electives are chosen for 2, 3 players only", "at 4 players")
    assert not record.exists()
    assert get_game("pressed").new(5, 1, {}) is not None  # the defaults stand for "no choice"
    assert get_game("pressed").new(3, 1, {"electives": "AN,BB,TU"}) is not None


def test_ctrl_c_in_play_writes_the_record_like_quit(tmp_path):
    record = tmp_path / "r.json"
    match = Match(get_game("flowers"), 2, 4, {}, ["human", "random"])
    typed = iter(["draw 1", "1"])

    def read(prompt: str) -> str:
        try:
            return next(typed)
        except StopIteration:
            raise KeyboardInterrupt from None

    console = Console(file=io.StringIO(), width=120)
    with pytest.raises(KeyboardInterrupt):
        play_in_terminal(match, console, record, read)
    data = json.loads(record.read_text())
    assert [a["action"] for a in data["actions"] if a["seat"] == 0][:2] == ["draw 1", match.actions[1][1]]
    assert records.from_record(data).actions == match.actions
    assert "Record written to" in console.file.getvalue()


# ----- print, serve -----------------------------------------------------------------------------------
@pytest.mark.parametrize("args, says", [
    (["-o", "x.txt"], "print writes a .pdf"),
    (["-o", "cards"], "without a suffix"),
    (["--intro", "-o", "x.svg"], "a .pdf, or a .html page"),
])
def test_print_refuses_a_file_it_would_not_write_in_that_format(cli, tmp_path, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    one_line_error(cli("print", "by-this", *args), says)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("delay", ["nan", "-1", "inf"])
def test_serve_refuses_an_ai_delay_that_is_not_seconds(cli, tmp_path, delay):
    one_line_error(cli("serve", "--ai-delay", delay, "--db", str(tmp_path / "g.db")), "--ai-delay takes seconds")
    assert not (tmp_path / "g.db").exists()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("how", ["sigterm", "ctrl-c"])
def test_serve_stops_cleanly_with_its_ai_workers_running(tmp_path, how):
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "tablepress", "serve", "--port", str(port), "--db", str(tmp_path / "g.db"),
         "--ai-delay", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/catalog", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        body = json.dumps({"game": "flowers", "seats": ["ismcts:1s", "ismcts:1s"]}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", body,
                                         {"content-type": "application/json"})
        urllib.request.urlopen(request, timeout=10).close()
        time.sleep(2.0)  # the AI workers are thinking
        if how == "sigterm":
            server.send_signal(signal.SIGTERM)
        else:
            os.killpg(server.pid, signal.SIGINT)  # what Ctrl-C at a terminal does: the whole process group
        out, err = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    assert server.returncode in (0, 128 + signal.SIGTERM)
    assert "Traceback" not in out + err and "leaked" not in err and "KeyboardInterrupt" not in err


def test_ctrl_c_stops_a_simulation_on_a_pool_at_once(tmp_path):
    """Ctrl-C (to the whole process group) ends `simulate --jobs 2` at once: no queued chunk is played
    out, no worker prints a traceback or outlives it."""
    sim = subprocess.Popen(
        [sys.executable, "-m", "tablepress", "simulate", "flowers", "--games", "400", "--seats", "greedy",
         "--jobs", "2", "-o", str(tmp_path / "rows.sqlite")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True, preexec_fn=_ctrl_c_as_at_a_terminal)
    try:
        _wait_for_children(sim.pid, 2)  # its pool's workers are playing (400 games take minutes)
        os.killpg(sim.pid, signal.SIGINT)
        out, err = sim.communicate(timeout=30)
    finally:
        if sim.poll() is None:
            os.killpg(sim.pid, signal.SIGKILL)
            sim.wait()
    assert sim.returncode == 130
    assert "Traceback" not in out + err and "KeyboardInterrupt" not in err
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):  # no worker is left in its process group
        os.killpg(sim.pid, 0)


def _wait_for_children(pid: int, count: int, seconds: float = 120.0) -> None:
    """Wait until process `pid` has `count` child processes (Linux's /proc), however loaded the machine."""
    deadline = time.monotonic() + seconds
    children = f"/proc/{pid}/task/{pid}/children"
    while time.monotonic() < deadline:
        with open(children) as listed:
            if len(listed.read().split()) >= count:
                time.sleep(0.5)  # the workers have taken their first games
                return
        time.sleep(0.1)
    raise AssertionError(f"process {pid} did not start {count} workers in {seconds:g} s")


def _ctrl_c_as_at_a_terminal() -> None:
    """In the child: Ctrl-C as a terminal's foreground job gets it (a shell's background jobs ignore it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# ----- the same options on every command --------------------------------------------------------------
def test_short_help_version_and_what_play_help_lists(cli):
    assert cli("-h").exit_code == 0 and "Usage" in cli("-h").stdout
    version = cli("--version")
    assert version.exit_code == 0 and version.stdout.startswith("tablepress ")
    text = " ".join(cli("play", "-h").stdout.replace("│", " ").split())
    for expected in ("human, random, greedy, ismcts", "flowers: 1–4 players (default 2)",
                     "pressed: 2–5 players (default 3)", "summer=true|false", "young=true|false"):
        assert expected in text, expected


def test_o_is_the_file_written_on_every_command(cli, tmp_path):
    one_line_error(cli("simulate", "flowers", "-n", "2", "-o", "summer=true"), "give game options as --option summer=true")
    one_line_error(cli("simulate", "flowers", "-n", "2", "-o", "rows.txt"), "--out takes a .sqlite")
    rows = tmp_path / "rows.sqlite"
    assert cli("simulate", "flowers", "-n", "2", "--jobs", "1", "--seed", "1", "-o", str(rows)).exit_code == 0
    assert rows.exists()
    one_line_error(cli("ladder", "flowers", "-o", str(tmp_path / "x.txt")), ".md (Markdown table) or .json")
    one_line_error(cli("ladder", "flowers", "--json", "results.json"), "write the results with --out results.json")
    assert not (tmp_path / "x.txt").exists()


def test_ladder_json_prints_one_object_and_o_writes_the_table(cli, tmp_path):
    table = tmp_path / "ladder.md"
    result = cli("ladder", "flowers", "--players", "2", "--rung", "random/random/2", "--json", "-o", str(table))
    assert result.exit_code == 0, result.stderr
    [rung] = json.loads(result.stdout)
    assert rung["games"] == 2 and rung["challenger"] == "random"
    assert table.read_text().startswith("| game | players |")
    one_line_error(cli("ladder", "flowers", "--players", "x"), "--players takes player counts")


# ----- numbers as a person reads them -----------------------------------------------------------------
def test_counts_seats_and_intervals_read_as_people_count():
    assert count_text(103) == "103" and count_text(311 / 3) == "103.7" and count_text(4.0) == "4"
    assert figure_label("win_rate.seat0") == "win rate, player 1" and figure_label("fig.regions") == "regions"
    assert mean_ci([0, 0, 0, 0, 0, 0, 0, 3], low=0.0)["ci95"][0] == 0.0
    assert mean_ci([0, 0, 0, 0, 0, 0, 0, 3])["ci95"][0] < 0  # what the bound is for
    rows = [{"index": i, "seats": ["random", "random"], "scores": [1, 0], "shares": [1.0, 0.0], "first": 0,
             "winners": [0], "turns": 10, "decisions": 10, "branching": 2.0, "lead_changes": 3 * (i == 0),
             "leader_half": 0} for i in range(8)]
    summary = summarise(rows, "flowers", 2)
    assert summary["lead_changes"]["ci95"][0] >= 0 and summary["margin"]["ci95"][0] >= 0


def test_simulate_names_its_variant_and_counts_seats_from_one(cli, tmp_path):
    variant = tmp_path / "small-regions.toml"
    variant.write_text("[scoring]\nregion_min = 2\n")
    report = tmp_path / "r.html"
    result = cli("simulate", "flowers", "-n", "4", "--jobs", "1", "--seed", "3", "--seats", "random",
                 "--variant", str(variant), "--report", str(report))
    assert result.exit_code == 0, result.stderr
    text = " ".join(result.stdout.replace("│", " ").split())
    assert "variant small-regions" in text
    assert " 1 random " in text and " 2 random " in text and " 0 random " not in text
    assert "variant small-regions" in report.read_text()


def test_replay_counts_seats_from_one(cli, tmp_path):
    record = tmp_path / "r.json"
    assert cli("play", "by-this", "--seats", "random,greedy", "--seed", "2", "-o", str(record)).exit_code == 0
    text = " ".join(cli("replay", str(record)).stdout.replace("│", " ").split())
    assert " 1 random " in text and " 2 greedy " in text


# ----- a mistyped move ---------------------------------------------------------------------------------
def test_a_typo_gets_the_reason_and_did_you_mean():
    match = Match(get_game("flowers"), 2, 4, {}, ["human", "random"])
    typed = iter(["drwa 1", "quit"])
    console = Console(file=io.StringIO(), width=160)
    play_in_terminal(match, console, None, lambda prompt: next(typed))
    out = console.file.getvalue()
    assert "Not a legal move: 'drwa 1'" in out and "Did you mean 'draw 1'?" in out and match.actions == []
    assert did_you_mean("xyzzy", ["draw 1", "draw 2"]) == []
    assert did_you_mean("PLAY 3 www", ["play 3 WWW", "nursery 3 WWW"])[0] == "play 3 WWW"


def test_help_shows_the_notation_of_every_game():
    for name, words in (("flowers", "Y4g"), ("pressed", "HY Hydrangea"), ("planted", "L Light"),
                        ("by-this", "Small → Large")):
        game = get_game(name)
        match = Match(game, 2, 1, {}, ["human", "random"])
        typed = iter(["help", "quit"])
        console = Console(file=io.StringIO(), width=400)
        play_in_terminal(match, console, None, lambda prompt: next(typed))
        assert words in console.file.getvalue(), name


def test_pressed_press_and_plant_in_any_case_and_order():
    game = get_game("pressed")
    match = Match(game, 3, 7, {}, ["random"] * 3)
    pressed = planted = False
    while not match.is_over and not (pressed and planted):
        seat = match.next_mover()
        action = match.legal(seat)[-1]
        verb, *words = action.split()
        if verb == "press":
            typed = "PRESS " + " ".join(w.lower() for w in reversed(words))
            assert match.check(seat, typed) == action
            pressed = True
        elif verb == "plant":
            assert match.check(seat, action.lower()) == action
            planted = True
        match.act(seat, action)
    assert pressed and planted


def test_flowers_says_why_a_cell_is_out_of_reach():
    match = Match(get_game("flowers"), 2, 3, {}, ["human", "random"])
    seat = match.next_mover()
    match.act(seat, "draw 1")
    code = match.legal(seat)[0].split()[1]
    with pytest.raises(IllegalAction, match=r"only at a corner\): place a card on an empty cell beside one"):
        match.check(seat, f"place {code} 1,1")
    with pytest.raises(IllegalAction, match="it is 10 steps from your nearest card"):
        match.check(seat, f"place {code} 5,5")


# ----- Ray behind a token -----------------------------------------------------------------------------
def test_a_ray_cluster_that_wants_its_token_is_one_line(cli, monkeypatch):
    ray = pytest.importorskip("ray")

    def refuse(*args, **kwargs):
        raise ray.exceptions.AuthenticationError("Authentication token is missing or incorrect.")

    monkeypatch.setattr(ray, "init", refuse)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    one_line_error(cli("simulate", "flowers", "-n", "2", "--backend", "ray", "--address", "127.0.0.1:6379"),
                   "cannot reach Ray at 127.0.0.1:6379", "ray get-auth-token", "RAY_AUTH_TOKEN")
    from tablepress.sim.backends import ray_failure

    assert ray_failure(RuntimeError("boom\nmore"), None) == "cannot start or reach Ray locally: boom"


def test_planted_score_suggests_the_name_meant(cli, tmp_path):
    board = tmp_path / "board.txt"
    board.write_text("# Ana\nplants: Monstra 2\n", encoding="utf-8")
    one_line_error(cli("score", "planted", str(board)), "line 2: unknown plant 'Monstra' (did you mean Monstera?)")
    board.write_text("plants: qqqqq\n", encoding="utf-8")
    assert "did you mean" not in one_line_error(cli("score", "planted", str(board)), "unknown plant 'qqqqq'")


@pytest.mark.parametrize(("count", "says"), [("0", "-n takes 1 to"), ("99999999999999999999999", "a number of 23 digits")])
def test_simulate_refuses_a_game_count_it_cannot_play(cli, tmp_path, count, says):
    one_line_error(cli("simulate", "flowers", "-n", count, "--out", str(tmp_path / "rows.sqlite")), says)
    assert not (tmp_path / "rows.sqlite").exists()


def test_an_error_quoting_square_brackets_prints_them(cli):
    """What a user typed comes back as typed, even where it looks like the terminal's markup."""
    result = cli("simulate", "flowers", "--players", "[bold]x[/bold]")
    assert result.exit_code == 2 and "not '[bold]x[/bold]'" in result.stderr
