"""Repeated warnings and errors are written at most once a second per kind, with a count of those left out."""

from __future__ import annotations

import io
import json
import logging

from tablepress.web.logs import JsonLines, Throttle, past_filters


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def logger_into(stream: io.StringIO, clock: Clock, later=None) -> logging.Logger:
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLines())
    handler.addFilter(Throttle(clock=clock, write=past_filters(handler) if later is not None else None, later=later))
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


def test_a_storm_that_stops_is_still_counted_a_second_later():
    stream, clock, due = io.StringIO(), Clock(), []
    log = logger_into(stream, clock, later=lambda delay, fn: due.append((delay, fn)))
    for n in range(500):
        clock.now += 0.001
        log.error("store_failed", extra={"fields": {"n": n}})
    assert len(stream.getvalue().splitlines()) == 1 and len(due) == 1 and 0.99 < due[0][0] <= 1.0  # one timer
    clock.now += 1.0
    due.pop()[1]()  # the storm is over: a second later the last record comes with the count of the rest
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [line.get("n") for line in lines] == [0, 499] and lines[1]["suppressed"] == 498
    clock.now += 1.0
    log.error("store_failed", extra={"fields": {"n": 500}})  # the next storm starts afresh
    last = json.loads(stream.getvalue().splitlines()[-1])
    assert last["n"] == 500 and "suppressed" not in last and not due


def test_a_late_count_is_not_written_when_the_kind_was_written_since():
    stream, clock, due = io.StringIO(), Clock(), []
    log = logger_into(stream, clock, later=lambda delay, fn: due.append(fn))
    log.error("store_failed")
    log.error("store_failed")
    clock.now += 1.5
    log.error("store_failed")  # written, with the count
    due.pop()()
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 2 and lines[1]["suppressed"] == 1
