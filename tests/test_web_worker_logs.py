"""Worker errors reach the log as JSON lines, never as plain tracebacks: a simulation job's worker whose job
breaks, and an AI worker that logs or fails (their stderr captured at the file descriptor)."""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import operator
import os
from functools import partial

import pytest

from tablepress.web.jobs import work
from tablepress.web.store import open_store
from tablepress.web.thinking import Thinker
from tablepress.web.workshop_store import FAILED

BROKEN_JOB = {"game": "flowers", "games": "many", "players": 2, "seats": ["random", "random"], "seed": 1,
              "options": {}, "arms": [{"label": "published cards", "overrides": None, "variant": None}]}


def json_lines(text: str) -> list[dict]:
    """Every line of `text` as JSON (fails on a line that is not: a plain traceback)."""
    lines = [line for line in text.splitlines() if line.strip()]
    parsed = []
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except json.JSONDecodeError:
            pytest.fail(f"a log line that is not JSON: {line[:200]!r}")
    return parsed


def test_a_broken_simulation_job_is_logged_as_json_and_failed_with_the_reason(tmp_path, capfd):
    db = str(tmp_path / "games.db")
    store = open_store(db)
    store.add_job("0123456789ab", BROKEN_JOB, 10, None)
    attempt = store.start_job("0123456789ab")
    store.close()
    capfd.readouterr()
    process = multiprocessing.get_context("spawn").Process(target=work, args=(db, "0123456789ab", attempt, os.getpid()))
    process.start()
    process.join(120)
    err = capfd.readouterr().err
    lines = json_lines(err)
    crashed = [line for line in lines if line["event"] == "job_crashed"]
    assert len(crashed) == 1 and crashed[0]["job"] == "0123456789ab" and "Traceback" in crashed[0]["traceback"]
    assert process.exitcode == 0
    store = open_store(db)
    job = store.job("0123456789ab")
    store.close()
    assert job["status"] == FAILED and job["error"].startswith("internal error:")


def test_a_worker_that_cannot_even_fail_its_job_ends_with_one_json_line(tmp_path, capfd):
    capfd.readouterr()
    missing = str(tmp_path)  # a directory: the store cannot open it
    process = multiprocessing.get_context("spawn").Process(target=work, args=(missing, "0123456789ab", 1, os.getpid()))
    process.start()
    process.join(120)
    lines = json_lines(capfd.readouterr().err)
    assert [line["event"] for line in lines if line["level"] == "error"] == ["job_worker_failed"]
    assert process.exitcode == 1


def test_an_ai_workers_log_and_failures_are_json_lines(capfd):
    thinker = Thinker(workers=1)
    capfd.readouterr()

    async def jobs():
        await thinker.run(partial(logging.log, logging.ERROR, "agent trouble"), limit=30)
        with pytest.raises(ZeroDivisionError):
            await thinker.run(partial(operator.truediv, 1, 0), limit=30)

    try:
        asyncio.run(jobs())
    finally:
        thinker.close()
    lines = json_lines(capfd.readouterr().err)
    assert any(line.get("message") == "agent trouble" and line["level"] == "error" for line in lines)
