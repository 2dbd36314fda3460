"""A game made by `tablepress new-game` and installed as its own distribution works on every surface,
with no change to tablepress: each surface runs in a subprocess that finds the game by its entry point."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tablepress.scaffold import new_game
from web_audit import AXE, axe_violations, sideways, widest
from web_helpers import needs_chromium

pytestmark = pytest.mark.slow

NAME = "plugin-tricks"
MODULE = "plugin_tricks"
TIMEOUT = 180


def _install_command(project: Path, site: Path) -> list[str]:
    """pip installing `project` into `site` offline: its wheel built by the environment's own setuptools
    (the test extra pins one that builds wheels by itself), entry points included."""
    return [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
            "--quiet", "--target", str(site), str(project)]


@pytest.fixture(scope="module")
def plugin(tmp_path_factory) -> dict[str, Path]:
    """The skeleton generated, then installed into a folder of its own (`site`)."""
    root = tmp_path_factory.mktemp("plugin")
    project = new_game(NAME, root / "src")
    site = root / "site"
    site.mkdir()
    done = subprocess.run(_install_command(project, site), capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (site / MODULE / "engine.py").is_file()
    return {"root": root, "project": project, "site": site}


def _env(plugin: dict[str, Path]) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(plugin["site"]), "COLUMNS": "200"}


def tablepress(plugin: dict[str, Path], *args: str, ok: bool = True) -> subprocess.CompletedProcess:
    """Run `python -m tablepress ARGS` with the plugin installed; by default demand success."""
    done = subprocess.run([sys.executable, "-m", "tablepress", *args], cwd=plugin["root"], env=_env(plugin),
                          capture_output=True, text=True, timeout=TIMEOUT)
    if ok:
        assert done.returncode == 0, f"tablepress {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done


def python(plugin: dict[str, Path], script: str) -> str:
    """Run a Python script with the plugin installed; its stdout (it must succeed)."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=plugin["root"],
                          env=_env(plugin), capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_games_listed_include_the_plugin(plugin):
    assert NAME in tablepress(plugin, "play", "--help").stdout
    unknown = tablepress(plugin, "play", "no-such-game", ok=False)
    assert unknown.returncode == 2 and NAME in unknown.stderr


def test_play_record_and_replay(plugin):
    record = plugin["root"] / "R.json"
    tablepress(plugin, "play", NAME, "--players", "3", "--seats", "random", "--seed", "1", "--record", str(record))
    data = json.loads(record.read_text())
    assert data["game"] == NAME and data["players"] == 3 and len(data["actions"]) == 15
    assert "Game over." in tablepress(plugin, "replay", str(record)).stdout


def test_play_with_search_and_greedy_players(plugin):
    tablepress(plugin, "play", NAME, "--players", "2", "--seats", "ismcts:20,greedy", "--seed", "2")


def test_simulate(plugin):
    reply = json.loads(tablepress(plugin, "simulate", NAME, "-n", "12", "--players", "2", "--seed", "3",
                                  "--json", "--jobs", "1").stdout)
    assert reply["game"] == NAME and reply["games"] == 12


def test_print_cards_and_intro_with_plain_faces(plugin):
    cards, intro = plugin["root"] / "X.pdf", plugin["root"] / "intro.pdf"
    tablepress(plugin, "print", NAME, "-o", str(cards))
    tablepress(plugin, "print", NAME, "--intro", "-o", str(intro))
    assert cards.read_bytes().startswith(b"%PDF") and intro.read_bytes().startswith(b"%PDF")


def test_score_says_in_one_line_there_is_no_scoring_helper(plugin):
    position = plugin["root"] / "position.txt"
    position.write_text("# Ana\nRed 1\n")
    done = tablepress(plugin, "score", NAME, str(position), ok=False)
    assert done.returncode == 2 and "no scoring helper" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_checker_on_the_installed_package(plugin):
    out = python(plugin, f"""
        from tablepress.core.checker import check_game
        from tablepress.core.registry import get_package
        package = get_package({NAME!r})
        for check in package.checks():
            report = check_game(package.game, check.players, check.options, playouts=check.playouts,
                                deep_playouts=check.deep_playouts)
            assert report.resampled > 0
            print(check.players)
    """)
    assert out.split() == ["2", "3", "4"]


def test_the_generated_tests_pass(plugin):
    """The contract checks (tablepress.testing): the checker and the asking-order check at 2, 3 and 4 players,
    the fingerprint, the terminal view, the faces, the intro and the rules."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=plugin["project"],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0 and "11 passed" in done.stdout, done.stdout + done.stderr


def test_tablepress_check_on_the_installed_plugin(plugin):
    done = tablepress(plugin, "check", NAME)
    assert done.stdout.strip() == f"{NAME}: all 11 checks passed"
    assert f"[11/11] {NAME}: rules" in done.stderr


def test_pettingzoo_and_openspiel(plugin):
    out = python(plugin, f"""
        import warnings
        import pyspiel
        from pettingzoo.test import api_test
        import tablepress.rl.openspiel as tos
        from tablepress.core.registry import get_game
        from tablepress.rl import pettingzoo_env
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(pettingzoo_env({NAME!r}, players=2), num_cycles=200)
        game = pyspiel.load_game(tos.short_name(get_game({NAME!r})), {{"players": 3}})
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
        print("both")
    """)
    assert out.split()[-1] == "both"


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def served(plugin: dict[str, Path]) -> Iterator[tuple[httpx.Client, str]]:
    """`tablepress serve` with the plugin installed, on a free port: (a client, its address)."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "tablepress", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(plugin["root"] / f"games-{port}.db"), "--ai-delay", "0"],
        cwd=plugin["root"], env=_env(plugin), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if client.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert server.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
            yield client, f"http://127.0.0.1:{port}"
    finally:
        server.kill()
        server.wait(timeout=10)


def _hand(view: dict) -> list[str]:
    """The seat's own hand in a view whose cards are in zones."""
    return next(zone["cards"] for zone in view["private"]["zones"] if zone["zone"] == "hand")


def test_serve(plugin):
    with served(plugin) as (client, _):
        assert NAME in [game["name"] for game in client.get("/api/catalog").json()["games"]]
        created = client.post("/api/games", json={"game": NAME, "seats": ["human", "random"], "seed": 7})
        assert created.status_code == 201, created.text
        game_id, token = created.json()["id"], created.json()["tokens"]["0"]
        headers = {"Authorization": f"Bearer {token}"}
        view = client.get(f"/api/games/{game_id}", headers=headers).json()
        assert len(view["legal_actions"]) == 5, view
        action = view["legal_actions"][0]
        moved = client.post(f"/api/games/{game_id}/actions", headers=headers, json={"action": action})
        assert moved.status_code == 200, moved.text
        after = client.get(f"/api/games/{game_id}", headers=headers).json()
        assert len(_hand(after)) == 4 and action.removeprefix("play ") not in _hand(after)
        face = client.get("/faces/plugin-tricks/Red 3.svg")
        assert face.status_code == 200 and "<svg" in face.text and "Suit: Red" in face.text


@needs_chromium
def test_the_web_table_draws_the_cards_in_their_zones(plugin, browser):
    """The generic table of a game with zones: the seat's hand as faces, the other hand and the stock as backs,
    at desktop and phone width, with no serious axe violation."""
    with served(plugin) as (client, url):
        created = client.post("/api/games", json={"game": NAME, "seats": ["human", "human"], "seed": 3,
                                                  "names": ["Ana", "Bo"]}).json()
        game_id, token = created["id"], created["tokens"]["0"]
        hand = _hand(client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json())
        for width, height in ((1366, 900), (390, 844)):
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            try:
                page.goto(f"{url}/play/{game_id}#seat=0&token={token}")
                page.wait_for_selector("#board .zone.mine img.face")
                mine = page.locator("#board .zone.mine")
                assert mine.locator(".zone-title").inner_text().startswith("Hand · Ana")
                assert [img.get_attribute("alt") for img in mine.locator("img.face").all()] == hand
                other = page.locator("#board .zone", has_text="Hand · Bo")
                assert other.locator("img.face").count() == 0
                assert other.locator("svg.card-svg[aria-label='face-down card']").count() == 5
                stock = page.locator("#board .zone", has_text="Stock")
                assert "14 face down" in stock.inner_text()
                assert sideways(page) == 0, widest(page)
                if AXE.exists():
                    assert axe_violations(page) == []
            finally:
                context.close()
            assert not errors, errors


def test_ladder_and_bench(plugin):
    ladder = tablepress(plugin, "ladder", NAME, "--players", "2", "--rung", "greedy/random/4", "--jobs", "1",
                        "--seed", "1").stdout
    assert NAME in ladder and "greedy" in ladder
    bench = tablepress(plugin, "bench", NAME, "--players", "2", "--seconds", "0.2").stdout
    assert NAME in bench and "ismcts" in bench.lower()


#: tablepress's own tests that go over every installed game: with a plugin installed they take it in too.
OWN_TESTS = ["test_fuzz_parsers.py", "test_rl_spaces.py", "test_rl_openspiel.py", "test_core_rng.py",
             "test_print_sheets.py", "test_turn_goes_on.py", "test_solo_hints.py", "test_ismcts_presets.py",
             "test_agents_play.py"]


def test_tablepress_own_tests_pass_with_the_plugin_installed(plugin):
    """Each test of the chosen files either handles the plugin's game or says why it skips it."""
    tests = Path(__file__).resolve().parent
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", "-x",
                           *(str(tests / name) for name in OWN_TESTS)],
                          cwd=tests.parent, env=_env(plugin), capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert f"{NAME} declares no action space" in done.stdout, "the plugin's game is among the tests, its skips said"
