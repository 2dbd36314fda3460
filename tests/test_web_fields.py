"""Every request field is checked: players in range (simulations too), no NUL or control character in names,
seat specs, options or variant text, lengths bounded; a bad field is one line naming it, and nothing is stored."""

from __future__ import annotations

import sqlite3
import warnings

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")

from fastapi.testclient import TestClient  # noqa: E402

from tablepress.web.app import create_app  # noqa: E402
from tablepress.web.fields import MAX_SHORT, text_fault  # noqa: E402

from web_helpers import auth  # noqa: E402

GAME = {"game": "flowers", "seats": ["human", "human"]}
SIMULATION = {"game": "flowers", "games": 4, "players": 2, "seats": ["random"]}
VARIANT_TOML = "[scoring]\nregion_min = 4\n"


def everything(path) -> list[tuple]:
    """Every row of every table, straight from the file."""
    with sqlite3.connect(path) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return [(table, *row) for table in tables for row in db.execute(f"SELECT * FROM {table}")]  # noqa: S608


@pytest.fixture
def served(tmp_path):
    app = create_app(tmp_path / "games.db", ai_delay=0.0)
    with TestClient(app) as client:
        yield client, tmp_path / "games.db"


def refused(client, path, method: str, url: str, body, field: str, status: int = 422, **kwargs) -> str:
    """Send the request; assert it is refused in one line naming `field` and that nothing was stored."""
    before = everything(path)
    reply = client.request(method, url, json=body, **kwargs)
    assert reply.status_code == status, reply.text
    detail = reply.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and "\x00" not in detail
    assert detail.startswith(field) or f"'{field}'" in detail, detail
    assert everything(path) == before
    return detail


@pytest.mark.parametrize("players", [0, -1, 5, 99, True, "2", None])
def test_a_simulation_takes_only_the_games_player_counts(served, players):
    client, path = served
    refused(client, path, "POST", "/api/simulations", {**SIMULATION, "players": players}, "players")


@pytest.mark.parametrize("body, field", [
    ({**GAME, "names": ["Ana", "B\x00b"]}, "names[1]"),
    ({**GAME, "names": ["Ana", "x" * (MAX_SHORT + 1)]}, "names[1]"),
    ({**GAME, "names": ["Ana\x1b[31m", "Bob"]}, "names[0]"),
    ({**GAME, "seats": ["human", "greedy\x00"]}, "seats[1]"),
    ({**GAME, "seats": ["human", "g" * 5000]}, "seats[1]"),
    ({**GAME, "game": "flowers\x00"}, "game"),
    ({**GAME, "options": {"summer": "a\x00"}}, "options.summer"),
    ({**GAME, "options": {"k\x00": 1}}, "options"),
    ({**GAME, "variant": "[scoring]\nregion_min = 4 # \x00\n"}, "variant"),
    ({**GAME, "variant": {"scoring": {"name": "a\x00b"}}}, "variant.scoring.name"),
    ({"game": "flowers", "seats": ["human", "human", "human", "human", "human"]}, "flowers is for"),
])
def test_a_new_game_with_a_bad_field_is_refused_naming_it(served, body, field):
    client, path = served
    refused(client, path, "POST", "/api/games", body, field)


@pytest.mark.parametrize("body, field", [
    ({"game": "flowers", "name": "Hot\x00", "toml": VARIANT_TOML}, "name"),
    ({"game": "flowers", "name": "n" * (MAX_SHORT + 1), "toml": VARIANT_TOML}, "name"),
    ({"game": "flowers", "name": "Hot", "toml": "[scoring]\nregion_min = 4\n\x00"}, "toml"),
    ({"game": "flowers\x07", "name": "Hot", "toml": VARIANT_TOML}, "game"),
])
def test_a_variant_with_a_bad_field_is_refused_naming_it(served, body, field):
    client, path = served
    refused(client, path, "POST", "/api/variants", body, field)
    refused(client, path, "POST", "/api/variants?dry_run=1", body, field)


@pytest.mark.parametrize("body, field", [
    ({**SIMULATION, "seats": ["random\x00"]}, "seats[0]"),
    ({**SIMULATION, "options": {"summer": "\x00"}}, "options.summer"),
    ({**SIMULATION, "game": "x" * 300}, "game"),
])
def test_a_simulation_with_a_bad_field_is_refused_naming_it(served, body, field):
    client, path = served
    refused(client, path, "POST", "/api/simulations", body, field)


def test_handing_a_seat_to_a_bad_agent_spec_is_refused_naming_it(served):
    client, path = served
    created = client.post("/api/games", json=GAME).json()
    refused(client, path, "POST", f"/api/games/{created['id']}/bot", {"agent": "greedy\x00"}, "agent",
            headers=auth(created["tokens"]["0"]))


def test_good_text_passes_and_a_name_may_hold_any_printable_letter(served):
    client, _path = served
    reply = client.post("/api/games", json={**GAME, "names": ["Zoë 🌸", "محمد"]})
    assert reply.status_code == 201, reply.text
    assert text_fault("line 1\nline 2\ttab", 100, multiline=True) is None
    assert "line 2" in text_fault("line 1\n\x00", 100, multiline=True)
    assert text_fault("\ud800", 10) is not None  # a lone surrogate cannot be stored
