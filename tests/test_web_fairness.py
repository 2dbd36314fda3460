"""Fair shares under a burst: the progress-stream cap admits exactly its number and one client only its share;
the print queue keeps a place for others while a few clients ask for ever new PDFs."""

from __future__ import annotations

import asyncio
import threading
import warnings

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")

from fastapi.testclient import TestClient  # noqa: E402

from tablepress.web import jobs_routes  # noqa: E402
from tablepress.web.app import create_app  # noqa: E402
from tablepress.web.hub import QuotaExceeded  # noqa: E402
from tablepress.web.pages.printer import Printer  # noqa: E402
from tablepress.web.quotas import Rate, Slots  # noqa: E402

JOB = {"game": "flowers", "games": 10, "players": 2, "seats": ["random", "random"], "seed": 1, "options": {},
       "arms": [{"label": "published cards", "overrides": None, "variant": None}]}


async def open_streams(app, path: str, clients: list[str]) -> tuple[list[int], Slots]:
    """Open one progress stream per entry of `clients` (an address each) all at once; their statuses once all
    have answered, after which every client goes away."""
    gone = asyncio.Event()
    statuses: list[int | None] = [None] * len(clients)

    def connection(index: int, address: str):
        sent_request = False

        async def receive():
            nonlocal sent_request
            if not sent_request:
                sent_request = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.start":
                statuses[index] = message["status"]

        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
                 "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
                 "root_path": "", "headers": [], "client": (address, 40000 + index), "server": ("127.0.0.1", 8000),
                 "state": {}}
        return app(scope, receive, send)

    tasks = [asyncio.create_task(connection(i, address)) for i, address in enumerate(clients)]
    for _ in range(500):
        if all(status is not None for status in statuses):
            break
        await asyncio.sleep(0.02)
    answered = list(statuses)
    gone.set()
    await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 30)
    return answered, jobs_routes.streams


@pytest.fixture
def queued_job(tmp_path, monkeypatch):
    """An app (its job dispatcher not running) holding one queued job; yields (app, the job's events path)."""
    monkeypatch.setattr(jobs_routes, "streams", Slots(10, 3, "progress streams"))
    app = create_app(tmp_path / "games.db", ai_delay=0.0)
    app.state.workshop.store.add_job("0123456789ab", JOB, 10, None)
    yield app, "/api/simulations/0123456789ab/events"
    app.state.hub.store.close()


def test_a_burst_of_streams_is_admitted_exactly_up_to_the_cap(queued_job):
    app, path = queued_job
    statuses, streams = asyncio.run(open_streams(app, path, [f"10.0.0.{i}" for i in range(25)]))
    assert sorted(statuses).count(200) == 10 and statuses.count(429) == 15
    assert streams.count() == 0  # every slot came back when its client went away


def test_one_client_gets_only_its_share_of_streams_and_others_still_get_in(queued_job):
    app, path = queued_job
    statuses, streams = asyncio.run(open_streams(app, path, ["10.0.0.1"] * 8 + ["10.0.0.2", "10.0.0.3"]))
    assert statuses[:8].count(200) == 3 and statuses[:8].count(429) == 5
    assert statuses[8:] == [200, 200]
    assert streams.count() == 0


def test_a_refused_stream_says_why_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(jobs_routes, "streams", Slots(0, 0, "progress streams"))
    app = create_app(tmp_path / "games.db", ai_delay=0.0)
    app.state.workshop.store.add_job("0123456789ab", JOB, 10, None)
    with TestClient(app) as client:
        reply = client.get("/api/simulations/0123456789ab/events")
    assert reply.status_code == 429 and set(reply.json()) == {"detail"} and "progress streams" in reply.json()["detail"]


# ----- the print queue ---------------------------------------------------------------------------
def test_clients_varying_bleed_cannot_keep_another_client_out_of_the_printer():
    printer = Printer(max_waiting=8)
    release = threading.Event()
    started = threading.Event()

    def slow(key):
        def draw():
            started.set()
            release.wait(10)
            return f"pdf {key}".encode()
        return draw

    greedy = [f"10.0.0.{i}" for i in range(5)]
    threads = [threading.Thread(target=printer.pdf, args=(("flowers", "a4", i), slow(i), client))
               for i, client in enumerate(greedy)]
    for thread in threads:
        thread.start()
    assert started.wait(5)
    for bleed, client in enumerate(greedy):  # each asks again with a new bleed while its first PDF waits
        with pytest.raises(QuotaExceeded, match="already drawing"):
            printer.pdf(("flowers", "a4", 100 + bleed), slow(100 + bleed), client)
    result: list[bytes] = []
    other = threading.Thread(target=lambda: result.append(printer.pdf(("flowers", "letter"), lambda: b"mine",
                                                                       "10.0.0.99")))
    other.start()  # admitted: it waits its turn instead of a 429
    release.set()
    for thread in [*threads, other]:
        thread.join(10)
    assert result == [b"mine"]
    assert printer._by_client == {} and printer._waiting == 0


def test_the_print_route_counts_the_client_address(tmp_path, monkeypatch):
    app = create_app(tmp_path / "games.db", ai_delay=0.0)
    seen = []
    printer = Printer()
    monkeypatch.setattr(printer, "pdf", lambda key, draw, client=None: seen.append(client) or b"%PDF")
    app.state.printer = printer
    with TestClient(app) as client:
        assert client.get("/games/flowers/print.pdf?bleed=1").status_code == 200
    assert seen == ["testclient"]


def test_a_rate_counts_each_client_alone():
    now = [0.0]
    rate = Rate(2, 60, "checks", clock=lambda: now[0])
    rate.start("a")
    rate.start("a")
    with pytest.raises(QuotaExceeded, match="2 checks in 60 s"):
        rate.start("a")
    rate.start("b")
    now[0] = 61
    rate.start("a")
