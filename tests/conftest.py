"""Shared fixtures for the whole suite."""

from __future__ import annotations

import warnings

import pytest
from typer.testing import CliRunner

warnings.filterwarnings("ignore", message="Using `httpx`")


@pytest.fixture
def cli():
    """Run the `tablepress` command in-process: cli(*args) → result with exit_code, stdout, stderr."""
    from tablepress.cli import app

    runner = CliRunner()

    def run(*args: str):
        return runner.invoke(app, list(args), catch_exceptions=False)

    return run


@pytest.fixture(scope="module")
def browser():
    """Chromium for a browser test module, launched from the Debian package (never `playwright install`)."""
    from playwright.sync_api import sync_playwright

    from web_helpers import ARGS, CHROMIUM

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def app(tmp_path):
    """A web app over a fresh database, AI seats moving at once (a module may define its own)."""
    from tablepress.web.app import create_app

    return create_app(tmp_path / "games.db", ai_delay=0.0)


@pytest.fixture
def client(app):
    """A test client of `app` with its lifespan (AI seats, the job dispatcher) running."""
    from fastapi.testclient import TestClient

    with TestClient(app) as c:
        yield c


@pytest.fixture(scope="session")
def postgres():
    """A throwaway PostgreSQL cluster for the session (tests/pg_helpers.py); skips where none can run."""
    from pg_helpers import Cluster, missing

    reason = missing()
    if reason:
        pytest.skip(f"no PostgreSQL cluster for the tests: {reason}")
    cluster = Cluster()
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """Where a fresh store is, once for each backend: a SQLite file, then a new PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "games.db")
        return
    cluster = request.getfixturevalue("postgres")
    url = cluster.database()
    yield url
    cluster.drop(url)
