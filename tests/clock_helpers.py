"""Helpers of the turn clock tests: a fake clock given to the app (time is never the wall clock's), lobby tables
of two players begun as games, and one look of the server's clocks."""

from __future__ import annotations

import time

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tablepress.web.app import create_app

from web_helpers import auth, player

#: The tables' clock in the tests: ten minutes a turn (no shorter clock is needed: time is the fake one).
CLOCK = 600


class FakeTime:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock on."""
        self.now += seconds


def served(where, fake: FakeTime) -> FastAPI:
    """A web app over the store `where` whose turn clocks read `fake`."""
    app = create_app(where, ai_delay=0.0)
    app.state.clocks.now = fake
    return app


@pytest.fixture
def fake() -> FakeTime:
    """The clocks' time, moved by hand (a test module takes it with `from clock_helpers import fake`)."""
    return FakeTime()


@pytest.fixture
def app(tmp_path, fake: FakeTime) -> FastAPI:
    """An app over a fresh SQLite file whose turn clocks read `fake`."""
    return served(tmp_path / "games.db", fake)


def table_game(client: TestClient, clock: int | None = CLOCK) -> tuple[str, dict[int, str]]:
    """A two-player Flowers game begun from a lobby table of Ana and Bo with `clock`: its id and the seats' tokens."""
    ana, bo = player(client, "Ana"), player(client, "Bo")
    body = {"game": "flowers", "players": 2, **({"clock": clock} if clock is not None else {})}
    table = client.post("/api/tables", json=body, headers=auth(ana)).json()["id"]
    assert client.post(f"/api/tables/{table}/join", headers=auth(bo)).status_code == 200
    return client.get(f"/api/tables/{table}").json()["game_id"], {0: ana, 1: bo}


def look(client: TestClient) -> None:
    """The server's turn clocks look once, and the turns they found timed out are played."""
    client.portal.call(client.app.state.clocks.run_once)
