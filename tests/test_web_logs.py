"""Repeated warnings and errors are written at most once a second per kind, with a count of those left out."""

from __future__ import annotations

import io
import json
import logging

from tablepress.web.logs import JsonLines, Throttle


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def logger_into(stream: io.StringIO, clock: Clock) -> logging.Logger:
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLines())
    handler.addFilter(Throttle(clock=clock))
    logger = logging.getLogger("tablepress.test.throttle")
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    return logger


def test_a_storm_of_one_error_is_one_line_a_second_with_the_count_left_out():
    stream, clock = io.StringIO(), Clock()
    log = logger_into(stream, clock)
    for _ in range(12000):  # accept() failing with EMFILE, as fast as the loop spins
        log.error("socket.accept() out of system resource", exc_info=OSError(24, "Too many open files"))
    log.warning("another kind")
    clock.now += 1.01
    log.error("socket.accept() out of system resource", exc_info=OSError(24, "Too many open files"))
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [line["message"] for line in lines] == ["socket.accept() out of system resource", "another kind",
                                                   "socket.accept() out of system resource"]
    assert "suppressed" not in lines[0] and lines[2]["suppressed"] == 11999


def test_information_is_never_held_back():
    stream, clock = io.StringIO(), Clock()
    log = logger_into(stream, clock)
    for _ in range(50):
        log.info("game_created")
    assert len(stream.getvalue().splitlines()) == 50
