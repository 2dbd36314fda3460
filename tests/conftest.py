"""Shared fixtures for the whole suite."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner


@pytest.fixture
def cli():
    """Run the `tablepress` command in-process: cli(*args) → result with exit_code, stdout, stderr."""
    from tablepress.cli import app

    runner = CliRunner()

    def run(*args: str):
        return runner.invoke(app, list(args), catch_exceptions=False)

    return run
